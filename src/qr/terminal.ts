// Draws a payment QR in the terminal so that a phone scans it on any theme.
//
// Half blocks: one character cell is one module wide and two modules tall (▀ ▄ █ space), so the
// code is square on screen and a typical payment URI (version ≤ 13, up to ~330 characters at
// level M) fits 80 columns: width = modules + 8 (a four-module quiet zone on each side).
//
// Two renderings:
//  - colour (the default on a TTY): every cell is drawn as ▀ with an explicit foreground (top
//    module) and background (bottom module): dark = black (30/40), light = bright white (97/107),
//    the 16-colour codes every terminal supports. The theme cannot invert the code. Each line
//    starts by setting both colours and ends with a reset (\x1b[0m) so nothing bleeds.
//  - glyph (NO_COLOR, or not a TTY): no escape codes at all. LIGHT modules are drawn with the
//    glyph (the terminal's foreground) and dark modules are left blank (its background). That is
//    right on the usual dark theme (light text on a dark background); on a LIGHT theme it comes
//    out inverted and most phone scanners will not read it, so use colour there. The quiet zone is
//    light, i.e. drawn with glyphs, so no line ends in significant spaces.
//
// The symbol has an odd number of rows, so the last line's lower half is one row beyond the quiet
// zone: light in colour mode (the bottom margin is 4½ modules), background in glyph mode.

import { QUIET_ZONE, qrSymbol, withQuietZone } from './matrix.js';

export interface TerminalQrOptions {
  /** Explicit colours (works on any theme) or plain glyphs (dark themes only). */
  color: boolean;
  /** Throw QrTooWideError if the code needs more columns than this. */
  maxWidth?: number;
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
export function qrWidth(text: string): number {
  return qrSymbol(text, 'M').size + 2 * QUIET_ZONE;
}

/** The QR for `text` at level M as terminal text: lines joined with \n, ending with \n. */
export function renderTerminalQr(text: string, opts: TerminalQrOptions): string {
  const { modules } = qrSymbol(text, 'M');
  const grid = withQuietZone(modules);
  const width = grid.length;
  if (opts.maxWidth !== undefined && width > opts.maxWidth) {
    throw new QrTooWideError(width, opts.maxWidth);
  }
  const lines: string[] = [];
  for (let r = 0; r < grid.length; r += 2) {
    const top = grid[r] ?? [];
    const bottom = grid[r + 1]; // undefined below the last row
    lines.push(opts.color ? colourLine(top, bottom) : glyphLine(top, bottom));
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

/** One line without escapes: light modules are the glyph, dark modules are blank. */
function glyphLine(top: boolean[], bottom: boolean[] | undefined): string {
  let out = '';
  for (let c = 0; c < top.length; c++) {
    const topLight = top[c] !== true;
    const bottomLight = bottom !== undefined && bottom[c] !== true; // beyond the last row: blank
    out += topLight ? (bottomLight ? '█' : '▀') : bottomLight ? '▄' : ' ';
  }
  return out;
}
