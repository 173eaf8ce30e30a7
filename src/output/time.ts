// Times the gateway sends, for people: Unix seconds or milliseconds (number or numeric text), or a
// date string; shown in local time with the time left in words.
import type { Untrusted } from './untrusted.js';

/** The earliest time a payment can carry: 2009-01-03, Bitcoin's first block. */
export const EARLIEST_TIMESTAMP = Date.UTC(2009, 0, 3);
/** The latest: 2100-01-01. Anything past it is a broken value, not a date. */
export const LATEST_TIMESTAMP = Date.UTC(2100, 0, 1);

/**
 * A time the gateway sent, read: none (absent, 0, blank: a payDate before the payment), a date,
 * or a value that is no possible time (negative, fractional garbage, text that is no date, or
 * outside 2009–2100): the gateway's fault, shown as such, never taken for a date or a clock
 * problem.
 */
export type Timestamp = { kind: 'none' } | { kind: 'date'; date: Date } | { kind: 'invalid'; text: string };

/**
 * expiredAt/createdAt/date/payDate: Unix seconds or milliseconds (a number or numeric text; a
 * value of 10^11 or more is milliseconds) or an ISO 8601 date (2026-11-22, 2026-11-22T14:05:00Z,
 * 2026-11-22 14:05:00).
 */
export function readTimestamp(value: number | Untrusted | null | undefined): Timestamp {
  if (value === null || value === undefined) return { kind: 'none' };
  const text = String(value).trim();
  if (/^0*(?:\.0*)?$/.test(text)) return { kind: 'none' };
  const invalid: Timestamp = { kind: 'invalid', text: text.slice(0, 40) };
  let ms: number;
  if (/^\d{1,16}(?:\.\d+)?$/.test(text)) {
    const n = Number(text);
    ms = n >= 1e11 ? n : n * 1000;
  } else if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) {
    ms = Date.parse(text);
  } else {
    return invalid;
  }
  if (!Number.isFinite(ms) || ms < EARLIEST_TIMESTAMP || ms >= LATEST_TIMESTAMP) return invalid;
  return { kind: 'date', date: new Date(Math.floor(ms)) };
}

/** A time the gateway sent, as a Date; undefined when there is none or it is no possible time (readTimestamp tells which). */
export function parseTimestamp(value: number | Untrusted | null | undefined): Date | undefined {
  const read = readTimestamp(value);
  return read.kind === 'date' ? read.date : undefined;
}

/**
 * The expiry for people: "59 min left, until 14:42", "expired 3 min ago", "unknown (the gateway
 * sent "-1", which is not a time)", or undefined when the gateway sent none.
 */
export function expiryWords(value: number | Untrusted | null | undefined, now: number): string | undefined {
  const read = readTimestamp(value);
  if (read.kind === 'none') return undefined;
  if (read.kind === 'invalid') return `unknown (the gateway sent ${JSON.stringify(read.text)}, which is not a time)`;
  return timeLeftWords(read.date, now);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** 2026-11-22 14:42:05 in local time. */
export function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** 14:42 in local time. */
export function localClock(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A duration in words a person reads at a glance: "45 s", "59 min", "90 min", "3 h 5 min", "2 days". */
export function durationWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 120) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const days = Math.floor(h / 24);
  return `${days} days`;
}

/** "3 s ago", "5 min ago". */
export function agoWords(ms: number): string {
  return `${durationWords(ms)} ago`;
}

/** "59 min left, until 14:42", "2 days left, until 2026-11-24 14:42", or "expired 3 min ago". */
export function timeLeftWords(expiry: Date, now: number): string {
  const left = expiry.getTime() - now;
  if (left <= 0) return `expired ${durationWords(-left)} ago`;
  const sameDay = new Date(now).toDateString() === expiry.toDateString();
  return `${durationWords(left)} left, until ${sameDay ? localClock(expiry) : localDateTime(expiry).slice(0, 16)}`;
}
