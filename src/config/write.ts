// Safe editing of the user's config file (gw init, gw config set/unset). The rules:
// - The file is the user's own: the first existing data file of the user config directory
//   ($XDG_CONFIG_HOME/gateway/config, config.json, config.yaml, config.yml), else config.yaml
//   there. A JavaScript config is never edited (it is code), nor a file gw could not parse.
// - Never through a symbolic link: a link in the file's place is refused, and the new file is
//   created with O_EXCL|O_NOFOLLOW and renamed into place (rename replaces a name, it never follows one).
// - Atomic: the new content goes to a temporary file in the same directory, is flushed to disk,
//   then renamed over the old one. A crash or Ctrl-C leaves the old file or the new one, never half.
// - One writer at a time: the read, the change and the write happen under the directory's lock
//   (lock.ts), so gw processes editing at once each see the others' changes; none is lost.
// - Permissions: a new file is 0600; an existing file keeps its owner bits and loses group and
//   other bits (it holds keys): permissions are never widened. A new directory is 0700, and a
//   directory other users may write to is refused.
// - The format is kept: YAML stays YAML with its comments and order (the `yaml` library's
//   document model), JSON stays JSON with its indentation.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import { USER_PLACES, userConfigDir } from './candidates.js';
import { type LockOptions, withConfigLock } from './lock.js';
import { MAX_CONFIG_BYTES } from './trust.js';

export type FileFormat = 'yaml' | 'json';

export interface UserConfigFile {
  file: string;
  format: FileFormat;
  /** The file is there already (else it will be created). */
  exists: boolean;
}

/** A config document being edited: paths are keys from the top (["profiles", "shop", "merchantKey"]). */
export interface EditableConfig {
  readonly format: FileFormat;
  get(keys: readonly string[]): unknown;
  set(keys: readonly string[], value: string | number): void;
  /** Removes the value; a profile left empty goes too, and "profiles" once it is empty. True if something was removed. */
  delete(keys: readonly string[]): boolean;
  toString(): string;
}

export interface WriteResult {
  file: string;
  created: boolean;
  /** Permission bits of the file written. */
  mode: number;
  /** The bits it had, when writing narrowed them. */
  narrowedFrom?: number;
}

const DATA_PLACES = USER_PLACES.filter((place) => !/\.(c|m)?js$/.test(place));

function formatOf(file: string, text: string): FileFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  // `config` without an extension: JSON or YAML, as the loader reads it.
  return text.trimStart().startsWith('{') ? 'json' : 'yaml';
}

/** The user's config file gw edits: the existing one, else config.yaml in the user config directory. */
export async function userConfigFile(origin: { env: NodeJS.ProcessEnv; home: string }): Promise<UserConfigFile> {
  const dir = userConfigDir(origin);
  if (dir === undefined) throw new ConfigError('cannot tell where your config file goes: neither HOME nor XDG_CONFIG_HOME is set');
  for (const place of USER_PLACES) {
    const file = path.join(dir, place);
    const found = await fsp.lstat(file).catch(() => undefined);
    if (found === undefined) continue;
    if (!DATA_PLACES.includes(place)) {
      throw new ConfigError(`your config file ${terminalSafe(file)} is JavaScript: gw does not edit code`, 'edit it by hand, or replace it with config.yaml');
    }
    return { file, format: formatOf(file, ''), exists: true };
  }
  return { file: path.join(dir, 'config.yaml'), format: 'yaml', exists: false };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the file to edit (never through a link), or undefined when it does not exist. */
async function readForEdit(file: string): Promise<{ text: string; stats: Stats } | undefined> {
  const shown = terminalSafe(file);
  const found = await fsp.lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new ConfigError(`config file ${shown} cannot be read: ${error.code ?? 'error'}`);
  });
  if (found === undefined) return undefined;
  if (found.isSymbolicLink()) {
    throw new ConfigError(
      `config file ${shown} is a symbolic link: gw does not write through links`,
      'edit the file it points to by hand, or replace the link with a file',
    );
  }
  if (!found.isFile()) throw new ConfigError(`config file ${shown} is not a regular file`);
  if (found.size > MAX_CONFIG_BYTES) throw new ConfigError(`config file ${shown} is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
  const handle = await fsp.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(`config file ${shown} cannot be read: ${error.code ?? 'error'}`);
  });
  try {
    const stats = await handle.stat();
    if (stats.ino !== found.ino || !stats.isFile()) throw new ConfigError(`config file ${shown} changed while it was being read`);
    const text = (await handle.readFile('utf8')).replace(/^\ufeff/, '');
    return { text, stats };
  } finally {
    await handle.close();
  }
}

/** Parses the file's text for editing; a file gw cannot parse is never rewritten. */
export async function parseEditable(file: string, text: string): Promise<EditableConfig> {
  const format = formatOf(file, text);
  const shown = terminalSafe(file);
  if (format === 'json') {
    let data: unknown = {};
    if (text.trim() !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        throw new ConfigError(`config file ${shown} is not valid JSON: gw will not rewrite it`, 'fix it by hand (gw config shows where), then try again');
      }
    }
    if (!isRecord(data)) throw new ConfigError(`config file ${shown} must hold an object of settings`);
    const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
    return jsonDocument(data, indent);
  }
  const YAML = await import('yaml');
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) {
    const line = doc.errors[0]?.linePos?.[0]?.line;
    throw new ConfigError(
      `config file ${shown} is not valid YAML${line === undefined ? '' : ` (line ${line})`}: gw will not rewrite it`,
      'fix it by hand, then try again',
    );
  }
  if (doc.contents === null) doc.contents = doc.createNode({}) as never;
  if (!YAML.isMap(doc.contents)) throw new ConfigError(`config file ${shown} must hold an object of settings`);
  return {
    format: 'yaml',
    get: (keys) => {
      const value = doc.getIn(keys);
      return YAML.isNode(value) ? value.toJSON() : value;
    },
    set: (keys, value) => {
      // An existing value is changed in place, so a comment on its line stays.
      const existing = doc.getIn(keys, true);
      if (YAML.isScalar(existing)) {
        existing.value = value;
        existing.type = typeof value === 'string' ? 'QUOTE_DOUBLE' : 'PLAIN';
        return;
      }
      const node = doc.createNode(value);
      // Strings double-quoted: a key like 0123 or yes stays a string to every YAML reader.
      if (typeof value === 'string' && YAML.isScalar(node)) node.type = 'QUOTE_DOUBLE';
      doc.setIn(keys, node);
    },
    delete: (keys) => {
      if (!doc.hasIn(keys)) return false;
      doc.deleteIn(keys);
      pruneEmpty(
        keys,
        (k) => doc.getIn(k),
        (k) => doc.deleteIn(k),
        (v) => YAML.isMap(v) && v.items.length === 0,
      );
      return true;
    },
    toString: () => doc.toString(),
  };
}

/** After deleting profiles.<p>.<key>: drop the profile if empty, then "profiles" if empty. */
function pruneEmpty(keys: readonly string[], get: (k: string[]) => unknown, remove: (k: string[]) => void, isEmpty: (v: unknown) => boolean): void {
  if (keys.length === 3 && keys[0] === 'profiles') {
    const profile = keys.slice(0, 2);
    if (isEmpty(get(profile))) remove(profile);
    if (isEmpty(get(['profiles']))) remove(['profiles']);
  }
}

function jsonDocument(data: Record<string, unknown>, indent: string): EditableConfig {
  const parentOf = (keys: readonly string[], create: boolean): Record<string, unknown> | undefined => {
    let node: Record<string, unknown> = data;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (!isRecord(next)) {
        if (!create) return undefined;
        node[key] = {};
      }
      node = node[key] as Record<string, unknown>;
    }
    return node;
  };
  const isEmpty = (v: unknown): boolean => isRecord(v) && Object.keys(v).length === 0;
  return {
    format: 'json',
    get: (keys) => parentOf(keys, false)?.[keys[keys.length - 1] ?? ''],
    set: (keys, value) => {
      const parent = parentOf(keys, true);
      if (parent !== undefined) parent[keys[keys.length - 1] ?? ''] = value;
    },
    delete: (keys) => {
      const parent = parentOf(keys, false);
      const last = keys[keys.length - 1] ?? '';
      if (parent === undefined || !Object.hasOwn(parent, last)) return false;
      delete parent[last];
      pruneEmpty(
        keys,
        (k) => parentOf(k, false)?.[k[k.length - 1] ?? ''],
        (k) => delete parentOf(k, false)?.[k[k.length - 1] ?? ''],
        isEmpty,
      );
      return true;
    },
    toString: () => `${JSON.stringify(data, null, indent)}\n`,
  };
}

/** The directory the file goes in: created 0700 if missing, refused if other users may write to it. */
async function prepareDirectory(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(`cannot create ${terminalSafe(dir)}: ${error.code ?? 'error'}`);
  });
  const stats = await fsp.stat(dir);
  if (process.platform !== 'win32' && (stats.mode & 0o022) !== 0) {
    throw new ConfigError(`${terminalSafe(dir)} is writable by group or others: gw will not put keys there`, `fix it with: chmod go-w ${dir}`);
  }
}

/**
 * Writes `text` as `file`, atomically: a temporary file in the same directory (created exclusively,
 * never through a link), flushed, then renamed over the old one. Mode: 0600 for a new file, the old
 * owner bits without group or other bits for an existing one.
 */
export async function writeConfigAtomic(file: string, text: string, existing: Stats | undefined): Promise<WriteResult> {
  const dir = path.dirname(file);
  await prepareDirectory(dir);
  const oldMode = existing === undefined ? undefined : existing.mode & 0o777;
  const mode = oldMode === undefined ? 0o600 : oldMode & 0o600;
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
  try {
    handle = await fsp.open(temp, flags, mode);
    await handle.writeFile(text, 'utf8');
    await handle.chmod(mode); // exactly `mode`, whatever the umask did
    // Root editing someone else's file (sudo): the file stays theirs.
    if (existing !== undefined && process.getuid?.() === 0 && existing.uid !== 0) await handle.chown(existing.uid, existing.gid);
    await handle.sync();
    await handle.close();
    handle = undefined;
    // A link put in the file's place since it was read is refused too (rename would replace the link, not follow it).
    const now = await fsp.lstat(file).catch(() => undefined);
    if (now?.isSymbolicLink()) throw new ConfigError(`config file ${terminalSafe(file)} became a symbolic link: gw does not write through links`);
    await fsp.rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot write ${terminalSafe(file)}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return { file, created: existing === undefined, mode, ...(oldMode !== undefined && oldMode !== mode && { narrowedFrom: oldMode }) };
}

/**
 * Edits the user's config file: takes its lock (lock.ts: other gw processes editing it wait their
 * turn, so no change is lost), reads it (or starts empty), lets `edit` change the document, and
 * writes it back safely, all under the lock. `edit` returning false means nothing changed: nothing
 * is written. A lock that stays taken past the wait's bound (or the command's deadline, through
 * `options.signal`) is exit 75, with nothing written. When the directory does not exist yet, `edit`
 * is first tried on an empty document (nothing is created for an edit that changes nothing), then
 * run again under the lock: it must only depend on the document it is given.
 */
export async function editConfigFile(
  target: UserConfigFile,
  edit: (doc: EditableConfig) => boolean | void,
  options: LockOptions = {},
): Promise<WriteResult | undefined> {
  const dir = path.dirname(target.file);
  if ((await fsp.lstat(dir).catch(() => undefined)) === undefined) {
    // No directory, so no file: an edit that changes nothing (unset) creates neither.
    if (edit(await parseEditable(target.file, '')) === false) return undefined;
  }
  await prepareDirectory(dir);
  return withConfigLock(
    target.file,
    async () => {
      const current = await readForEdit(target.file);
      const doc = await parseEditable(target.file, current?.text ?? '');
      if (edit(doc) === false) return undefined;
      return writeConfigAtomic(target.file, doc.toString(), current?.stats);
    },
    options,
  );
}

/** "0600" */
export function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** The user's config file as it is now, for reading values (an empty document when it does not exist). */
export async function openConfigFile(target: UserConfigFile): Promise<EditableConfig> {
  const current = await readForEdit(target.file);
  return parseEditable(target.file, current?.text ?? '');
}
