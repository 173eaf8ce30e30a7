// Words that fit a terminal: a message or hint wrapped at word boundaries to a width, never in
// the middle of a word, and a command to run (`gw status 123 --wait`) kept whole on a line of its
// own. Pure text in, lines out; IOStreams decides when (stderr a terminal, not --json).
//
// Widths are what the terminal shows: gw's own colour codes (SGR) take no cell, combining marks
// none, East Asian wide characters and emoji two. A word wider than the line (a URL, an address)
// is never cut: it gets a line of its own and the terminal shows the rest on the next.

const SGR = /\u001b\[[0-9;]*m/g;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const EMOJI = /\p{Emoji_Presentation}/u;

/** Terminal cells one code point takes: 0, 1 or 2. */
function charWidth(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (ZERO_WIDTH.test(ch)) return 0;
  if (code < 0x1100) return 1;
  if (
    code <= 0x115f ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd) ||
    EMOJI.test(ch)
  ) {
    return 2;
  }
  return 1;
}

/** Terminal cells `text` takes: SGR codes none, wide characters two. */
export function cellWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(SGR, '')) width += charWidth(ch);
  return width;
}

/** A unit the wrapping does not break: a word (with its punctuation), or a command to run. */
interface Unit {
  text: string;
  command: boolean;
}

/** Words that end a command written inside a sentence ("gw init, or gw config set …"). */
const CLAUSE_WORDS = new Set(['or', 'and', 'then', 'which', 'before', 'if', 'when', 'to', 'until', 'so']);
/** A command starts with `gw` and a subcommand word (not a verb of a sentence about gw: "gw is…"). */
const COMMAND_START = /^gw$/;
const SUBCOMMAND = /^([a-z][a-z-]*)[,;:).]?$/;
const NOT_SUBCOMMANDS = new Set(
  'is was are will would can could does did do has had may might must should itself sends sent reads writes checks keeps makes made shows lists prints says knows uses needs takes gives asks with for in on at by from of not never also only still then and or the a an to as'.split(
    ' ',
  ),
);

function isSubcommand(word: string): boolean {
  const name = SUBCOMMAND.exec(word.replace(SGR, ''))?.[1];
  return name !== undefined && !NOT_SUBCOMMANDS.has(name);
}

/** Words that name a command's own subcommand (`gw config set`, `gw address list`…). */
const SUB_SUBCOMMANDS = new Set('set get unset trigger resend deposit verify send new list revoke status bash zsh fish'.split(' '));

/**
 * Whether `word` continues a command whose words so far are `command`: an option or an argument
 * (anything but a plain lower-case word: numbers, paths, URLs, quoted text, camelCase keys), an
 * option's value, or a subcommand's own subcommand. A plain word of prose ends the command.
 */
function continuesCommand(command: readonly string[], word: string): boolean {
  if (command.length === 1) return true; // the subcommand
  const plain = word.replace(SGR, '').replace(/[,;:).]$/, '');
  if (!/^[a-z]+$/.test(plain)) return true;
  const previous = (command[command.length - 1] ?? '').replace(SGR, '');
  if (/^--?[A-Za-z][\w-]*$/.test(previous)) return !CLAUSE_WORDS.has(plain); // an option's value
  return command.length === 2 && SUB_SUBCOMMANDS.has(plain);
}

/** Whether a shell quote is still open at the end of `command` ('my order', 'it'\''s', $'a\tb'). */
function quoteOpen(command: string): boolean {
  let quote: 'plain' | 'ansi-c' | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote !== undefined) {
      if (ch === '\\' && quote === 'ansi-c') i++;
      else if (ch === "'") quote = undefined;
    } else if (ch === '\\') i++;
    else if (ch === "'") quote = command[i - 1] === '$' ? 'ansi-c' : 'plain';
  }
  return quote !== undefined;
}

/** Ends a command: a word ending with `,` `;` `)` or `:`, or with a full stop (not "…" or "..."). */
function endsCommand(word: string): boolean {
  const plain = word.replace(SGR, '');
  return /[,;):]$/.test(plain) || (/[^.]\.$/.test(plain) && !/^\.?\.?\//.test(plain));
}

/**
 * The message as units: words, and the commands to run in it (`gw` followed by a subcommand, up to
 * the end of the clause: a `,` `;` `)`, a word such as "or" or "then", or the end), each one unit.
 */
export function messageUnits(text: string): Unit[] {
  const words = text.split(' ').filter((w) => w !== '');
  const units: Unit[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const bare = word.replace(SGR, '').replace(/^[(`"]/, '');
    if (COMMAND_START.test(bare) && isSubcommand(words[i + 1] ?? '')) {
      const command: string[] = [word];
      while (i + 1 < words.length) {
        const next = words[i + 1] ?? '';
        // Inside a quoted argument every word belongs to the command.
        if (!quoteOpen(command.join(' '))) {
          if (command.length > 1 && endsCommand(command[command.length - 1] ?? '')) break;
          if (CLAUSE_WORDS.has(next.replace(SGR, '')) || !continuesCommand(command, next)) break;
        }
        command.push(next);
        i++;
      }
      units.push({ text: command.join(' '), command: true });
    } else {
      units.push({ text: word, command: false });
    }
  }
  return units;
}

/**
 * One line of text in lines of at most `width` cells where words allow: broken at spaces only,
 * continuation lines starting with `indent`; each command to run whole on a line of its own (after
 * `indent`). A line that fits is returned as it is.
 */
export function wrapLine(text: string, width: number, indent = ''): string[] {
  if (cellWidth(text) <= width || text.trim() === '') return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let line = lead;
  let hasWords = false;
  const push = (): void => {
    if (hasWords) lines.push(line);
    line = indent;
    hasWords = false;
  };
  for (const unit of messageUnits(text.slice(lead.length))) {
    if (unit.command) {
      push();
      lines.push(`${lines.length === 0 ? lead : indent}${unit.text}`);
      continue;
    }
    if (!hasWords) {
      line = `${lines.length === 0 ? lead : indent}${unit.text}`;
      hasWords = true;
    } else if (cellWidth(`${line} ${unit.text}`) <= width) {
      line += ` ${unit.text}`;
    } else {
      push();
      line = `${indent}${unit.text}`;
      hasWords = true;
    }
  }
  push();
  return lines;
}

/** Text of one or more lines (ending with a newline or not) wrapped line by line; the ending kept. */
export function wrapText(text: string, width: number, indent = ''): string {
  const ending = text.endsWith('\n') ? '\n' : '';
  const body = ending === '' ? text : text.slice(0, -1);
  return `${body
    .split('\n')
    .flatMap((line) => wrapLine(line, width, indent))
    .join('\n')}${ending}`;
}
