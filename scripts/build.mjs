// Bundles src/cli.ts into one minified CommonJS file, dist/gw.cjs, with esbuild.
// Why one CommonJS file: Node resolves and evaluates a bundled CommonJS file much faster than a
// graph of ES modules. Heavy parts stay lazy: the code of the QR renderer, the sandbox,
// payment URIs and the config loaders is in the file but only evaluated when a command needs it
// (esbuild turns each dynamic import() into a lazily initialised module).
//
// Some modules of dependencies are replaced or deferred while bundling, because they cost start-up
// time and gw never uses them. Each is kept only while it still buys start-up: `node
// scripts/bench-patches.mjs` builds gw without each (--without=<name>, below) and measures it
// against the whole build, pair by pair; docs/performance.md has what each buys today. Replaced
// (in the plugin below):
// - commander's child_process, used only by executable subcommands (gw has none): made lazy;
// - chalk's colour detection, which gw never asks.
// Measured and removed (Nov 2026, no gain above the noise of two identical builds): gw's own
// node:crypto imports made lazy (the sandbox now uses it as it loads: no measured command loaded
// it without using it). gw's HTTP client was undici until November 2026, with stubs and patches of
// its files here; gw now uses node:http (src/gateway/http1.ts, docs/libraries.md).
import { build, context, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommonCommands } from './cache-runs.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/**
 * `--sea` (with `--out=<dir>`; scripts/build-sea.mjs runs it): the bundle of the single-file
 * executable, which can require built-in modules only. The vendored libraries are bundled in
 * (lazily initialised, as the rest) instead of files of their own, and no code cache is written.
 */
const sea = process.argv.includes('--sea');

/**
 * Measuring what each start-up edit buys (scripts/bench-patches.mjs): `--without=<name>,…` leaves
 * those edits out, and `--out=<dir>` builds into <dir>/dist, with copies of bin/ and package.json,
 * leaving dist/ alone. Such a build is for measuring only: it writes no build stamp.
 */
const SWITCHES = {
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
class BuildCheckError extends Error {}

const fail = (message) => {
  throw new BuildCheckError(`build check failed: ${message}`);
};

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** @type {import('esbuild').Plugin} */
const startupStubs = {
  name: 'startup-stubs',
  setup(b) {
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
