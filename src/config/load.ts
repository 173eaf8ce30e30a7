// Finds and reads config files. Two levels, layered by resolve.ts:
// - user: the first usable file of $XDG_CONFIG_HOME/gateway/config[.json|.yaml|.yml|.js|.cjs|.mjs]
//   (default ~/.config/gateway/), always read when present;
// - project: the first usable file of the nearest directory that has one, from the working
//   directory upwards (candidates.ts says how far): package.json (field `gateway`), .gatewayrc
//   (JSON or YAML), .gatewayrc.json/.yaml/.yml, .gatewayrc.js/.cjs/.mjs, gateway.config.js/.cjs/.mjs.
// `--config <file>` reads that one file and nothing else.
//
// Every candidate is judged before it is opened (trust.ts): files in directories other users can
// write to or own are skipped with a warning; FIFOs, devices, directories and oversized files are
// refused (exit 78). Data files are read through a non-blocking descriptor that is checked to be
// the file that was judged; JavaScript files are imported by Node. Loading can be abandoned with
// an AbortSignal, even while a JavaScript config's promise never settles.
import { constants, promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { abortable } from '../util/abortable.js';
import { ConfigError, GwError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import { candidateFiles, type Candidate } from './candidates.js';
import { describeJsError, packageJsonField, parseJsonText, parseYamlText, plainData, positionFromCheckOutput, positionText, type Position } from './parse.js';
import { judgeFile, MAX_CONFIG_BYTES, MAX_PACKAGE_JSON_BYTES, statLike, trustedDirs, type StatLike } from './trust.js';

export type ConfigLevel = 'user' | 'project' | 'explicit';

export interface LoadedFile {
  file: string;
  level: ConfigLevel;
  /** Whatever the file held; validated by resolve.ts. */
  content: unknown;
  /** Permission bits of the file, for the "readable by others" warning (resolve.ts). */
  mode?: number;
}

export interface SkippedFile {
  file: string;
  level: ConfigLevel;
  /** Why, e.g. "its directory /tmp is writable by group or others". Never the content. */
  reason: string;
}

export interface LoadResult {
  /** The files read, lowest precedence first: the user file, then the project file; or the one --config file. */
  layers: LoadedFile[];
  /** Every candidate that exists, in the order it was examined (read, empty, not a source, or skipped). */
  looked: string[];
  /** Candidates refused for trust reasons, each with why. */
  skipped: SkippedFile[];
  /** Tolerant loading only: files that could not be read (malformed, not a regular file…), each with why. */
  failed?: SkippedFile[];
}

export interface LoadOptions {
  /** --config: read this file only (relative to cwd). */
  explicitFile?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The user's home directory ('' when unknown). */
  home: string;
  /** Abandons loading: the promise rejects with signal.reason at once. */
  signal?: AbortSignal;
  /**
   * For `gw config`: a file that cannot be read (malformed, a FIFO, too large…) is listed in
   * `failed` instead of failing the whole load; it still ends the search at its level, as the
   * strict load would have stopped there.
   */
  tolerant?: boolean;
}

/** Rejects with the signal's reason as soon as it aborts, whatever `work` is doing. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal === undefined ? work : abortable(work, signal);
}

export function loadConfigFiles(options: LoadOptions): Promise<LoadResult> {
  return raceAbort(load(options), options.signal);
}

type Outcome = { status: 'absent' } | { status: 'empty' } | { status: 'skipped'; reason: string } | { status: 'loaded'; content: unknown; mode: number };

interface Judge {
  uid: number | undefined;
  trust: { all: boolean; dirs: Set<string> };
  signal: AbortSignal | undefined;
  dirStats: Map<string, StatLike | null>;
}

async function load(options: LoadOptions): Promise<LoadResult> {
  const judge: Judge = {
    uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
    trust: trustedDirs(options.env),
    signal: options.signal,
    dirStats: new Map(),
  };
  const result: LoadResult = { layers: [], looked: [], skipped: [], ...(options.tolerant === true && { failed: [] }) };
  /** Examines a candidate; in tolerant mode a ConfigError is recorded in `failed` (outcome undefined). */
  const tryExamine = async (candidate: { file: string; level: ConfigLevel }, explicit: boolean): Promise<Outcome | undefined> => {
    try {
      return await examine(candidate, judge, explicit);
    } catch (error) {
      if (result.failed === undefined || !(error instanceof ConfigError)) throw error;
      result.looked.push(candidate.file);
      result.failed.push({ file: candidate.file, level: candidate.level, reason: error.message });
      return undefined;
    }
  };

  if (options.explicitFile !== undefined) {
    const file = path.resolve(options.cwd, options.explicitFile);
    const outcome = await tryExamine({ file, level: 'explicit' }, true);
    if (outcome === undefined) return result;
    if (outcome.status === 'absent') {
      const error = new ConfigError(`config file ${terminalSafe(file)} cannot be read: ENOENT`);
      if (result.failed === undefined) throw error;
      result.looked.push(file);
      result.failed.push({ file, level: 'explicit', reason: error.message });
      return result;
    }
    result.looked.push(file);
    // An explicit empty file is an empty configuration.
    const content = outcome.status === 'loaded' ? outcome.content : {};
    result.layers.push({ file, level: 'explicit', content, ...(outcome.status === 'loaded' && { mode: outcome.mode }) });
    return result;
  }

  const { user, project } = candidateFiles({ cwd: options.cwd, home: options.home, env: options.env });
  const firstUsable = async (candidates: readonly Candidate[]): Promise<boolean> => {
    for (const candidate of candidates) {
      const outcome = await tryExamine(candidate, false);
      if (outcome === undefined) return true;
      if (outcome.status === 'absent') continue;
      result.looked.push(candidate.file);
      if (outcome.status === 'skipped') result.skipped.push({ file: candidate.file, level: candidate.level, reason: outcome.reason });
      if (outcome.status === 'loaded') {
        result.layers.push({ file: candidate.file, level: candidate.level, content: outcome.content, mode: outcome.mode });
        return true;
      }
    }
    return false;
  };
  await firstUsable(user);
  for (const dir of project) if (await firstUsable(dir)) break;
  return result;
}

async function statOrNull(file: string, follow: boolean): Promise<Stats | null> {
  try {
    return follow ? await fsp.stat(file) : await fsp.lstat(file);
  } catch {
    return null;
  }
}

async function dirStat(dir: string, judge: Judge): Promise<StatLike | null> {
  if (!judge.dirStats.has(dir)) {
    const s = await statOrNull(dir, true);
    judge.dirStats.set(dir, s === null ? null : statLike(s));
  }
  return judge.dirStats.get(dir) ?? null;
}

const JS_EXTENSIONS = new Set(['.js', '.cjs', '.mjs']);

/** The directory where the file was found is listed in GATEWAY_TRUSTED_DIRS, as written or through symbolic links. */
async function inTrustedDir(dir: string, trusted: ReadonlySet<string>): Promise<boolean> {
  if (trusted.has(dir)) return true;
  const real = await fsp.realpath(dir).catch(() => dir);
  for (const entry of trusted) if ((await fsp.realpath(entry).catch(() => entry)) === real) return true;
  return false;
}

async function examine(candidate: { file: string; level: ConfigLevel }, judge: Judge, explicit: boolean): Promise<Outcome> {
  judge.signal?.throwIfAborted();
  const { file } = candidate;
  const shown = terminalSafe(file);
  let linkStats: Stats;
  try {
    linkStats = await fsp.lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!explicit || code === 'ENOENT') return { status: 'absent' };
    throw new ConfigError(`config file ${shown} cannot be read: ${code ?? 'error'}`);
  }
  // Symbolic links are followed; the checks apply to the target and to both directories.
  let real = file;
  let stats = linkStats;
  if (linkStats.isSymbolicLink()) {
    const target = await fsp.realpath(file).catch(() => null);
    const targetStats = target === null ? null : await statOrNull(target, false);
    if (target === null || targetStats === null) {
      if (explicit) throw new ConfigError(`config file ${shown} cannot be read: it is a broken symbolic link`);
      return { status: 'absent' };
    }
    real = target;
    stats = targetStats;
  }
  const dirPaths = [...new Set([path.dirname(file), path.dirname(real)])];
  const dirs: Array<{ path: string; stat: StatLike }> = [];
  for (const dir of dirPaths) {
    const s = await dirStat(dir, judge);
    if (s === null) return { status: 'absent' };
    dirs.push({ path: dir, stat: s });
  }
  const base = path.basename(file);
  const isPackageJson = base === 'package.json';
  const maxBytes = isPackageJson ? MAX_PACKAGE_JSON_BYTES : MAX_CONFIG_BYTES;
  const trusted = explicit || judge.trust.all || (judge.trust.dirs.size > 0 && (await inTrustedDir(path.dirname(file), judge.trust.dirs)));
  const verdict = judgeFile({ file: statLike(stats), dirs, uid: judge.uid, trusted, maxBytes });
  if (verdict.action === 'skip') return { status: 'skipped', reason: verdict.reason };
  if (verdict.action === 'refuse') throw new ConfigError(`config file ${shown} ${verdict.reason}`);

  const mode = stats.mode & 0o777;
  const extension = path.extname(base).toLowerCase();
  judge.signal?.throwIfAborted();
  if (JS_EXTENSIONS.has(extension)) {
    const content = await importJs(file, real, stats, judge.signal);
    if (content === undefined || content === null) return explicit ? { status: 'loaded', content: {}, mode } : { status: 'empty' };
    return { status: 'loaded', content, mode };
  }
  const text = stripBom(await readBounded(file, real, stats, maxBytes));
  let content: unknown;
  if (isPackageJson) {
    content = packageJsonField(file, text);
    if (content === undefined) return explicit ? { status: 'loaded', content: {}, mode } : { status: 'empty' };
    return { status: 'loaded', content, mode };
  }
  if (text.trim() === '') return explicit ? { status: 'loaded', content: {}, mode } : { status: 'empty' };
  content = extension === '.json' ? parseJsonText(file, text) : await parseYamlText(file, text);
  if (content === undefined || content === null) return explicit ? { status: 'loaded', content: {}, mode } : { status: 'empty' };
  return { status: 'loaded', content, mode };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads a data file that was judged a regular file of at most `maxBytes`: opened without blocking
 * (a FIFO swapped in since would not hang the open) and without following a link, then checked to
 * be that same file, and read up to the limit.
 */
async function readBounded(file: string, real: string, judged: Stats, maxBytes: number): Promise<string> {
  const shown = terminalSafe(file);
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
  let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
  try {
    handle = await fsp.open(real, flags);
  } catch (error) {
    throw new ConfigError(`config file ${shown} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== judged.ino || opened.dev !== judged.dev)
      throw new ConfigError(`config file ${shown} changed while it was being read`);
    const limit = maxBytes + 1;
    const buffer = Buffer.alloc(Math.min(limit, opened.size + 1));
    let total = 0;
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total === buffer.length) {
      throw new ConfigError(
        buffer.length === limit ? `config file ${shown} is larger than ${maxBytes / 1024} KiB` : `config file ${shown} changed while it was being read`,
      );
    }
    return buffer.subarray(0, total).toString('utf8');
  } catch (error) {
    if (error instanceof GwError) throw error;
    throw new ConfigError(`config file ${shown} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Node's import() of a file outside the bundle. The launcher (bin/gw.cjs) compiles the bundle
 * with a V8 code cache, and functions restored from a cache lose their dynamic-import callback
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the launcher, an ordinary CommonJS module, hands
 * over its own import(); without it (tests, a plain require of the bundle) this module's is used.
 */
function nodeImport(specifier: string): Promise<unknown> {
  const launcher = (globalThis as { [key: symbol]: unknown })[Symbol.for('gw.import')];
  return typeof launcher === 'function' ? (launcher as (s: string) => Promise<unknown>)(specifier) : import(specifier);
}

/** Node's own import(): .mjs and "type": "module" are ES modules, .cjs and other .js CommonJS. */
async function importJs(file: string, real: string, judged: Stats, signal: AbortSignal | undefined): Promise<unknown> {
  const url = pathToFileURL(real).href;
  try {
    const namespace = (await raceAbort(nodeImport(url) as Promise<{ default?: unknown }>, signal)) as { default?: unknown };
    // A config may export a promise (or be an async module): wait for it, but never past the signal.
    const value = await raceAbort(Promise.resolve(namespace.default), signal);
    return plainData(value);
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    const paths = [...new Set([file, real, pathToFileURL(file).href, url])];
    const { kind, position } = describeJsError(error, paths);
    const where = position ?? (kind === 'SyntaxError' ? await syntaxErrorPosition(file, real, judged, signal) : undefined);
    throw new ConfigError(`config file ${terminalSafe(file)} could not be loaded: JavaScript ${kind}${positionText(where)}`);
  }
}

/**
 * An ES module's syntax error carries no position in its stack (Node keeps it internal), so ask
 * `node --check` where it is, feeding it the source on stdin: it parses without running anything.
 * Only the line and column are taken from its output.
 */
async function syntaxErrorPosition(file: string, real: string, judged: Stats, signal: AbortSignal | undefined): Promise<Position | undefined> {
  let source: string;
  try {
    source = await readBounded(file, real, judged, MAX_CONFIG_BYTES);
  } catch {
    return undefined;
  }
  // The single executable (npm run build:sea) is gw, not Node: it has no `--check` to ask.
  if ((await import('node:sea')).isSea()) return undefined;
  const { spawn } = await import('node:child_process');
  for (const inputType of ['module', 'commonjs']) {
    const output = await new Promise<string>((resolve) => {
      let stderr = '';
      const child = spawn(process.execPath, [`--input-type=${inputType}`, '--check'], {
        stdio: ['pipe', 'ignore', 'pipe'],
        env: {},
        timeout: 5000,
        windowsHide: true,
        ...(signal && { signal }),
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        if (stderr.length < 4096) stderr += chunk;
      });
      child.on('error', () => resolve(''));
      child.on('close', () => resolve(stderr));
      child.stdin.on('error', () => undefined);
      child.stdin.end(source);
    });
    const position = positionFromCheckOutput(output);
    if (position !== undefined) return position;
  }
  return undefined;
}
