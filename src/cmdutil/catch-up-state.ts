// What a receiver has seen, kept between runs of `gw listen --catch-up` and `gw webhook replay`:
// one small JSON file per profile in the user's state folder ($XDG_STATE_HOME/gateway, else
// ~/.local/state/gateway, where the sandbox's journal lives too): catch-up-<profile>.json, 0600.
//
//   {"version": 1, "lastAt": <Unix seconds of the last notification recorded>,
//    "pendingSince"?: <Unix seconds: the start of a window not wholly delivered>,
//    "seen": {"<event id>": <Unix seconds the payment was created>, …}}
//
// An event is added only once its notification was acknowledged (recorded on the output, and
// answered 2xx by --forward-to), and the file is then rewritten atomically (a temporary file,
// fsync'd, renamed over the old one): a crash leaves the old file or the new one, never half of
// one, and at worst an event acknowledged just before the crash is delivered once more (at least
// once, never lost). Events of payments created before the catch-up window are forgotten, so the
// file stays small.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';

/** How far before the last recorded notification catching up looks: a payment lives at most 48 h (docs/gateway.md §10). */
export const CATCH_UP_LOOKBACK_S = 2 * 24 * 3600;

export interface CatchUpState {
  /** Unix seconds of the last notification recorded (live or recovered); undefined: none yet. */
  lastAt?: number;
  /**
   * Unix seconds: the start of a catch-up window that was not wholly delivered (an event not
   * taken, a history page not read). Live notifications move `lastAt` on, never this: the next
   * catch-up starts here at the latest, until one delivers its whole window.
   */
  pendingSince?: number;
  /** Event id → Unix seconds its payment was created. */
  seen: Map<string, number>;
}

/** The state file of `profile` (its name made safe for a file name). */
export function catchUpStatePath(env: Readonly<Record<string, string | undefined>>, home: string, profile: string): string {
  const xdg = env.XDG_STATE_HOME;
  const state = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state');
  const safe = profile.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'default';
  return path.join(state, 'gateway', `catch-up-${safe}.json`);
}

/** The state kept in `file`; an empty one when there is none. A file gw cannot read as its own is exit 78. */
export function loadCatchUpState(file: string): CatchUpState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { seen: new Map() };
    throw new ConfigError(`the catch-up state ${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    const doc = JSON.parse(text) as { version?: unknown; lastAt?: unknown; pendingSince?: unknown; seen?: unknown };
    if (doc.version !== 1 || typeof doc.seen !== 'object' || doc.seen === null) throw new Error('not a version 1 state');
    const seen = new Map<string, number>();
    for (const [id, created] of Object.entries(doc.seen as Record<string, unknown>))
      if (/^[0-9a-f]{32}$/.test(id) && typeof created === 'number' && Number.isSafeInteger(created)) seen.set(id, created);
    const lastAt = typeof doc.lastAt === 'number' && Number.isSafeInteger(doc.lastAt) ? doc.lastAt : undefined;
    const pendingSince = typeof doc.pendingSince === 'number' && Number.isSafeInteger(doc.pendingSince) ? doc.pendingSince : undefined;
    return { ...(lastAt !== undefined && { lastAt }), ...(pendingSince !== undefined && { pendingSince }), seen };
  } catch (error) {
    throw new ConfigError(
      `the catch-up state ${file} is not gw's: ${(error as Error).message}`,
      'move it away to start over (every payment since --since is then delivered again)',
    );
  }
}

/** Writes `state` to `file` atomically (temporary file, fsync, rename), forgetting events of payments created before `forgetBefore`. */
export function saveCatchUpState(file: string, state: CatchUpState, forgetBefore?: number): void {
  if (forgetBefore !== undefined) for (const [id, created] of state.seen) if (created > 0 && created < forgetBefore) state.seen.delete(id);
  const doc = {
    version: 1,
    ...(state.lastAt !== undefined && { lastAt: state.lastAt }),
    ...(state.pendingSince !== undefined && { pendingSince: state.pendingSince }),
    seen: Object.fromEntries(state.seen),
  };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(doc)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
