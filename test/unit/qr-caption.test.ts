// The caption under a QR image: what it says (qrCaption), that SVG writes it as escaped text and
// PNG draws it with the built-in bitmap font below the quiet zone, and that the code still scans.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { PNG_MODULE_PX } from '../../src/qr/image.js';
import { glyph } from '../../src/qr/font.js';
import { qrCaption, qrPng, qrSvg, qrSymbol, writeQrImage } from '../../src/qr/index.js';
import { decodePng, decodeSvg } from '../support/qr-decode.js';

const URI = 'bitcoin:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx?amount=0.00038127';
const CAPTION = qrCaption({
  payAmount: '0.00038127',
  payCurrency: 'BTC',
  network: 'Bitcoin Network',
  expires: new Date(Date.UTC(2026, 10, 22, 13, 5)),
  trackId: '184729305',
  timeZone: 'UTC',
});

describe('qrCaption', () => {
  it('amount with unit, network, expiry with its time zone, track id', () => {
    expect(CAPTION).toEqual(['0.00038127 BTC', 'Bitcoin Network', 'expires 2026-11-22 13:05 UTC', 'track 184729305']);
    expect(qrCaption({ payAmount: '25', payCurrency: 'USDT', sandbox: true })).toEqual(['25 USDT', 'SANDBOX: not real money']);
  });
});

describe('captioned images', () => {
  it('PNG: the code scans, the image grows by the caption, and the caption has ink below the quiet zone only', () => {
    const plain = PNG.sync.read(qrPng(URI));
    const png = qrPng(URI, { caption: CAPTION });
    const image = PNG.sync.read(png);
    expect(decodePng(png)).toBe(URI);
    expect(image.width).toBe(plain.width);
    expect(image.height).toBeGreaterThan(plain.height);
    const dark = (x: number, y: number): boolean => (image.data[(y * image.width + x) * 4] ?? 255) < 128;
    const side = (qrSymbol(URI).size + 8) * PNG_MODULE_PX;
    // The bottom quiet zone (4 modules) stays white; the caption area has ink.
    const inkInQuietZone: string[] = [];
    for (let y = side - 4 * PNG_MODULE_PX; y < side; y++) for (let x = 0; x < image.width; x++) if (dark(x, y)) inkInQuietZone.push(`${x},${y}`);
    expect(inkInQuietZone).toEqual([]);
    let ink = 0;
    for (let y = side; y < image.height; y++) for (let x = 0; x < image.width; x++) if (dark(x, y)) ink++;
    expect(ink).toBeGreaterThan(500);
  });

  it('PNG: the first caption line is drawn with the font (its first glyph, at scale 2, where it is centred)', () => {
    const image = PNG.sync.read(qrPng(URI, { caption: ['8'] }));
    const side = image.width;
    const left = Math.floor((side - 12) / 2);
    const top = side + 4;
    const shape = glyph('8');
    for (let gy = 0; gy < 7; gy++) {
      for (let gx = 0; gx < 5; gx++) {
        const value = image.data[((top + gy * 2) * side + left + gx * 2) * 4] ?? 255;
        expect(value === 0, `row ${gy} col ${gx}`).toBe(shape[gy]?.[gx]);
      }
    }
  });

  it('SVG: the caption as escaped text under the code; the code still scans', () => {
    const svg = qrSvg(URI, { caption: [...CAPTION, 'note <b>&"\u001b[31m'] });
    expect(svg).toContain('>0.00038127 BTC</text>');
    expect(svg).toContain('>expires 2026-11-22 13:05 UTC</text>');
    expect(svg).toContain('note &#60;b&#62;&#38;&#34;[31m</text>');
    expect(svg).not.toContain('\u001b');
    expect(decodeSvg(svg)).toBe(URI);
  });

  it('writeQrImage(uri, file, { caption }) writes either format; no caption, no text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-caption-'));
    await writeQrImage(URI, path.join(dir, 'a.svg'), { caption: CAPTION });
    await writeQrImage(URI, path.join(dir, 'a.png'), { caption: CAPTION });
    await writeQrImage(URI, path.join(dir, 'b.svg'));
    expect(readFileSync(path.join(dir, 'a.svg'), 'utf8')).toContain('<text');
    expect(readFileSync(path.join(dir, 'b.svg'), 'utf8')).not.toContain('<text');
    expect(decodePng(readFileSync(path.join(dir, 'a.png')))).toBe(URI);
  });
});
