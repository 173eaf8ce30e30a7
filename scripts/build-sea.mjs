// `npm run build:sea`: gw as one executable file, dist/sea/gw, for the platform and Node that run
// this script (Linux x64 is the one supported and tested), with Node's single executable
// application support (https://nodejs.org/api/single-executable-applications.html):
//
// 1. `node scripts/build.mjs --sea --out=<tmp>` bundles gw as for npm, but with the vendored
//    libraries (YAML, cosmiconfig, the prompts) inside the bundle: the executable can require
//    built-in modules only, and needs no file beside it;
// 2. the main script, below, is a small launcher (as bin/gw.cjs): `gw --version` from a constant,
//    else the bundle, an asset, compiled with vm.Script. Code the main script compiles can run
//    import() (a JavaScript config file), so the launcher hands its import() to the bundle
//    (src/config/load.ts); Node's `useCodeCache` is off because it takes import() away;
// 3. `node --experimental-sea-config` writes the blob, which postject injects into a copy of this
//    Node's own binary (process.execPath) under Node's sentinel fuse.
//
// `--out=<file>` writes the executable there instead of dist/sea/gw (the e2e test builds into its
// temporary folder, so that `npm run build`, which empties dist/, cannot remove it mid-run).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommonCommands } from './cache-runs.mjs';

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
  // Made once without code caches, run to write them, and made again with them.
  const binary = path.join(work, 'gw');
  inject(binary, assets);
  const caches = path.join(work, 'caches');
  mkdirSync(caches);
  await writeCodeCaches(binary, caches);
  const made = readdirSync(caches);
  for (const variant of made) assets[`cache/${variant}`] = path.join(caches, variant);
  inject(binary, assets);
  // The executable that is written runs: its version, and a command through the bundle.
  const smoke = (args) => spawnSync(binary, args, { cwd: work, env: { PATH: '', HOME: work }, encoding: 'utf8', timeout: 20_000 });
  if (smoke(['--version']).stdout !== `${version}\n` || smoke(['config', '--json']).status !== 0) fail('the executable does not run');
  if (made.length === 0) process.stderr.write('build-sea: no code cache was made: the executable compiles gw on every run\n');
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

/** Writes the blob with `assets` and injects it into a fresh copy of this Node at `binary`. */
function inject(binary, assets) {
  const blob = path.join(work, 'gw.blob');
  writeFileSync(
    path.join(work, 'sea-config.json'),
    JSON.stringify({ main: path.join(work, 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false, assets }),
  );
  step('the blob', process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')]);
  rmSync(binary, { force: true });
  copyFileSync(process.execPath, binary);
  chmodSync(binary, 0o755);
  step('postject', process.execPath, [path.join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js'), binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]);
}

/**
 * The launcher's V8 code caches, as scripts/build.mjs makes the npm package's: each common command
 * run once by the executable itself, in an empty home, against a `gw sandbox` it serves on
 * 127.0.0.1, with GW_SEA_CACHE_OUT naming where the launcher writes that command's cache as it
 * exits. Only an optimisation: a command without one compiles as usual.
 */
async function writeCodeCaches(binary, out) {
  const home = path.join(work, 'home');
  mkdirSync(home);
  const base = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    NO_COLOR: '1',
  };
  const run = (args, env = base) =>
    spawnSync(binary, args, { cwd: home, env: { ...env, GW_SEA_CACHE_OUT: out }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
  const startSandbox = () => spawn(binary, ['sandbox', '--json'], { cwd: home, env: base, stdio: ['ignore', 'pipe', 'ignore'] });
  await runCommonCommands({ base, run, startSandbox, timeoutMs: 20_000 });
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
  const sea = require('node:sea');
  const source = sea.getAsset('gw.cjs', 'utf8');
  const filename = process.execPath;
  // A V8 code cache per command, made by the build (as bin/gw.cjs keeps them beside the bundle).
  const commands = commandsOf(source);
  const word = args.find((arg) => Object.hasOwn(commands, arg));
  const variant = (word === undefined ? 'other' : commands[word]) + (args.includes('--sandbox') ? '-sandbox' : '');
  let cachedData;
  try {
    cachedData = process.execArgv.length === 0 ? Buffer.from(sea.getAsset('cache/' + variant)) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename, ...(cachedData && { cachedData }) });
  const out = process.env.GW_SEA_CACHE_OUT;
  if (out && /^[a-z][a-z0-9-]*$/.test(variant) && (cachedData === undefined || script.cachedDataRejected)) {
    // The build's run (scripts/build-sea.mjs): the cache, after the run, with V8's flags as at start.
    process.once('exit', () => {
      try {
        require('node:fs').writeFileSync(path.join(out, variant), script.createCachedData(), { flag: 'wx' });
      } catch {}
    });
  }
  // The bundle's own import() (a JavaScript config file) goes through this script's.
  globalThis[Symbol.for('gw.import')] = (specifier) => import(specifier);
  const mod = new Module(filename, module);
  mod.filename = filename;
  script.runInThisContext()(mod.exports, require, mod, filename, path.dirname(filename));
}

/** The bundle's first line, \`//gw-commands {"init":"init",…}\`: each word that names a command, and its name. */
function commandsOf(source) {
  const prefix = '//gw-commands ';
  if (!source.startsWith(prefix)) return {};
  try {
    return JSON.parse(source.slice(prefix.length, source.indexOf('\\n')));
  } catch {
    return {};
  }
}
`;
}
