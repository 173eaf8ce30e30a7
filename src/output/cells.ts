// Text in terminal cells: wrapping, padding and cutting lines that may carry gw's own SGR colour
// codes, by what the terminal shows (one cell per character; gateway text is already terminal-safe).
import { visibleWidth } from './table.js';

export { visibleWidth };

const SGR = /\u001b\[[0-9;]*m/y;

/** Pads `text` with spaces to `width` visible cells. */
export function padVisible(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

/** The first `width` visible cells of `text` (escape codes kept, a reset added when cut), with `…` when cut. */
export function truncateVisible(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let cells = 0;
  let i = 0;
  let styled = false;
  while (i < text.length && cells < width - 1) {
    SGR.lastIndex = i;
    const m = SGR.exec(text);
    if (m !== null) {
      out += m[0];
      styled = true;
      i = SGR.lastIndex;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 32);
    out += ch;
    i += ch.length;
    cells++;
  }
  return `${out}…${styled ? '\u001b[0m' : ''}`;
}

/**
 * Plain text (no escape codes) in lines of at most `width` cells: broken at spaces where it can be,
 * and words longer than a line (addresses, URIs) cut wherever they must be.
 */
export function wrapPlain(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let rest = [...word];
    const lineLength = [...line].length;
    if (line !== '' && lineLength + 1 + rest.length <= w) {
      line += ` ${word}`;
      continue;
    }
    if (line !== '') {
      // A long word starts on the current line when it has to be cut anyway.
      if (rest.length > w && lineLength + 1 < w) {
        const room = w - lineLength - 1;
        line += ` ${rest.slice(0, room).join('')}`;
        rest = rest.slice(room);
      }
      lines.push(line);
      line = '';
    }
    while (rest.length > w) {
      lines.push(rest.slice(0, w).join(''));
      rest = rest.slice(w);
    }
    line = rest.join('');
  }
  lines.push(line);
  return lines;
}
