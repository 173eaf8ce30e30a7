// Receipts on disk, for `gw pay … --wait --receipt FILE` and the till (`gw counter --receipts DIR`).
// What a receipt says is src/views/receipt.ts; this module checks where it goes and writes it.
//
// The order of things, for a caller:
//   1. parse the width flag: parseReceiptWidth(flag) (exit 64 unless 32, 42 or 48);
//   2. BEFORE the payment is created: await checkReceiptTarget(target, flagName) (exit 73, "no
//      payment was created": a file already there, a missing or unwritable folder);
//   3. once the payment is in a final state: await writeReceipt(target, info, options), which
//      returns the file written, or throws exit 73 stating the payment's state (the payment is
//      not affected: say so, do not retry the payment).
//
// Writing is atomic and never overwrites: the text goes to a temporary file in the same folder
// (created exclusively), is fsync'ed, then hard-linked to its name (link fails when the name is
// taken: an existing file is never replaced, not even one that appeared during the wait) and the
// temporary name removed. A reader sees no file or the whole receipt. A file system without hard
// links (some FAT or network mounts) refuses the write with its error code: nothing is left there.
import path from 'node:path';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { DEFAULT_RECEIPT_WIDTH, RECEIPT_WIDTHS, type ReceiptOptions, type ReceiptWidth, renderReceipt } from '../views/receipt.js';

export { DEFAULT_RECEIPT_WIDTH, RECEIPT_WIDTHS, type ReceiptWidth } from '../views/receipt.js';

/**
 * Where receipts go: one named file (`gw pay --receipt FILE`), or a folder that gets one file per
 * payment, named by receiptFileName (`gw counter --receipts DIR`). `flag` names the option in
 * messages ("--receipt", "--receipts").
 */
export type ReceiptTarget = { kind: 'file'; path: string; flag: string } | { kind: 'dir'; path: string; flag: string };

/** What a command was asked for: `--receipt FILE` (or the till's `--receipts DIR`) and how to lay it out. */
export interface ReceiptRequest {
  target: ReceiptTarget;
  /** The width flag's value (parseReceiptWidth); undefined: the configured `receiptWidth`, else 42. */
  width?: ReceiptWidth | undefined;
  /** Keep non-ASCII characters (`--receipt-unicode`). */
  unicode: boolean;
  /** The resolved configuration (`merchantName`, `receiptWidth`): the factory's `config()`. */
  config: () => Promise<Pick<ResolvedConfig, 'merchantName' | 'receiptWidth'>>;
}

/** `gw pay`'s receipt flags as Commander gives them. */
export interface ReceiptFlags {
  receipt?: string;
  receiptWidth?: string;
  receiptUnicode?: boolean;
}

/**
 * The receipt `gw pay` was asked for, checked before anything else (exit 64): `--receipt` needs
 * `--wait` (a receipt is written when the payment ends), the width and unicode flags need
 * `--receipt`, and the receipt cannot go where `--qr-out` writes.
 */
export function receiptRequestOf(flags: ReceiptFlags, wait: boolean, qrOut: string | undefined, config: ReceiptRequest['config']): ReceiptRequest | undefined {
  if (flags.receipt === undefined) {
    if (flags.receiptWidth !== undefined || flags.receiptUnicode === true)
      throw new UsageError(`--receipt-width and --receipt-unicode go with --receipt <file>`);
    return undefined;
  }
  if (!wait) throw new UsageError('--receipt needs --wait: the receipt is written when the payment ends', 'e.g. gw pay 25 USDT --wait --receipt receipt.txt');
  if (flags.receipt.trim() === '') throw new UsageError('--receipt must name a file');
  if (qrOut !== undefined && path.resolve(qrOut) === path.resolve(flags.receipt)) throw new UsageError('--receipt and --qr-out name the same file');
  return {
    target: { kind: 'file', path: flags.receipt, flag: '--receipt' },
    width: flags.receiptWidth === undefined ? undefined : parseReceiptWidth(flags.receiptWidth),
    unicode: flags.receiptUnicode === true,
    config,
  };
}

/**
 * After the wait: the receipt of a payment that reached a final state (`info`), with one line on
 * stderr naming the file; for a wait that ended otherwise (gave up, interrupted) a warning that no
 * receipt was written. A write that fails is writeReceipt's exit 73, stating the state.
 */
export async function writeFinalReceipt(io: IOStreams, prepared: PreparedReceipt, info: PaymentInfo | undefined, now: number, trackId: string): Promise<void> {
  if (info === undefined) {
    io.warn(`no receipt was written: payment ${trackId} did not reach a final state`);
    return;
  }
  const file = await writeReceipt(prepared.target, info, { ...prepared.options, now, sandbox: io.sandbox });
  io.notice(`Receipt written to ${file}`);
}

/** A receipt ready to be written once the payment ends: where, and everything but the time. */
export interface PreparedReceipt {
  target: ReceiptTarget;
  options: Omit<ReceiptOptions, 'now' | 'sandbox'>;
}

/**
 * Before the payment is created: the target checked (checkReceiptTarget: exit 73, no payment
 * created) and the layout settled from the flags and the configuration (a bad setting: exit 78).
 */
export async function prepareReceipt(request: ReceiptRequest): Promise<PreparedReceipt> {
  const config = await request.config();
  await checkReceiptTarget(request.target);
  const merchantName = config.merchantName?.value;
  return {
    target: request.target,
    options: {
      width: request.width ?? config.receiptWidth?.value ?? DEFAULT_RECEIPT_WIDTH,
      unicode: request.unicode,
      ...(merchantName !== undefined && { merchantName }),
    },
  };
}

/**
 * The width a flag names (`--receipt-width`): 32, 42 or 48, else exit 64. Without the flag the
 * configured `receiptWidth` (checked where the configuration is read), else 42: prepareReceipt.
 */
export function parseReceiptWidth(flag: string, flagName = '--receipt-width'): ReceiptWidth {
  const width = RECEIPT_WIDTHS.find((w) => String(w) === flag.trim());
  if (width === undefined)
    throw new UsageError(`${flagName} must be ${RECEIPT_WIDTHS.join(', ')} (columns; got "${flag.slice(0, 20)}")`, '32 for 58 mm paper, 42 or 48 for 80 mm');
  return width;
}

/** FNV-1a, 32 bits, as 8 hex digits: tells apart track ids that lose characters in a file name. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The file name of a payment's receipt in a folder: `YYYYMMDD-HHMMSS-<trackId>.txt`, the local date
 * and time it was written (TZ honoured), so a folder lists in order. The track id keeps only
 * letters, digits, `_` and `-` (at most 64): one that had anything else (a `/`, `..`, a space,
 * a control character) gets those replaced by `_` and a hash of the exact id appended, so no id
 * leaves the folder and two ids never share a name.
 */
export function receiptFileName(trackId: string, now: number): string {
  const d = new Date(now);
  const stamp = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  const safe = trackId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const id = safe === trackId && safe !== '' ? safe : `${safe}-${shortHash(trackId)}`;
  return `${stamp}-${id}.txt`;
}

/** The file a payment's receipt goes to. */
export function receiptPath(target: ReceiptTarget, trackId: string, now: number): string {
  return target.kind === 'file' ? target.path : path.join(target.path, receiptFileName(trackId, now));
}

/**
 * Checks, before the payment is created, that the receipt can be written: for a file, that nothing
 * is there (any kind of entry, a dangling link too) and its folder is a writable folder; for a
 * folder, that it is one and writable. Exit 73, "no payment was created", otherwise.
 */
export async function checkReceiptTarget(target: ReceiptTarget): Promise<void> {
  const { constants } = await import('node:fs');
  const { access, lstat, stat } = await import('node:fs/promises');
  const resolved = path.resolve(target.path);
  const folder = target.kind === 'file' ? path.dirname(resolved) : resolved;
  let reason: string | undefined;
  try {
    if (target.kind === 'file') {
      const there = await lstat(resolved).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
      if (there?.isDirectory() === true) reason = 'EISDIR: a folder is there; name a file in it';
      else if (there !== undefined) reason = 'EEXIST: a file is already there, and a receipt never replaces one';
    }
    if (reason === undefined) {
      const info = await stat(folder);
      if (!info.isDirectory()) reason = target.kind === 'dir' ? 'ENOTDIR: not a folder' : 'ENOTDIR: its folder is not a folder';
      else await access(folder, constants.W_OK | constants.X_OK);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    reason = code === 'ENOENT' ? `ENOENT: the folder ${target.kind === 'file' ? 'it goes in ' : ''}does not exist` : code;
  }
  if (reason !== undefined) throw new GwError(ExitCode.CANTCREAT, `${target.flag} ${target.path} cannot be written (${reason}); no payment was created`);
}

/**
 * Writes `text` to `file` atomically without ever replacing a file: a temporary file beside it
 * (created exclusively, fsync'ed), hard-linked to `file`, then removed. Rejects with the file
 * system's error (EEXIST when `file` exists); nothing is left behind then.
 */
export async function writeFileExclusive(file: string, text: string): Promise<void> {
  const { link, open, unlink } = await import('node:fs/promises');
  const target = path.resolve(file);
  const folder = path.dirname(target);
  const temp = path.join(folder, `.${path.basename(target)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temp, target);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  // The new name durable too, where the system allows a folder to be synced.
  const dir = await open(folder, 'r').catch(() => undefined);
  if (dir !== undefined)
    await dir
      .sync()
      .catch(() => undefined)
      .finally(() => dir.close());
}

/**
 * Renders the receipt of a payment in a final state and writes it to the target; returns the file
 * written. A failure is exit 73 whose message states the payment's state (the payment itself is
 * unaffected), with the track id and `payment: created`.
 */
export async function writeReceipt(target: ReceiptTarget, info: PaymentInfo, options: ReceiptOptions): Promise<string> {
  const file = receiptPath(target, info.trackId.raw(), options.now);
  try {
    await writeFileExclusive(file, renderReceipt(info, options));
    return file;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'EEXIST' ? 'EEXIST: a file is already there, and it was left as it was' : `${code}: nothing was written there`;
    throw new GwError(
      ExitCode.CANTCREAT,
      `payment ${info.trackId.line(100)} is ${info.status.toUpperCase()}, but its receipt could not be written to ${file} (${why})`,
      {
        trackId: info.trackId.raw(),
        payment: 'created',
        hint: `the payment itself is not affected (do not charge again); its details: gw status ${shellQuote(info.trackId.raw())}`,
      },
    );
  }
}
