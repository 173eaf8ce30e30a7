#!/usr/bin/env node
// The gw executable. The CLI itself is the bundle dist/gw.cjs, made by `npm run build` (which
// `npm install` runs through `prepare`). CommonJS, because Node starts a CommonJS file faster than
// an ES module; `gw --version` alone is answered here without loading the CLI at all.
//
// V8 code cache: compiling the ~0.5 MB bundle is the largest part of gw's start-up. Node 20 has
// no module compile cache (that is Node 22's module.enableCompileCache), so the bundle is compiled
// here with vm.Script and V8's cachedData: the cache, written next to the bundle after a run (and
// by the build), lets V8 skip most of the compile. It is only ever an optimisation:
// - one cache file per build of the bundle, command, Node version, architecture and V8 flags, so
//   neither another build nor another Node ever sees it (V8 checks a cache against the source's
//   length only, and every build has the same length), and each command restores what it runs: `gw rate` the transport and node:http's client,
//   `gw pay --sandbox` the sandbox too, `gw config` neither (a cache holds the functions the run
//   that made it compiled; one cache for all would make every command restore every other's code);
// - V8 checks it against the source and rejects one that does not match (then gw compiles as
//   usual and rewrites it);
// - any failure to read, use or write it is ignored, and GW_CODE_CACHE=0 turns it off.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  printVersion();
} else {
  load();
}

/**
 * The version, written straight to file descriptor 1: creating process.stdout (and the stream
 * machinery behind it) would cost more than everything else `gw --version` does. A reader that
 * went away is not a failure; a stdout that refuses the line (disk full) is exit 74.
 */
function printVersion() {
  const fs = require('node:fs');
  const text = Buffer.from(`${JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
  try {
    for (let done = 0; done < text.length; ) done += fs.writeSync(1, text, done);
  } catch (error) {
    if (error.code === 'EAGAIN') {
      process.stdout.write(text); // a non-blocking pipe: the stream waits for it
    } else if (error.code !== 'EPIPE') {
      process.stderr.write(`gw: the output could not be written to stdout (${error.code ?? 'error'})\n`);
      process.exitCode = 74;
    }
  }
}

function load() {
  const fs = require('node:fs');
  const path = require('node:path');
  const bundle = path.join(__dirname, '..', 'dist', 'gw.cjs');
  if (process.env.GW_CODE_CACHE === '0') return require(bundle);
  globalThis[Symbol.for('gw.enableCompileCache')] = enableCompileCache;
  let source;
  try {
    // An ASCII bundle (every build's but --readable's) read as latin1: one byte per character, and
    // over about 1 MB (the build pads it) Node makes it a string outside V8's heap, not a copy in
    // its young generation.
    const bytes = fs.readFileSync(bundle);
    source = bytes.toString(require('node:buffer').isAscii(bytes) ? 'latin1' : 'utf8');
  } catch {
    return require(bundle); // reports the missing bundle the usual way
  }
  const vm = require('node:vm');
  const Module = module.constructor; // node:module's Module, without loading node:module (and its source maps)
  // Node's flags, from its command line and from NODE_OPTIONS: V8 stamps a cache with its flags.
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? '']
    .join(' ')
    .trim()
    .replace(/[^A-Za-z0-9=-]+/g, '_')
    .slice(0, 60);
  const commands = commandsOf(source);
  // The build's id for this bundle (scripts/build.mjs withBuildId): V8 checks a cache against the
  // source's length only, so a cache is named after the build that made it, never another's.
  const build = /^[0-9a-f]{16}$/.test(commands['#build']) ? commands['#build'] : 'unbuilt';
  delete commands['#build'];
  const word = args.find((arg) => Object.hasOwn(commands, arg));
  const command = word === undefined ? 'other' : commands[word];
  const variant = `${command}${args.includes('--sandbox') ? '-sandbox' : ''}`;
  const cacheFile = `${bundle}.${build}.${process.version}-${process.arch}${flags ? `-${flags}` : ''}.${variant}.cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The build writes the bundle already wrapped as the function Node's module wrapper would make
  // (scripts/build.mjs, asLauncherFunction): compiled as it is, it hands that function back.
  const wrapped = source.startsWith('(function (main) { return this === globalThis ? main :', source.indexOf('\n') + 1);
  const script = new vm.Script(wrapped ? source : Module.wrap(source), { filename: bundle, ...(cachedData && { cachedData }) });
  // Code restored from the cache has no dynamic-import callback: the bundle imports files (a
  // JavaScript config) through this module's import() instead (src/config/load.ts).
  globalThis[Symbol.for('gw.import')] = (specifier) => import(specifier);
  if (cachedData === undefined || script.cachedDataRejected) {
    // After the run, so the cache holds the functions this run compiled too.
    process.once('exit', () => {
      try {
        const data = script.createCachedData();
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, data, { mode: 0o644, flag: 'wx' });
        fs.renameSync(temporary, cacheFile);
      } catch {
        // Not writable (a read-only install), or anything else: the cache is only an optimisation.
      }
    });
  }
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
}

/**
 * Node ≥ 22.1's own compile cache (module.enableCompileCache, in Node's cache directory:
 * NODE_COMPILE_CACHE, else node-compile-cache in the temporary directory) for the files gw
 * requires besides the bundle: the vendored libraries (dist/vendor/: YAML, cosmiconfig, the
 * prompts), whose loaders in the bundle call this first (scripts/build.mjs), so a command that
 * loads none of them loads nothing for it (node:module and the cache's set-up cost about 2 % of
 * `gw rate` on Node 22). The bundle keeps its own cache above, which serves it better: Node's
 * cache of a file is made as the file is compiled, so it holds only the code compiled before it
 * runs, and `gw rate` from Node's cache alone measured about 1.3 times as slow on Node 22.23 as
 * from its command's cache. On Node 20, which has no compile cache, this does nothing.
 */
let compileCacheEnabled = false;
function enableCompileCache() {
  if (compileCacheEnabled) return;
  compileCacheEnabled = true;
  const [major, minor] = process.versions.node.split('.', 2).map(Number);
  if (major < 22 || (major === 22 && minor < 1)) return;
  try {
    require('node:module').enableCompileCache();
  } catch {
    // Only an optimisation.
  }
}

/**
 * The commands that get a code cache of their own, each word that names one (its name or an alias)
 * with its name: the bundle's first line, `//gw-commands {"init":"init",…}`, which the build writes
 * from the command registry (src/commands/registry.ts). Any other command line shares "other".
 */
function commandsOf(source) {
  const prefix = '//gw-commands ';
  if (!source.startsWith(prefix)) return {};
  try {
    return JSON.parse(source.slice(prefix.length, source.indexOf('\n')));
  } catch {
    return {};
  }
}
