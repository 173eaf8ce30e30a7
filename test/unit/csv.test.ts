// The CSV encoder (src/output/csv.ts): RFC 4180 quoting, the formula guard on text (never on
// numbers), and text that cannot drive a terminal; every record read back by an independent reader.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';
import { type CsvCell, csvField, csvNumber, csvRecord, csvText, guardFormula } from '../../src/output/csv.js';
import { readCsv } from '../support/csv-reader.js';

const d = (text: string): Decimal => Decimal.fromLiteral(text) as Decimal;

describe('csvField', () => {
  it.each<[string, CsvCell, string]>([
    ['plain text', 'ORD-7', 'ORD-7'],
    ['empty', null, ''],
    ['a comma', 'a,b', '"a,b"'],
    ['quotes doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break', 'line 1\nline 2', '"line 1\nline 2"'],
    ['CRLF inside', 'a\r\nb', '"a\r\nb"'],
    ['a leading space', ' x', '" x"'],
    ['unicode as it is', 'Café 東京 ✓', 'Café 東京 ✓'],
    ['formula =', '=1+1', "'=1+1"],
    ['DDE payload', "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['formula +', '+41 22', "'+41 22"],
    ['formula -', '-2+3', "'-2+3"],
    ['formula @', '@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['a leading tab (no quotes needed)', '\t=1', `'\t=1`],
    ['a leading CR', '\r=1', `"'\r=1"`],
    ['a formula with a comma and quotes', '=HYPERLINK("http://x.example","click")', `"'=HYPERLINK(""http://x.example"",""click"")"`],
    ['escape sequences removed, then guarded', '\u001b[2J=1+1', "'=1+1"],
    ['a terminal title (OSC) and bidi override removed', 'a\u001b]0;pwned\u0007b\u202ec', 'abc'],
    ['a number: as it is', csvNumber(d('25.10')), '25.10'],
    ['a negative number: not guarded', csvNumber(d('-2.5')), '-2.5'],
    ['a tiny number, all its digits', csvNumber(d('1e-8')), '0.00000001'],
    ['a "number" that is not one is text, guarded', { number: '-1+1' }, "'-1+1"],
    ['a "number" with a comma is text, quoted', { number: '1,5' }, '"1,5"'],
  ])('%s', (_name, cell, expected) => {
    expect(csvField(cell)).toBe(expected);
  });
});

describe('csvRecord, read back', () => {
  const hostile: string[] = [
    'a,b',
    '"quoted"',
    'multi\nline\r\nfield',
    "=cmd|' /C calc'!A0",
    '-leading minus',
    '@mention',
    '+plus',
    '\ttab first',
    '\rCR first',
    'trailing space ',
    '',
    'Zoë 東京 — ✓',
    '""',
    ',',
  ];

  it('every hostile value comes back, guarded text with its apostrophe, numbers as they were', () => {
    const cells: CsvCell[] = [...hostile, csvNumber(d('-0.00000001')), csvNumber(d('123456789012345678901234567890.5'))];
    const text = csvRecord(cells) + csvRecord(['second', null, csvNumber(d('0'))]);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = readCsv(text);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual([...hostile.map((h) => (/^[=+\-@\t\r]/.test(h) ? `'${h}` : h)), '-0.00000001', '123456789012345678901234567890.5']);
    expect(records[1]).toEqual(['second', '', '0']);
  });

  it('records end with CRLF; a line break inside a field stays inside its quotes', () => {
    const text = csvRecord(['a\nb', 'c']);
    expect(text).toBe('"a\nb",c\r\n');
  });
});

describe('helpers', () => {
  it.each([
    ['=x', "'=x"],
    ['x=', 'x='],
    [' =x', ' =x'],
    ['', ''],
  ])('guardFormula(%j) = %j', (input, expected) => {
    expect(guardFormula(input)).toBe(expected);
  });

  it('csvText keeps tabs and line breaks, removes other controls', () => {
    expect(csvText('a\tb\r\nc\u0007d\u0000e\u0085f')).toBe('a\tb\r\ncdef');
  });
});
