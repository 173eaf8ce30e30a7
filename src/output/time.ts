// Times the gateway sends, for people: Unix seconds or milliseconds (number or numeric text), or a
// date string; shown in local time with the time left in words.
import type { Scalar } from '../gateway/gateway.js';

/**
 * expiredAt/createdAt/date/payDate: unix seconds or milliseconds (number or numeric text), or a date
 * string. 0 and blank mean "none" (a payDate before the payment).
 */
export function parseTimestamp(value: Scalar | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim();
  if (/^0*$/.test(text)) return undefined;
  if (/^\d{9,11}$/.test(text)) return new Date(Number(text) * 1000);
  if (/^\d{12,14}$/.test(text)) return new Date(Number(text));
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
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
