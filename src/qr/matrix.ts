// The QR module matrix for a payment URI, from the `qrcode` package's encoder (its core only:
// lib/core/qrcode.js, no renderers). It splits the text into optimal segments (numeric runs such as
// wei amounts take fewer bits than bytes), picks the smallest version and the best mask, with the
// standard's tables; gw draws the matrix itself (terminal.ts, image.ts).
import QRCode from 'qrcode/lib/core/qrcode.js';
import { UsageError } from '../errors.js';

/**
 * Error correction levels: M (15 %) is the default. L (7 %) only where nothing larger fits a
 * terminal's counter screen (src/qr/terminal.ts SCREEN_QR_LADDER; docs/decisions.md).
 */
export type QrLevel = 'L' | 'M' | 'Q' | 'H';

/** Module rows, true = dark. Read-only: a symbol is shared by the calls that ask for the same code. */
export type QrMatrix = readonly (readonly boolean[])[];

export interface QrSymbol {
  /** QR version 1..40; the symbol is 4 × version + 17 modules square. */
  version: number;
  level: QrLevel;
  /** Modules per side, without quiet zone. */
  size: number;
  /** Row-major, true = dark, no quiet zone. */
  modules: QrMatrix;
}

/** Modules of light margin the QR standard requires around the symbol. */
export const QUIET_ZONE = 4;

/** Printable ASCII only: payment URIs are ASCII (anything else is percent-encoded). */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The last few symbols built: choosing segments and the best of eight masks is the costly part,
 * and `gw pay` sizes a code (qrWidth, qrSize) before it draws the same code.
 */
const recent = new Map<string, QrSymbol>();
const RECENT_MAX = 8;

/**
 * The QR symbol for `text` at `level`, in the smallest version that holds it. The symbol is shared
 * with later calls for the same text and level: it and its rows are frozen.
 */
export function qrSymbol(text: string, level: QrLevel = 'M'): QrSymbol {
  const key = `${level}${text}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const symbol = buildSymbol(text, level);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(key, symbol);
  return symbol;
}

function buildSymbol(text: string, level: QrLevel): QrSymbol {
  assertEncodable(text);
  let symbol: ReturnType<typeof QRCode.create>;
  try {
    symbol = QRCode.create(text, { errorCorrectionLevel: level });
  } catch {
    throw new UsageError(`Too long for a QR code at level ${level}: ${text.length} characters.`, 'A payment URI should be a few hundred characters at most.');
  }
  const { size, data } = symbol.modules;
  if (size !== 4 * symbol.version + 17 || data.length !== size * size) {
    throw new Error(`QR encoder produced ${size} modules for version ${symbol.version}`);
  }
  const modules: (readonly boolean[])[] = [];
  for (let r = 0; r < size; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < size; c++) row.push(data[r * size + c] === 1);
    modules.push(Object.freeze(row));
  }
  return Object.freeze({ version: symbol.version, level, size, modules: Object.freeze(modules) });
}

/** The module matrix (true = dark, no quiet zone) for `text` at `level` (default M). */
export function qrMatrix(text: string, level: QrLevel = 'M'): QrMatrix {
  return qrSymbol(text, level).modules;
}

/** The matrix surrounded by `quiet` light (false) modules on every side (default QUIET_ZONE). */
export function withQuietZone(modules: QrMatrix, quiet: number = QUIET_ZONE): boolean[][] {
  const size = modules.length + 2 * quiet;
  const blank = (): boolean[] => new Array<boolean>(size).fill(false);
  const margin = new Array<boolean>(quiet).fill(false);
  const rows: boolean[][] = [];
  for (let i = 0; i < quiet; i++) rows.push(blank());
  for (const row of modules) rows.push([...margin, ...row, ...margin]);
  for (let i = 0; i < quiet; i++) rows.push(blank());
  return rows;
}

/** Throws a UsageError unless `text` is non-empty printable ASCII. */
function assertEncodable(text: string): void {
  if (text.length === 0) throw new UsageError('Nothing to put in the QR code: the text is empty.');
  if (!PRINTABLE_ASCII.test(text)) {
    const bad = [...text].find((ch) => !PRINTABLE_ASCII.test(ch)) ?? '';
    const code = bad.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '?';
    throw new UsageError(`The QR code text must be printable ASCII; it contains U+${code}.`, 'Payment URIs are ASCII: percent-encode anything else.');
  }
}
