// Tests for src/qr: the encoder (qrcode's core) against an independent one and ZXing's decoder,
// then the terminal rendering on dark and light themes, the quiet zone, the width, the error
// correction level, and the SVG / PNG export.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../support/random.js';
import { PNG } from 'pngjs';
import type QrcodeTerminal from 'qrcode-terminal';
import QRCode from 'qrcode-terminal/vendor/QRCode/index.js';
import QRErrorCorrectLevel from 'qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel.js';
import { GwError, UsageError } from '../../src/errors.js';
import {
  QUIET_ZONE,
  QrTooWideError,
  qrMatrix,
  qrPng,
  qrSvg,
  qrSize,
  qrSymbol,
  qrWidth,
  renderTerminalQr,
  writeQrImage,
  type QrMatrix,
  type QrLevel,
} from '../../src/qr/index.js';
import { THEMES, decodeMatrix, decodePng, decodeSvg, decodeTerminalQr, paintTerminal, type Cell, type Rgb } from '../support/qr-decode.js';

// ---- fixtures ---------------------------------------------------------------------------------

const BTC_URI = 'bitcoin:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx?amount=0.00038127';
const EIP681_URI = 'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer' + '?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=25000000';
const ETH_18_DECIMALS = 'ethereum:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed@1?value=1.234567890123456789e18';
const LTC_18_DECIMALS = 'litecoin:ltc1qg82tn6ch6yvlzl3l9ss2ynz4kqehupfgvtss5l?amount=0.000000000000000001';
/** A 150-character URI: the "typical" upper end the 80-column promise is made for. */
const URI_150 = `${BTC_URI}&label=Order%20%2341235&message=Invoice%2020250517-0042`.padEnd(150, 'x');

const prng = mulberry32;

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const LOWER_DIGITS = 'abcdefghijklmnopqrstuvwxyz0234567890';
const URI_CHARS = `${LOWER_DIGITS}ABCDEFXYZ:?&=@/.%-_`;

function randomString(length: number, alphabet: string, rand: () => number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(rand() * alphabet.length)] ?? 'x';
  return s;
}

/** A stream of payment URIs (BTC with 8 decimals, EIP-681, 18-decimal amounts) to cut strings from. */
function paymentStream(rand: () => number): string {
  const hex = '0123456789abcdefABCDEF';
  const parts: string[] = [];
  while (parts.join('').length < 500) {
    const amount = `${Math.floor(rand() * 100)}.${randomString(1 + Math.floor(rand() * 18), '0123456789', rand)}`;
    parts.push(
      rand() < 0.5
        ? `bitcoin:tb1q${randomString(38, LOWER_DIGITS, rand)}?amount=${amount}&label=Shop%20${Math.floor(rand() * 1e5)}`
        : `ethereum:0x${randomString(40, hex, rand)}@${1 + Math.floor(rand() * 200)}/transfer` +
            `?address=0x${randomString(40, hex, rand)}&uint256=${randomString(1 + Math.floor(rand() * 24), '0123456789', rand)}`,
    );
  }
  return parts.join('&next=');
}

/** A payment-like string of exactly `length` characters, drawn three different ways. */
function paymentLike(length: number, rand: () => number): string {
  switch (length % 3) {
    case 0:
      return paymentStream(rand).slice(0, length);
    case 1:
      return randomString(length, PRINTABLE, rand);
    default:
      return randomString(length, rand() < 0.5 ? LOWER_DIGITS : URI_CHARS, rand);
  }
}

// ---- helpers reading the symbol back ----------------------------------------------------------

/** Format information (ISO 18004 §7.9): level and mask, read from the copy around the top-left finder. */
function readFormatInfo(m: QrMatrix): { level: string; mask: number; bchValid: boolean; copiesAgree: boolean } {
  const at = (r: number, c: number): number => (m[r]?.[c] === true ? 1 : 0);
  const size = m.length;
  let first = 0;
  let second = 0;
  for (let i = 0; i < 15; i++) {
    // bit i of the first copy
    const [r, c] = i < 6 ? [i, 8] : i === 6 ? [7, 8] : i === 7 ? [8, 8] : i === 8 ? [8, 7] : [8, 14 - i];
    first |= at(r, c) << i;
    // bit i of the second copy (bottom-left column and top-right row)
    const [r2, c2] = i < 8 ? [8, size - 1 - i] : [size - 15 + i, 8];
    second |= at(r2, c2) << i;
  }
  const bits = first ^ 0x5412;
  const data = bits >> 10;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >> 9) * 0x537);
  const level = (['M', 'L', 'H', 'Q'] as const)[data >> 3] ?? '?';
  return { level, mask: data & 7, bchValid: (bits & 0x3ff) === rem, copiesAgree: first === second };
}

/** Turns painted cells into light/dark modules (two per cell, top then bottom) by luminance. */
function cellsToModules(cells: Cell[][]): boolean[][] {
  const dark = (rgb: Rgb): boolean => 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 128;
  return cells.flatMap((row) => [row.map((cell) => dark(cell.top)), row.map((cell) => dark(cell.bottom))]);
}

/** Light margins around the dark modules: rows above/below, columns left/right. */
function margins(modules: QrMatrix): { top: number; bottom: number; left: number; right: number } {
  const darkRows = modules.map((row, r) => (row.includes(true) ? r : -1)).filter((r) => r >= 0);
  const cols = modules[0]?.length ?? 0;
  const darkCols = Array.from({ length: cols }, (_, c) => c).filter((c) => modules.some((row) => row[c] === true));
  return {
    top: darkRows[0] ?? -1,
    bottom: modules.length - 1 - (darkRows.at(-1) ?? -1),
    left: darkCols[0] ?? -1,
    right: cols - 1 - (darkCols.at(-1) ?? -1),
  };
}

const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

// ---- the encoder -----------------------------------------------------------------------------

describe("the QR encoder (qrcode) against an independent one (qrcode-terminal's model)", () => {
  // Two encoders written apart from each other put the same text in their symbols: what the payer
  // scans does not depend on one library's quirks. (qrcode-terminal's model is used only here.)
  it.each([BTC_URI, EIP681_URI, LTC_18_DECIMALS, URI_150])('both encode %s so that it decodes exactly', (uri) => {
    const model = new QRCode(-1, QRErrorCorrectLevel.M);
    model.addData(uri);
    model.make();
    expect(decodeMatrix(model.modules as boolean[][])).toBe(uri);
    expect(decodeMatrix(qrMatrix(uri))).toBe(uri);
  });

  it('never needs a larger version than byte mode alone (numeric runs such as wei amounts take fewer bits)', () => {
    for (const uri of [BTC_URI, EIP681_URI, ETH_18_DECIMALS, LTC_18_DECIMALS, URI_150]) {
      const model = new QRCode(-1, QRErrorCorrectLevel.M);
      model.addData(uri);
      model.make();
      expect(qrSymbol(uri).version).toBeLessThanOrEqual(model.typeNumber);
    }
  });

  it('draws readable codes across versions 1..40 at M, Q and H', () => {
    const rand = prng(40);
    const failures: string[] = [];
    const capacityM: Record<number, number> = { 1: 14, 5: 84, 10: 213, 16: 450, 22: 784, 30: 1370, 40: 2331 };
    for (const level of ['M', 'Q', 'H'] as const) {
      for (const capacity of Object.values(capacityM)) {
        const text = randomString(level === 'M' ? capacity : Math.floor(capacity / 2), LOWER_DIGITS, rand);
        if (decodeMatrix(qrMatrix(text, level)) !== text) failures.push(`${level} ${text.length} bytes`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

// ---- qrMatrix ---------------------------------------------------------------------------------

describe('qrMatrix', () => {
  it('round-trips payment-like strings of lengths 1..400 at level M', () => {
    const rand = prng(2024);
    const failures: string[] = [];
    for (let length = 1; length <= 400; length += length < 40 ? 1 : 5) {
      const text = paymentLike(length, rand);
      expect(text).toHaveLength(length);
      const decoded = decodeMatrix(qrMatrix(text));
      if (decoded !== text) failures.push(`${length}: ${JSON.stringify(text)} -> ${JSON.stringify(decoded)}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('round-trips payment-like strings at levels Q and H', () => {
    const rand = prng(7);
    const failures: string[] = [];
    for (const level of ['Q', 'H'] as const) {
      for (let length = 1; length <= 400; length += 23) {
        const text = paymentLike(length, rand);
        if (decodeMatrix(qrMatrix(text, level)) !== text) failures.push(`${level} ${length}: ${text}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it.each([BTC_URI, EIP681_URI, ETH_18_DECIMALS, LTC_18_DECIMALS, URI_150])('encodes %s exactly', (uri) => {
    for (const level of ['M', 'Q', 'H'] as const) expect(decodeMatrix(qrMatrix(uri, level))).toBe(uri);
  });

  it('encodes at the requested error correction level (format information)', () => {
    for (const level of ['M', 'Q', 'H'] as const satisfies readonly QrLevel[]) {
      const info = readFormatInfo(qrMatrix(EIP681_URI, level));
      expect(info).toMatchObject({ level, bchValid: true, copiesAgree: true });
    }
    expect(readFormatInfo(qrMatrix(EIP681_URI)).level).toBe('M'); // the default
  });

  it('builds a code once for a text and level (gw pay sizes it before drawing it); the shared symbol cannot be changed', () => {
    const symbol = qrSymbol(BTC_URI, 'Q');
    expect(qrSymbol(BTC_URI, 'Q')).toBe(symbol);
    expect(qrSymbol(BTC_URI, 'H')).not.toBe(symbol);
    expect(Object.isFrozen(symbol) && Object.isFrozen(symbol.modules) && symbol.modules.every((row) => Object.isFrozen(row))).toBe(true);
    expect(() => {
      (symbol.modules[0] as boolean[])[0] = false;
    }).toThrow(TypeError);
    expect(decodeMatrix(qrMatrix(BTC_URI, 'Q'))).toBe(BTC_URI);
  });

  it("chooses the smallest version by level M's byte capacity (ISO 18004 table 7)", () => {
    const capacityM: Record<number, number> = { 1: 14, 2: 26, 5: 84, 8: 152, 10: 213, 13: 331, 15: 412, 40: 2331 };
    for (const [version, capacity] of Object.entries(capacityM)) {
      expect(qrSymbol('a'.repeat(capacity)).version).toBe(Number(version));
      if (Number(version) < 40) expect(qrSymbol('a'.repeat(capacity + 1)).version).toBe(Number(version) + 1);
    }
    const symbol = qrSymbol(URI_150);
    expect(symbol).toMatchObject({ version: 8, level: 'M', size: 49 });
    expect(symbol.modules).toHaveLength(49);
    expect(symbol.modules.every((row) => row.length === 49)).toBe(true);
  });

  it('refuses text that is not printable ASCII, empty, or too long', () => {
    expect(() => qrMatrix('bitcoin:tb1q…?amount=1')).toThrow(UsageError);
    expect(() => qrMatrix('bitcoin:tb1q…?amount=1')).toThrow(/U\+2026/);
    expect(() => qrMatrix('line\nbreak')).toThrow(UsageError);
    expect(() => qrMatrix('tab\there')).toThrow(UsageError);
    expect(() => qrMatrix('é')).toThrow(UsageError);
    expect(() => qrMatrix('')).toThrow(UsageError);
    expect(() => qrMatrix('a'.repeat(2332))).toThrow(UsageError);
    expect(() => qrMatrix(' ~')).not.toThrow();
  });
});

// ---- terminal ---------------------------------------------------------------------------------

describe('renderTerminalQr', () => {
  const uris = [BTC_URI, EIP681_URI, ETH_18_DECIMALS, URI_150];

  it.each(uris)('in colour decodes on a dark AND a light theme: %s', (uri) => {
    const out = renderTerminalQr(uri, { color: true });
    expect(decodeTerminalQr(out, 'dark')).toBe(uri);
    expect(decodeTerminalQr(out, 'light')).toBe(uri);
  });

  it('in colour sets both colours on every cell, so the theme cannot change a single pixel', () => {
    const out = renderTerminalQr(EIP681_URI, { color: true });
    expect(paintTerminal(out, 'dark')).toEqual(paintTerminal(out, 'light'));
    for (const line of out.trimEnd().split('\n')) {
      expect(line).toMatch(/^\x1b\[(30|97);(40|107)m/); // both set before the first cell
      expect(line.endsWith('\x1b[0m')).toBe(true); // reset at the end of every line
      expect(stripAnsi(line)).toMatch(/^▀+$/);
    }
    expect(out.match(/\x1b\[[0-9;]*m/g)?.every((sgr) => /^\x1b\[(0|(30|97);(40|107))m$/.test(sgr))).toBe(true);
  });

  it.each(uris)('without colour decodes on a dark theme: %s', (uri) => {
    expect(decodeTerminalQr(renderTerminalQr(uri, { color: false }), 'dark')).toBe(uri);
  });

  it('without colour does NOT decode on a light theme (inverted): why colour is the TTY default', () => {
    for (const uri of uris) {
      expect(decodeTerminalQr(renderTerminalQr(uri, { color: false }), 'light')).toBeNull();
    }
  });

  it("fixes the regression: qrcode-terminal's own small mode does not decode on a light theme", () => {
    const require = createRequire(import.meta.url);
    const qrcodeTerminal = require('qrcode-terminal') as typeof QrcodeTerminal;
    let small = '';
    qrcodeTerminal.generate(EIP681_URI, { small: true }, (out) => (small = out));
    expect(decodeTerminalQr(small, 'light')).toBeNull();
    expect(decodeTerminalQr(small, 'dark')).toBe(EIP681_URI); // same decoder, same code: the theme did it
    expect(decodeTerminalQr(renderTerminalQr(EIP681_URI, { color: true }), 'light')).toBe(EIP681_URI);
  });

  it('without colour uses no escapes and draws light modules as glyphs (quiet zone = glyphs)', () => {
    const out = renderTerminalQr(BTC_URI, { color: false });
    expect(out).not.toContain('\x1b');
    const lines = out.split('\n');
    expect(lines.pop()).toBe(''); // ends with \n
    expect(lines[0]).toMatch(/^█+$/); // two light quiet-zone rows
    for (const line of lines) {
      expect(line).toMatch(/^[█▀▄ ]+$/);
      expect(line.endsWith(' ')).toBe(false);
      expect(line.startsWith('████')).toBe(line !== lines.at(-1)); // left quiet zone
      expect(line.endsWith('████')).toBe(line !== lines.at(-1)); // right quiet zone
    }
    expect(lines.at(-1)).toMatch(/^▀+$/); // last quiet row over the background
  });

  it.each([true, false])('has a quiet zone of four modules on every side (colour %s)', (color) => {
    for (const uri of uris) {
      const width = qrSymbol(uri).size + 2 * QUIET_ZONE;
      // On the dark theme, without colour, light modules are the (light) foreground: same reading.
      const modules = cellsToModules(paintTerminal(renderTerminalQr(uri, { color }), 'dark'));
      expect(modules.every((row) => row.length === width)).toBe(true);
      expect(modules).toHaveLength(width + 1); // an odd number of rows: half of the last line is extra
      const extra = modules.pop();
      // the extra half row is light in colour mode, the terminal's background without colour
      expect(extra?.every((dark) => dark === !color)).toBe(true);
      expect(margins(modules)).toEqual({ top: 4, bottom: 4, left: 4, right: 4 });
    }
  });

  it('fits 80 columns for a 150-character URI; qrWidth matches the rendered width', () => {
    expect(URI_150).toHaveLength(150);
    for (const uri of [BTC_URI, EIP681_URI, ETH_18_DECIMALS, LTC_18_DECIMALS, URI_150]) {
      const width = qrWidth(uri);
      expect(width).toBe(qrSymbol(uri).size + 8);
      expect(width).toBeLessThanOrEqual(80);
      for (const color of [true, false]) {
        const lines = stripAnsi(renderTerminalQr(uri, { color })).trimEnd().split('\n');
        expect(lines.every((line) => [...line].length === width)).toBe(true);
        expect(lines).toHaveLength(Math.ceil(width / 2));
      }
    }
    expect(qrWidth(URI_150)).toBe(57);
    expect(qrWidth('a'.repeat(331))).toBe(77); // up to 331 characters fit 80 columns
    expect(qrWidth('a'.repeat(332))).toBe(81);
  });

  it('throws QrTooWideError (not a GwError) when maxWidth is exceeded', () => {
    const long = `${EIP681_URI}&memo=${'x'.repeat(250)}`;
    const width = qrWidth(long);
    expect(width).toBeGreaterThan(80);
    let caught: unknown;
    try {
      renderTerminalQr(long, { color: true, maxWidth: 80 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(QrTooWideError);
    expect(caught).not.toBeInstanceOf(GwError);
    expect(caught).toMatchObject({ width, maxWidth: 80, message: expect.stringMatching(/needs \d+ columns/) });
    expect(() => renderTerminalQr(EIP681_URI, { color: false, maxWidth: qrWidth(EIP681_URI) })).not.toThrow();
  });
});

// ---- images -----------------------------------------------------------------------------------

describe('image export', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-qr-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([BTC_URI, EIP681_URI, ETH_18_DECIMALS, URI_150])('SVG and PNG decode to the same text: %s', (uri) => {
    expect(decodeSvg(qrSvg(uri))).toBe(uri);
    expect(decodePng(qrPng(uri))).toBe(uri);
  });

  it('writes a tidy SVG: white background with quiet zone, one path, crisp edges', () => {
    const svg = qrSvg(BTC_URI);
    const side = qrSymbol(BTC_URI).size + 8;
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
    expect(svg).toContain('shape-rendering="crispEdges"');
    expect(svg).toContain(`<rect width="${side}" height="${side}" fill="#fff"/>`);
    expect(svg.match(/<path /g)).toHaveLength(1);
    // the first dark run is the top-left finder's top edge, four modules in
    expect(svg).toMatch(/ d="M4 4h7v1h-7z/);
  });

  it('writes an 8-bit greyscale PNG, 8 px per module, with a four-module quiet zone', () => {
    const png = PNG.sync.read(qrPng(EIP681_URI)); // pngjs checks the CRCs
    const side = (qrSymbol(EIP681_URI).size + 8) * 8;
    expect([png.width, png.height]).toEqual([side, side]);
    const raw = qrPng(EIP681_URI);
    expect(raw.readUInt8(24)).toBe(8); // bit depth
    expect(raw.readUInt8(25)).toBe(0); // colour type: greyscale
    const px = (x: number, y: number): number => png.data[(y * png.width + x) * 4] ?? -1;
    expect(px(4 * 8 - 1, 4 * 8 - 1)).toBe(255); // quiet zone
    expect(px(4 * 8, 4 * 8)).toBe(0); // finder corner
  });

  it('writeQrImage picks the format by extension (case-insensitive)', async () => {
    for (const name of ['pay.svg', 'pay.png', 'PAY.PNG']) {
      const file = join(dir, name);
      await writeQrImage(LTC_18_DECIMALS, file);
      const content = await readFile(file);
      const decoded = name.toLowerCase().endsWith('.svg') ? decodeSvg(content.toString('utf8')) : decodePng(content);
      expect(decoded).toBe(LTC_18_DECIMALS);
    }
  });

  it('refuses other extensions with a UsageError (exit 64) naming the supported ones', async () => {
    for (const name of ['pay.jpg', 'pay', 'pay.svg.txt']) {
      const err = await writeQrImage(BTC_URI, join(dir, name)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err).toMatchObject({ exitCode: 64 });
      expect(`${(err as UsageError).message} ${(err as UsageError).hint ?? ''}`).toMatch(/\.svg or \.png/);
    }
  });

  it('lets file-system errors through untouched, for the caller to map (pay: exit 73)', async () => {
    const err = await writeQrImage(BTC_URI, join(dir, 'missing-dir', 'pay.png')).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(GwError);
    expect(err).toMatchObject({ code: 'ENOENT' });
  });
});

// The decoder itself must be able to fail, or the tests above prove nothing.
describe('test/support/qr-decode', () => {
  it('returns null for text without a QR block and for a damaged code', () => {
    expect(decodeTerminalQr('no code here\n', 'dark')).toBeNull();
    const out = renderTerminalQr(BTC_URI, { color: false });
    const damaged = out
      .split('\n')
      .map((line, i) => (i >= 3 && i <= 12 ? line.slice(0, 4) + ' '.repeat(12) + line.slice(16) : line))
      .join('\n');
    expect(decodeTerminalQr(damaged, 'dark')).toBeNull();
  });

  it('ignores lines around the block and understands 256-colour and 24-bit SGR codes', () => {
    const out = renderTerminalQr(BTC_URI, { color: true }).replaceAll('\x1b[30;', '\x1b[38;5;16;').replaceAll(';107m', ';48;2;250;250;250m');
    const framed = `Pay 0.00038127 tBTC to\n${out}Waiting for payment…\n`;
    expect(decodeTerminalQr(framed, 'light')).toBe(BTC_URI);
    expect(THEMES.light.bg).toEqual([255, 255, 255]);
  });
});

describe('qrSize: what the rendering takes on screen', () => {
  it('half blocks: one column per module, two module rows a line; ASCII: two columns per module, one row a line', () => {
    const modules = qrSymbol(BTC_URI).size + 2 * QUIET_ZONE;
    expect(qrSize(BTC_URI)).toEqual({ columns: modules, rows: Math.ceil(modules / 2) });
    expect(qrSize(BTC_URI, { charset: 'ascii' })).toEqual({ columns: 2 * modules, rows: modules });
    for (const charset of ['unicode', 'ascii'] as const) {
      const lines = renderTerminalQr(BTC_URI, { color: false, charset }).trimEnd().split('\n');
      expect(lines).toHaveLength(qrSize(BTC_URI, { charset }).rows);
      expect(Math.max(...lines.map((l) => [...l].length))).toBe(qrSize(BTC_URI, { charset }).columns);
    }
  });
});
