// Bundles src/cli.ts into one minified CommonJS file, dist/gw.cjs, with esbuild.
// Why one CommonJS file: Node resolves and evaluates a bundled CommonJS file much faster than a
// graph of ES modules (measured here: undici's client evaluates in ~6 ms as bundled CommonJS and
// ~13 ms as an ES-module chunk). Heavy parts stay lazy: the code of the QR renderer, the sandbox,
// payment URIs and the config loaders is in the file but only evaluated when a command needs it
// (esbuild turns each dynamic import() into a lazily initialised module).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/cli.ts'],
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
  define: { __GW_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
