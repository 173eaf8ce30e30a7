// What a terminal shows redrawn in place, as the text that draws it: a block of lines on stdout
// (the counter screen), rewritten where it changed, and a one-line status on stderr (the live
// line). Only text is made here; IOStreams writes it, where it has decided that a terminal can
// take it (canRedraw, canAnimate).
import { truncateVisible, visibleWidth } from './cells.js';

/** Clears the terminal's screen (not its scrollback) and homes the cursor. */
export const CLEAR_SCREEN = '\u001b[H\u001b[2J';

/** Back to the start of the line, and the line cleared: before a live line, or to remove it. */
export const CLEAR_LINE = '\r\u001b[2K';

/**
 * A block of lines drawn on a terminal and redrawn in place: the text for each drawing rewrites
 * only the lines that changed (the cursor moves up over the block, so the block must fit the
 * screen: the counter screen does). After a change of terminal size the screen is cleared first
 * when `clear` allows it, else the block is drawn again below.
 */
export class RedrawnBlock {
  /** The lines last drawn (as given, and as fitted to the width), and the terminal size then. */
  #last: { given: readonly string[]; lines: readonly string[]; width: number; height: number } | undefined;

  /** The text that turns the block drawn last (if any) into `lines`, on a terminal of this size. */
  redraw(lines: readonly string[], width: number, height: number, clear: boolean): string {
    // A line wider than the terminal would wrap and put the cursor arithmetic off: never. (A line
    // drawn last time at this width was checked then.)
    const last = this.#last?.width === width ? this.#last : undefined;
    const fitted = lines.map((line, i) =>
      last?.given[i] === line ? (last.lines[i] ?? line) : visibleWidth(line) < width ? line : truncateVisible(line, width - 1),
    );
    let before = this.#last?.lines;
    let text = '';
    if (before !== undefined && (this.#last?.width !== width || this.#last.height !== height)) {
      // The terminal was resized: the old block may have reflowed.
      if (clear) text += CLEAR_SCREEN;
      before = undefined;
    }
    let first = 0;
    if (before !== undefined) {
      while (first < before.length && first < fitted.length && before[first] === fitted[first]) first++;
      // The first changed line must still be on the screen to be reached by moving up.
      if (before.length - first > height - 1) {
        if (clear) text += CLEAR_SCREEN;
        before = undefined;
        first = 0;
      }
    }
    if (before === undefined) {
      text += fitted.map((line) => `${line}\n`).join('');
    } else if (first < before.length || first < fitted.length) {
      const up = before.length - first;
      text += up > 0 ? `\r\u001b[${up}A` : '\r';
      for (let i = first; i < fitted.length; i++) text += before[i] === fitted[i] ? '\u001b[1B' : `\u001b[2K${fitted[i]}\n`;
      text += '\u001b[J';
    }
    this.#last = { given: [...lines], lines: fitted, width, height };
    return text;
  }

  /** Forgets the drawn block: what is written next goes below it and is never redrawn. */
  forget(): void {
    this.#last = undefined;
  }
}

/** A live line's text cut to the terminal's width (one column spare), with an ellipsis where cut. */
export function fitLiveLine(text: string, width: number): string {
  const room = Math.max(1, width - 1);
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  return [...plain].length <= room ? text : `${[...plain].slice(0, room - 1).join('')}…`;
}
