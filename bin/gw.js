#!/usr/bin/env node
// The built, bundled CLI lives in dist/ (made by `npm run build`, which `npm install` runs via
// `prepare`). `gw --version` alone is answered here, without loading the CLI at all.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  await import('../dist/gw.js');
}
