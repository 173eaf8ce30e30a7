// `npm run build:sea`: gw as one executable file, dist/sea/gw, for the platform and Node that run
// this script (Linux x64 is the one supported and tested), with Node's single executable
// application support (https://nodejs.org/api/single-executable-applications.html):
//
// 1. `node scripts/build.mjs --sea --out=<tmp>` bundles gw as for npm, but with the vendored
//    libraries (YAML, cosmiconfig, the prompts) inside the bundle and llhttp's WebAssembly read
//    from the executable's assets: the executable can require built-in modules only, and needs no
//    file beside it;
// 2. the main script, below, is a small launcher (as bin/gw.cjs): `gw --version` from a constant,
//    else the bundle, an asset, compiled with vm.Script. Code the main script compiles can run
//    import() (a JavaScript config file), so the launcher hands its import() to the bundle
//    (src/config/load.ts); Node's `useCodeCache` is off because it takes import() away;
// 3. `node --experimental-sea-config` writes the blob, which postject injects into a copy of this
//    Node's own binary (process.execPath) under Node's sentinel fuse.
//
// `--out=<file>` writes the executable there instead of dist/sea/gw (the e2e test builds into its
// temporary folder, so that `npm run build`, which empties dist/, cannot remove it mid-run).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const outArg = process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length);
const OUTPUT = path.resolve(outArg ?? path.join(ROOT, 'dist', 'sea', 'gw'));

const fail = (message) => {
  process.stderr.write(`build-sea: ${message}\n`);
  process.exit(1);
};

if (process.platform !== 'linux' || process.arch !== 'x64') fail(`builds for Linux x64 only (this is ${process.platform} ${process.arch})`);
const [major, minor] = process.versions.node.split('.', 2).map(Number);
if (major < 20 || (major === 20 && minor < 12)) fail(`needs Node >= 20.12 (node:sea), this is ${process.version}`);

const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'gw-sea-'));

/** Runs a step, quiet unless it fails. */
function step(what, command, args) {
  const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    fail(`${what} failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`})\n${run.stdout ?? ''}${run.stderr ?? ''}`);
  }
}

try {
  step('the bundle', process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--sea', `--out=${work}`]);
  const dist = path.join(work, 'dist');
  writeFileSync(path.join(work, 'main.cjs'), launcher(version));
  const assets = { 'gw.cjs': path.join(dist, 'gw.cjs') };
  for (const name of ['llhttp-wasm.wasm', 'llhttp_simd-wasm.wasm']) assets[`llhttp/${name}`] = path.join(dist, 'llhttp', name);
  const blob = path.join(work, 'gw.blob');
  writeFileSync(
    path.join(work, 'sea-config.json'),
    JSON.stringify({ main: path.join(work, 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false, assets }),
  );
  step('the blob', process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')]);

  const binary = path.join(work, 'gw');
  copyFileSync(process.execPath, binary);
  chmodSync(binary, 0o755);
  step('postject', process.execPath, [path.join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js'), binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]);
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  const temporary = `${OUTPUT}.${process.pid}.tmp`;
  copyFileSync(binary, temporary);
  chmodSync(temporary, 0o755);
  renameSync(temporary, OUTPUT);
  process.stdout.write(
    `${path.relative(process.cwd(), OUTPUT) || OUTPUT}: gw ${version} on Node ${process.version}, ${(statSync(OUTPUT).size / 1e6).toFixed(1)} MB\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The executable's main script: CommonJS, built-in modules only. */
function launcher(gwVersion) {
  return `'use strict';
// gw as one executable (scripts/build-sea.mjs): the bundle is an asset of this file.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) printVersion();
else load();

function printVersion() {
  const fs = require('node:fs');
  const text = Buffer.from(${JSON.stringify(`${gwVersion}\n`)});
  try {
    for (let done = 0; done < text.length; ) done += fs.writeSync(1, text, done);
  } catch (error) {
    if (error.code === 'EAGAIN') {
      process.stdout.write(text);
    } else if (error.code !== 'EPIPE') {
      process.stderr.write('gw: the output could not be written to stdout (' + (error.code ?? 'error') + ')\\n');
      process.exitCode = 74;
    }
  }
}

function load() {
  const path = require('node:path');
  const vm = require('node:vm');
  const Module = require('node:module');
  const source = require('node:sea').getAsset('gw.cjs', 'utf8');
  const filename = process.execPath;
  // The bundle's own import() (a JavaScript config file) goes through this script's.
  globalThis[Symbol.for('gw.import')] = (specifier) => import(specifier);
  const mod = new Module(filename, module);
  mod.filename = filename;
  new vm.Script(Module.wrap(source), { filename }).runInThisContext()(mod.exports, require, mod, filename, path.dirname(filename));
}
`;
}
