// Draws a payment QR in a terminal so that a phone scans it.
//
// Two things decide the drawing, and IOStreams.qrRenderOptions() decides both (see there):
//
// 1. Colour. The QR's black and white are content, not decoration: whenever the terminal can be
//    told its colours, every cell sets both explicitly — dark modules black (30/40), light modules
//    bright white (97/107), the 16-colour codes every terminal supports — so no theme can invert
//    the code. Where colours cannot be set (not a terminal, TERM=dumb) the code is drawn with
//    characters only, for ONE background: `theme: 'dark'` (the default) draws the light modules
//    with glyphs in the terminal's (light) foreground and leaves dark modules blank; `'light'`
//    draws the dark modules with glyphs and leaves light modules blank. The quiet zone is always
//    light: glyphs on a dark theme, blanks on a light one.
//
// 2. Characters. `unicode` (the default): half blocks (▀ ▄ █ space), one character cell is one
//    module wide and two tall, so the code is square on screen and a typical payment URI fits 80
//    columns (width = modules + 8). `ascii` (a locale without UTF-8, where half blocks would come
//    out as '?' or mojibake): two characters per module and one line per module row — `##` in
//    black on black and white on white when colour can be set, else `##` and spaces — twice as wide.
//
// Without colour and with half blocks, the symbol's odd row count leaves the last line's lower
// half one row beyond the quiet zone: drawn light in colour mode, left to the background otherwise.

import { QUIET_ZONE, qrSymbol, withQuietZone } from './matrix.js';

/** The terminal background a colourless code is drawn for. */
export type QrTheme = 'dark' | 'light';
export const QR_THEMES: readonly QrTheme[] = ['dark', 'light'];

/** Characters a code may use: half blocks (UTF-8), or ASCII only. */
export type QrCharset = 'unicode' | 'ascii';

export interface TerminalQrOptions {
  /** Explicit black and white for every cell (scans on any theme), or characters only. */
  color: boolean;
  /** Without colour: the background the code is drawn for. Default dark. Ignored with colour. */
  theme?: QrTheme;
  /** Default unicode (half blocks). */
  charset?: QrCharset;
  /** The columns available: a wider code is not drawn (see tooWide). */
  maxWidth?: number;
  /** Wider than maxWidth: throw QrTooWideError (default), or return one line saying why instead of the code. */
  tooWide?: 'throw' | 'explain';
}

/** The code does not fit the width the caller allowed; the caller decides what to do instead. */
export class QrTooWideError extends Error {
  readonly width: number;
  readonly maxWidth: number;

  constructor(width: number, maxWidth: number) {
    super(`The QR code needs ${width} columns but only ${maxWidth} are available; widen the terminal or save the code as an image.`);
    this.name = 'QrTooWideError';
    this.width = width;
    this.maxWidth = maxWidth;
  }
}

const SGR_RESET = '\x1b[0m';
const FG = { dark: 30, light: 97 } as const;
const BG = { dark: 40, light: 107 } as const;

/** Terminal columns the rendering of `text` takes (level M, quiet zone included). */
export function qrWidth(text: string, opts: Pick<TerminalQrOptions, 'charset'> = {}): number {
  return qrSize(text, opts).columns;
}

/**
 * Columns and lines the rendering of `text` takes (quiet zone included): half blocks put two
 * module rows on a line; ASCII cells are two columns wide and one module row tall.
 */
export function qrSize(text: string, opts: Pick<TerminalQrOptions, 'charset'> = {}): { columns: number; rows: number } {
  const modules = qrSymbol(text, 'M').size + 2 * QUIET_ZONE;
  return opts.charset === 'ascii' ? { columns: 2 * modules, rows: modules } : { columns: modules, rows: Math.ceil(modules / 2) };
}

/** The QR for `text` at level M as terminal text: lines joined with \n, ending with \n. */
export function renderTerminalQr(text: string, opts: TerminalQrOptions): string {
  const { modules } = qrSymbol(text, 'M');
  const grid = withQuietZone(modules);
  const ascii = opts.charset === 'ascii';
  const width = ascii ? 2 * grid.length : grid.length;
  if (opts.maxWidth !== undefined && width > opts.maxWidth) {
    if (opts.tooWide === 'explain') {
      const why = ascii ? ' (two columns per module: this locale has no UTF-8 block characters)' : '';
      return `[QR code not drawn: it needs ${width} columns${why} and the terminal has ${opts.maxWidth}; widen it${ascii ? ', use a UTF-8 locale' : ''}, or save the code with --qr-out <file.png>]\n`;
    }
    throw new QrTooWideError(width, opts.maxWidth);
  }
  const theme = opts.theme ?? 'dark';
  const lines: string[] = [];
  if (ascii) {
    for (const row of grid) lines.push(opts.color ? asciiColourLine(row) : asciiLine(row, theme));
  } else {
    for (let r = 0; r < grid.length; r += 2) {
      const top = grid[r] ?? [];
      const bottom = grid[r + 1]; // undefined below the last row
      lines.push(opts.color ? colourLine(top, bottom) : glyphLine(top, bottom, theme));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One line of ▀ cells, fg = top module, bg = bottom module; SGR only where the colours change. */
function colourLine(top: boolean[], bottom: boolean[] | undefined): string {
  let out = '';
  let current = '';
  for (let c = 0; c < top.length; c++) {
    const fg = top[c] === true ? FG.dark : FG.light;
    const bg = bottom?.[c] === true ? BG.dark : BG.light; // beyond the last row: light
    const sgr = `\x1b[${fg};${bg}m`;
    if (sgr !== current) out += sgr;
    current = sgr;
    out += '▀';
  }
  return out + SGR_RESET;
}

/**
 * One line without escapes. The glyph stands for the modules the theme's foreground can show:
 * light modules on a dark theme, dark modules on a light theme; the others are left blank.
 */
function glyphLine(top: boolean[], bottom: boolean[] | undefined, theme: QrTheme): string {
  const inkIsLight = theme === 'dark';
  let out = '';
  for (let c = 0; c < top.length; c++) {
    const topInk = (top[c] !== true) === inkIsLight;
    // Beyond the last row: blank (the background).
    const bottomInk = bottom !== undefined && (bottom[c] !== true) === inkIsLight;
    out += topInk ? (bottomInk ? '█' : '▀') : bottomInk ? '▄' : ' ';
  }
  return theme === 'light' ? out.trimEnd() : out;
}

/**
 * One module row in ASCII with explicit colours: `##` per module, drawn in the same colour as its
 * background (black on black, white on white), so each module is a solid block. Not spaces: a
 * line's trailing spaces are dropped by terminals' copy and capture (tmux capture-pane), and the
 * right quiet zone with them.
 */
function asciiColourLine(row: boolean[]): string {
  let out = '';
  let current = '';
  for (const dark of row) {
    const sgr = dark ? `\x1b[${FG.dark};${BG.dark}m` : `\x1b[${FG.light};${BG.light}m`;
    if (sgr !== current) out += sgr;
    current = sgr;
    out += '##';
  }
  return out + SGR_RESET;
}

/** One module row in ASCII without colour: `##` for the modules the theme's foreground shows. */
function asciiLine(row: boolean[], theme: QrTheme): string {
  const inkIsLight = theme === 'dark';
  const out = row.map((dark) => (!dark === inkIsLight ? '##' : '  ')).join('');
  return theme === 'light' ? out.trimEnd() : out;
}
