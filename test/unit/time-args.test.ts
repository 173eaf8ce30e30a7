// Durations and times a user types, the order ids gw makes up, and the words times are shown in.
import { afterEach, describe, expect, it } from 'vitest';
import { generateOrderId, isGeneratedOrderId } from '../../src/cmdutil/order-id.js';
import { durationMs, parseDuration, parseWhen } from '../../src/cmdutil/time-args.js';
import { UsageError } from '../../src/errors.js';
import { outcomeOf } from '../../src/sandbox/lifecycle.js';
import { durationWords, parseTimestamp, timeLeftWords } from '../../src/output/time.js';

const NOW = new Date(2026, 10, 22, 14, 2, 5).getTime(); // local time

describe('durations', () => {
  it.each([
    ['90', 90_000],
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    ['1.5h', 5_400_000],
    [' 10M ', 600_000],
  ])('%j → %i ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['', 'soon', '10 m', '-5m', '5y', 'm10', '1e3'])('%j is not a duration', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it('--wait-timeout must be positive and at most a year', () => {
    expect(() => parseDuration('0', '--wait-timeout')).toThrow(UsageError);
    expect(() => parseDuration('400d', '--wait-timeout')).toThrow(/--wait-timeout must be a duration such as 90s, 10m, 2h or 1d/);
    expect(parseDuration('10m', '--wait-timeout')).toBe(600_000);
  });
});

describe('--since / --until', () => {
  it('a date is local midnight, or the end of that day for --until', () => {
    expect(parseWhen('2026-11-01', '--since', NOW)).toEqual(new Date(2026, 10, 1));
    expect(parseWhen('2026-11-01', '--until', NOW, true)).toEqual(new Date(2026, 10, 1, 23, 59, 59));
  });

  it('an ISO date and time, local unless it names an offset', () => {
    expect(parseWhen('2026-11-01T14:30', '--since', NOW)).toEqual(new Date(2026, 10, 1, 14, 30));
    expect(parseWhen('2026-11-01T14:30:00Z', '--since', NOW)).toEqual(new Date(Date.UTC(2026, 10, 1, 14, 30)));
    expect(parseWhen('2026-11-01 14:30:00+02:00', '--since', NOW)).toEqual(new Date(Date.UTC(2026, 10, 1, 12, 30)));
  });

  it('a duration means that long ago', () => {
    expect(parseWhen('2h', '--since', NOW)).toEqual(new Date(NOW - 7_200_000));
    expect(parseWhen('7d', '--since', NOW)).toEqual(new Date(NOW - 7 * 86_400_000));
  });

  it.each(['2026-13-01', '2026-02-30', 'tomorrow', 'today 12:00', '12', '2026/11/01', ''])('%j is refused', (text) => {
    expect(() => parseWhen(text, '--since', NOW)).toThrow(
      /--since must be a date \(2026-11-01\), today, yesterday, this-month, last-month, a date and time \(2026-11-01T14:30\) or a duration ago/,
    );
  });
});

describe('--since / --until today and yesterday, in the TZ given', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  // [TZ, now (UTC), word, --since (UTC), --until (UTC): the last second of that local day]
  it.each([
    ['UTC', '2026-11-22T14:02:05Z', 'today', '2026-11-22T00:00:00Z', '2026-11-22T23:59:59Z'],
    ['UTC', '2026-11-22T14:02:05Z', 'yesterday', '2026-11-21T00:00:00Z', '2026-11-21T23:59:59Z'],
    // 01:30 UTC is still the day before in New York (UTC-5).
    ['America/New_York', '2026-11-22T01:30:00Z', 'today', '2026-11-21T05:00:00Z', '2026-11-22T04:59:59Z'],
    ['Asia/Tokyo', '2026-11-22T20:00:00Z', 'today', '2026-11-22T15:00:00Z', '2026-11-23T14:59:59Z'],
    ['Asia/Tokyo', '2026-11-22T20:00:00Z', 'YESTERDAY', '2026-11-21T15:00:00Z', '2026-11-22T14:59:59Z'],
    // 1 March: yesterday is the last day of February.
    ['Europe/Berlin', '2026-03-01T10:00:00Z', 'yesterday', '2026-02-27T23:00:00Z', '2026-02-28T22:59:59Z'],
    // DST starts in London on 29 March 2026: a 23-hour day, GMT at its start, BST at its end.
    ['Europe/London', '2026-03-29T12:00:00Z', 'today', '2026-03-29T00:00:00Z', '2026-03-29T22:59:59Z'],
    ['Europe/London', '2026-03-30T09:00:00Z', 'yesterday', '2026-03-29T00:00:00Z', '2026-03-29T22:59:59Z'],
    // DST ends in New York on 1 November 2026: a 25-hour day.
    ['America/New_York', '2026-11-01T12:00:00Z', 'today', '2026-11-01T04:00:00Z', '2026-11-02T04:59:59Z'],
    // this-month and last-month: the local calendar month, its first second to its last.
    ['UTC', '2026-11-22T14:02:05Z', 'this-month', '2026-11-01T00:00:00Z', '2026-11-30T23:59:59Z'],
    ['UTC', '2026-01-10T14:02:05Z', 'last-month', '2025-12-01T00:00:00Z', '2025-12-31T23:59:59Z'],
    // 31 October 23:30 in New York is already November in UTC: the local month counts.
    ['America/New_York', '2026-11-01T03:30:00Z', 'this-month', '2026-10-01T04:00:00Z', '2026-11-01T03:59:59Z'],
    // March in Berlin starts in winter time and ends in summer time.
    ['Europe/Berlin', '2026-04-02T10:00:00Z', 'LAST-MONTH', '2026-02-28T23:00:00Z', '2026-03-31T21:59:59Z'],
  ])('TZ=%s at %s: %s', (tz, now, word, since, until) => {
    process.env.TZ = tz;
    const at = Date.parse(now);
    expect(parseWhen(word, '--since', at).toISOString()).toBe(new Date(since).toISOString());
    expect(parseWhen(` ${word} `, '--until', at, true).toISOString()).toBe(new Date(until).toISOString());
  });

  it('today is the same range as its date', () => {
    process.env.TZ = 'Europe/London';
    const at = Date.parse('2026-03-29T12:00:00Z');
    expect(parseWhen('today', '--since', at)).toEqual(parseWhen('2026-03-29', '--since', at));
    expect(parseWhen('today', '--until', at, true)).toEqual(parseWhen('2026-03-29', '--until', at, true));
  });
});

describe('generated order ids', () => {
  it('gw-YYYYMMDD-HHMMSS-xxxx in local time with four random base-32 characters', () => {
    const id = generateOrderId(NOW, () => new Uint8Array([0, 31, 17, 255]));
    expect(id).toBe('gw-20261122-140205-0zhz');
    expect(isGeneratedOrderId(id)).toBe(true);
  });

  it('never ends in a sandbox outcome suffix, and is a plain shell word', () => {
    for (let i = 0; i < 2000; i++) {
      const id = generateOrderId(NOW, (n) => Uint8Array.from({ length: n }, (_, k) => (i * 7 + k * 13) % 256));
      expect(outcomeOf(id)).toBe('paid');
      expect(id).toMatch(/^[a-z0-9-]+$/);
    }
  });
});

describe('times in words', () => {
  it.each([
    [45_000, '45 s'],
    [59 * 60_000 + 59_000, '59 min'],
    [90 * 60_000, '90 min'],
    [185 * 60_000, '3 h 5 min'],
    [2 * 86_400_000 + 3_600_000, '2 days'],
  ])('%i ms → %s', (ms, words) => {
    expect(durationWords(ms)).toBe(words);
  });

  it('time left, until when', () => {
    expect(timeLeftWords(new Date(NOW + 3_540_000), NOW)).toMatch(/^59 min left, until 15:01$/);
    expect(timeLeftWords(new Date(NOW + 2 * 86_400_000), NOW)).toBe('2 days left, until 2026-11-24 14:02');
    expect(timeLeftWords(new Date(NOW - 180_000), NOW)).toBe('expired 3 min ago');
  });

  it('0 and blank are no time at all (a payDate before the payment)', () => {
    expect(parseTimestamp(0)).toBeUndefined();
    expect(parseTimestamp(null)).toBeUndefined();
    expect(parseTimestamp(1_795_320_170)?.getTime()).toBe(1_795_320_170_000);
  });
});
