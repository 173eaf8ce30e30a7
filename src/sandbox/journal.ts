// A journal of the payments `--sandbox` runs created, so that a later `gw status <id> --sandbox` or
// `gw payments --order-id … --sandbox` (another process, another in-process sandbox) finds them.
// A track id is a number (like the gateway's: 9 digits) and carries nothing: the journal's line
// holds what the lifecycle needs to answer for the payment at any time (its record: creation
// time, lifetime, coin and network, outcome, settle time, amount and currency) and its order id.
// Lines written before track ids were numbers hold only `{trackId, orderId}`, their `sbx…` id
// carrying the rest (track-id.ts); they are read as they always were.
//
// - Where: sandboxJournalPath() (options.ts): $XDG_STATE_HOME/gateway/sandbox-payments.jsonl
//   (default ~/.local/state/gateway/…), the folder created 0700, the files 0600, never followed
//   through a symbolic link.
// - What: one JSON line per payment, {"trackId", the record's fields, "orderId"} (the order id
//   last: withOrderId() looks for its text), newest last. No e-mails, descriptions or callback URLs.
//   A payment link's line also holds when its coin was chosen and when it was paid; when its payer
//   acts, the link is appended again, marked `"again":true` (the newest line wins; count() counts
//   the payment once).
// - Many writers, nothing lost: every process appends its line with ONE write() on a descriptor
//   opened O_APPEND, which the kernel places at the end of the file whole, whoever else appends at
//   the same time (on a local file system). Nothing ever rewrites a file in place.
// - Bounded: past ROTATE_BYTES the file is renamed to `<file>.<µs>-<random>` (a segment) and the
//   next append starts a new one; a writer still holding the old file appends to the segment,
//   which is read like the rest. Renaming takes `<file>.lock` (O_EXCL; appends never wait for it),
//   so segments are made one at a time, in the order their names sort. Segments are removed, oldest first, only while the newer files
//   hold at least KEEP_ENTRIES payments; each removal is reported (`onNotice`), never silent.
// - Read in proportion to what is asked: newest() reads from the end of the newest file backwards,
//   a chunk at a time, so the first page of the history costs the same at 10 entries or 10,000;
//   count() counts line ends (no parsing); find() and withOrderId() look for the exact text first
//   and parse only the lines that have it.
// - Unusable is an error, not an empty journal: a file past MAX_FILE_BYTES, or a line that is not
//   an entry, raises JournalError (exit 78, one line naming the file and what to do). A last line
//   without its line end (a write under way, or one cut short by a crash) is left out.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';

/** The newest file is renamed to a segment once it grows past this… */
export const ROTATE_BYTES = 1024 * 1024;
/** …and segments are removed only while newer files hold at least this many payments. */
export const KEEP_ENTRIES = 10_000;
/** A journal file larger than this is not one gw wrote. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Longest order id the journal records (the gateway's own limit is lower). */
const MAX_ORDER_ID = 200;
/** How much is read at a time, backwards. */
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
/** The mark of a line that records a payment again (lineOf). */
const AGAIN = Buffer.from('"again":true,');
/** A rotation lock older than this was left by a process that died. */
const LOCK_STALE_MS = 30_000;

/** What a payment's lifecycle needs, recorded with its numeric track id (an `sbx…` id carries it instead). */
export interface JournalRecord {
  /** Unix seconds. */
  createdAt: number;
  /** Minutes. */
  lifeTime: number;
  payCurrency: string;
  /** The network's display name, as answers carry it. */
  network: string;
  /** The final state its order id chose (lifecycle.ts's OUTCOMES). */
  outcome: string;
  settleSeconds: number;
  /** The currency the amount was asked in. */
  currency: string;
  /** The amount asked for, a plain decimal with its digits as sent. */
  amount: string;
  /** A payment link's timings, Unix seconds (0: not yet); its coin is `payCurrency` once chosen (invoices.ts). */
  link?: { chosenAt: number; startedAt: number; expiresAt: number };
  /** A payment to a fixed address (static-addresses.ts): that address. */
  staticAddress?: string;
}

export interface JournalEntry {
  trackId: string;
  orderId: string;
  /** The payment's record; absent on the lines of `sbx…` ids, which carry it. */
  record?: JournalRecord;
  /** A payment recorded again after it changed (a payment link's payer acted): the newest line wins, and it is not counted twice. */
  again?: boolean;
}

export interface JournalOptions {
  rotateBytes?: number;
  keepEntries?: number;
  maxFileBytes?: number;
  /** Told, in one line, what the journal did that a user should know: segments removed, an entry not written. */
  onNotice?: (line: string) => void;
}

/** The journal cannot be used: too large, not a regular file, or a line that is not an entry. */
export class JournalError extends ConfigError {
  constructor(file: string, problem: string) {
    super(`the sandbox journal ${file} cannot be used: ${problem}`, 'move it away (gw starts a new one) or delete it; it only records sandbox payments');
    this.name = 'JournalError';
  }
}

/**
 * The text of one of the sandbox's files beside the journal, opened without following a link;
 * undefined when there is none. A JournalError (exit 78) when it cannot be used: a link, not a
 * regular file, more than `maxBytes`, or not readable.
 */
export function readSandboxFile(file: string, maxBytes: number): string | undefined {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new JournalError(file, 'it is not a regular file');
      if (stat.size > maxBytes) throw new JournalError(file, `it is more than the ${maxBytes / 1024 / 1024} MiB gw ever writes`);
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // None yet is none; one that cannot be read is said, never taken for none.
    if (error instanceof JournalError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new JournalError(file, code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})`);
  }
}

/** A numeric track id (up to 15 digits: a JSON number keeps it exactly), or one of before (`sbx…`, carrying its record). */
const TRACK_ID = /^(?:[1-9]\d{0,14}|sbx[0-9a-z]{1,80})$/;
const SHORT_TEXT = /^[\x20-\x7e]{1,64}$/;
const AMOUNT = /^\d{1,40}(?:\.\d{1,40})?$/;
const ADDRESS = /^[\x21-\x7e]{1,128}$/;

/** The record of a line, or undefined when its fields are not one. */
function parseRecord(v: Record<string, unknown>): JournalRecord | undefined {
  const { createdAt, lifeTime, payCurrency, network, outcome, settleSeconds, currency, amount } = v;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  const text = (t: unknown): t is string => typeof t === 'string' && SHORT_TEXT.test(t);
  if (!whole(createdAt) || !whole(lifeTime) || !whole(settleSeconds) || !text(payCurrency) || !text(network) || !text(outcome) || !text(currency)) {
    return undefined;
  }
  if (typeof amount !== 'string' || !AMOUNT.test(amount)) return undefined;
  const record: JournalRecord = { createdAt, lifeTime, payCurrency, network, outcome, settleSeconds, currency, amount };
  const { staticAddress } = v;
  if (staticAddress !== undefined) {
    if (typeof staticAddress !== 'string' || !ADDRESS.test(staticAddress)) return undefined;
    record.staticAddress = staticAddress;
  }
  const { linkChosenAt, linkStartedAt, linkExpiresAt } = v;
  if (linkExpiresAt === undefined) return record;
  if (!whole(linkChosenAt) || !whole(linkStartedAt) || !whole(linkExpiresAt)) return undefined;
  return { ...record, link: { chosenAt: linkChosenAt, startedAt: linkStartedAt, expiresAt: linkExpiresAt } };
}

/** One line as an entry, or undefined when it is not one. */
function parseLine(line: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  const { trackId, orderId } = fields;
  if (typeof trackId !== 'string' || !TRACK_ID.test(trackId) || typeof orderId !== 'string' || orderId.length > MAX_ORDER_ID) return undefined;
  if (trackId.startsWith('sbx')) return { trackId, orderId };
  const record = parseRecord(fields);
  return record === undefined ? undefined : { trackId, orderId, record };
}

/** The line of an entry: the track id first, the order id last (withOrderId() looks for `"orderId":…}`). */
function lineOf(entry: JournalEntry): string {
  const r = entry.record;
  const record =
    r === undefined
      ? {}
      : {
          createdAt: r.createdAt,
          lifeTime: r.lifeTime,
          payCurrency: r.payCurrency,
          network: r.network,
          outcome: r.outcome,
          settleSeconds: r.settleSeconds,
          currency: r.currency,
          amount: r.amount,
          ...(r.link !== undefined && { linkChosenAt: r.link.chosenAt, linkStartedAt: r.link.startedAt, linkExpiresAt: r.link.expiresAt }),
          ...(r.staticAddress !== undefined && { staticAddress: r.staticAddress }),
        };
  return `${JSON.stringify({ trackId: entry.trackId, ...record, ...(entry.again === true && { again: true }), orderId: entry.orderId })}\n`;
}

export class SandboxJournal {
  readonly #rotateBytes: number;
  readonly #keepEntries: number;
  readonly #maxFileBytes: number;
  readonly #notice: (line: string) => void;

  constructor(
    readonly file: string,
    options: JournalOptions = {},
  ) {
    this.#rotateBytes = options.rotateBytes ?? ROTATE_BYTES;
    this.#keepEntries = options.keepEntries ?? KEEP_ENTRIES;
    this.#maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.#notice = options.onNotice ?? (() => undefined);
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /**
   * Appends one entry with a single O_APPEND write, then renames the file to a segment if it has
   * grown past its bound. Never throws: an entry that cannot be written is reported (onNotice) and
   * the sandbox goes on (the payment is only missing from later lookups by order id). True when written.
   */
  append(entry: JournalEntry): boolean {
    const line = Buffer.from(lineOf(entry));
    let size: number;
    let inode: number;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        const stat = fstatSync(fd);
        if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EFTYPE' });
        const written = writeSync(fd, line);
        if (written !== line.length) throw Object.assign(new Error(`only ${written} of ${line.length} bytes written`), { code: 'ESHORT' });
        const after = fstatSync(fd);
        size = after.size;
        inode = after.ino;
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      this.#notice(`the sandbox journal ${this.file} could not record payment ${entry.trackId} (${code}): a later --sandbox run will not find it by order id`);
      return false;
    }
    if (size > this.#rotateBytes) this.#rotate(inode);
    return true;
  }

  /**
   * Renames the newest file to a segment, then removes what is beyond the bound. One process at a
   * time (a lock file made with O_EXCL, taken only for this, never by appends), and only if the
   * file is still the one that grew: segments are made in the order their names sort.
   */
  #rotate(inode: number): void {
    const lock = `${this.file}.lock`;
    let fd: number;
    try {
      fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch {
      // Another process is rotating; a lock left by one that died goes after LOCK_STALE_MS, and a
      // later append rotates.
      try {
        if (Date.now() - lstatSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
      } catch {
        // Gone already.
      }
      return;
    }
    try {
      if (lstatSync(this.file).ino !== inode) return; // Rotated by another process already.
      // Microseconds of the wall clock, which every process shares.
      const stamp = String(Math.round((performance.timeOrigin + performance.now()) * 1000)).padStart(19, '0');
      // A random suffix against two processes' equal stamps (no secret: Math.random, not node:crypto).
      const suffix = Math.floor(Math.random() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0');
      renameSync(this.file, `${this.file}.${stamp}-${suffix}`);
      this.#prune();
    } catch {
      // Best effort: the next append tries again.
    } finally {
      closeSync(fd);
      try {
        unlinkSync(lock);
      } catch {
        // Removed as stale by another process.
      }
    }
  }

  /** Removes the oldest segments that are not needed to keep the newest keepEntries payments; says so. */
  #prune(): void {
    let kept = 0;
    let removed = 0;
    let removedFiles = 0;
    for (const file of this.#files()) {
      let lines: number;
      try {
        lines = this.#countLines(file);
      } catch {
        continue;
      }
      if (kept >= this.#keepEntries && file !== this.file) {
        try {
          unlinkSync(file);
          removed += lines;
          removedFiles++;
        } catch {
          // Already removed by another process.
        }
      } else kept += lines;
    }
    if (removedFiles > 0) {
      this.#notice(
        `the sandbox journal keeps the newest ${this.#keepEntries} or more payments: ${removed} older one${removed === 1 ? '' : 's'} removed (${path.dirname(this.file)})`,
      );
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** The journal's files, newest first: the file itself, then its segments. */
  #files(): string[] {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new JournalError(this.file, `its folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const segments = names
      .filter((n) => n.startsWith(`${base}.`) && /^\d{19}-[0-9a-f]{8}$/.test(n.slice(base.length + 1)))
      .sort()
      .reverse()
      .map((n) => path.join(dir, n));
    return [...(names.includes(base) ? [this.file] : []), ...segments];
  }

  /** Opens one of the journal's files for reading: a regular file within the size bound, never through a link. */
  #open(file: string): { fd: number; size: number } | undefined {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined; // Removed or renamed meanwhile.
      throw new JournalError(file, code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})`);
    }
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      throw new JournalError(file, 'it is not a regular file');
    }
    if (stat.size > this.#maxFileBytes) {
      closeSync(fd);
      throw new JournalError(file, `it is ${(stat.size / 1024 / 1024).toFixed(1)} MiB, more than the ${this.#maxFileBytes / 1024 / 1024} MiB gw ever writes`);
    }
    return { fd, size: stat.size };
  }

  #readWhole(file: string): Buffer | undefined {
    const opened = this.#open(file);
    if (opened === undefined) return undefined;
    try {
      const buffer = Buffer.alloc(opened.size);
      let at = 0;
      while (at < opened.size) {
        const n = readSync(opened.fd, buffer, at, opened.size - at, at);
        if (n === 0) break;
        at += n;
      }
      return buffer.subarray(0, at);
    } finally {
      closeSync(opened.fd);
    }
  }

  /** Complete lines (ended by a line end) in one file. */
  #countLines(file: string): number {
    const bytes = this.#readWhole(file);
    if (bytes === undefined) return 0;
    let lines = 0;
    for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) lines++;
    // A payment recorded again is one payment, not two.
    for (let i = bytes.indexOf(AGAIN); i !== -1; i = bytes.indexOf(AGAIN, i + 1)) lines--;
    return lines;
  }

  #entry(file: string, line: string): JournalEntry | undefined {
    if (line.trim() === '') return undefined;
    const entry = parseLine(line);
    if (entry === undefined) throw new JournalError(file, `a line is not a journal entry: ${JSON.stringify(line.slice(0, 40))}`);
    return entry;
  }

  /** How many entries the journal holds (complete lines; read, not parsed). */
  count(): number {
    let total = 0;
    for (const file of this.#files()) total += this.#countLines(file);
    return total;
  }

  /** Every entry, newest first, read lazily from the end of each file backwards. */
  *newest(): Generator<JournalEntry> {
    for (const file of this.#files()) {
      const opened = this.#open(file);
      if (opened === undefined) continue;
      try {
        let end = opened.size;
        let carry = Buffer.alloc(0);
        // The last line counts only once its line end is written.
        let skipPartial = true;
        while (end > 0) {
          const start = Math.max(0, end - CHUNK);
          const chunk = Buffer.alloc(end - start);
          readSync(opened.fd, chunk, 0, chunk.length, start);
          let bytes = Buffer.concat([chunk, carry]);
          if (skipPartial) {
            const last = bytes.lastIndexOf(NEWLINE);
            if (last === -1 && start > 0) {
              carry = bytes;
              end = start;
              continue;
            }
            bytes = bytes.subarray(0, last + 1);
            skipPartial = false;
          }
          // Lines wholly inside `bytes` (the first may be cut by the chunk's start: carried over).
          const first = start === 0 ? -1 : bytes.indexOf(NEWLINE);
          if (start > 0 && first === -1) {
            carry = bytes;
            end = start;
            continue;
          }
          const lines = bytes
            .subarray(first + 1)
            .toString('utf8')
            .split('\n');
          carry = start === 0 ? Buffer.alloc(0) : bytes.subarray(0, first + 1);
          for (let i = lines.length - 1; i >= 0; i--) {
            const entry = this.#entry(file, lines[i] as string);
            if (entry !== undefined) yield entry;
          }
          end = start;
        }
      } finally {
        closeSync(opened.fd);
      }
    }
  }

  /** Entries whose text contains `needle`, newest first: found as bytes, parsed one by one. */
  #matching(needle: string): JournalEntry[] {
    const wanted = Buffer.from(needle);
    const found: JournalEntry[] = [];
    for (const file of this.#files()) {
      const bytes = this.#readWhole(file);
      if (bytes === undefined) continue;
      const inFile: JournalEntry[] = [];
      for (let i = bytes.indexOf(wanted); i !== -1; i = bytes.indexOf(wanted, i + 1)) {
        const start = bytes.lastIndexOf(NEWLINE, i) + 1;
        const end = bytes.indexOf(NEWLINE, i);
        if (end === -1) break; // The last line is not complete yet.
        const entry = this.#entry(file, bytes.subarray(start, end).toString('utf8'));
        if (entry !== undefined) inFile.push(entry);
        i = end;
      }
      found.push(...inFile.reverse());
    }
    return found;
  }

  /** Tells the user, in one line, what a file kept beside the journal could not do (the sandbox's fixed addresses). */
  notice(line: string): void {
    this.#notice(line);
  }

  /** The newest entry for a track id, if the journal has one. */
  find(trackId: string): JournalEntry | undefined {
    if (!TRACK_ID.test(trackId)) return undefined;
    return this.#matching(`"trackId":"${trackId}"`).find((e) => e.trackId === trackId);
  }

  /** Every entry with this order id, newest first. */
  withOrderId(orderId: string): JournalEntry[] {
    return this.#matching(`"orderId":${JSON.stringify(orderId)}}`).filter((e) => e.orderId === orderId);
  }

  /** Every entry, oldest first. Reads the whole journal: for tests and small journals. */
  read(): JournalEntry[] {
    return [...this.newest()].reverse();
  }
}
