// Bundles src/cli.ts into one minified CommonJS file, dist/gw.cjs, with esbuild.
// Why one CommonJS file: Node resolves and evaluates a bundled CommonJS file much faster than a
// graph of ES modules (measured here: undici's client evaluates in ~6 ms as bundled CommonJS and
// ~13 ms as an ES-module chunk). Heavy parts stay lazy: the code of the QR renderer, the sandbox,
// payment URIs and the config loaders is in the file but only evaluated when a command needs it
// (esbuild turns each dynamic import() into a lazily initialised module).
//
// Some modules of dependencies are replaced while bundling, because they cost start-up time on
// every run and gw never uses them (see README "Performance"):
// - undici's HTTP/2 client: gw never enables allowH2, but loading it loads node:http2 and node:tls;
// - undici's fetch body extraction, reached only for FormData/Blob/stream bodies (gw sends strings),
//   which drags in fetch, webidl and form-data parsing;
// - commander's child_process, used only by executable subcommands (gw has none): made lazy.
import { build, context } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const STUBS = [
  {
    filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    contents: "module.exports = function connectH2 () { throw new Error('HTTP/2 is not built into gw') }",
  },
  {
    filter: /undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/,
    contents: "module.exports = { extractBody () { throw new Error('fetch bodies are not built into gw') } }",
  },
];

/** @type {import('esbuild').Plugin} */
const startupStubs = {
  name: 'startup-stubs',
  setup(b) {
    for (const { filter, contents } of STUBS) b.onLoad({ filter }, () => ({ contents, loader: 'js' }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'gw-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'gw-stub' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('child_process')[name] })",
      loader: 'js',
    }));
  },
};

const options = {
  entryPoints: ['src/main.ts'],
  outfile: 'dist/gw.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  // cosmiconfig can load TypeScript configs only if the user has typescript installed; never bundle it.
  external: ['typescript'],
  plugins: [startupStubs],
  define: { __GW_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
if (process.argv.includes('--watch')) {
  // npm run dev: rebuild dist/gw.cjs on every change under src/ until Ctrl-C.
  const ctx = await context({ ...options, logLevel: 'info' });
  await ctx.watch();
} else {
  await build(options);
}
