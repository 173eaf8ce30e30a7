// The QR module matrix for a payment URI, built with the QR model that qrcode-terminal vendors
// (Kazuhiko Arase's generator): its byte-mode encoder, Reed-Solomon coder, function patterns and
// mask choice are used as they are. test/unit/qr.test.ts verifies it with jsQR: every version
// 1..40 at M, Q and H filled to capacity, and payment-like strings of every length 1..400.
//
// One table entry is wrong: Reed-Solomon blocks for version 15 at level H are 11 × (36, 12) = 396
// codewords where the standard has 11 × (36, 12) + 7 × (37, 13) = 655, so a code forced to 15-H
// is unreadable. Its capacity (132 data codewords) is below version 14-H's (197), so a smallest-
// version search never picks it; we choose the version ourselves anyway (which also makes qrWidth
// cheap) and skip any entry whose codewords do not add up to the standard's count for that
// version. Only cost: 195..220 bytes at H get version 16 instead of 15. Level M is unaffected.

import QRCode from 'qrcode-terminal/vendor/QRCode/index.js';
import QRErrorCorrectLevel from 'qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel.js';
import QRRSBlock from 'qrcode-terminal/vendor/QRCode/QRRSBlock.js';
import { UsageError } from '../errors.js';

/** Error correction levels we offer: M (15 %) is the default, L is too fragile for a phone photo. */
export type QrLevel = 'M' | 'Q' | 'H';

export interface QrSymbol {
  /** QR version 1..40; the symbol is 4 × version + 17 modules square. */
  version: number;
  level: QrLevel;
  /** Modules per side, without quiet zone. */
  size: number;
  /** Row-major, true = dark, no quiet zone. */
  modules: boolean[][];
}

/** Modules of light margin the QR standard requires around the symbol. */
export const QUIET_ZONE = 4;

const MIN_VERSION = 1;
const MAX_VERSION = 40;

/** Printable ASCII only: the vendored model writes each UTF-16 unit as one byte, and URIs are ASCII. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Builds the QR symbol for `text` at `level`, in the smallest version that holds it. */
export function qrSymbol(text: string, level: QrLevel = 'M'): QrSymbol {
  assertEncodable(text);
  const version = chooseVersion(text.length, level);
  const model = new QRCode(version, QRErrorCorrectLevel[level]);
  model.addData(text);
  model.make();
  return { version, level, size: model.getModuleCount(), modules: readModules(model, version) };
}

/** The module matrix (true = dark, no quiet zone) for `text` at `level` (default M). */
export function qrMatrix(text: string, level: QrLevel = 'M'): boolean[][] {
  return qrSymbol(text, level).modules;
}

/** The version qrSymbol would choose, without drawing the symbol (cheap). */
export function qrVersion(text: string, level: QrLevel = 'M'): number {
  assertEncodable(text);
  return chooseVersion(text.length, level);
}

/** The matrix surrounded by QUIET_ZONE light (false) modules on every side. */
export function withQuietZone(modules: boolean[][]): boolean[][] {
  const size = modules.length + 2 * QUIET_ZONE;
  const blank = (): boolean[] => new Array<boolean>(size).fill(false);
  const margin = new Array<boolean>(QUIET_ZONE).fill(false);
  const rows: boolean[][] = [];
  for (let i = 0; i < QUIET_ZONE; i++) rows.push(blank());
  for (const row of modules) rows.push([...margin, ...row, ...margin]);
  for (let i = 0; i < QUIET_ZONE; i++) rows.push(blank());
  return rows;
}

/** Throws a UsageError unless `text` is non-empty printable ASCII. */
function assertEncodable(text: string): void {
  if (text.length === 0) throw new UsageError('Nothing to put in the QR code: the text is empty.');
  if (!PRINTABLE_ASCII.test(text)) {
    const bad = [...text].find((ch) => !PRINTABLE_ASCII.test(ch)) ?? '';
    const code = bad.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '?';
    throw new UsageError(
      `The QR code text must be printable ASCII; it contains U+${code}.`,
      'Payment URIs are ASCII: percent-encode anything else.',
    );
  }
}

/** Smallest version whose (sound) table entry at `level` holds `byteCount` bytes in byte mode. */
function chooseVersion(byteCount: number, level: QrLevel): number {
  const code = QRErrorCorrectLevel[level];
  for (let version = MIN_VERSION; version <= MAX_VERSION; version++) {
    const blocks = QRRSBlock.getRSBlocks(version, code);
    const totalCodewords = blocks.reduce((sum, b) => sum + b.totalCount, 0);
    if (totalCodewords !== rawCodewords(version)) continue; // wrong table entry: 15-H
    const dataBits = 8 * blocks.reduce((sum, b) => sum + b.dataCount, 0);
    if (byteModeBits(byteCount, version) <= dataBits) return version;
  }
  throw new UsageError(
    `Too long for a QR code at level ${level}: ${byteCount} characters.`,
    'A payment URI should be a few hundred characters at most.',
  );
}

/** Bits of one byte-mode segment: mode indicator, character count, data. */
function byteModeBits(byteCount: number, version: number): number {
  const countBits = version < 10 ? 8 : 16;
  if (byteCount >= 2 ** countBits) return Infinity;
  return 4 + countBits + 8 * byteCount;
}

/**
 * Codewords (data + error correction) a version holds, from the standard's module count:
 * all modules minus finder, separator, timing, alignment, format and version patterns.
 */
export function rawCodewords(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignPerSide = Math.floor(version / 7) + 2;
    modules -= (25 * alignPerSide - 10) * alignPerSide - 55;
    if (version >= 7) modules -= 36;
  }
  return Math.floor(modules / 8);
}

/** Copies the model's modules into a plain boolean matrix, checking its shape. */
function readModules(model: QRCode, version: number): boolean[][] {
  const size = model.getModuleCount();
  if (size !== 4 * version + 17 || model.modules === null) {
    throw new Error(`QR model produced ${size} modules for version ${version}`);
  }
  const rows: boolean[][] = [];
  for (let r = 0; r < size; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < size; c++) row.push(model.isDark(r, c) === true);
    rows.push(row);
  }
  return rows;
}
