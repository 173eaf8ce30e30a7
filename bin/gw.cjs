#!/usr/bin/env node
// The gw executable. The CLI itself is the bundle dist/gw.cjs, made by `npm run build` (which
// `npm install` runs through `prepare`). CommonJS, because Node starts a CommonJS file faster than
// an ES module; `gw --version` alone is answered here without loading the CLI at all.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('../dist/gw.cjs');
}
