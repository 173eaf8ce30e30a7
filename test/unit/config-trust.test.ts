// The trust decision (src/config/trust.ts) as a pure function over stat-like facts: who owns the
// file and its directory, who may write them, what kind of file it is and how large. No root, no
// chown: every case is data.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  judgeFile,
  MAX_CONFIG_BYTES,
  MAX_PACKAGE_JSON_BYTES,
  trustedDirs,
  type FileKind,
  type StatLike,
  type TrustFacts,
  type Verdict,
} from '../../src/config/trust.js';

const ME = 1000;
const OTHER = 1001;
const ROOT = 0;

const file = (over: Partial<StatLike> = {}): StatLike => ({ kind: 'file', mode: 0o600, uid: ME, size: 100, ...over });
const dir = (over: Partial<StatLike> = {}): StatLike => ({ kind: 'directory', mode: 0o755, uid: ME, size: 4096, ...over });

function facts(over: Partial<TrustFacts> & { fileStat?: Partial<StatLike>; dirStat?: Partial<StatLike> } = {}): TrustFacts {
  const { fileStat, dirStat, ...rest } = over;
  return { file: file(fileStat), dirs: [{ path: '/p', stat: dir(dirStat) }], uid: ME, trusted: false, maxBytes: MAX_CONFIG_BYTES, ...rest };
}

const READ: Verdict = { action: 'read' };
const skip = (reason: string): Verdict => ({ action: 'skip', reason });
const refuse = (reason: string): Verdict => ({ action: 'refuse', reason });

describe('judgeFile', () => {
  it.each<[string, Parameters<typeof facts>[0], Verdict]>([
    // directory: owner and mode
    ['my file in my 0755 directory', {}, READ],
    ['my file in my 0700 directory', { dirStat: { mode: 0o700 } }, READ],
    ['my file in a root-owned 0755 directory', { dirStat: { uid: ROOT } }, READ],
    ['a root-owned file in a root-owned directory', { dirStat: { uid: ROOT }, fileStat: { uid: ROOT, mode: 0o644 } }, READ],
    ['a directory writable by others (0777)', { dirStat: { mode: 0o777 } }, skip('its directory /p is writable by group or others')],
    [
      'a directory writable by others, sticky (1777, like /tmp)',
      { dirStat: { mode: 0o1777, uid: ROOT } },
      skip('its directory /p is writable by group or others'),
    ],
    ['a directory writable by group (0775)', { dirStat: { mode: 0o775 } }, skip('its directory /p is writable by group or others')],
    ['a directory writable by others only (0757)', { dirStat: { mode: 0o757 } }, skip('its directory /p is writable by group or others')],
    ['a directory of another user, 0755', { dirStat: { uid: OTHER } }, skip('its directory /p belongs to another user (uid 1001)')],
    // file: owner and mode
    ['a file of another user', { fileStat: { uid: OTHER } }, skip('it belongs to another user (uid 1001)')],
    ['a file writable by group (0620)', { fileStat: { mode: 0o620 } }, skip('it is writable by group or others')],
    ['a file writable by others (0602)', { fileStat: { mode: 0o602 } }, skip('it is writable by group or others')],
    ['a file readable by others (0644): read (resolve.ts warns when it holds a key)', { fileStat: { mode: 0o644 } }, READ],
    // kind and size: refused, not skipped
    ['a FIFO', { fileStat: { kind: 'FIFO', size: 0 } }, refuse('is not a regular file (it is a FIFO)')],
    ['a directory', { fileStat: { kind: 'directory', mode: 0o755 } }, refuse('is not a regular file (it is a directory)')],
    ['a character device', { fileStat: { kind: 'character device', uid: ROOT, mode: 0o600 } }, refuse('is not a regular file (it is a character device)')],
    ['a socket', { fileStat: { kind: 'socket' } }, refuse('is not a regular file (it is a socket)')],
    ['a block device', { fileStat: { kind: 'block device' } }, refuse('is not a regular file (it is a block device)')],
    ['exactly 64 KiB', { fileStat: { size: MAX_CONFIG_BYTES } }, READ],
    ['one byte over 64 KiB', { fileStat: { size: MAX_CONFIG_BYTES + 1 } }, refuse(`is larger than 64 KiB (${MAX_CONFIG_BYTES + 1} bytes)`)],
    ['a 200 KiB package.json (1 MiB limit)', { fileStat: { size: 200 * 1024 }, maxBytes: MAX_PACKAGE_JSON_BYTES }, READ],
    [
      'a package.json over 1 MiB',
      { fileStat: { size: MAX_PACKAGE_JSON_BYTES + 1 }, maxBytes: MAX_PACKAGE_JSON_BYTES },
      refuse(`is larger than 1024 KiB (${MAX_PACKAGE_JSON_BYTES + 1} bytes)`),
    ],
    // trust checks come first: an untrusted FIFO is skipped, not an error a stranger can cause
    [
      'a FIFO planted in a directory writable by others',
      { dirStat: { mode: 0o777 }, fileStat: { kind: 'FIFO', uid: OTHER } },
      skip('its directory /p is writable by group or others'),
    ],
    ['a FIFO of another user', { fileStat: { kind: 'FIFO', uid: OTHER } }, skip('it belongs to another user (uid 1001)')],
    // the user's say: --config or GATEWAY_TRUSTED_DIRS waives owner and mode checks, never kind and size
    ['trusted: a directory writable by others', { trusted: true, dirStat: { mode: 0o777, uid: OTHER } }, READ],
    ['trusted: a file of another user, writable by others', { trusted: true, fileStat: { uid: OTHER, mode: 0o666 } }, READ],
    ['trusted: still no FIFO', { trusted: true, fileStat: { kind: 'FIFO' } }, refuse('is not a regular file (it is a FIFO)')],
    ['trusted: still no oversized file', { trusted: true, fileStat: { size: 1 << 20 } }, refuse(`is larger than 64 KiB (${1 << 20} bytes)`)],
    // no POSIX owners (Windows): kind and size only
    ['no uid: a directory writable by others', { uid: undefined, dirStat: { mode: 0o777, uid: OTHER } }, READ],
    ['no uid: still no FIFO', { uid: undefined, fileStat: { kind: 'FIFO' } }, refuse('is not a regular file (it is a FIFO)')],
    // running as root: root's own files, and other users' files are skipped
    ['as root: root-owned everything', { uid: ROOT, dirStat: { uid: ROOT }, fileStat: { uid: ROOT } }, READ],
    ['as root: a file of user 1000', { uid: ROOT, dirStat: { uid: ROOT } }, skip('it belongs to another user (uid 1000)')],
    ['as root: a directory of user 1000', { uid: ROOT, fileStat: { uid: ROOT } }, skip('its directory /p belongs to another user (uid 1000)')],
  ])('%s', (_name, input, verdict) => {
    expect(judgeFile(facts(input))).toEqual(verdict);
  });

  it('checks every directory given (a symbolic link: where it was found, and where it leads)', () => {
    const verdict = judgeFile({
      ...facts(),
      dirs: [
        { path: '/home/me/shop', stat: dir() },
        { path: '/tmp/shared', stat: dir({ mode: 0o777 }) },
      ],
    });
    expect(verdict).toEqual(skip('its directory /tmp/shared is writable by group or others'));
  });

  it('a kind nobody expects is refused', () => {
    expect(judgeFile(facts({ fileStat: { kind: 'unknown' as FileKind } })).action).toBe('refuse');
  });
});

describe('trustedDirs (GATEWAY_TRUSTED_DIRS)', () => {
  it.each<[string | undefined, boolean, string[]]>([
    [undefined, false, []],
    ['', false, []],
    ['/srv/shop', false, ['/srv/shop']],
    ['/srv/shop:/opt/ci/ws/', false, ['/srv/shop', '/opt/ci/ws']],
    ['*', true, []],
    ['/a:*', true, ['/a']],
    ['relative/dir:/abs', false, ['/abs']],
    ['  /spaced  ::', false, ['/spaced']],
  ])('%j → all %s, dirs %j', (value, all, dirs) => {
    const env: NodeJS.ProcessEnv = value === undefined ? {} : { GATEWAY_TRUSTED_DIRS: value };
    const result = trustedDirs(env, ':');
    expect(result.all).toBe(all);
    expect([...result.dirs]).toEqual(dirs.map((d) => path.resolve(d)));
  });
});
