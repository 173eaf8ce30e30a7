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

//
// 3. Size (SCREEN_QR_LADDER, qrChoices): the counter screen takes the first of a few ways to draw
// the code that fits its window: the highest error correction level (H, Q, M, L) with the
// standard four-module quiet zone, then a narrower one, never below two modules (the measurements
// are in docs/decisions.md). A code that fits none is not drawn.

import { QUIET_ZONE, qrSymbol, withQuietZone, type QrLevel } from './matrix.js';

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
  /** Error correction level; default M. */
  level?: QrLevel;
  /** Light modules around the symbol; default QUIET_ZONE (4). */
  quietZone?: number;
  /** With charset ascii: the locale setting that asked for it ("LANG=C"), named in the notices. */
  locale?: string;
}

/** One way to draw a code: its error correction level and quiet zone. */
export interface QrRung {
  level: QrLevel;
  quietZone: number;
}

/** The narrowest quiet zone gw draws (docs/decisions.md: one module read in every trial, none failed on a dark theme). */
export const MIN_QUIET_ZONE = 2;

/**
 * The ways the counter screen may draw a code, best first: the highest error correction level
 * that fits (H, Q, M, then L), each with the standard four-module quiet zone, then three, then
 * MIN_QUIET_ZONE. Error correction is what reads through glare on a screen; a quiet zone of two
 * or more read alike in the measurements (docs/decisions.md).
 */
export const SCREEN_QR_LADDER: readonly QrRung[] = (['H', 'Q', 'M', 'L'] as const).flatMap((level) =>
  [QUIET_ZONE, 3, MIN_QUIET_ZONE].map((quietZone) => ({ level, quietZone })),
);

/** A way to draw a code, its size in cells, and the drawing made when asked for. */
export interface QrChoice extends QrRung {
  columns: number;
  rows: number;
  draw(): string;
}

/** Why ASCII cells, and the way back to half blocks: names the locale setting and the fix. */
export function asciiReason(locale: string | undefined): string {
  const setting = locale ?? 'the locale';
  if (setting === 'GW_UTF8=0' || setting === '--qr-charset ascii')
    return `${setting} asks for ASCII, so the code is drawn two columns per module; leave it out`;
  return `${setting} is not a UTF-8 locale, so the code is drawn two columns per module; run gw with LANG=C.UTF-8 (or GW_UTF8=1, or --qr-charset utf8, if this terminal shows UTF-8 anyway)`;
}

/**
 * The ways `text` can be drawn on the counter screen (SCREEN_QR_LADDER), best first, each size
 * once: the screen takes the first that fits its window.
 */
export function qrChoices(text: string, opts: TerminalQrOptions): QrChoice[] {
  const choices: QrChoice[] = [];
  for (const rung of SCREEN_QR_LADDER) {
    const options = { ...opts, ...rung };
    const size = qrSize(text, options);
    if (choices.some((c) => c.columns === size.columns && c.rows === size.rows)) continue;
    let drawn: string | undefined; // the screen is redrawn every second while waiting: drawn once
    choices.push({ ...rung, ...size, draw: () => (drawn ??= renderTerminalQr(text, options)) });
  }
  return choices;
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

/** Terminal columns the rendering of `text` takes (level M unless given, quiet zone included). */
export function qrWidth(text: string, opts: Pick<TerminalQrOptions, 'charset' | 'level' | 'quietZone'> = {}): number {
  return qrSize(text, opts).columns;
}

/**
 * Columns and lines the rendering of `text` takes (quiet zone included): half blocks put two
 * module rows on a line; ASCII cells are two columns wide and one module row tall.
 */
export function qrSize(text: string, opts: Pick<TerminalQrOptions, 'charset' | 'level' | 'quietZone'> = {}): { columns: number; rows: number } {
  const modules = qrSymbol(text, opts.level ?? 'M').size + 2 * (opts.quietZone ?? QUIET_ZONE);
  return opts.charset === 'ascii' ? { columns: 2 * modules, rows: modules } : { columns: modules, rows: Math.ceil(modules / 2) };
}

/** The QR for `text` (level M unless given) as terminal text: lines joined with \n, ending with \n. */
export function renderTerminalQr(text: string, opts: TerminalQrOptions): string {
  const { modules } = qrSymbol(text, opts.level ?? 'M');
  const grid = withQuietZone(modules, opts.quietZone ?? QUIET_ZONE);
  const ascii = opts.charset === 'ascii';
  const width = ascii ? 2 * grid.length : grid.length;
  if (opts.maxWidth !== undefined && width > opts.maxWidth) {
    if (opts.tooWide === 'explain') {
      if (ascii)
        return `[QR code not drawn: it needs ${width} columns and the terminal has ${opts.maxWidth}: ${asciiReason(opts.locale)}; or save the code with --qr-out <file.png>]\n`;
      return `[QR code not drawn: it needs ${width} columns and the terminal has ${opts.maxWidth}; widen it, or save the code with --qr-out <file.png>]\n`;
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
