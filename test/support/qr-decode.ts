// Test helpers that read QR codes back the way a phone would see them.
//
// decodeTerminalQr paints captured terminal output as a terminal with a dark or light theme would
// show it (default colours from the theme, explicit SGR colours override), scales it up, puts the
// theme's background around it and decodes it WITHOUT trying the inverted image: phone scanners
// generally do not, and that is what makes a code inverted by the theme fail here too.
// Besides half blocks (▀ ▄ █), it reads the ASCII renderings: `#` fills its cell with the
// foreground like █, and a line of spaces counts when its cells have explicit background colours
// (coloured spaces). decodePng and decodeSvg read the files writeQrImage produces.
//
// The decoder is ZXing's C++ reader (zxing-cpp; ZXing is the library behind many phone scanner
// apps), compiled to WebAssembly by the zxing-wasm package and loaded from its own file (never
// fetched): about ten times faster than the pure-JavaScript jsQR this used before, on the same
// images. It is called
// through its module's synchronous function so that these helpers stay synchronous; that reaches
// below zxing-wasm's documented API, so the version is pinned exactly in package.json and the
// options are checked against the library's own list (an upgrade that changes them fails here).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { binarizers, characterSets, defaultReaderOptions, eanAddOnSymbols, prepareZXingModule, textModes } from 'zxing-wasm/reader';

export type Rgb = readonly [number, number, number];

/** What these helpers use of the WebAssembly module (emscripten's heap and zxing-cpp's reader). */
interface ZxingModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  readBarcodesFromPixmap(pointer: number, width: number, height: number, options: object): ZxingVector;
}
interface ZxingVector {
  size(): number;
  get(i: number): { text: string; isValid: boolean };
  delete(): void;
}

const zxing = (await prepareZXingModule({
  overrides: { wasmBinary: readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')) },
  fireImmediately: true,
})) as unknown as ZxingModule;

/** QR codes only, one per image, as they are (no inversion, rotation, downscaling or extra effort). */
const READER_OPTIONS = {
  ...defaultReaderOptions,
  formats: 'QRCode',
  tryHarder: false,
  tryRotate: false,
  tryInvert: false,
  tryDownscale: false,
  maxNumberOfSymbols: 1,
  // The module takes these as indexes into the library's tables.
  binarizer: binarizers.indexOf(defaultReaderOptions.binarizer!),
  eanAddOnSymbol: eanAddOnSymbols.indexOf(defaultReaderOptions.eanAddOnSymbol!),
  textMode: textModes.indexOf(defaultReaderOptions.textMode!),
  characterSet: characterSets.indexOf(defaultReaderOptions.characterSet!),
};
const EXPECTED_OPTIONS =
  'binarizer characterSet downscaleFactor downscaleThreshold eanAddOnSymbol formats isPure maxNumberOfSymbols minLineCount returnErrors textMode tryCode39ExtendedMode tryDenoise tryDownscale tryHarder tryInvert tryRotate validateOptionalChecksum';
if (Object.keys(READER_OPTIONS).sort().join(' ') !== EXPECTED_OPTIONS || Object.values(READER_OPTIONS).includes(-1)) {
  throw new Error(`zxing-wasm's reader options changed (${Object.keys(READER_OPTIONS).sort().join(' ')}): update test/support/qr-decode.ts`);
}

export type Theme = 'dark' | 'light';

/** Default foreground and background of a typical dark and light terminal theme. */
export const THEMES: Record<Theme, { fg: Rgb; bg: Rgb }> = {
  dark: { fg: [204, 204, 204], bg: [30, 30, 30] },
  light: { fg: [30, 30, 30], bg: [255, 255, 255] },
};

/** The xterm 16-colour palette: 0-7 normal (30-37 / 40-47), 8-15 bright (90-97 / 100-107). */
const ANSI16: readonly Rgb[] = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];

/** An RGBA image. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Terminal cell colours; null = the theme's default. */
export interface Pen {
  fg: Rgb | null;
  bg: Rgb | null;
  inverse: boolean;
}

/** One painted character cell: colours of its upper and lower half. */
export interface Cell {
  top: Rgb;
  bottom: Rgb;
}

const QR_GLYPHS = /^[ █▀▄#]*$/;
const BLOCK_GLYPH = /[█▀▄#]/;
// CSI sequences (SGR and others) and the rare two-character escapes.
const ESCAPE = /\x1b\[([0-9;?]*)([@-~])|\x1b[@-Z\\-_]/y;

/** Decodes a QR printed in a terminal as seen on `theme`, or null if a phone would not read it. */
export function decodeTerminalQr(output: string, theme: Theme): string | null {
  const cells = paintTerminal(output, theme);
  if (cells.length === 0) return null;
  return decodeRaster(rasterizeCells(cells, THEMES[theme].bg));
}

/**
 * Runs the text through a tiny terminal model and returns the painted cells of the QR block: the
 * longest run of consecutive lines made only of ' █▀▄' (after escapes) with at least one block.
 * Other lines (messages above or below) are ignored, but their SGR codes still count, as in a terminal.
 */
export function paintTerminal(output: string, theme: Theme): Cell[][] {
  const pen: Pen = { fg: null, bg: null, inverse: false };
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  let best: Cell[][] = [];
  let run: Cell[][] = [];
  for (const line of lines) {
    const { text, cells, coloured } = paintLine(line, pen, THEMES[theme]);
    if (QR_GLYPHS.test(text) && (BLOCK_GLYPH.test(text) || (coloured && text.length > 0))) {
      run.push(cells);
      if (run.length > best.length) best = run;
    } else {
      run = [];
    }
  }
  return best;
}

/**
 * Decodes the QR on a whole terminal screen (VirtualTerminal.ansi(), or tmux capture-pane -e) as a
 * camera pointed at it would: every line painted, the text beside and around the code as ink in
 * the theme's (or its own) colours, the theme's background around the screen. Null if unread.
 */
export function decodeScreen(screen: string, theme: Theme, columns?: number): string | null {
  return decodeRaster(screenRaster(screen, theme, columns));
}

/** The whole screen painted as decodeScreen sees it, `px` pixels a cell wide (two half-rows of `px` tall). */
export function screenRaster(screen: string, theme: Theme, columns?: number, px = 3): Raster {
  const pen: Pen = { fg: null, bg: null, inverse: false };
  const rows = screen
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => paintLine(line, pen, THEMES[theme], true).cells);
  const width = columns ?? Math.max(...rows.map((r) => r.length));
  const bg = THEMES[theme].bg;
  const cells = rows.map((r) => [...r, ...Array.from({ length: Math.max(0, width - r.length) }, () => ({ top: bg, bottom: bg }))]);
  return rasterizeCells(cells, bg, px);
}

/** A character's ink, as a camera blurs it: some of its cell in the foreground, by its code (deterministic). */
function inkCell(ch: string, fg: Rgb, bg: Rgb): Cell {
  const code = ch.codePointAt(0) ?? 0;
  return { top: code % 2 === 0 ? fg : bg, bottom: code % 3 === 0 ? bg : fg };
}

/**
 * Paints one line, updating `pen` as SGR codes go by; returns the visible text and its cells. With
 * `ink`, characters other than blocks and spaces are painted as ink (inkCell), else as background.
 */
function paintLine(line: string, pen: Pen, theme: { fg: Rgb; bg: Rgb }, ink = false): { text: string; cells: Cell[]; coloured: boolean } {
  let text = '';
  const cells: Cell[] = [];
  let coloured = false;
  let i = 0;
  while (i < line.length) {
    ESCAPE.lastIndex = i;
    const esc = ESCAPE.exec(line);
    if (esc !== null) {
      if (esc[2] === 'm') applySgr(esc[1] ?? '', pen);
      i = ESCAPE.lastIndex;
      continue;
    }
    const ch = line[i] ?? '';
    i++;
    text += ch;
    let fg = pen.fg ?? theme.fg;
    let bg = pen.bg ?? theme.bg;
    if (pen.inverse) [fg, bg] = [bg, fg];
    if (pen.bg !== null || pen.inverse) coloured = true;
    if (ch === '█' || ch === '#') cells.push({ top: fg, bottom: fg });
    else if (ch === '▀') cells.push({ top: fg, bottom: bg });
    else if (ch === '▄') cells.push({ top: bg, bottom: fg });
    else if (ink && ch !== ' ') cells.push(inkCell(ch, fg, bg));
    else cells.push({ top: bg, bottom: bg });
  }
  return { text, cells, coloured };
}

const sgrCodes = new Map<string, number[]>();

/** Applies one SGR parameter list ("" and "0" reset) to the pen. */
export function applySgr(params: string, pen: Pen): void {
  let codes = sgrCodes.get(params);
  if (codes === undefined) {
    codes = params === '' ? [0] : params.split(';').map((p) => (p === '' ? 0 : Number(p)));
    sgrCodes.set(params, codes);
  }
  for (let k = 0; k < codes.length; k++) {
    const code = codes[k] ?? 0;
    if (code === 0) {
      pen.fg = null;
      pen.bg = null;
      pen.inverse = false;
    } else if (code === 7) pen.inverse = true;
    else if (code === 27) pen.inverse = false;
    else if (code >= 30 && code <= 37) pen.fg = ansi16(code - 30);
    else if (code >= 90 && code <= 97) pen.fg = ansi16(code - 90 + 8);
    else if (code >= 40 && code <= 47) pen.bg = ansi16(code - 40);
    else if (code >= 100 && code <= 107) pen.bg = ansi16(code - 100 + 8);
    else if (code === 39) pen.fg = null;
    else if (code === 49) pen.bg = null;
    else if (code === 38 || code === 48) {
      const mode = codes[k + 1];
      let colour: Rgb | null = null;
      if (mode === 5) {
        colour = xterm256(codes[k + 2] ?? 0);
        k += 2;
      } else if (mode === 2) {
        colour = [codes[k + 2] ?? 0, codes[k + 3] ?? 0, codes[k + 4] ?? 0];
        k += 4;
      }
      if (code === 38) pen.fg = colour;
      else pen.bg = colour;
    }
    // bold, underline, etc. do not change the colours we care about
  }
}

function ansi16(index: number): Rgb {
  return ANSI16[index] ?? [0, 0, 0];
}

/** xterm 256-colour palette: 16 system colours, a 6×6×6 cube, a 24-step grey ramp. */
function xterm256(n: number): Rgb {
  if (n < 16) return ansi16(n);
  if (n >= 232) {
    const v = 8 + 10 * (n - 232);
    return [v, v, v];
  }
  const levels = [0, 95, 135, 175, 215, 255];
  const i = n - 16;
  return [levels[Math.floor(i / 36)] ?? 0, levels[Math.floor(i / 6) % 6] ?? 0, levels[i % 6] ?? 0];
}

/**
 * Scales cells up (a cell = `px` wide, 2 × `px` tall) and surrounds them with `margin` cells of `bg`.
 * Two pixels per module are enough for the decoder up to version 40, and decoding time grows with
 * the pixel count; so does the margin, which only has to show the terminal's background around the
 * code (the code's own quiet zone is part of what gw draws).
 */
export function rasterizeCells(cells: Cell[][], bg: Rgb, px = 2, margin = 2): Raster {
  const cols = Math.max(...cells.map((row) => row.length));
  const width = (cols + 2 * margin) * px;
  const halfRows = 2 * cells.length + 2 * margin;
  const height = halfRows * px;
  const data = new Uint8ClampedArray(width * height * 4);
  const line = new Uint8ClampedArray(width * 4);
  for (let h = 0; h < halfRows; h++) {
    const halfRow = h - margin;
    const cellRow = halfRow >= 0 ? cells[Math.floor(halfRow / 2)] : undefined;
    for (let x = 0; x < width; x++) {
      const cell = cellRow?.[Math.floor(x / px) - margin];
      const rgb = cell === undefined ? bg : halfRow % 2 === 0 ? cell.top : cell.bottom;
      line[x * 4] = rgb[0];
      line[x * 4 + 1] = rgb[1];
      line[x * 4 + 2] = rgb[2];
      line[x * 4 + 3] = 255;
    }
    for (let y = h * px; y < (h + 1) * px; y++) data.set(line, y * width * 4);
  }
  return { width, height, data };
}

/** The text of the QR code in an RGBA image, read without inversion as a phone would, or null. */
export function decodeRaster(image: Raster): string | null {
  // Luminance, as zxing-wasm's own readBarcodes computes it from RGBA.
  const pixels = image.width * image.height;
  const gray = new Uint8Array(pixels);
  const { data } = image;
  for (let i = 0; i < pixels; i++) gray[i] = (306 * data[4 * i]! + 601 * data[4 * i + 1]! + 117 * data[4 * i + 2]! + 512) >> 10;
  const pointer = zxing._malloc(pixels);
  if (pointer === 0) throw new Error(`could not allocate ${pixels} bytes for the QR decoder`);
  try {
    zxing.HEAPU8.set(gray, pointer);
    const results = zxing.readBarcodesFromPixmap(pointer, image.width, image.height, READER_OPTIONS);
    try {
      const first = results.size() > 0 ? results.get(0) : undefined;
      return first?.isValid ? first.text : null;
    } finally {
      results.delete();
    }
  } finally {
    zxing._free(pointer);
  }
}

/** Decodes a module matrix (true = dark) drawn black on white with a `quiet`-module margin. */
export function decodeMatrix(modules: readonly (readonly boolean[])[], px = 2, quiet = 4): string | null {
  const side = (modules.length + 2 * quiet) * px;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  modules.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (!dark) return;
      for (let y = 0; y < px; y++) {
        const offset = (((r + quiet) * px + y) * side + (c + quiet) * px) * 4;
        data.fill(0, offset, offset + px * 4);
      }
    });
  });
  for (let i = 3; i < data.length; i += 4) data[i] = 255; // alpha
  return decodeRaster({ width: side, height: side, data });
}

/** Decodes a PNG file's bytes (any colour type pngjs reads). */
export function decodePng(buf: Buffer): string | null {
  const png = PNG.sync.read(buf);
  return decodeRaster({ width: png.width, height: png.height, data: new Uint8ClampedArray(png.data) });
}

/**
 * Rasterizes and decodes an SVG of the kind QR generators write: a viewBox, <rect> elements and
 * <path> elements whose data are polygons (M/m, H/h, V/v, L/l, Z/z), filled even-odd (the same
 * as SVG's default non-zero rule for non-overlapping subpaths).
 * Not a general SVG renderer: no transforms, curves or CSS.
 */
export function decodeSvg(svgText: string, pxPerUnit = 2): string | null {
  const viewBox = /viewBox="([^"]+)"/
    .exec(svgText)?.[1]
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (viewBox?.length !== 4) throw new Error('decodeSvg: no viewBox');
  const [minX = 0, minY = 0, vbWidth = 0, vbHeight = 0] = viewBox;
  const width = Math.round(vbWidth * pxPerUnit);
  const height = Math.round(vbHeight * pxPerUnit);
  const grey = new Uint8Array(width * height).fill(255); // SVG canvas: transparent, shown on white
  const toPx = (units: number, limit: number): number => Math.min(limit, Math.max(0, Math.round(units * pxPerUnit)));
  const shapes = [...svgText.matchAll(/<(rect|path)\b([^>]*)\/?>/g)];
  for (const [, tag, attrs = ''] of shapes) {
    const fill = colourToGrey(attr(attrs, 'fill') ?? '#000');
    if (fill === null) continue;
    const polygons = tag === 'rect' ? rectPolygon(attrs, vbWidth, vbHeight) : pathPolygons(attr(attrs, 'd') ?? '');
    // Even-odd: a pixel is inside the shape if it is inside an odd number of its subpaths.
    const parity = new Uint8Array(width * height);
    for (const poly of polygons) {
      const xs = poly.map((p) => p[0]);
      const ys = poly.map((p) => p[1]);
      const [x0, x1] = [toPx(Math.min(...xs) - minX, width), toPx(Math.max(...xs) - minX, width)];
      const [y0, y1] = [toPx(Math.min(...ys) - minY, height), toPx(Math.max(...ys) - minY, height)];
      for (let py = y0; py < y1; py++) {
        for (let px = x0; px < x1; px++) {
          const x = minX + (px + 0.5) / pxPerUnit;
          const y = minY + (py + 0.5) / pxPerUnit;
          if (insidePolygon(poly, x, y)) parity[py * width + px] = (parity[py * width + px] ?? 0) ^ 1;
        }
      }
    }
    parity.forEach((odd, i) => {
      if (odd === 1) grey[i] = fill;
    });
  }
  const data = new Uint8ClampedArray(width * height * 4);
  grey.forEach((g, i) => {
    data[i * 4] = g;
    data[i * 4 + 1] = g;
    data[i * 4 + 2] = g;
    data[i * 4 + 3] = 255;
  });
  return decodeRaster({ width, height, data });
}

type Polygon = [number, number][];

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs)?.[1];
}

/** Grey level of an SVG fill (#rgb, #rrggbb, white, black), null for none/transparent. */
function colourToGrey(fill: string): number | null {
  const f = fill.trim().toLowerCase();
  if (f === 'none' || f === 'transparent') return null;
  if (f === 'white') return 255;
  if (f === 'black') return 0;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(f)?.[1];
  if (hex === undefined) throw new Error(`decodeSvg: unsupported fill ${fill}`);
  const full = hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  return Math.round(0.299 * r + 0.587 * g + 0.114 * b);
}

function rectPolygon(attrs: string, vbWidth: number, vbHeight: number): Polygon[] {
  const length = (name: string, whole: number): number => {
    const v = attr(attrs, name) ?? '0';
    return v.endsWith('%') ? (parseFloat(v) / 100) * whole : parseFloat(v);
  };
  const x = length('x', vbWidth);
  const y = length('y', vbHeight);
  const w = length('width', vbWidth);
  const h = length('height', vbHeight);
  return [
    [
      [x, y],
      [x + w, y],
      [x + w, y + h],
      [x, y + h],
    ],
  ];
}

/** Polygons of path data made of straight segments. */
function pathPolygons(d: string): Polygon[] {
  const tokens = d.match(/[MmHhVvLlZz]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const polygons: Polygon[] = [];
  let current: Polygon = [];
  let x = 0;
  let y = 0;
  let command = '';
  let i = 0;
  const num = (): number => Number(tokens[i++]);
  while (i < tokens.length) {
    const token = tokens[i] ?? '';
    if (/[A-Za-z]/.test(token)) {
      command = token;
      i++;
      if (command === 'Z' || command === 'z') {
        if (current.length > 0) polygons.push(current);
        const start = current[0];
        if (start !== undefined) [x, y] = start;
        current = [];
        continue;
      }
    }
    switch (command) {
      case 'M':
      case 'm': {
        const [nx, ny] = [num(), num()];
        if (current.length > 0) polygons.push(current);
        [x, y] = command === 'M' ? [nx, ny] : [x + nx, y + ny];
        current = [[x, y]];
        command = command === 'M' ? 'L' : 'l'; // further pairs are line-tos
        continue;
      }
      case 'L':
        [x, y] = [num(), num()];
        break;
      case 'l': {
        const [dx, dy] = [num(), num()];
        [x, y] = [x + dx, y + dy];
        break;
      }
      case 'H':
        x = num();
        break;
      case 'h':
        x += num();
        break;
      case 'V':
        y = num();
        break;
      case 'v':
        y += num();
        break;
      default:
        throw new Error(`decodeSvg: unsupported path command ${command}`);
    }
    current.push([x, y]);
  }
  if (current.length > 0) polygons.push(current);
  return polygons;
}

/** Point-in-polygon by ray casting to the right. */
function insidePolygon(poly: Polygon, x: number, y: number): boolean {
  let inside = false;
  for (let k = 0, j = poly.length - 1; k < poly.length; j = k++) {
    const [xk, yk] = poly[k] ?? [0, 0];
    const [xj, yj] = poly[j] ?? [0, 0];
    if (yk > y !== yj > y && x < ((xj - xk) * (y - yk)) / (yj - yk) + xk) inside = !inside;
  }
  return inside;
}
