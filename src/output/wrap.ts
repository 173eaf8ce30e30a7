// Words that fit a terminal: a message or hint wrapped at word boundaries to a width, never in
// the middle of a word, and a command to run (`gw status 123 --wait`) kept whole on a line of its
// own. Pure text in, lines out; IOStreams decides when (stderr a terminal, not --json).
//
// Widths are what the terminal shows: gw's own colour codes (SGR) take no cell, combining marks
// none, East Asian wide characters and emoji two. A word wider than the line (a URL, an address)
// is never cut: it gets a line of its own and the terminal shows the rest on the next.
//
// A command in a message is found by this rule (messageUnits):
// - It starts at `gw` (alone, or after `(`, a quote, a backtick, `<(` or `$(`) followed by one of
//   gw's command names: the registry's, which src/cli.ts gives IOStreams (output never imports
//   commands); GW_COMMANDS until then. Environment assignments just before it (`GATEWAY_API=v1`)
//   belong to it. "gw is…", "gw with…" are prose.
// - It goes on through what a command line is made of: options (`--x`, `--x=y`, `-x`) and their
//   values, numbers and track ids, quoted arguments (whole, whatever is inside), `<placeholders of
//   words>`, `…`, URLs and paths, words with capitals (USDT, baseUrl), `>>`, `>` and `|` with what
//   follows them, and plain lower-case words as arguments (`gw sandbox trigger 123 paid`).
// - A plain lower-case word ends it (is left out) in three places: right after the command's name
//   unless it is one of its subcommands (FOLLOWING_WORDS: `gw config set`, but `gw config shows`);
//   after an option that takes no value (FLAG_OPTIONS: `gw payments --all stopped`); and anywhere
//   when it is a clause word: an English function word (or, and, then, to, before, if, which, the,
//   is…), a verb in the third person (a word in -s that is no command or subcommand of gw: shows,
//   lists, sends), or one of a few other verbs (show, saw, printed…).
// - It ends after a word that ends the clause: `,` `;` `:` `?` `!` or a final `.` (not `…` or
//   `...`), at a `)` it did not open (the one closing a `(` before gw), at the closing quote or
//   backtick of one opened before gw, and before a word that opens a parenthesis or a shell
//   comment, a dash, or a contraction ("payment's"). Never inside a quoted argument or a placeholder.
// The punctuation glued to its first and last words stays there (`(gw payouts` on its own line);
// `run` is the command line without it. test/unit/wrap.test.ts parses every command found in the
// strings of src/ with gw's own parser.

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
export interface Unit {
  text: string;
  command: boolean;
  /** For a command: the command line itself, without the sentence's punctuation around it. */
  run?: string;
}

/** gw's commands as src/commands/registry.ts names them: the words a command starts with until IOStreams is given the registry's own (src/cli.ts does, on every run). */
export const GW_COMMANDS: readonly string[] = [
  'init',
  'currencies',
  'pay',
  'counter',
  'invoice',
  'status',
  'payments',
  'report',
  'address',
  'payout',
  'refund',
  'payouts',
  'balance',
  'rate',
  'config',
  'doctor',
  'sandbox',
  'listen',
  'webhook',
  'completion',
];

/** The plain words that may follow a command's name: its subcommands (for completion, its shells). */
export const FOLLOWING_WORDS: Readonly<Record<string, readonly string[]>> = {
  address: ['new', 'list', 'revoke'],
  completion: ['bash', 'zsh', 'fish'],
  config: ['set', 'get', 'unset'],
  payout: ['status'],
  sandbox: ['trigger', 'resend', 'deposit'],
  webhook: ['verify', 'send', 'replay'],
};

/**
 * gw's options that take no value in any command (test/unit/wrap.test.ts checks them against the
 * commands): after one, a plain lower-case word is prose (`gw payments --all stopped reading`).
 */
export const FLAG_OPTIONS: ReadonlySet<string> = new Set(
  `--all --catch-up --check-stats --deliver-anywhere --dry-run --forward-unverified --help --json --legacy --no-clear
  --no-color --no-qr --no-verify --qr --receipt-unicode --refunds --reuse-if-exists --sandbox --test-invoice --tls --verbose
  --version --wait --with-payments --without-payments --yes -V -h -y`.split(/\s+/),
);

/** English function words: conjunctions, relatives, prepositions, determiners, pronouns, auxiliaries, a few adverbs. */
const FUNCTION_WORDS = new Set(
  `or and but nor so then if when while until unless because since before after than as whether
  which who whom whose what where that how why
  to for from with without in on at by of into onto about against between through during over under via per instead
  the a an this these those each every some any no both either neither another other such
  it its they them their you your we our he she his her me my one
  is are was were be been being am do does did has have had can could will would shall should may might must
  not never also only still again first now just too even yet already here there once`.split(/\s+/),
);
/** Verbs of gw's prose that the -s rule below does not catch. */
const OTHER_VERBS = new Set(['show', 'saw', 'shown', 'said', 'printed', 'made', 'gave', 'found']);

const SENTENCE_END = /[,;:?!]$|[^.]\.$/;
/** A word that is prose, not an argument: it opens a parenthesis or a shell comment, is a dash, or is a contraction or possessive ("payment's"). */
const PROSE = /^[(#\u2013\u2014]|^[A-Za-z]+'[a-z]+[,;:.?!)]*$/;
const PLAIN = /^[a-z]+(?:-[a-z]+)*$/;
/** `NAME=value` before a command: part of the command line (`GATEWAY_API=v1 gw balance`). */
const ENV_ASSIGNMENT = /^[A-Z_][A-Z0-9_]*=\S*$/;
/** `gw`, perhaps after `(`, a quote, a backtick, `<(` or `$(`: the opener, and the rest. */
const GW_WORD = /^(<\(|\$\(|[("'`]|)gw$/;

function plain(word: string): string {
  return word.replace(SGR, '');
}

/** The word without the sentence's punctuation after it (`paid),` is `paid`). */
function bareWord(word: string): string {
  return plain(word).replace(/[,;:.?!)"'`]+$/, '');
}

/** Whether a plain lower-case word is a clause word: a function word, a listed verb, or a verb in the third person (`shows`, `lists`). */
function isClauseWord(word: string, known: ReadonlySet<string>): boolean {
  if (FUNCTION_WORDS.has(word) || OTHER_VERBS.has(word)) return true;
  return /^[a-z]+[^su]s$/.test(word) && !known.has(word);
}

/**
 * Whether a command so far (from `gw` on, its opener left out) is inside a quoted argument or a
 * `<placeholder of words>`, and whether it is closed: its opener's closing quote or backtick came,
 * or a `)` it did not open.
 */
function scan(command: string, opener: string): { open: boolean; closed: boolean } {
  let quote: '' | "'" | "$'" | '"' = '';
  let depth = 0;
  let placeholder = false;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote === "'") {
      if (ch === "'") quote = '';
    } else if (quote !== '') {
      if (ch === '\\') i++;
      else if (ch === quote.slice(-1)) quote = '';
    } else if (ch === '\\') i++;
    else if (ch === opener && opener !== '(') return { open: false, closed: true };
    else if (ch === "'") quote = command[i - 1] === '$' ? "$'" : "'";
    else if (ch === '"') quote = '"';
    else if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) return { open: false, closed: true };
      depth--;
    } else if (ch === '<' && /[A-Za-z]/.test(command[i + 1] ?? '')) placeholder = true;
    else if (ch === '>') placeholder = false;
  }
  return { open: quote !== '' || placeholder, closed: false };
}

/**
 * Whether `word` goes on a command after `previous`: right after the command's name a plain
 * lower-case word only when it is one of that command's subcommands (`gw config set`; `gw config
 * shows` is prose); after an option that takes no value, none; elsewhere any plain lower-case word
 * but a clause word (`gw sandbox trigger 123 paid`, `--status paid`). Options, numbers, quoted
 * text, placeholders, `…`, URLs, paths, redirections and words with capitals are always arguments;
 * a word opening a parenthesis, a dash or a contraction never.
 */
function continuesCommand(word: string, previous: string, afterName: string | undefined, known: ReadonlySet<string>): boolean {
  const bare = bareWord(word);
  if (PLAIN.test(bare)) {
    if (afterName !== undefined) return FOLLOWING_WORDS[afterName]?.includes(bare) ?? false;
    if (FLAG_OPTIONS.has(bareWord(previous))) return false;
    return !isClauseWord(bare, known);
  }
  return bare !== '' && !PROSE.test(plain(word));
}

/** The command line of a command's words: `gw`'s opener, the sentence's punctuation and an unmatched `)` after it left out. */
function commandLine(words: readonly string[], gwAt: number, opener: string): string {
  let run = words.map((w, i) => (i === gwAt ? 'gw' : plain(w))).join(' ');
  for (let before = ''; before !== run; ) {
    before = run;
    run = run.replace(/[,;:?!]$|(?<!\.)\.$/, '');
    if (opener !== '' && opener !== '(' && run.endsWith(opener)) run = run.slice(0, -1);
    if (run.endsWith(')') && scan(run, '').closed) run = run.slice(0, -1);
  }
  return run;
}

/**
 * The message as units: words, and the commands to run in it, each one unit. A command starts at
 * `gw` followed by one of gw's commands (`commands`, the registry's names) and goes on while
 * continuesCommand() says so; it ends after a word that ends the sentence's clause (`,` `;` `:`
 * `?` `!` or a final `.`), at a `)` or quote it did not open, and never inside a quoted argument or
 * a `<placeholder>`. Each command's `run` is the command line as one would type it.
 */
export function messageUnits(text: string, commands: readonly string[] = GW_COMMANDS): Unit[] {
  const names = new Set(commands);
  const known = new Set([...commands, ...Object.values(FOLLOWING_WORDS).flat()]);
  const words = text.split(' ').filter((w) => w !== '');
  const units: Unit[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const opener = GW_WORD.exec(plain(word))?.[1];
    const name = bareWord(words[i + 1] ?? '');
    if (opener === undefined || !names.has(name)) {
      units.push({ text: word, command: false });
      continue;
    }
    const command = [word, words[i + 1] ?? ''];
    i++;
    while (i + 1 < words.length) {
      const state = scan(plain(command.join(' ')).slice(plain(word).length - 2), opener);
      if (state.closed) break;
      const next = words[i + 1] ?? '';
      if (!state.open) {
        if (SENTENCE_END.test(plain(command[command.length - 1] ?? ''))) break;
        if (!continuesCommand(next, command[command.length - 1] ?? '', command.length === 2 ? name : undefined, known)) break;
      }
      command.push(next);
      i++;
    }
    // Environment assignments just before `gw` belong to the command line.
    let gwAt = 0;
    while (opener === '' && units.length > 0 && !units[units.length - 1]?.command && ENV_ASSIGNMENT.test(plain(units[units.length - 1]?.text ?? ''))) {
      command.unshift(units.pop()?.text ?? '');
      gwAt++;
    }
    units.push({ text: command.join(' '), command: true, run: commandLine(command, gwAt, opener) });
  }
  return units;
}

/**
 * One line of text in lines of at most `width` cells where words allow: broken at spaces only,
 * continuation lines starting with `indent`; each command to run whole on a line of its own (after
 * `indent`). A line that fits is returned as it is.
 */
export function wrapLine(text: string, width: number, indent = '', commands: readonly string[] = GW_COMMANDS): string[] {
  if (cellWidth(text) <= width || text.trim() === '') return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let line = lead;
  let hasWords = false;
  // The line holds only the punctuation that followed a command: the next word joins it.
  let glued = false;
  const push = (): void => {
    if (hasWords) lines.push(line);
    line = indent;
    hasWords = false;
  };
  for (const unit of messageUnits(text.slice(lead.length), commands)) {
    if (unit.command) {
      // The command line alone on its line, so that it can be copied as it is: a bracket or quote
      // opened before it ends the line above, the sentence's punctuation after it starts the next.
      const text = plain(unit.text);
      const run = unit.run ?? text;
      const at = text.indexOf(run);
      const before = at > 0 ? text.slice(0, at) : '';
      const after = at >= 0 ? text.slice(at + run.length) : '';
      if (before !== '') {
        if (hasWords && cellWidth(`${line} ${before}`) <= width) line += ` ${before}`;
        else {
          push();
          line = `${lines.length === 0 ? lead : indent}${before}`;
        }
        hasWords = true;
      }
      push();
      lines.push(`${lines.length === 0 ? lead : indent}${at >= 0 ? run : unit.text}`);
      if (after !== '') {
        line = `${indent}${after}`;
        hasWords = true;
        glued = true;
      }
      continue;
    }
    if (glued) {
      // The punctuation that followed a command, and the sentence going on.
      line += ` ${unit.text}`;
      glued = false;
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
export function wrapText(text: string, width: number, indent = '', commands: readonly string[] = GW_COMMANDS): string {
  const ending = text.endsWith('\n') ? '\n' : '';
  const body = ending === '' ? text : text.slice(0, -1);
  return `${body
    .split('\n')
    .flatMap((line) => wrapLine(line, width, indent, commands))
    .join('\n')}${ending}`;
}
