// Saves a payment QR as an image file, chosen by extension: .svg (vector, one path for the dark
// modules) or .png (8-bit greyscale, 8 px per module, written by the tiny encoder below with
// node:zlib). Both are level M with a white four-module quiet zone, like the terminal rendering.

import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { UsageError } from '../errors.js';
import { qrMatrix, withQuietZone } from './matrix.js';

/** Pixels per module in the PNG. */
export const PNG_MODULE_PX = 8;

/** Image formats writeQrImage understands, by lower-case extension. */
export const QR_IMAGE_EXTENSIONS = ['.svg', '.png'] as const;

/**
 * Writes the QR for `text` to `file`; the extension (.svg or .png, any case) picks the format.
 * Other extensions: UsageError (exit 64), checked before anything is written.
 */
export async function writeQrImage(text: string, file: string): Promise<void> {
  const ext = extname(file).toLowerCase();
  let content: string | Buffer;
  if (ext === '.svg') content = qrSvg(text);
  else if (ext === '.png') content = qrPng(text);
  else {
    throw new UsageError(`Cannot save the QR code as "${file}": unsupported image type.`, `Use a file name ending in ${QR_IMAGE_EXTENSIONS.join(' or ')}.`);
  }
  // File-system errors (ENOENT, EACCES, EISDIR...) propagate as they are: the caller knows the
  // context (pay maps them to exit 73 and says the payment was created anyway).
  await writeFile(file, content);
}

/** The QR as a standalone SVG document: white square incl. quiet zone, one path of dark modules. */
export function qrSvg(text: string): string {
  const grid = withQuietZone(qrMatrix(text, 'M'));
  const size = grid.length;
  const px = size * PNG_MODULE_PX;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" ` +
    `viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">\n` +
    `<rect width="${size}" height="${size}" fill="#fff"/>\n` +
    `<path fill="#000" d="${darkRunsPath(grid)}"/>\n` +
    `</svg>\n`
  );
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

/** The QR as an 8-bit greyscale PNG, PNG_MODULE_PX pixels per module, quiet zone included. */
export function qrPng(text: string): Buffer {
  const grid = withQuietZone(qrMatrix(text, 'M'));
  const side = grid.length * PNG_MODULE_PX;
  return encodeGreyPng(side, side, (x, y) => (grid[Math.floor(y / PNG_MODULE_PX)]?.[Math.floor(x / PNG_MODULE_PX)] === true ? 0 : 255));
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
