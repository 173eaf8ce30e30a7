// Saves a payment QR as an image file, chosen by extension: .svg (vector, one path for the dark
// modules) or .png (8-bit greyscale, 8 px per module, written by the tiny encoder below with
// node:zlib). Both are level M with a white four-module quiet zone, like the terminal rendering.
//
// An image may carry a caption under the code (amount with unit, network, expiry, track id): a
// printed or attached code then says what it is for. The SVG writes it as text (any characters,
// escaped); the PNG draws it with a built-in 5×7 bitmap font (font.ts: ASCII letters, digits and
// common punctuation; anything else comes out as '?'), so no font file or library is needed. The
// caption sits below the quiet zone, so it never touches the code.

import { promises as fsp } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { UsageError } from '../errors.js';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './font.js';
import { qrMatrix, withQuietZone } from './matrix.js';

/** Pixels per module in the PNG. */
export const PNG_MODULE_PX = 8;

/** Image formats writeQrImage understands, by lower-case extension. */
export const QR_IMAGE_EXTENSIONS = ['.svg', '.png'] as const;

export interface QrImageOptions {
  /** Lines written under the code, e.g. from qrCaption(). Control characters are dropped. */
  caption?: readonly string[];
}

/** At most this many caption lines, each at most this many characters (longer ones are cut with …). */
const MAX_CAPTION_LINES = 6;
const MAX_CAPTION_CHARS = 60;

/** What writeQrImage needs of node:fs/promises (a test passes one that fails). */
export interface QrFileSystem {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  rm: typeof fsp.rm;
  stat: typeof fsp.stat;
}

/**
 * Writes the QR for `text` to `file`; the extension (.svg or .png, any case) picks the format.
 * Other extensions: UsageError (exit 64), checked before anything is written.
 *
 * Resolves only once the whole image is on disk under its name; otherwise it rejects with the
 * file-system error (ENOENT, EACCES, ENOSPC, EISDIR…) and `file` is as it was: the image goes to a
 * new temporary file beside it, is synced, and only then renamed over `file` (an existing file is
 * replaced whole, keeping its permission bits, or not at all); the temporary file is removed on
 * any failure. The caller knows the context (pay: exit 73, and the payment was created anyway).
 */
export async function writeQrImage(text: string, file: string, options: QrImageOptions = {}, fs: QrFileSystem = fsp): Promise<void> {
  const ext = extname(file).toLowerCase();
  let content: string | Buffer;
  if (ext === '.svg') content = qrSvg(text, options);
  else if (ext === '.png') content = qrPng(text, options);
  else {
    throw new UsageError(`Cannot save the QR code as "${file}": unsupported image type.`, `Use a file name ending in ${QR_IMAGE_EXTENSIONS.join(' or ')}.`);
  }
  const existing = await fs.stat(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (existing !== undefined && !existing.isFile())
    throw Object.assign(new Error(`${file} is not a regular file`), { code: existing.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}-${Date.now().toString(36)}.tmp`);
  const handle = await fs.open(temporary, 'wx', existing === undefined ? 0o666 : existing.mode & 0o777);
  try {
    try {
      // FileHandle.writeFile writes until every byte is taken (a short write is continued; a full
      // disk is ENOSPC), and sync() makes the bytes durable before the name points at them.
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

export interface PaymentCaption {
  /** The amount to pay and its unit, exactly as shown to the payer ("25", "USDT"). */
  payAmount: string;
  payCurrency: string;
  network?: string;
  /** When the payment expires; written in `timeZone` (default: the process's). */
  expires?: Date;
  trackId?: string;
  timeZone?: string;
  sandbox?: boolean;
}

/**
 * The caption lines for a payment QR image:
 *   "25 USDT"
 *   "Tron Network"
 *   "expires 2026-11-22 13:00 UTC"
 *   "track 184729305"
 * (plus "SANDBOX: not real money" for sandbox payments).
 */
export function qrCaption(p: PaymentCaption): string[] {
  const lines = [`${p.payAmount} ${p.payCurrency}`.trim()];
  if (p.network) lines.push(p.network);
  if (p.expires !== undefined && !Number.isNaN(p.expires.getTime())) lines.push(`expires ${formatExpiry(p.expires, p.timeZone)}`);
  if (p.trackId) lines.push(`track ${p.trackId}`);
  if (p.sandbox) lines.push('SANDBOX: not real money');
  return lines;
}

/** "2026-11-22 13:00 UTC" / "2026-11-22 14:00 GMT+1", in the given or the local time zone. */
function formatExpiry(date: Date, timeZone: string | undefined): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    ...(timeZone !== undefined && { timeZone }),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((x) => x.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trim();
}

/** Caption lines as they are drawn: control characters gone, at most MAX_CAPTION_LINES of MAX_CAPTION_CHARS. */
function cleanCaption(caption: readonly string[] | undefined): string[] {
  return (caption ?? [])
    .map((line) => line.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '').trim())
    .filter((line) => line !== '')
    .slice(0, MAX_CAPTION_LINES)
    .map((line) => ([...line].length > MAX_CAPTION_CHARS ? `${[...line].slice(0, MAX_CAPTION_CHARS - 1).join('')}…` : line));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Caption font size and line height in SVG units (one unit = one module). */
const SVG_FONT = 2.4;
const SVG_LINE = 3.2;

/**
 * The QR as a standalone SVG document: white background incl. quiet zone, one path of dark
 * modules, and the caption (if any) as centred text below.
 */
export function qrSvg(text: string, options: QrImageOptions = {}): string {
  const grid = withQuietZone(qrMatrix(text, 'M'));
  const size = grid.length;
  const caption = cleanCaption(options.caption);
  const height = caption.length === 0 ? size : size + caption.length * SVG_LINE + 1;
  const round = (n: number): string => String(Math.round(n * 100) / 100);
  let svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size * PNG_MODULE_PX}" height="${round(height * PNG_MODULE_PX)}" ` +
    `viewBox="0 0 ${size} ${round(height)}" shape-rendering="crispEdges">\n` +
    `<rect width="${size}" height="${round(height)}" fill="#fff"/>\n` +
    `<path fill="#000" d="${darkRunsPath(grid)}"/>\n`;
  if (caption.length > 0) {
    svg += `<g font-family="ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="${SVG_FONT}" fill="#000" text-anchor="middle">\n`;
    caption.forEach((line, i) => {
      svg += `<text x="${round(size / 2)}" y="${round(size + (i + 1) * SVG_LINE - 0.6)}">${escapeXml(line)}</text>\n`;
    });
    svg += '</g>\n';
  }
  return `${svg}</svg>\n`;
}

/** Path data with one unit-high rectangle per horizontal run of dark modules. */
function darkRunsPath(grid: boolean[][]): string {
  const parts: string[] = [];
  grid.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (row[x] !== true) {
        x++;
        continue;
      }
      const start = x;
      while (row[x] === true) x++;
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`);
    }
  });
  return parts.join('');
}

/** The QR as an 8-bit greyscale PNG, PNG_MODULE_PX pixels per module, quiet zone included; the caption below. */
export function qrPng(text: string, options: QrImageOptions = {}): Buffer {
  const grid = withQuietZone(qrMatrix(text, 'M'));
  const side = grid.length * PNG_MODULE_PX;
  const caption = cleanCaption(options.caption);
  if (caption.length === 0) {
    return encodeGreyPng(side, side, (x, y) => (grid[Math.floor(y / PNG_MODULE_PX)]?.[Math.floor(x / PNG_MODULE_PX)] === true ? 0 : 255));
  }
  // Font pixels are `scale` image pixels square: 2 when the longest line fits, else 1.
  const longest = Math.max(...caption.map((line) => [...line].length));
  const advance = (scale: number): number => (GLYPH_WIDTH + 1) * scale;
  const scale = longest * advance(2) <= side - 2 * PNG_MODULE_PX ? 2 : 1;
  const lineHeight = (GLYPH_HEIGHT + 4) * scale;
  const height = side + caption.length * lineHeight + PNG_MODULE_PX;
  const ink = new Uint8Array(side * height);
  caption.forEach((line, i) => {
    const chars = [...line];
    const maxChars = Math.floor(side / advance(scale));
    const shown = chars.slice(0, maxChars);
    const left = Math.max(0, Math.floor((side - shown.length * advance(scale)) / 2));
    const top = side + i * lineHeight + 2 * scale;
    shown.forEach((ch, k) => {
      glyph(ch).forEach((row, gy) => {
        row.forEach((on, gx) => {
          if (!on) return;
          for (let dy = 0; dy < scale; dy++) {
            for (let dx = 0; dx < scale; dx++) {
              const x = left + k * advance(scale) + gx * scale + dx;
              const y = top + gy * scale + dy;
              if (x < side && y < height) ink[y * side + x] = 1;
            }
          }
        });
      });
    });
  });
  return encodeGreyPng(side, height, (x, y) => {
    if (y < side) return grid[Math.floor(y / PNG_MODULE_PX)]?.[Math.floor(x / PNG_MODULE_PX)] === true ? 0 : 255;
    return ink[y * side + x] === 1 ? 0 : 255;
  });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A minimal PNG: IHDR (8-bit greyscale), one IDAT (filter 0 on every row), IEND. */
export function encodeGreyPng(width: number, height: number, grey: (x: number, y: number) => number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // colour type 0: greyscale
  // compression 0, filter 0, interlace 0: already zero
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const start = y * (width + 1); // rows[start] = 0: filter type None
    for (let x = 0; x < width; x++) rows[start + 1 + x] = grey(x, y);
  }
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Length, type, data, CRC-32 of type + data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0, 0);
  return Buffer.concat([length, typeAndData, crc]);
}
