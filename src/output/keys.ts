// Keys read from a terminal in raw mode (no echo, no line editing, Ctrl-C a key like any other),
// for a full-screen command (gw counter), and the text that switches the terminal to its
// alternate screen and back. Pure: bytes in, keys out; IOStreams reads the terminal.

/** A key as a full-screen command sees it. */
export type Key =
  | { name: 'char'; ch: string }
  | { name: 'enter' | 'backspace' | 'escape' | 'tab' | 'up' | 'down' | 'left' | 'right' | 'ctrl-c' | 'ctrl-d' | 'other' };

/** Switches to the alternate screen (the shell's screen is kept and comes back) and hides the cursor. */
export const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H\u001b[2J\u001b[?25l';
/** Shows the cursor and goes back to the normal screen, as it was. */
export const LEAVE_ALT_SCREEN = '\u001b[?25h\u001b[?1049l';

const ARROWS: Record<string, Key['name']> = { A: 'up', B: 'down', C: 'right', D: 'left' };

/**
 * The keys in one read of a raw terminal: a paste gives several, an escape sequence (an arrow, a
 * function key) is one. A lone ESC is the Escape key. Control characters other than the ones
 * named are `other`; so is any escape sequence gw does not use.
 */
export function parseKeys(data: string): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < data.length) {
    const ch = data[i] ?? '';
    if (ch === '\u001b') {
      // CSI (ESC [) or SS3 (ESC O): parameters, then one final byte.
      const seq = /^\u001b(?:\[[0-9;?]*[@-~]|O[@-~])/.exec(data.slice(i));
      if (seq !== null) {
        const final = seq[0].slice(-1);
        keys.push({ name: ARROWS[final] ?? 'other' } as Key);
        i += seq[0].length;
        continue;
      }
      // ESC followed by another key (Alt+key): the Escape key, then that key.
      keys.push({ name: 'escape' });
      i++;
      continue;
    }
    const code = ch.codePointAt(0) ?? 0;
    const char = String.fromCodePoint(code);
    i += char.length;
    if (ch === '\r' || ch === '\n') {
      // A terminal sends CR for Enter; CR LF (a paste) is one Enter.
      if (ch === '\r' && data[i] === '\n') i++;
      keys.push({ name: 'enter' });
    } else if (ch === '\u007f' || ch === '\b') keys.push({ name: 'backspace' });
    else if (ch === '\t') keys.push({ name: 'tab' });
    else if (ch === '\u0003') keys.push({ name: 'ctrl-c' });
    else if (ch === '\u0004') keys.push({ name: 'ctrl-d' });
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) keys.push({ name: 'other' });
    else keys.push({ name: 'char', ch: char });
  }
  return keys;
}

/** Where keys come from: starts delivering them to `onKey`, returns the function that stops it. */
export type KeySource = (onKey: (key: Key) => void) => () => void;
