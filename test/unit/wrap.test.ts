// Words that fit (src/output/wrap.ts): wrapped at spaces only, never mid-word; a command to run
// whole on a line of its own; colour codes take no cell, wide characters two.
import { describe, expect, it } from 'vitest';
import { ExitCode, GwError } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { cellWidth, messageUnits, wrapLine, wrapText } from '../../src/output/wrap.js';

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
  it.each([
    ['follow it again: gw status 123 --wait --sandbox', ['gw status 123 --wait --sandbox']],
    ['run gw init, or gw config set baseUrl https://…', ['gw init,', 'gw config set baseUrl https://…']],
    ['check with gw status 5 --api v1 before trying again', ['gw status 5 --api v1']],
    ['the gateway (gw payments, the merchant panel) says', ['(gw payments,']],
    ["find it: gw payments --order-id 'my order' then retry", ["gw payments --order-id 'my order'"]],
    ["look: gw payments --order-id 'it'\\''s or not' or wait", ["gw payments --order-id 'it'\\''s or not'"]],
    ['run gw doctor.', ['gw doctor.']],
    ["this order's payment is gone; gw is fine", []],
    ['set it (gw config shows what is set); or try gw with --sandbox', ['(gw config']],
    ['look with gw address list --network Tron then revoke', ['gw address list --network Tron']],
    ['save them: gw listen >> notifications.log so nothing is lost', ['gw listen >> notifications.log']],
  ])('%s', (text, commands) => {
    expect(
      messageUnits(text)
        .filter((u) => u.command)
        .map((u) => u.text),
    ).toEqual(commands);
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
      ['hint: find it first:', '      gw payments --order-id gw-20261125-160738-tdsq --sandbox,', '      then retry'],
    ],
    [
      'two commands, each on its own line',
      'hint: run gw init, or gw config set baseUrl https://gateway.example and try again',
      40,
      '      ',
      ['hint: run', '      gw init,', '      or', '      gw config set baseUrl https://gateway.example', '      and try again'],
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
    expect(wrapped.join(' ').split(/\s+/).filter(Boolean)).toEqual(text.split(/\s+/).filter(Boolean));
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
