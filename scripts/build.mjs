// Bundles src/cli.ts into one minified CommonJS file, dist/gw.cjs, with esbuild.
// Why one CommonJS file: Node resolves and evaluates a bundled CommonJS file much faster than a
// graph of ES modules (measured here: undici's client evaluates in ~6 ms as bundled CommonJS and
// ~13 ms as an ES-module chunk). Heavy parts stay lazy: the code of the QR renderer, the sandbox,
// payment URIs and the config loaders is in the file but only evaluated when a command needs it
// (esbuild turns each dynamic import() into a lazily initialised module).
//
// Some modules of dependencies are replaced or deferred while bundling, because they cost start-up
// time and gw never uses them. Each is kept only while it still buys start-up: `node
// scripts/bench-patches.mjs` builds gw without each (--without=<name>, below) and measures it
// against the whole build, pair by pair; docs/performance.md has what each buys today. Replaced
// (STUBS, and built-ins in the plugin below):
// - undici's HTTP/2 client: gw never enables allowH2, but loading it loads node:http2 and node:tls;
// - llhttp's constants module, which builds character tables and method maps as it loads: undici
//   reads two of its tables (error codes, parser types), which the stub holds, copied from the
//   module at build time;
// - undici's HTTP parser (llhttp) as base64 text inside the bundle (150 KB every run reads and
//   compiles): the build writes the two WebAssembly binaries to dist/llhttp/, read on first use;
// - undici's node:http, read for a default header size and a class gw's bodies never are;
// - node:assert for undici, which only ever calls assert(condition) on its own invariants: a
//   ten-line assert with the same throw. The build fails if undici starts using more of it;
// - commander's child_process, used only by executable subcommands (gw has none): made lazy;
// - chalk's colour detection, which gw never asks.
// Measured and removed (Nov 2026, no gain above the noise of two identical builds): stubs of
// undici's fetch body extraction and of its tree of well-known header names, and gw's own
// node:crypto imports made lazy (the sandbox now uses it as it loads: no measured command loaded
// it without using it).
//
// These reach into undici's files by path, so they are checked: the build
// FAILS if a target file no longer exists, no longer contains what the stub or patch was written
// against, or was not part of the bundle at all (a STUBS/PATCHES entry that matched nothing).
// Written against undici 7.30.2; when an upgrade trips a check, re-read the file and update.
import { build, context, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommonCommands } from './cache-runs.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const require = createRequire(import.meta.url);
const undiciRoot = path.dirname(require.resolve('undici/package.json'));
const undiciVersion = JSON.parse(readFileSync(path.join(undiciRoot, 'package.json'), 'utf8')).version;

/** llhttp's constants, as undici ships them (the stub below keeps the two tables undici reads). */
const llhttpConstants = require(path.join(undiciRoot, 'lib', 'llhttp', 'constants.js'));

/**
 * `--sea` (with `--out=<dir>`; scripts/build-sea.mjs runs it): the bundle of the single-file
 * executable, which can require built-in modules only. The vendored libraries are bundled in
 * (lazily initialised, as the rest) instead of files of their own, llhttp's WebAssembly is read
 * from the executable's assets (node:sea), and no code cache is written.
 */
const sea = process.argv.includes('--sea');

/** Replaced whole. `expect` must occur in the original: what gw relies on being the module's whole job. */
const STUBS = [
  {
    key: 'h2',
    file: 'lib/dispatcher/client-h2.js',
    expect: 'module.exports = connectH2',
    contents: "module.exports = function connectH2 () { throw new Error('HTTP/2 is not built into gw') }",
  },
  {
    key: 'llhttp-constants',
    file: 'lib/llhttp/constants.js',
    expect: 'exports.ERROR = {',
    contents: `module.exports = ${JSON.stringify({ ERROR: llhttpConstants.ERROR, TYPE: llhttpConstants.TYPE })};`,
  },
  ...['llhttp-wasm', 'llhttp_simd-wasm'].map((name) => ({
    key: 'llhttp-file',
    file: `lib/llhttp/${name}.js`,
    expect: "Buffer.from(wasmBase64, 'base64')",
    contents: sea
      ? `module.exports = Buffer.from(require('node:sea').getAsset('llhttp/${name}.wasm'))`
      : `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, 'llhttp', '${name}.wasm'))`,
    wasm: `dist/llhttp/${name}.wasm`,
  })),
];

/** Edited: each `find` must occur exactly once in the original. */
const PATCHES = [
  {
    file: 'lib/dispatcher/client-h1.js',
    edits: [
      {
        key: 'continue-100',
        find: `    if (statusCode === 100) {
      util.destroy(socket, new SocketError('bad response', util.getSocketInfo(socket)))
      return -1
    }
`,
        replace: `    // gw: an interim 100 Continue is read like any other 1xx (RFC 9110 15.2), not as an error.
`,
      },
      {
        key: 'liftoff',
        find: `function lazyllhttp () {
`,
        replace: `function lazyllhttp () {
  // gw: baseline WebAssembly compiler only (see scripts/build.mjs)
  require('node:v8').setFlagsFromString('--liftoff-only')
`,
      },
    ],
  },
];

/**
 * Measuring what each start-up edit buys (scripts/bench-patches.mjs): `--without=<name>,…` leaves
 * those edits out, and `--out=<dir>` builds into <dir>/dist, with copies of bin/ and package.json,
 * leaving dist/ alone. Such a build is for measuring only: it writes no build stamp.
 */
const SWITCHES = {
  h2: "undici's HTTP/2 client stubbed",
  'llhttp-constants': "llhttp's constants module reduced to the two tables undici reads",
  'llhttp-file': 'llhttp read from a .wasm file instead of base64 text in the bundle',
  liftoff: "llhttp compiled by V8's baseline WebAssembly compiler only (--liftoff-only)",
  'undici-http': "undici's node:http import replaced by a stand-in",
  'undici-assert': "undici's node:assert import replaced by a ten-line assert",
  'commander-child-process': "commander's node:child_process loaded on first use",
  'chalk-detection': "chalk's colour detection (supports-color) left out",
  'external-source': "the bundle written as the function the launcher compiles, padded past 1 MB: read as one string outside V8's heap",
};
const argValue = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const without = new Set((argValue('without') ?? '').split(',').filter(Boolean));
for (const name of without) if (!Object.hasOwn(SWITCHES, name)) throw new Error(`--without=${name}: not one of ${Object.keys(SWITCHES).join(', ')}`);
/** Whether the start-up edit `key` is made (always, but in a --without build for measuring). */
const on = (key) => key === undefined || !without.has(key);
const OUT = argValue('out') === undefined ? fileURLToPath(new URL('..', import.meta.url)) : path.resolve(argValue('out'));
const DIST = path.join(OUT, 'dist');
const measuring = without.size > 0 || argValue('out') !== undefined;
if (sea && argValue('out') === undefined) throw new Error('--sea builds into --out=<dir>, never dist/');
if (argValue('out') !== undefined) {
  mkdirSync(path.join(OUT, 'bin'), { recursive: true });
  copyFileSync(new URL('../bin/gw.cjs', import.meta.url), path.join(OUT, 'bin', 'gw.cjs'));
  copyFileSync(new URL('../package.json', import.meta.url), path.join(OUT, 'package.json'));
}
/** The edits this build makes. */
const stubs = STUBS.filter((stub) => on(stub.key));
const patches = PATCHES.map((patch) => ({ ...patch, edits: patch.edits.filter((edit) => on(edit.key)) })).filter((patch) => patch.edits.length > 0);

class BuildCheckError extends Error {}

const fail = (message) => {
  throw new BuildCheckError(`build check failed (undici ${undiciVersion}): ${message}`);
};

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const filterFor = (file) => new RegExp(`undici[\\\\/]${file.split('/').map(escapeRegExp).join('[\\\\/]')}$`);

for (const { file, expect } of STUBS) {
  const full = path.join(undiciRoot, file);
  if (!existsSync(full)) fail(`stub target undici/${file} no longer exists`);
  if (!readFileSync(full, 'utf8').includes(expect)) fail(`stub target undici/${file} no longer contains ${JSON.stringify(expect)}`);
}
for (const { file, edits } of PATCHES) {
  const full = path.join(undiciRoot, file);
  if (!existsSync(full)) fail(`patch target undici/${file} no longer exists`);
  for (const { find } of edits) {
    const count = readFileSync(full, 'utf8').split(find).length - 1;
    if (count !== 1) fail(`patch target undici/${file} contains the patched code ${count} times, not once: ${JSON.stringify(find)}`);
  }
}

/** Every JavaScript file of undici's lib/, read once for the checks below. */
const undiciSources = readdirSync(path.join(undiciRoot, 'lib'), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.js'))
  .map((file) => ({ file, text: readFileSync(path.join(undiciRoot, 'lib', file), 'utf8') }));

// llhttp's constants are read by undici's HTTP/1 client alone, and only their ERROR and TYPE tables.
for (const { file, text } of undiciSources) {
  if (file.startsWith(`llhttp${path.sep}`) || !text.includes('llhttp/constants')) continue;
  const names = new Set([...text.matchAll(/\bconstants\.(\w+)/g)].map((m) => m[1]).filter((name) => name !== 'js'));
  if (
    file !== path.join('dispatcher', 'client-h1.js') ||
    !text.includes("const constants = require('../llhttp/constants.js')") ||
    [...names].some((name) => name !== 'ERROR' && name !== 'TYPE')
  )
    fail(`undici/lib/${file} reads llhttp's constants beyond ERROR and TYPE (${[...names].join(', ')}): the stub no longer covers it`);
}

// undici's own code may call assert(condition[, message]) and nothing else of node:assert.
for (const { file, text } of undiciSources) {
  if (!/require\('node:assert'\)/.test(text)) continue;
  if (/\bassert\s*\.\s*[A-Za-z_$]/.test(text) || !/const assert = require\('node:assert'\)/.test(text))
    fail(`undici/lib/${file} uses node:assert beyond assert(condition): the stub no longer covers it`);
}

/** How often each STUBS/PATCHES entry and each replaced built-in was used during the build. */
const used = new Map();
const markUsed = (key) => used.set(key, (used.get(key) ?? 0) + 1);

/** @type {import('esbuild').Plugin} */
const startupStubs = {
  name: 'startup-stubs',
  setup(b) {
    for (const { file, contents } of stubs) {
      b.onLoad({ filter: filterFor(file) }, () => {
        markUsed(file);
        return { contents, loader: 'js' };
      });
    }
    for (const { file, edits } of patches) {
      b.onLoad({ filter: filterFor(file) }, (args) => {
        let contents = readFileSync(args.path, 'utf8');
        for (const { find, replace } of edits) {
          if (contents.split(find).length !== 2) fail(`patch target ${args.path} does not contain the patched code exactly once`);
          contents = contents.replace(find, () => replace);
        }
        markUsed(file);
        return { contents, loader: 'js' };
      });
    }
    // undici's client loads node:http (and with it Node's whole HTTP/1 client, about 2 ms and 2 MB
    // every run) to read two things: http.maxHeaderSize, a default gw never uses (its transport
    // passes its own), and IncomingMessage, which undici compares with request bodies that are
    // node:http streams (gw's are strings). The sandbox and gw listen import node:http themselves.
    b.onResolve({ filter: /^node:http$/ }, (args) => {
      if (!on('undici-http') || !/[\\/]undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)\.js$/.test(args.importer)) return undefined;
      markUsed('node:http');
      return { path: 'undici-http', namespace: 'gw-undici-http' };
    });
    b.onLoad({ filter: /.*/, namespace: 'gw-undici-http' }, () => ({
      contents: 'module.exports = { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessageOfNodeHttpNotLoaded {} };',
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:assert$/ }, (args) => {
      if (!on('undici-assert') || !/[\\/]undici[\\/]/.test(args.importer)) return undefined;
      markUsed('node:assert');
      return { path: 'assert', namespace: 'gw-assert' };
    });
    b.onLoad({ filter: /.*/, namespace: 'gw-assert' }, () => ({
      contents: `class AssertionError extends Error {
  constructor (message) { super(message ?? 'assertion failed'); this.name = 'AssertionError'; this.code = 'ERR_ASSERTION' }
}
function assert (value, message) {
  if (value) return
  if (message instanceof Error) throw message
  throw new AssertionError(message)
}
assert.ok = assert
assert.AssertionError = AssertionError
module.exports = assert`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      on('commander-child-process') && /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'gw-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'gw-stub' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('child_process')[name] })",
      loader: 'js',
    }));
    // chalk's colour auto-detection (supports-color) loads node:os, node:tty and node:process when
    // chalk loads; gw never asks it (IOStreams gives every Chalk an explicit level), so it is left
    // out: chalk's default instance, unused, gets no colour.
    b.onResolve({ filter: /^#supports-color$/ }, (args) =>
      on('chalk-detection') && /[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'gw-no-detection' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'gw-no-detection' }, () => ({
      contents: 'export default { stdout: false, stderr: false }; export function createSupportsColor() { return false; }',
      loader: 'js',
    }));
    // A dynamic import() of a Node built-in (await import('node:tls')) would stay a real import()
    // in the CommonJS bundle; code the launcher restores from its V8 cache cannot run one. As a
    // tiny bundled module it becomes esbuild's lazy require instead, loaded on first use as before.
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'gw-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'gw-builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * Libraries only a few commands load (writing a YAML config, reading one, asking questions) are
 * bundled into files of their own under dist/vendor/, so the bundle every command compiles and
 * keeps in memory does not carry them. Each is reached by a dynamic import() in src/, which becomes
 * a plain require of its vendor file (a require, not an import(): see the launcher's code cache).
 */
const VENDOR = [
  { file: 'yaml.cjs', entry: "module.exports = require('yaml');", specifiers: { yaml: '' } },
  { file: 'cosmiconfig.cjs', entry: "module.exports = require('cosmiconfig');", specifiers: { cosmiconfig: '' } },
  {
    file: 'prompts.cjs',
    entry:
      "exports.input = require('@inquirer/input').default; exports.password = require('@inquirer/password').default;" +
      " exports.select = require('@inquirer/select').default; exports.confirm = require('@inquirer/confirm').default;",
    specifiers: { '@inquirer/input': 'input', '@inquirer/password': 'password', '@inquirer/select': 'select', '@inquirer/confirm': 'confirm' },
  },
];

/** The dynamic import of a vendored library, as a lazy require of its file next to the bundle. */
const vendored = {
  name: 'vendored',
  setup(b) {
    const bySpecifier = new Map(VENDOR.flatMap((v) => Object.entries(v.specifiers).map(([spec, member]) => [spec, { file: v.file, member }])));
    const filter = new RegExp(`^(${[...bySpecifier.keys()].map(escapeRegExp).join('|')})$`);
    b.onResolve({ filter }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'gw-vendor' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'gw-vendor' }, (args) => {
      const { file, member } = bySpecifier.get(args.path);
      // Node ≥ 22.1's compile cache is turned on for the vendored files as the first is loaded
      // (the launcher's hook, bin/gw.cjs; absent when the bundle is required without it).
      const load = `(globalThis[Symbol.for('gw.enableCompileCache')]?.(), require(require('node:path').join(__dirname, 'vendor', ${JSON.stringify(file)})))`;
      // Imported in Node's way (esbuild's node mode): `default` is module.exports itself.
      return { contents: member === '' ? `module.exports = ${load};` : `module.exports = ${load}.${member};`, loader: 'js' };
    });
  },
};

async function buildVendor() {
  for (const { file, entry } of VENDOR) {
    await build({
      stdin: { contents: entry, resolveDir: path.dirname(fileURLToPath(import.meta.url)), loader: 'js' },
      outfile: path.join(DIST, 'vendor', file),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minify: true,
      legalComments: 'none',
      external: ['typescript'],
      plugins: [startupStubs],
      logLevel: 'warning',
    });
  }
}

/**
 * The bundle must not keep a real import() except where the launcher's importer is used
 * (src/config/load.ts) and cosmiconfig's TypeScript loader (gw never searches for .ts configs).
 */
const ALLOWED_DYNAMIC_IMPORTS = ['typescript'];
function checkDynamicImports(code) {
  const found = [...code.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]).filter((spec) => !ALLOWED_DYNAMIC_IMPORTS.includes(spec));
  if (found.length > 0) fail(`the bundle keeps a dynamic import() of ${found.join(', ')}: code restored from the launcher's V8 cache cannot run it`);
}

// `node scripts/build.mjs --readable`: an unminified bundle with the original function names, to
// read a CPU profile (node --cpu-prof bin/gw.cjs …) by name.
const readable = process.argv.includes('--readable');

// `node scripts/build.mjs --if-changed` (`prepare`, so npm ci and npm pack, and the e2e tests'
// global setup): no build when dist/ was built by this script from the same inputs, by the same
// Node, as after `npm ci` in CI. `npm run build` always builds.
// The stamp lives outside dist/ so that it is never packed, and names the bundle's size and time.
const STAMP = new URL('../node_modules/.cache/gw-build/inputs', import.meta.url);
const BUNDLE = path.join(DIST, 'gw.cjs');
function buildInputs() {
  const hash = createHash('sha256').update(`${process.version} ${process.arch} ${process.execArgv.join(' ')}\n`);
  const files = ['scripts/build.mjs', 'scripts/cache-runs.mjs', 'package.json', 'package-lock.json'];
  const walk = (dir) => {
    for (const entry of readdirSync(new URL(`../${dir}`, import.meta.url), { withFileTypes: true })) {
      const name = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(name);
      else files.push(name);
    }
  };
  walk('src');
  walk('bin');
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(new URL(`../${file}`, import.meta.url)))
      .update('\0');
  return hash.digest('hex');
}
const bundleMark = () => {
  const info = statSync(BUNDLE, { throwIfNoEntry: false });
  return info === undefined ? 'none' : `${info.size} ${Math.floor(info.mtimeMs)}`;
};
const inputs = readable || measuring ? undefined : buildInputs();
if (process.argv.includes('--if-changed') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === `${inputs} ${bundleMark()}`) process.exit(0);
if (!measuring) rmSync(STAMP, { force: true });

/**
 * The launcher's list of commands (bin/gw.cjs picks a command's V8 code cache by it, before it
 * compiles the bundle): every word that names a command, and that command's name, as the command
 * registry (src/commands/registry.ts) has them. It goes into the bundle's first line,
 * `//gw-commands {"init":"init",…}`, which the launcher reads anyway: no other file to open, and
 * `gw --version` reads nothing of it. (`npm run dev` writes it once, when it starts.)
 */
const COMMANDS_BANNER = '//gw-commands ';
async function launcherCommands() {
  const { code } = await transform(readFileSync(new URL('../src/commands/registry.ts', import.meta.url), 'utf8'), { loader: 'ts', format: 'esm' });
  const registry = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  // Words become the names of cache files, and one word names one command.
  const words = registry.COMMANDS.flatMap((row) => [row.name, ...(row.aliases ?? [])]);
  if (words.length === 0 || words.some((word) => !/^[a-z][a-z0-9-]*$/.test(word)) || new Set(words).size !== words.length)
    throw new BuildCheckError(`the command registry's names and aliases must be distinct lower-case words (${words.join(', ')})`);
  return registry.launcherCommands();
}
const commands = await launcherCommands();

const options = {
  entryPoints: ['src/main.ts'],
  outfile: BUNDLE,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: !readable,
  keepNames: readable,
  sourcemap: false,
  legalComments: 'none',
  // cosmiconfig can load TypeScript configs only if the user has typescript installed; never bundle it.
  external: ['typescript'],
  plugins: sea ? [startupStubs] : [startupStubs, vendored],
  define: { __GW_VERSION__: JSON.stringify(version) },
  banner: { js: `${COMMANDS_BANNER}${JSON.stringify(commands)}` },
  logLevel: 'warning',
};

rmSync(DIST, { recursive: true, force: true });
if (!sea) await buildVendor();
if (process.argv.includes('--watch')) {
  // npm run dev: rebuild dist/gw.cjs on every change under src/ until Ctrl-C.
  const ctx = await context({ ...options, logLevel: 'info' });
  await ctx.watch();
} else {
  await build(options);
  writeWasm();
  const bundled = readFileSync(BUNDLE, 'utf8');
  checkDynamicImports(bundled);
  if (bundled.slice(0, bundled.indexOf('\n')) !== `${COMMANDS_BANNER}${JSON.stringify(commands)}`)
    throw new BuildCheckError("the bundle's first line is not the launcher's list of commands (esbuild's banner)");
  // One byte per character: Node reads an ASCII bundle faster (V8 keeps it as a one-byte string,
  // half the memory). esbuild escapes non-ASCII in strings but not in regular expressions. (The
  // --readable bundle keeps comments, some of which are not ASCII: it is for reading profiles only.)
  const nonAscii = readable ? null : /[^\x00-\x7f]/.exec(bundled);
  if (nonAscii)
    fail(
      `the bundle holds a non-ASCII character (${JSON.stringify(nonAscii[0])}, near ${JSON.stringify(nonAscii.input.slice(Math.max(0, nonAscii.index - 40), nonAscii.index + 10))}): write it as an escape in src/`,
    );
  if (on('undici-assert') && !used.get('node:assert')) fail("undici's node:assert imports were not replaced");
  if (on('undici-assert') && /require\("(node:)?assert"\)/.test(bundled)) fail('the bundle still requires node:assert');
  if (on('undici-http') && used.get('node:http') !== 2) fail(`undici's two node:http imports were not both replaced (${used.get('node:http') ?? 0})`);
  for (const { file } of [...stubs, ...patches]) {
    if (used.get(file)) continue;
    rmSync(DIST, { recursive: true, force: true });
    fail(`undici/${file} is stubbed or patched but was not part of the bundle: the filter matched nothing`);
  }
  if (!sea) writeFileSync(BUNDLE, withBuildId(on('external-source') ? asLauncherFunction(bundled) : bundled));
  if (!sea) await writeCodeCaches();
  if (inputs !== undefined) {
    mkdirSync(new URL('.', STAMP), { recursive: true });
    writeFileSync(STAMP, `${inputs} ${bundleMark()}`);
  }
}

/**
 * The bundle with its build id in the first line's list (`"#build"`): 16 hex digits of SHA-256 over
 * everything after that line. The launcher names its code caches with it (bin/gw.cjs), because V8
 * checks a cache against the source's length only, and every bundle is padded to the same length:
 * a cache another build made (a rebuild in place, two builds at once) would be accepted and run
 * the wrong code. With the id in its name it is never read.
 */
function withBuildId(code) {
  const newline = code.indexOf('\n');
  const id = createHash('sha256').update(code.slice(newline)).digest('hex').slice(0, 16);
  return `${COMMANDS_BANNER}${JSON.stringify({ '#build': id, ...commands })}${code.slice(newline)}`;
}

/**
 * The bundle as the launcher compiles it (bin/gw.cjs), so that V8 gets its source as one string
 * outside its heap, as it is, with nothing allocated in the young generation:
 * - already wrapped in the function Node's module wrapper would make (the launcher compiles the file
 *   as it is instead of compiling `Module.wrap(source)`, a concatenation V8 copies into one new
 *   string of the bundle's size before compiling), yet still a module Node can require as it is:
 *   run as a module (GW_CODE_CACHE=0), the file calls that function itself; compiled as a script
 *   by the launcher, where `this` is the global object, it only hands the function back;
 * - padded with a comment of spaces to 1 MiB: Node makes a string of a file read as latin1 (the
 *   bundle is ASCII) that is larger than about 1 MB (its EXTERN_APEX) an external string, in
 *   memory of its own, instead of a string allocated in V8's young generation. One of the bundle's
 *   size made gw's first young-generation garbage collection come while it was being read.
 * The first line stays the launcher's list of commands.
 */
function asLauncherFunction(code) {
  const newline = code.indexOf('\n') + 1;
  // The second line, which the launcher looks for.
  const wrap =
    '(function (main) { return this === globalThis ? main : main.call(this, exports, require, module, __filename, __dirname); }).call(this, function (exports, require, module, __filename, __dirname) {';
  // The launcher recognises the wrapped bundle by the start of this line: were they to differ, it
  // would wrap it once more (which still runs, but copies the bundle in V8's young generation).
  if (!readFileSync(new URL('../bin/gw.cjs', import.meta.url), 'utf8').includes(`'${wrap.slice(0, wrap.indexOf(' main :') + 7)}'`))
    throw new BuildCheckError("bin/gw.cjs does not look for the bundle's wrapper line that scripts/build.mjs writes");
  const wrapped = `${code.slice(0, newline)}${wrap}\n${code.slice(newline)}\n})\n`;
  const size = 1024 * 1024;
  return wrapped.length + 4 >= size ? wrapped : `${wrapped}//${' '.repeat(size - wrapped.length - 3)}\n`;
}

/** The WebAssembly binaries of the stubbed base64 modules, decoded by those modules themselves. */
function writeWasm() {
  for (const { file, wasm } of stubs) {
    if (!wasm) continue;
    const target = path.join(OUT, wasm);
    mkdirSync(path.dirname(target), { recursive: true });
    const bytes = require(path.join(undiciRoot, file));
    if (!WebAssembly.validate(bytes)) fail(`undici/${file} no longer holds a WebAssembly module`);
    writeFileSync(target, bytes);
  }
}

/**
 * Writes the launcher's V8 code caches for this Node (see bin/gw.cjs), so an install starts fast
 * from its first command: each command below runs once, in an empty home, against a `gw sandbox`
 * on 127.0.0.1 (itself run without a cache), and the launcher writes that command's cache as it
 * exits. Other commands write theirs on first use. Never a reason for the build to fail.
 */
async function writeCodeCaches() {
  const gw = path.join(OUT, 'bin', 'gw.cjs');
  const home = mkdtempSync(path.join(tmpdir(), 'gw-build-'));
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('GATEWAY_') && !/_proxy$/i.test(k) && k !== 'NODE_EXTRA_CA_CERTS'),
  );
  const base = { ...clean, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, '.state'), NO_COLOR: '1' };
  const run = (args, env = base) =>
    spawnSync(process.execPath, [gw, ...args], { cwd: home, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  // The sandbox itself runs without a cache.
  const startSandbox = () =>
    spawn(process.execPath, [gw, 'sandbox', '--json'], { cwd: home, env: { ...base, GW_CODE_CACHE: '0' }, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await runCommonCommands({ base, run, startSandbox, timeoutMs: 10_000 });
  } catch {
    // Only an optimisation: gw writes a missing cache on first use.
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
