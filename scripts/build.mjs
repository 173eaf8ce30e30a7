// Bundles src/cli.ts into dist/ with esbuild: one minified ESM entry plus lazily loaded chunks,
// so start-up pays module resolution once and heavy code (QR, sandbox, YAML/JS config loaders)
// only when a command needs it.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { gw: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // cosmiconfig can load TypeScript configs only if the user has typescript installed; never bundle it.
  external: ['typescript'],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import{createRequire as __gwCR}from'node:module';const require=__gwCR(import.meta.url);" },
  define: { __GW_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
