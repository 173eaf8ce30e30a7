// Whether a config file may be read: a pure decision over stat-like facts (type, mode, owner,
// size) of the file and of the directory holding it, and the current user's id, so every rule is
// testable without root or chown.
//
// The rules (docs/configuration.md, "Which files are read"):
// - Trust: the directory holding the file (and, for a symbolic link, the directory holding its
//   target) must belong to you or root and must not be writable by group or others; the file must
//   belong to you or root and must not be writable by group or others. A file failing these is
//   skipped with one warning, unless it was named with --config or its directory is listed in
//   GATEWAY_TRUSTED_DIRS (the user's say).
// - Sanity, always: the file must be a regular file (symbolic links are followed) and not larger
//   than its limit. A file failing these is refused (exit 78) before it is opened.
import type { Stats } from 'node:fs';
import path from 'node:path';

export type FileKind = 'file' | 'directory' | 'symlink' | 'FIFO' | 'socket' | 'character device' | 'block device' | 'unknown';

/** What the decision needs of a stat() result. */
export interface StatLike {
  kind: FileKind;
  /** Permission bits (st_mode & 0o7777 is enough). */
  mode: number;
  uid: number;
  size: number;
}

export function statLike(stats: Stats): StatLike {
  const kind: FileKind = stats.isFile()
    ? 'file'
    : stats.isDirectory()
      ? 'directory'
      : stats.isSymbolicLink()
        ? 'symlink'
        : stats.isFIFO()
          ? 'FIFO'
          : stats.isSocket()
            ? 'socket'
            : stats.isCharacterDevice()
              ? 'character device'
              : stats.isBlockDevice()
                ? 'block device'
                : 'unknown';
  return { kind, mode: stats.mode & 0o7777, uid: stats.uid, size: stats.size };
}

/** Config files (JSON, YAML, JavaScript) are small: anything larger is not one. */
export const MAX_CONFIG_BYTES = 64 * 1024;
/** package.json holds much more than gw's field, so it may be larger. */
export const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

export interface TrustFacts {
  /** The file (the target, when it was reached through a symbolic link). */
  file: StatLike;
  /** The directories holding it: where it was found, and where a symbolic link led, if elsewhere. */
  dirs: ReadonlyArray<{ path: string; stat: StatLike }>;
  /** The current user's id; undefined where there are no POSIX owners (Windows): no ownership or mode checks. */
  uid: number | undefined;
  /** Trust was given: named with --config, or its directory is in GATEWAY_TRUSTED_DIRS. */
  trusted: boolean;
  maxBytes: number;
}

export type Verdict = { action: 'read' } | { action: 'skip'; reason: string } | { action: 'refuse'; reason: string };

const WRITABLE_BY_OTHERS = 0o022;

function ownerOk(uid: number, current: number): boolean {
  return uid === current || uid === 0;
}

export function judgeFile(facts: TrustFacts): Verdict {
  const { file, uid } = facts;
  if (!facts.trusted && uid !== undefined) {
    for (const dir of facts.dirs) {
      if (!ownerOk(dir.stat.uid, uid)) return { action: 'skip', reason: `its directory ${dir.path} belongs to another user (uid ${dir.stat.uid})` };
      if ((dir.stat.mode & WRITABLE_BY_OTHERS) !== 0) return { action: 'skip', reason: `its directory ${dir.path} is writable by group or others` };
    }
    if (!ownerOk(file.uid, uid)) return { action: 'skip', reason: `it belongs to another user (uid ${file.uid})` };
    if ((file.mode & WRITABLE_BY_OTHERS) !== 0) return { action: 'skip', reason: 'it is writable by group or others' };
  }
  if (file.kind !== 'file') return { action: 'refuse', reason: `is not a regular file (it is a ${file.kind})` };
  if (file.size > facts.maxBytes) return { action: 'refuse', reason: `is larger than ${facts.maxBytes / 1024} KiB (${file.size} bytes)` };
  return { action: 'read' };
}

/**
 * GATEWAY_TRUSTED_DIRS: directories whose config files are read whatever their owner and mode,
 * separated like PATH (`:`; `;` on Windows); `*` trusts every directory. Relative entries are
 * ignored.
 */
export function trustedDirs(env: NodeJS.ProcessEnv, delimiter = path.delimiter): { all: boolean; dirs: Set<string> } {
  const entries = (env.GATEWAY_TRUSTED_DIRS ?? '')
    .split(delimiter)
    .map((e) => e.trim())
    .filter((e) => e !== '');
  return {
    all: entries.includes('*'),
    dirs: new Set(entries.filter((e) => path.isAbsolute(e)).map((e) => path.resolve(e))),
  };
}
