// Words that fit (src/output/wrap.ts): wrapped at spaces only, never mid-word; a command to run
// whole on a line of its own; colour codes take no cell, wide characters two.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { newCmdRoot, runCli } from '../../src/cli.js';
import { createFactory } from '../../src/cmdutil/factory.js';
import { SHELLS } from '../../src/commands/completion.js';
import { COMMANDS } from '../../src/commands/registry.js';
import { ExitCode, GwError } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { cellWidth, FLAG_OPTIONS, FOLLOWING_WORDS, GW_COMMANDS, messageUnits, wrapLine, wrapText } from '../../src/output/wrap.js';
import { ManualClock } from '../../src/util/clock.js';

const RED = '\u001b[31m';
const RESET = '\u001b[39m';

describe('cellWidth', () => {
  it.each([
    ['plain', 'abc', 3],
    ['colour codes take no cell', `${RED}abc${RESET}`, 3],
    ['CJK is two cells a character', '支払い', 6],
    ['Hangul', '결제', 4],
    ['fullwidth forms', 'ＡＢ', 4],
    ['emoji', '✅ paid', 7],
    ['a combining accent takes none', 'e\u0301', 1],
    ['box drawing and braille are one cell', '─⠋', 2],
  ])('%s', (_name, text, width) => {
    expect(cellWidth(text)).toBe(width);
  });
});

describe('messageUnits: the commands in a message', () => {
  // [message, the commands' units as laid out, the command lines they stand for]
  const cases: [string, string[], string[]][] = [
    ['follow it again: gw status 123 --wait --sandbox', ['gw status 123 --wait --sandbox'], ['gw status 123 --wait --sandbox']],
    ['run gw init, or gw config set baseUrl https://…', ['gw init,', 'gw config set baseUrl https://…'], ['gw init', 'gw config set baseUrl https://…']],
    ['check with gw status 5 --api v1 before trying again', ['gw status 5 --api v1'], ['gw status 5 --api v1']],
    ['the gateway (gw payments, the merchant panel) says', ['(gw payments,'], ['gw payments']],
    ["find it: gw payments --order-id 'my order' then retry", ["gw payments --order-id 'my order'"], ["gw payments --order-id 'my order'"]],
    ["look: gw payments --order-id 'it'\\''s or not' or wait", ["gw payments --order-id 'it'\\''s or not'"], ["gw payments --order-id 'it'\\''s or not'"]],
    ['run gw doctor.', ['gw doctor.'], ['gw doctor']],
    ["this order's payment is gone; gw is fine", [], []],
    ['set it (gw config shows what is set); or try gw with --sandbox', ['(gw config'], ['gw config']],
    // gw config has no subcommand "show": the command is gw config, and "show shows…" prose.
    ['(gw config show shows what is set);', ['(gw config'], ['gw config']],
    ['look with gw address list --network Tron then revoke', ['gw address list --network Tron'], ['gw address list --network Tron']],
    ['save them: gw listen >> notifications.log so nothing is lost', ['gw listen >> notifications.log'], ['gw listen >> notifications.log']],
    // A plain lower-case argument goes on; a clause word or a verb in the third person ends it.
    ['move it with gw sandbox trigger 123 paid and look again', ['gw sandbox trigger 123 paid'], ['gw sandbox trigger 123 paid']],
    ['check it (gw payouts lists them)', ['(gw payouts'], ['gw payouts']],
    ["the payout's track id (gw payout and gw payouts show it)", ['(gw payout', 'gw payouts'], ['gw payout', 'gw payouts']],
    ['too low: gw balance shows it', ['gw balance'], ['gw balance']],
    ['the next replay or gw listen --catch-up sends them again', ['gw listen --catch-up'], ['gw listen --catch-up']],
    ['what was delivered (and what gw listen --catch-up saw) is kept', ['gw listen --catch-up'], ['gw listen --catch-up']],
    ['draw it: gw pay 25 USDT --qr-out code.png to print it', ['gw pay 25 USDT --qr-out code.png'], ['gw pay 25 USDT --qr-out code.png']],
    ['decide first (gw status 184729305): accept them', ['(gw status 184729305):'], ['gw status 184729305']],
    ['take one with gw pay … --wait', ['gw pay … --wait'], ['gw pay … --wait']],
    ['(gw webhook replay --since … for earlier notifications)', ['(gw webhook replay --since …'], ['gw webhook replay --since …']],
    // A placeholder of several words, a double-quoted argument, a backtick around the command.
    [
      'then run gw sandbox trigger 1 paid --url <the URL it prints> there',
      ['gw sandbox trigger 1 paid --url <the URL it prints>'],
      ['gw sandbox trigger 1 paid --url <the URL it prints>'],
    ],
    [
      'as gw invoice 1 BTC --description "Order 1042 is paid" does',
      ['gw invoice 1 BTC --description "Order 1042 is paid"'],
      ['gw invoice 1 BTC --description "Order 1042 is paid"'],
    ],
    ['see `gw status 123 --wait` for more', ['`gw status 123 --wait`'], ['gw status 123 --wait']],
    // Environment assignments just before gw are part of the command line.
    [
      'Try: GATEWAY_API=v1 GATEWAY_BASE_URL=http://127.0.0.1:8080 gw balance',
      ['GATEWAY_API=v1 GATEWAY_BASE_URL=http://127.0.0.1:8080 gw balance'],
      ['GATEWAY_API=v1 GATEWAY_BASE_URL=http://127.0.0.1:8080 gw balance'],
    ],
    ['or export GATEWAY_PROFILE=shop to use it', [], []],
    // A pipe and a prose contraction.
    [
      "gw currencies --json | jq -r '.currencies[]' prints them",
      ["gw currencies --json | jq -r '.currencies[]'"],
      ["gw currencies --json | jq -r '.currencies[]'"],
    ],
    ["gw status 5 --wait doesn't end", ['gw status 5 --wait'], ['gw status 5 --wait']],
  ];
  it.each(cases)('%s', (text, units, runs) => {
    const commands = messageUnits(text).filter((u) => u.command);
    expect(commands.map((u) => u.text)).toEqual(units);
    expect(commands.map((u) => u.run)).toEqual(runs);
  });

  it("only gw's own commands start one: the words IOStreams was given", () => {
    expect(messageUnits('run gw frobnicate --now').filter((u) => u.command)).toEqual([]);
    expect(
      messageUnits('run gw frobnicate --now', ['frobnicate'])
        .filter((u) => u.command)
        .map((u) => u.run),
    ).toEqual(['gw frobnicate --now']);
  });
});

describe('wrapLine', () => {
  const cases: [string, string, number, string, string[]][] = [
    ['a line that fits is left alone', 'gw: the payment is open', 40, '    ', ['gw: the payment is open']],
    [
      'words wrap at spaces, continuation indented',
      'gw: the gateway did not answer within the deadline of thirty seconds',
      30,
      '    ',
      ['gw: the gateway did not answer', '    within the deadline of', '    thirty seconds'],
    ],
    [
      'a word longer than the line is never cut: it gets a line of its own',
      'hint: open https://example.test/a/very/long/path/that/does/not/fit to see',
      30,
      '      ',
      ['hint: open', '      https://example.test/a/very/long/path/that/does/not/fit', '      to see'],
    ],
    [
      'a command goes whole on its own line',
      'hint: follow it again: gw status 123456789 --wait --sandbox',
      40,
      '      ',
      ['hint: follow it again:', '      gw status 123456789 --wait --sandbox'],
    ],
    [
      'a command longer than the line is still whole',
      'hint: find it first: gw payments --order-id gw-20261125-160738-tdsq --sandbox, then retry',
      40,
      '      ',
      ['hint: find it first:', '      gw payments --order-id gw-20261125-160738-tdsq --sandbox', '      , then retry'],
    ],
    [
      'two commands, each on its own line',
      'hint: run gw init, or gw config set baseUrl https://gateway.example and try again',
      40,
      '      ',
      ['hint: run', '      gw init', '      , or', '      gw config set baseUrl https://gateway.example', '      and try again'],
    ],
    [
      'colour codes are not counted',
      `gw: ${RED}failed${RESET} to reach the gateway at all today`,
      30,
      '    ',
      [`gw: ${RED}failed${RESET} to reach the`, '    gateway at all today'],
    ],
    ['wide characters count two cells', 'gw: 支払い 支払い 支払い 支払い', 20, '    ', ['gw: 支払い 支払い', '    支払い 支払い']],
  ];
  it.each(cases)('%s', (_name, text, width, indent, lines) => {
    const wrapped = wrapLine(text, width, indent);
    expect(wrapped).toEqual(lines);
    // Never a word cut: the words read back the same.
    expect(wrapped.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
  });

  it('every line fits unless it is one word or one command', () => {
    const text =
      'gw: the payment 123456789 expired before anything arrived; do not hand over the goods, and check it with gw status 123456789 --sandbox before you create another one for the same order';
    for (const width of [20, 33, 47, 60, 79]) {
      for (const line of wrapLine(text, width, '    ')) {
        if (cellWidth(line) > width) expect(line.trim().split(' ')[0] === 'gw' || !line.trim().includes(' '), `${width}: ${line}`).toBe(true);
      }
    }
  });
});

describe('wrapText', () => {
  it('wraps each line and keeps the final newline', () => {
    expect(wrapText('one two three\nfour five six\n', 9)).toBe('one two\nthree\nfour five\nsix\n');
    expect(wrapText('short\n', 80)).toBe('short\n');
  });
});

describe('IOStreams: messages on a terminal fit its width', () => {
  const failure = new GwError(ExitCode.UNAVAILABLE, 'the gateway did not answer within the deadline of thirty seconds', {
    hint: 'the payment may exist: find it before anything else: gw payments --order-id gw-20261125-160738-tdsq --sandbox',
  });

  it('on a terminal: wrapped at word boundaries, the command whole on its own line', () => {
    const t = IOStreams.test({ stderrTTY: true, width: 50 });
    t.io.reportFailure(failure);
    expect(t.stderr()).toBe(
      [
        'gw: the gateway did not answer within the',
        '    deadline of thirty seconds',
        'hint: the payment may exist: find it before',
        '      anything else:',
        '      gw payments --order-id gw-20261125-160738-tdsq --sandbox',
        '',
      ].join('\n'),
    );
  });

  it('warnings and notes too, to one column less than the terminal; a short one stays one line', () => {
    const t = IOStreams.test({ stderrTTY: true, width: 40 });
    t.io.warn('the answer came late but it came in the end');
    t.io.note('done');
    t.io.notice('Follow it until it is paid: gw status 123456789 --wait --sandbox');
    expect(t.stderr()).toBe(
      [
        'gw: warning: the answer came late but',
        '    it came in the end',
        'gw: done',
        'Follow it until it is paid:',
        'gw status 123456789 --wait --sandbox',
        '',
      ].join('\n'),
    );
  });

  it('not into a pipe, nor with --json', () => {
    const piped = IOStreams.test({ stderrTTY: false, width: 50 });
    piped.io.reportFailure(failure);
    expect(piped.stderr().split('\n')).toHaveLength(3);
    const json = IOStreams.test({ stderrTTY: true, width: 50, json: true });
    json.io.reportFailure(failure);
    expect(json.stderr().split('\n')).toHaveLength(2);
  });
});

describe("wrapLine: gw's real hints at 40, 60 and 80 columns", () => {
  // Each hint as gw gives it (values filled in), and the commands in it as they must be laid out.
  const hints: [string, string[]][] = [
    [
      'run gw init to set up gw, or try gw with --sandbox, or set it with --base-url, GATEWAY_BASE_URL or baseUrl in your config file; gw config shows what is set',
      ['gw init', 'gw config'],
    ],
    ['run gw init, or gw config set baseUrl https://…', ['gw init', 'gw config set baseUrl https://…']],
    ['no payout of this account has that track id: check it (gw payouts lists them)', ['gw payouts']],
    ['send its output to a file or a pipe (gw listen >> notifications.log), or relay them with --forward-to', ['gw listen >> notifications.log']],
    ['the payment may still be paid late; follow it again: gw status 184729305 --wait --sandbox', ['gw status 184729305 --wait --sandbox']],
    [
      "the payment is shown above; to write its image: gw pay 25 USDT --network 'Tron Network' --order-id gw-20261125-160738-tdsq --reuse-if-exists --qr-out <file>",
      ["gw pay 25 USDT --network 'Tron Network' --order-id gw-20261125-160738-tdsq --reuse-if-exists --qr-out <file>"],
    ],
    ['or save the code: gw pay 25 USDT --qr-out code.png, then print it', ['gw pay 25 USDT --qr-out code.png']],
    [
      '--sandbox would drive a throwaway sandbox that ends with this command: start one with gw sandbox in another terminal, then run gw sandbox trigger 184729305 paid --url <the URL it prints>',
      ['gw sandbox', 'gw sandbox trigger 184729305 paid --url <the URL it prints>'],
    ],
    ['gw did not take it as a success; check the result with the gateway (gw payments, the merchant panel) before trying again', ['gw payments']],
    ["the account's balance in that currency is too low: gw balance shows it", ['gw balance']],
    [
      'look for order id "gw-20261125-160738-tdsq" before trying again: gw payments --order-id gw-20261125-160738-tdsq --sandbox, or pay again with --order-id gw-20261125-160738-tdsq --reuse-if-exists',
      ['gw payments --order-id gw-20261125-160738-tdsq --sandbox'],
    ],
    ['decide about those funds first (gw status 184729305): accept them, or refund them in the merchant panel', ['gw status 184729305']],
    ['run it in a terminal window; from a script, take one payment with gw pay … --wait', ['gw pay … --wait']],
    [
      'catch-up: nothing recorded before; from now on, what this receiver misses is caught up when it starts (gw webhook replay --since … for earlier notifications)',
      ['gw webhook replay --since …'],
    ],
    ['Next: fix what is marked ✗ (gw config set <key> <value>, or the file named), then run gw doctor.', ['gw config set <key> <value>', 'gw doctor']],
    ['the payout was sent; follow it: gw payout status 258298451 --wait --sandbox', ['gw payout status 258298451 --wait --sandbox']],
    [
      'pick one with --profile shop (or --profile <name>), or export GATEWAY_PROFILE=shop to use it by default; or run gw init without a profile name to set your defaults',
      ['gw init'],
    ],
    [
      'move a payment with: gw sandbox trigger 184729305 paid --url http://127.0.0.1:8080 and watch it change',
      ['gw sandbox trigger 184729305 paid --url http://127.0.0.1:8080'],
    ],
  ];
  const INDENT = '      ';
  const cases = hints.flatMap(([text, commands]) => [40, 60, 80].map((width) => [width, text, commands] as const));

  it.each(cases)('at %i columns: %s', (width, hint, commands) => {
    const text = `hint: ${hint}`;
    const lines = wrapLine(text, width, INDENT);
    // Never a character cut or lost: the text reads back the same but for spaces.
    expect(lines.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    if (cellWidth(text) <= width) {
      expect(lines).toEqual([text]);
      return;
    }
    // Each command whole, on a line of its own.
    const own = lines.map((line) => line.trim());
    for (const command of commands) expect(own, command).toContain(command);
    // The prose around them at word boundaries: every line fits unless it is one word or a
    // command, and a line is only broken where its next word would not have fitted.
    const isCommand = (line: string): boolean => commands.includes(line.trim());
    lines.forEach((line, i) => {
      if (!isCommand(line) && line.trim().includes(' ')) expect(cellWidth(line), line).toBeLessThanOrEqual(width);
      const next = lines[i + 1];
      if (next !== undefined && !isCommand(line) && !isCommand(next)) {
        expect(cellWidth(`${line} ${next.trim().split(' ')[0]}`), `${line} | ${next}`).toBeGreaterThan(width);
      }
    });
  });
});

describe("gw's command words", () => {
  it('the default is the registry: every command gw has, and nothing else', () => {
    expect([...GW_COMMANDS].sort()).toEqual(COMMANDS.flatMap((row) => [row.name, ...(row.aliases ?? [])]).sort());
  });

  it("the words that may follow a command's name are its subcommands, every one", async () => {
    const program = await fullProgram();
    for (const command of program.commands) {
      const subcommands = command.commands.map((c) => c.name()).filter((name) => !name.startsWith('_'));
      // completion's following words are its shells, not subcommands.
      if (command.name() === 'completion') expect(subcommands).toEqual([]);
      const expected = command.name() === 'completion' ? [...SHELLS] : subcommands;
      expect([...(FOLLOWING_WORDS[command.name()] ?? [])].sort(), command.name()).toEqual(expected.sort());
    }
  });

  it('the options that take no value are those of its commands', async () => {
    const program = await fullProgram();
    const flags = new Set(['--help', '-h']);
    const valued = new Set<string>();
    const walk = (command: Command): void => {
      for (const option of command.options) {
        for (const name of [option.long, option.short]) if (name !== undefined) (option.required || option.optional ? valued : flags).add(name);
      }
      for (const sub of command.commands) walk(sub);
    };
    walk(program);
    expect([...FLAG_OPTIONS].sort()).toEqual([...flags].filter((name) => !valued.has(name)).sort());
  });

  it('src/cli.ts gives IOStreams the commands of the registry', async () => {
    const t = IOStreams.test({ stderrTTY: true, width: 40 });
    t.io.setCommandWords(['elsewhere']);
    await runCli(['--version'], testFactory(t.io));
    expect([...t.io.commandWords].sort()).toEqual([...GW_COMMANDS].sort());
  });

  it('IOStreams wraps with the words it was given', () => {
    const t = IOStreams.test({ stderrTTY: true, width: 40 });
    t.io.setCommandWords(['frobnicate']);
    t.io.note('to see it again, run gw frobnicate --all --sandbox now');
    expect(t.stderr()).toBe(['gw: to see it again, run', '    gw frobnicate --all --sandbox', '    now', ''].join('\n'));
  });
});

describe('every command in a message of src/ is one gw parses', () => {
  it('each string of src/ naming a gw command holds commands that gw accepts', async () => {
    const program = await fullProgram();
    const mention = new RegExp(`(?:^|[\\s(\`'"])gw (?:${GW_COMMANDS.join('|')})\\b`);
    const checked: string[] = [];
    const failures: string[] = [];
    for (const { file, text } of sourceStrings()) {
      if (EXCLUDED.some((excluded) => text.startsWith(excluded))) continue;
      for (const line of text.split('\n')) {
        if (!mention.test(line)) continue;
        const runs = messageUnits(line)
          .filter((u) => u.command)
          .map((u) => u.run ?? '');
        if (runs.length === 0) failures.push(`${file}: no command found in ${JSON.stringify(line)}`);
        for (const run of runs) {
          checked.push(run);
          const problem = await parseProblem(program, run);
          if (problem !== undefined) failures.push(`${file}: ${JSON.stringify(run)} (in ${JSON.stringify(line)}): ${problem}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The collection found gw's hints (a regex that found nothing would pass).
    expect(checked).toContain('gw config');
    expect(checked).toContain('gw listen >> notifications.log');
    expect(checked).toContain('gw payouts');
    expect(checked.length).toBeGreaterThan(150);
  }, 60_000);
});

// --- Helpers ------------------------------------------------------------------------------------

/** Strings of src/ that name gw commands but are no message: a certificate's name, shell scripts. */
const EXCLUDED = ['gw sandbox CA (', '# gw completion for', '#compdef gw'];

function testFactory(io: IOStreams) {
  const home = '/nonexistent-gw-wrap-test';
  return createFactory({
    io,
    env: { HOME: home },
    cwd: home,
    home,
    interrupt: new AbortController().signal,
    clock: new ManualClock(Date.now()),
  });
}

/** gw's whole program, every command's action replaced by one that does nothing: only the parse runs. */
async function fullProgram(): Promise<Command> {
  const program = await newCmdRoot(testFactory(IOStreams.test({}).io));
  const quiet = (command: Command): void => {
    // Commander keeps the handler private; a command without one (address, webhook…) keeps none.
    if ((command as unknown as { _actionHandler: unknown })._actionHandler) command.action(() => undefined);
    command.configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
    for (const sub of command.commands) quiet(sub);
  };
  quiet(program);
  return program;
}

/**
 * Why gw's parser refuses `run` (undefined when it takes it). Before the parse: environment
 * assignments and what follows a pipe or redirection go; a `<placeholder>` or `…` is one argument.
 * A missing argument is fine where the text names the command only (`gw status`) or leaves the rest
 * out with `…`; it must not end in a clause word or an open `(`.
 */
async function parseProblem(program: Command, run: string): Promise<string | undefined> {
  const words = shellWords(run);
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) words.shift();
  if (words.shift() !== 'gw') return 'does not start with gw';
  const cut = words.findIndex((w) => /^(\||\|\||&&|>>?|<|2>.*|#)$/.test(w));
  const args = cut === -1 ? words : words.slice(0, cut);
  const last = args[args.length - 1] ?? '';
  if (/^(or|and|then|to|before|if|which|shows|lists|the|with|is|for)$/.test(last)) return `ends in the clause word "${last}"`;
  if ((run.match(/\(/g) ?? []).length > (run.match(/\)/g) ?? []).length) return 'an unmatched (';
  try {
    await program.parseAsync(args, { from: 'user' });
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message === 'help shown') return undefined; // gw webhook --help
    // Naming a command (`gw refund`), or leaving the rest out (`gw pay … --wait`), is not a command line to complete.
    const namesOnly = args.every((a) => /^[a-z]+$/.test(a)) && args.length <= 2;
    const elided = args.some((a) => a === '…' || a.startsWith('<'));
    if (/missing required argument|required option .* not specified/.test(message) && (namesOnly || elided)) return undefined;
    return message;
  }
}

/** A command line in words as a shell splits it (quotes kept out), a `<placeholder of words>` as one. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (ch === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'" || ch === '"') {
      const end = line.indexOf(ch, i + 1);
      word = (word ?? '') + line.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? line.length : end;
    } else if (ch === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (ch === '<' && word === undefined && /[A-Za-z]/.test(line[i + 1] ?? '')) {
      const end = line.indexOf('>', i);
      word = line.slice(i, end === -1 ? undefined : end + 1);
      i = end === -1 ? line.length : end;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Every string and template literal of src/ (types stripped by esbuild, comments here), `${…}` filled in. */
function sourceStrings(): { file: string; text: string }[] {
  const src = fileURLToPath(new URL('../../src', import.meta.url));
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return files.flatMap((file) => {
    const code = transformSync(readFileSync(path.join(src, file), 'utf8'), { loader: 'ts', charset: 'utf8' }).code;
    const found: string[] = [];
    literalsIn(code, found);
    return found.map((text) => ({ file, text }));
  });
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** One escape sequence at `code[i]` (after the backslash): its text and where it ends. */
function escapeAt(code: string, i: number): [string, number] {
  const ch = code[i] ?? '';
  const hex = /^u\{([0-9a-fA-F]+)\}|^u([0-9a-fA-F]{4})|^x([0-9a-fA-F]{2})/.exec(code.slice(i, i + 10));
  if (hex !== null) return [String.fromCodePoint(Number.parseInt(hex[1] ?? hex[2] ?? hex[3] ?? '0', 16)), i + hex[0].length];
  if (ch === '\n') return ['', i + 1];
  return [ESCAPES[ch] ?? ch, i + 1];
}

/** Collects the literals in `code` into `found` (a template's after those inside it); returns where the scan ended. */
function literalsIn(code: string, found: string[], until?: string): number {
  let last = '';
  let depth = 0;
  for (let i = 0; i < code.length; ) {
    const ch = code[i] ?? '';
    if (until === '}' && ch === '}' && depth === 0) return i;
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === '"' || ch === "'") {
      let text = '';
      let j = i + 1;
      while (j < code.length && code[j] !== ch) {
        if (code[j] === '\\') {
          const [escaped, next] = escapeAt(code, j + 1);
          text += escaped;
          j = next;
        } else text += code[j++];
      }
      found.push(text);
      i = j + 1;
      last = 'x';
    } else if (ch === '`') {
      let text = '';
      let j = i + 1;
      while (j < code.length && code[j] !== '`') {
        if (code[j] === '\\') {
          const [escaped, next] = escapeAt(code, j + 1);
          text += escaped;
          j = next;
        } else if (code[j] === '$' && code[j + 1] === '{') {
          const inner: string[] = [];
          const end = literalsIn(code.slice(j + 2), inner, '}') + j + 2;
          text += substitute(code.slice(j + 2, end), inner);
          found.push(...inner);
          j = end + 1;
        } else text += code[j++];
      }
      found.push(text);
      i = j + 1;
      last = 'x';
    } else if (ch === '/' && code[i + 1] === '/') {
      // A comment (esbuild keeps some): skipped.
      const end = code.indexOf('\n', i);
      i = end === -1 ? code.length : end;
    } else if (ch === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end === -1 ? code.length : end + 2;
    } else if (ch === '/' && (/[(,=:[!&|?{};]/.test(last) || last === '' || /\b(return|typeof|case)\s*$/.test(code.slice(Math.max(0, i - 8), i)))) {
      // A regular expression: skipped, classes and escapes included.
      let j = i + 1;
      for (let inClass = false; j < code.length && (inClass || code[j] !== '/'); j++) {
        if (code[j] === '\\') j++;
        else if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
      }
      i = j + 1;
      last = 'x';
    } else {
      if (!/\s/.test(ch)) last = ch;
      i++;
    }
  }
  return code.length;
}

/** What a `${…}` stands for in a message: the longer branch of a choice between texts, the rest of a sandbox command, else a number. */
function substitute(expression: string, literals: readonly string[]): string {
  if (expression.trim() === 'rest') return 'trigger 7 paid';
  if (expression.includes('?') && literals.some((text) => text !== '')) return [...literals].sort((a, b) => b.length - a.length)[0] ?? '';
  return '7';
}
