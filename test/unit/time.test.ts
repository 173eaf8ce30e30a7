// Times the gateway sends: a value that is no possible time (negative, absurd, text that is no
// date) is the gateway's broken value — "unknown", never read as a date in 1970 or 2001.
import { describe, expect, it } from 'vitest';
import type { Scalar } from '../../src/gateway/gateway.js';
import { expiryWords, parseTimestamp, readTimestamp } from '../../src/output/time.js';
import { Untrusted } from '../../src/output/untrusted.js';

/** A value as the decoders give it: numbers as they are, text as Untrusted. */
const v = (x: number | string | null): Scalar | null => (typeof x === 'string' ? Untrusted.of(x) : x);

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('readTimestamp', () => {
  it.each([
    [null, 'none'],
    [0, 'none'],
    ['0', 'none'],
    ['', 'none'],
    ['  ', 'none'],
  ] as const)('%j → none', (value, kind) => {
    expect(readTimestamp(v(value)).kind).toBe(kind);
  });

  it.each([
    [1795334400, Date.UTC(2026, 10, 22, 8, 0, 0)],
    ['1795334400', Date.UTC(2026, 10, 22, 8, 0, 0)],
    ['1795334400000', Date.UTC(2026, 10, 22, 8, 0, 0)],
    [1795334400000, Date.UTC(2026, 10, 22, 8, 0, 0)],
    ['2026-11-22T08:00:00Z', Date.UTC(2026, 10, 22, 8, 0, 0)],
    ['2026-11-22T10:00:00+02:00', Date.UTC(2026, 10, 22, 8, 0, 0)],
  ] as const)('%j → that date', (value, ms) => {
    expect(readTimestamp(v(value))).toEqual({ kind: 'date', date: new Date(ms) });
  });

  // Each of these used to come out as a date: "-1" and "1" as 2001 (the date parser's guess),
  // -1 as 1969, 1e20 as an Invalid Date or year 5138.
  it.each([
    [-1, '-1'],
    ['-1', '-1'],
    [-1795334400, '-1795334400'],
    ['1', '1'],
    ['12', '12'],
    [999999999, '999999999'],
    [1e20, '100000000000000000000'],
    ['99999999999', '99999999999'],
    ['99999999999999', '99999999999999'],
    ['tomorrow', 'tomorrow'],
    ['Nov 22', 'Nov 22'],
    ['1795334400x', '1795334400x'],
    ['2001', '2001'],
    ['2126-11-22T08:00:00Z', '2126-11-22T08:00:00Z'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
  ] as const)('%j → invalid, never a date', (value, text) => {
    expect(readTimestamp(v(value))).toEqual({ kind: 'invalid', text });
    expect(parseTimestamp(v(value))).toBeUndefined();
  });
});

describe('expiryWords', () => {
  it('an impossible expiry is unknown, naming what the gateway sent', () => {
    expect(expiryWords(-1, NOW)).toBe('unknown (the gateway sent "-1", which is not a time)');
    expect(expiryWords(v('1'), NOW)).toBe('unknown (the gateway sent "1", which is not a time)');
  });

  it('a real one is the time left; none is nothing', () => {
    expect(expiryWords(Math.floor(NOW / 1000) + 3600, NOW)).toMatch(/^60 min left, until \d\d:\d\d$/);
    expect(expiryWords(Math.floor(NOW / 1000) - 180, NOW)).toBe('expired 3 min ago');
    expect(expiryWords(null, NOW)).toBeUndefined();
  });
});
