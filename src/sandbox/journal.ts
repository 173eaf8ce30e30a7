// A small journal of the payments `--sandbox` runs created, so that a later `gw payments
// --order-id … --sandbox` (another process, another in-process sandbox) finds them. The track id
// carries everything else (track-id.ts); the journal adds only what it cannot: the order id.
//
// - Where: sandboxJournalPath() (options.ts): $XDG_STATE_HOME/gateway/sandbox-payments.jsonl
//   (default ~/.local/state/gateway/…), the folder created 0700, the file 0600, never followed
//   through a symbolic link.
// - What: one JSON line per payment, {"trackId", "orderId"}. No amounts, e-mails or descriptions.
// - Bounded: past MAX_BYTES it is rewritten with its last KEEP_ENTRIES lines (write + rename).
// - Best effort: a journal that cannot be read or written is ignored (the sandbox works without
//   it; only the later lookup by order id misses the payment). Lines that are not well-formed
//   or whose track id does not decode are skipped.
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { decodeTrackId } from './track-id.js';

/** Rewritten once it grows past this many bytes… */
const MAX_BYTES = 64 * 1024;
/** …keeping this many of its newest entries. */
export const KEEP_ENTRIES = 300;
/** A longer file is not read at all (not a journal gw wrote). */
const READ_LIMIT = 1024 * 1024;

export interface JournalEntry {
  trackId: string;
  orderId: string;
}

function isRegularFileOrAbsent(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function parse(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const { trackId, orderId } = value as Record<string, unknown>;
    if (typeof trackId !== 'string' || typeof orderId !== 'string' || orderId.length > 200 || decodeTrackId(trackId) === undefined) continue;
    entries.push({ trackId, orderId });
  }
  return entries;
}

export class SandboxJournal {
  constructor(readonly file: string) {}

  /** Every entry, oldest first (empty when there is no readable journal). */
  read(): JournalEntry[] {
    try {
      if (!isRegularFileOrAbsent(this.file)) return [];
      const fd = openSync(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const text = readFileSync(fd, 'utf8');
        return text.length > READ_LIMIT ? [] : parse(text);
      } finally {
        closeSync(fd);
      }
    } catch {
      return [];
    }
  }

  /** Appends one entry; trims the file when it has grown past its bound. */
  append(entry: JournalEntry): void {
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      if (!isRegularFileOrAbsent(this.file)) return;
      const fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      let size: number;
      try {
        writeSync(fd, `${JSON.stringify({ trackId: entry.trackId, orderId: entry.orderId })}\n`);
        size = lstatSync(this.file).size;
      } finally {
        closeSync(fd);
      }
      if (size > MAX_BYTES) this.#trim();
    } catch {
      // Best effort: see the module comment.
    }
  }

  #trim(): void {
    const kept = this.read().slice(-KEEP_ENTRIES);
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, kept.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, this.file);
  }
}
