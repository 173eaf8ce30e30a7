// Tests for src/output: terminalSafe (escape sequences, C0/C1 controls, invisible Unicode format
// characters), toJson (no raw control or C1 character, still valid JSON that round-trips), tables
// (decimal alignment, sanitised cells) and colorLevel.

import { describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/output/iostreams.js';
import { toJson } from '../../src/output/json.js';
import { CONTROL_CHARACTER, hasUnsafeCharacters, RAW_IN_JSON_STRINGS, terminalSafe, UNSAFE_CHARACTER } from '../../src/output/sanitize.js';
import { alignDecimals, renderDetails, renderTable, visibleWidth } from '../../src/output/table.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Every character a terminal could act on, or that hides or reorders text. */
const DANGEROUS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe('terminalSafe', () => {
  it.each([
    ['plain text', 'Invalid merchant API key', 'Invalid merchant API key'],
    ['CSI colour', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['CSI with parameters and intermediates', `${ESC}[1;31;48;5;196mX${ESC}[!p`, 'X'],
    ['CSI clear screen and cursor home', `${ESC}[2J${ESC}[Hpaid`, 'paid'],
    ['CSI private mode', `${ESC}[?1049hbuffer${ESC}[?25l`, 'buffer'],
    ['CSI cursor up and erase line', `ok${ESC}[1A${ESC}[2K`, 'ok'],
    ['OSC title ended by BEL', `${ESC}]0;pwned${BEL}after`, 'after'],
    ['OSC title ended by ST', `${ESC}]2;pwned${ST}after`, 'after'],
    ['OSC hyperlink', `${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`, 'click'],
    ['OSC 52 clipboard write', `${ESC}]52;c;ZXZpbA==${BEL}x`, 'x'],
    ['OSC ended by C1 ST', `${ESC}]0;t\u009cafter`, 'after'],
    ['DCS ended by ST', `${ESC}Pq#0;2;0;0;0#0~~${ST}after`, 'after'],
    ['DCS ended by C1 ST', `${ESC}P1$r0m\u009cafter`, 'after'],
    ['SOS', `${ESC}Xhidden${ST}shown`, 'shown'],
    ['PM', `${ESC}^hidden${ST}shown`, 'shown'],
    ['APC', `${ESC}_hidden${ST}shown`, 'shown'],
    ['lone ESC at the end', `abc${ESC}`, 'abc'],
    ['two-character escape (RIS)', `a${ESC}cb`, 'ab'],
    ['two-character escape (save cursor)', `a${ESC}7b`, 'ab'],
    ['ESC ESC', `a${ESC}${ESC}b`, 'ab'],
    ['C1 CSI 0x9b', '\u009b31mred\u009b0m', 'red'],
    ['C1 CSI 0x9b clear screen', '\u009b2Jx', 'x'],
    ['C1 OSC 0x9d ended by BEL', `\u009d0;title${BEL}after`, 'after'],
    ['C1 OSC 0x9d ended by 0x9c', '\u009d0;title\u009cafter', 'after'],
    ['C1 DCS 0x90', '\u0090payload\u009cafter', 'after'],
    ['C1 NEL 0x85 and IND 0x84', 'a\u0085b\u0084c', 'abc'],
    ['DEL', 'a\u007fb', 'ab'],
    ['BEL', `ding${BEL}dong`, 'dingdong'],
    ['CR (overwrite)', 'PAID\rUNPAID', 'PAIDUNPAID'],
    ['LF and TAB', 'a\nb\tc', 'abc'],
    ['backspace', 'ab\bc', 'abc'],
    ['NUL', 'a\u0000b', 'ab'],
    ['bidi override U+202E', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['bidi embeddings and PDF U+202A–U+202D, U+202C', '\u202Aa\u202Bb\u202Cc\u202Dd', 'abcd'],
    ['bidi isolates U+2066–U+2069', '\u2066a\u2067b\u2068c\u2069', 'abc'],
    ['LRM and RLM', 'a\u200Eb\u200Fc', 'abc'],
    ['zero-width space, non-joiner, joiner', 'a\u200Bb\u200Cc\u200Dd', 'abcd'],
    ['word joiner and invisible operators', 'a\u2060b\u2061c\u2064d', 'abcd'],
    ['BOM / zero-width no-break space', '\uFEFFbc1q\uFEFF', 'bc1q'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'abc'],
    ['everything at once', `${ESC}[31m\u202E${ESC}]0;x${BEL}\u009b1m0.5\u200B BTC\r${ESC}`, '0.5 BTC'],
  ])('%s', (_name, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
    expect(DANGEROUS.test(terminalSafe(input))).toBe(false);
  });

  it.each([
    ['accents', 'Zürich, São Paulo, Kraków'],
    ['CJK', '東京の支払い'],
    ['right-to-left scripts', 'שלום مرحبا'],
    ['emoji with a variation selector', '🚀 ₿ ✔️'],
    ['currency and maths symbols', '€ £ ¥ ≈ ± ×'],
    ['NBSP and other spaces', 'a\u00a0b\u2009c'],
    ['punctuation a terminal does not act on', '[31m] ; ~ \\ ^ _ @'],
    ['a Bitcoin address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['a BIP-21 URI', 'bitcoin:bc1qexample?amount=0.00038127&label=Shop%20Order'],
    ['empty', ''],
  ])('keeps ordinary text: %s', (_name, text) => {
    expect(terminalSafe(text)).toBe(text);
    expect(hasUnsafeCharacters(text)).toBe(false);
  });

  it('never leaves a dangerous character, whatever the input', () => {
    const pieces = [ESC, '[', ']', 'P', '\\', BEL, '\u009b', '\u009c', '\u009d', '\u0090', '0', ';', 'm', 'a', '\r', '\u202e', '\u200b', 'é'];
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + (next() % 24) }, () => pieces[next() % pieces.length]).join('');
      const safe = terminalSafe(text);
      expect(DANGEROUS.test(safe), JSON.stringify(text)).toBe(false);
      expect(terminalSafe(safe)).toBe(safe);
    }
  });

  it.each([
    [`${ESC}[31m`, true],
    ['\u202e', true],
    ['plain', false],
    ['東京', false],
  ])('hasUnsafeCharacters(%j) = %s', (text, expected) => {
    expect(hasUnsafeCharacters(text)).toBe(expected);
  });

  it('UNSAFE_CHARACTER covers C0, DEL, C1 and the format characters', () => {
    const found = (ch: string): boolean => {
      UNSAFE_CHARACTER.lastIndex = 0;
      return UNSAFE_CHARACTER.test(ch);
    };
    for (const code of [0x00, 0x07, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0x9f, 0x200b, 0x200f, 0x2028, 0x202e, 0x2060, 0x2069, 0xfeff]) {
      expect(found(String.fromCharCode(code)), code.toString(16)).toBe(true);
    }
    for (const code of [0x20, 0x41, 0x7e, 0xa0, 0xe9, 0x2010, 0x20ac]) {
      expect(found(String.fromCharCode(code)), code.toString(16)).toBe(false);
    }
  });

  it('one list: an unsafe character is a control (CONTROL_CHARACTER) or one JSON leaves raw (RAW_IN_JSON_STRINGS) unless it is C0', () => {
    const matches = (re: RegExp, ch: string): boolean => {
      re.lastIndex = 0;
      return re.test(ch);
    };
    for (let code = 0; code <= 0xe00ff; code = code === 0xffff ? 0xe0000 : code + 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCodePoint(code);
      const hex = code.toString(16);
      expect(matches(CONTROL_CHARACTER, ch), hex).toBe(code <= 0x1f || (code >= 0x7f && code <= 0x9f));
      expect(matches(RAW_IN_JSON_STRINGS, ch), hex).toBe(matches(UNSAFE_CHARACTER, ch) && code > 0x1f);
    }
  });

  // Besides LRM/RLM (U+200E/F), their sibling ARABIC LETTER MARK U+061C and the invisible TAG
  // characters U+E0000–U+E007F (used to smuggle hidden text) are stripped too.
  it.each([
    ['ARABIC LETTER MARK U+061C', 'a\u061Cb', 'ab'],
    ['TAG characters U+E0001, U+E0041..', 'ok\u{E0001}\u{E0041}\u{E0042}\u{E007F}', 'ok'],
  ])('strips the remaining invisible format characters: %s', (_name, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });
});

describe('toJson', () => {
  const hostile = {
    message: `${ESC}[2J${ESC}]0;pwned${BEL}Invalid\r\nkey\u009b31m\u0085\u007f`,
    address: 'bc1q\u202Eexe.txt\u200B\uFEFF',
    seps: 'a\u2028b\u2029c\u2066d\u2069',
    nested: [{ deep: `\u0000\u001f\u0090${ESC}P` }],
    amount: '0.123456789012345678',
    text: 'Zürich 東京 🚀',
  };

  it.each([0, 2])('with indent %i: no raw control, C1 or format character, and it round-trips', (indent) => {
    const text = toJson(hostile, indent);
    const withoutIndentation = indent === 0 ? text : text.replace(/\n/g, '');
    expect(DANGEROUS.test(withoutIndentation)).toBe(false);
    expect(JSON.parse(text)).toEqual(hostile);
  });

  it('escapes each character as a JSON \\u escape', () => {
    expect(toJson({ a: '\u009b' }, 0)).toBe('{"a":"\\u009b"}');
    expect(toJson({ a: '\u007f' }, 0)).toBe('{"a":"\\u007f"}');
    expect(toJson({ a: '\u202e' }, 0)).toBe('{"a":"\\u202e"}');
    expect(toJson({ a: '\u2028\u2029' }, 0)).toBe('{"a":"\\u2028\\u2029"}');
    expect(toJson({ a: '\uFEFF' }, 0)).toBe('{"a":"\\ufeff"}');
    expect(toJson({ a: `${ESC}[0m` }, 0)).toBe('{"a":"\\u001b[0m"}');
    expect(toJson({ a: 'x\ry' }, 0)).toBe('{"a":"x\\ry"}');
  });

  it('leaves ordinary text and layout alone', () => {
    expect(toJson({ city: 'Zürich', amount: '25.50', n: 1, ok: true, none: null })).toBe(
      '{\n  "city": "Zürich",\n  "amount": "25.50",\n  "n": 1,\n  "ok": true,\n  "none": null\n}',
    );
    expect(toJson([1, 'a'], 0)).toBe('[1,"a"]');
  });

  it('escapes keys too', () => {
    const text = toJson({ 'k\u009b\u202e': 1 }, 0);
    expect(text).toBe('{"k\\u009b\\u202e":1}');
    expect(JSON.parse(text)).toEqual({ 'k\u009b\u202e': 1 });
  });

  it('prints undefined as null', () => {
    expect(toJson(undefined)).toBe('null');
  });
});

describe('alignDecimals', () => {
  it.each([
    [
      ['1.5', '120', '0.00012345'],
      ['  1.5       ', '120         ', '  0.00012345'],
    ],
    [
      ['1', '22', '333'],
      ['  1', ' 22', '333'],
    ],
    [
      ['0.5', '0.25', '0.125'],
      ['0.5  ', '0.25 ', '0.125'],
    ],
    [
      ['10.5', '2.25'],
      ['10.5 ', ' 2.25'],
    ],
    [
      ['25.50', '0.00038127', '1000'],
      ['  25.50      ', '   0.00038127', '1000         '],
    ],
    [
      ['0.123456789012345678', '12345678901234567890'],
      ['                   0.123456789012345678', '12345678901234567890                   '],
    ],
    [
      ['-1.5', '10'],
      ['-1.5', '10  '],
    ],
    [['7'], ['7']],
    [[], []],
  ])('%j → %j', (input, expected) => {
    const out = alignDecimals(input);
    expect(out).toEqual(expected);
    // Every line has one width, and the points line up in one column.
    expect(new Set(out.map((s) => s.length)).size).toBeLessThanOrEqual(1);
    const points = out.filter((s) => s.includes('.')).map((s) => s.indexOf('.'));
    expect(new Set(points).size).toBeLessThanOrEqual(1);
  });
});

describe('tables', () => {
  it('renderTable pads columns, not the last one, and ends with a newline', () => {
    expect(
      renderTable(
        ['Currency', 'Balance'],
        [
          ['BTC', '0.5'],
          ['USDT', '1200.25'],
        ],
      ),
    ).toBe('Currency  Balance\nBTC       0.5\nUSDT      1200.25\n');
  });

  it('renderTable sanitises every cell', () => {
    const out = renderTable(
      ['Currency', 'Balance', 'Note'],
      [
        [`BTC${ESC}[31m`, `0.5${ESC}]0;pwned${BEL}`, `line\r\nbreak\u202E!`],
        ['\u009b2JETH', '1', `${ESC}[2J`],
      ],
    );
    expect(out).toBe('Currency  Balance  Note\nBTC       0.5      linebreak!\nETH       1\n');
    expect(DANGEROUS.test(out.replace(/\n/g, ''))).toBe(false);
    expect(out.split('\n')).toHaveLength(4);
  });

  it('renderTable measures width in characters, not UTF-16 units', () => {
    // 🚀 is one code point but two UTF-16 units: it counts as 1, like 'A', so it is padded by 1.
    expect(
      renderTable(
        ['A', 'B'],
        [
          ['🚀', 'x'],
          ['ab', 'y'],
        ],
      ),
    ).toBe('A   B\n🚀   x\nab  y\n');
  });

  it('renderTable with no rows prints the header', () => {
    expect(renderTable(['Currency', 'Balance'], [])).toBe('Currency  Balance\n');
  });

  it('visibleWidth ignores our own SGR codes', () => {
    expect(visibleWidth(`${ESC}[1;32mPaid${ESC}[0m`)).toBe(4);
    expect(visibleWidth('東京')).toBe(2);
    expect(visibleWidth('')).toBe(0);
  });

  it('renderDetails aligns labels and trims trailing spaces', () => {
    expect(
      renderDetails([
        { label: 'Track ID', value: '184747701' },
        { label: 'Pay', value: '0.00038127 BTC' },
        { label: `${ESC}[1mAddress${ESC}[0m`, value: 'bc1q' },
        { label: 'Empty', value: '' },
      ]),
    ).toBe(`Track ID  184747701\nPay       0.00038127 BTC\n${ESC}[1mAddress${ESC}[0m   bc1q\nEmpty\n`);
  });
});

describe('colorLevel', () => {
  it.each([
    ['a TTY', true, false, {}, 1],
    ['a TTY with TERM=xterm-256color', true, false, { TERM: 'xterm-256color' }, 2],
    ['a TTY with COLORTERM=truecolor', true, false, { COLORTERM: 'truecolor' }, 3],
    ['a TTY with COLORTERM=24bit', true, false, { COLORTERM: '24bit' }, 3],
    ['not a TTY', false, false, {}, 0],
    ['not a TTY with TERM=xterm-256color', false, false, { TERM: 'xterm-256color' }, 0],
    ['--no-color', true, true, {}, 0],
    ['--no-color beats FORCE_COLOR=3', true, true, { FORCE_COLOR: '3' }, 0],
    ['NO_COLOR=1', true, false, { NO_COLOR: '1' }, 0],
    ['NO_COLOR=0 (any non-empty value)', true, false, { NO_COLOR: '0' }, 0],
    ['NO_COLOR empty is ignored', true, false, { NO_COLOR: '' }, 1],
    ['TERM=dumb', true, false, { TERM: 'dumb' }, 0],
    ['FORCE_COLOR=0 on a TTY', true, false, { FORCE_COLOR: '0' }, 0],
    ['FORCE_COLOR=false on a TTY', true, false, { FORCE_COLOR: 'false' }, 0],
    ['FORCE_COLOR=1 when piped', false, false, { FORCE_COLOR: '1' }, 1],
    ['FORCE_COLOR=2 when piped', false, false, { FORCE_COLOR: '2' }, 2],
    ['FORCE_COLOR=3 when piped', false, false, { FORCE_COLOR: '3' }, 3],
    ['FORCE_COLOR=true when piped', false, false, { FORCE_COLOR: 'true' }, 1],
    ['FORCE_COLOR empty when piped', false, false, { FORCE_COLOR: '' }, 1],
    ['FORCE_COLOR=2 with TERM=dumb', true, false, { FORCE_COLOR: '2', TERM: 'dumb' }, 2],
    ['FORCE_COLOR=1 on a truecolor TTY', true, false, { FORCE_COLOR: '1', COLORTERM: 'truecolor' }, 1],
  ] as const)('%s → %i', (_name, isTTY, noColor, env, level) => {
    expect(colorLevel(isTTY, noColor, env as NodeJS.ProcessEnv)).toBe(level);
  });
});
