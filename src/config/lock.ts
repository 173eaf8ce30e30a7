// The user config file's lock: gw init and gw config set/unset read, change and write the file as
// one step that no other gw process can interleave with (without it, N writers run at once and all
// but one of their changes are lost while each says ✓).
// - The lock is a file beside the config (`.config.lock` in the user config directory), created
//   with O_CREAT|O_EXCL (`wx`): exactly one process succeeds. It holds the holder's pid, host name,
//   start time and a random token, and is removed when the edit ends (the process exiting without removing it
//   leaves a stale lock, see below).
// - Waiting: a writer that finds the lock taken tries again every few milliseconds (with jitter),
//   until the lock is free, the wait's bound passes (LOCK_WAIT_MS, and never after the command's
//   deadline), or Ctrl-C. Giving up is one line and exit 75 (EX_TEMPFAIL): nothing was written.
// - Stale locks: a lock whose holder is a process that no longer runs on this machine, or that is
//   older than STALE_AFTER_MS (an edit holds it for milliseconds), is broken. Breaking is itself
//   exclusive (a second file, `.config.lock.break`, created the same way): under it the lock is read
//   again, and removed only if it is still the very lock judged stale (each lock holds a random
//   token; inode numbers are reused too quickly to tell locks apart) and still stale. So a lock
//   taken by a live writer in the meantime is never removed, however the writers interleave.
// - Releasing: the holder removes the lock only while it still holds its own token.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { ExitCode, GwError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';

/** The longest a writer waits for another one (the command's deadline may end it sooner). */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is stale whoever holds it: an edit holds it for milliseconds. */
export const STALE_AFTER_MS = 30_000;
export const LOCK_NAME = '.config.lock';

export interface LockOptions {
  /** Ends the wait: Ctrl-C, SIGTERM, or the command's deadline (its reason is a GwError). */
  signal?: AbortSignal;
  /** The wait's own bound (default LOCK_WAIT_MS). */
  waitMs?: number;
}

interface Holder {
  pid?: number;
  host?: string;
  since?: number;
}

/** The lock's path for a config file: in the same directory. */
export function lockFileFor(configFile: string): string {
  return path.join(path.dirname(configFile), LOCK_NAME);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(lock: string): Promise<{ holder: Holder; text: string; mtimeMs: number } | undefined> {
  const stats = await fsp.lstat(lock).catch(() => undefined);
  if (stats === undefined) return undefined;
  const text = await fsp.readFile(lock, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let holder: Holder = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) holder = parsed as Holder;
  } catch {
    // Being written right now (created, not yet filled), or not ours: judged by its age alone.
  }
  return { holder, text, mtimeMs: stats.mtimeMs };
}

/** Why the lock is stale, or undefined while its holder may still be editing. */
function staleness(found: { holder: Holder; mtimeMs: number }, now: number): string | undefined {
  const { pid, host } = found.holder;
  if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && host === hostname() && pid !== process.pid && !isAlive(pid)) {
    return `its process ${pid} is gone`;
  }
  if (now - found.mtimeMs > STALE_AFTER_MS) return `it is ${Math.round((now - found.mtimeMs) / 1000)} s old`;
  return undefined;
}

/** A breaker that left its file behind (it takes milliseconds) is gone after this long. */
const BREAK_STALE_MS = 5_000;

/**
 * Removes the lock judged stale (`judged`: its text), under the breaking lock, if it is still that
 * lock and still stale. True when it was removed; false at once when another process is breaking it.
 */
export async function breakStale(lock: string, judged: string): Promise<boolean> {
  const breaker = `${lock}.break`;
  let handle: Awaited<ReturnType<typeof fsp.open>>;
  try {
    handle = await fsp.open(breaker, 'wx', 0o600);
  } catch {
    const stats = await fsp.lstat(breaker).catch(() => undefined);
    if (stats !== undefined && Date.now() - stats.mtimeMs > BREAK_STALE_MS) await fsp.unlink(breaker).catch(() => undefined);
    return false;
  }
  await handle.close().catch(() => undefined);
  try {
    const found = await readHolder(lock);
    if (found === undefined || found.text !== judged || staleness(found, Date.now()) === undefined) return false;
    await fsp.unlink(lock).catch(() => undefined);
    return true;
  } finally {
    await fsp.unlink(breaker).catch(() => undefined);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function gaveUp(configFile: string, lock: string, waitedMs: number, holder: Holder | undefined): GwError {
  const who = typeof holder?.pid === 'number' ? ` (process ${holder.pid})` : '';
  return new GwError(
    ExitCode.TEMPFAIL,
    `another gw${who} is changing ${terminalSafe(configFile)}: gave up waiting for it after ${(waitedMs / 1000).toFixed(1)} s; nothing was written`,
    { hint: `try again; if no other gw is running, remove ${terminalSafe(lock)}` },
  );
}

/**
 * Takes the lock of `configFile`'s directory (which must exist), runs `work`, and releases the
 * lock however `work` ends. Fails with exit 75 when the lock stays taken for the whole wait, and
 * with the signal's reason on Ctrl-C or SIGTERM.
 */
export async function withConfigLock<T>(configFile: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const lock = lockFileFor(configFile);
  const started = Date.now();
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const { signal } = options;
  const content = `${JSON.stringify({ pid: process.pid, host: hostname(), since: started, token: randomBytes(8).toString('hex') })}\n`;
  let last: Holder | undefined;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) {
      const reason: unknown = signal.reason;
      // The command's deadline: say what it was waiting for. Ctrl-C, SIGTERM: as they are.
      if (reason instanceof GwError && reason.exitCode === ExitCode.TEMPFAIL) throw gaveUp(configFile, lock, Date.now() - started, last);
      throw reason instanceof Error ? reason : new GwError(ExitCode.INTERRUPTED, 'interrupted');
    }
    let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
    try {
      handle = await fsp.open(lock, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new GwError(ExitCode.CONFIG, `cannot create the lock ${terminalSafe(lock)} for ${terminalSafe(configFile)}: ${code ?? 'error'}`);
      }
    }
    if (handle !== undefined) {
      try {
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close().catch(() => undefined);
      }
      try {
        return await work();
      } finally {
        // Only our own lock is removed (one judged stale and broken by another process is not ours any more).
        if ((await fsp.readFile(lock, 'utf8').catch(() => undefined)) === content) await fsp.unlink(lock).catch(() => undefined);
      }
    }
    const found = await readHolder(lock);
    if (found !== undefined) {
      last = found.holder;
      // Broken: try again at once. Not broken (someone else is breaking it, or it changed): wait.
      if (staleness(found, Date.now()) !== undefined && (await breakStale(lock, found.text))) continue;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) throw gaveUp(configFile, lock, waited, last);
    // 5 to 25 ms, growing a little: holders keep the lock for milliseconds.
    const delay = Math.min(5 + attempt, 20) + Math.floor(Math.random() * 6);
    await sleep(Math.min(delay, waitMs - waited), signal);
  }
}
