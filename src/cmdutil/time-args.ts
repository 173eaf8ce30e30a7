// Times and durations a user types: `--wait-timeout 10m`, `--since 7d`, `--until 2026-11-01`.
// Each parser throws a UsageError naming the flag, before any request is made.
import { UsageError } from '../errors.js';

const DAY_MS = 86_400_000;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };
const DURATION = /^(?:\d+(?:\.\d+)?[smhdw])+$/;

/**
 * A duration: a number of seconds (`90`), or numbers with units s, m, h, d, w, one after another
 * (`90s`, `15m`, `2h`, `1h30m`, `7d`, `2w`). Undefined when the text is not one.
 */
export function durationMs(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  if (!DURATION.test(t)) return undefined;
  let ms = 0;
  for (const [, amount = '0', unit = 's'] of t.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) ms += Number(amount) * (UNIT_MS[unit] ?? 0);
  return Math.round(ms);
}

/** A positive duration for `flag`, at most `maxMs`. */
export function parseDuration(text: string, flag: string, maxMs = 366 * DAY_MS): number {
  const ms = durationMs(text);
  if (ms === undefined || ms <= 0 || ms > maxMs) {
    throw new UsageError(`${flag} must be a duration such as 90s, 10m, 2h or 1d (got "${text.slice(0, 30)}")`, 'a plain number is seconds');
  }
  return ms;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** `today` and `yesterday`: how many local calendar days before `now`'s. */
const RELATIVE_DAYS: Readonly<Record<string, number>> = { today: 0, yesterday: 1 };
/** `this-month` and `last-month`: how many local calendar months before `now`'s. */
const RELATIVE_MONTHS: Readonly<Record<string, number>> = { 'this-month': 0, 'last-month': 1 };

/**
 * A point in time for `--since`/`--until`, the one parser of every time range: a date
 * (2026-11-01, local time: its start, or with `endOfDay` its last second), `today` or `yesterday`
 * (that local calendar day, read from `now` in the local time zone, `TZ` honoured: the same as its
 * date), `this-month` or `last-month` (that local calendar month: its first day's start, or with
 * `endOfDay` its last day's last second), an ISO date and time (2026-11-01T14:30, 2026-11-01T14:30:00Z, local time unless it names
 * an offset), or a duration meaning that long before `now` (2h, 7d). A day's bounds follow the
 * local clock, so a day with a daylight-saving change is 23 or 25 hours long.
 */
export function parseWhen(text: string, flag: string, now: number, endOfDay = false): Date {
  const t = text.trim();
  const back = RELATIVE_DAYS[t.toLowerCase()];
  if (back !== undefined) {
    const today = new Date(now);
    const [y, m, d] = [today.getFullYear(), today.getMonth(), today.getDate() - back];
    return endOfDay ? new Date(new Date(y, m, d + 1).getTime() - 1000) : new Date(y, m, d);
  }
  const months = RELATIVE_MONTHS[t.toLowerCase()];
  if (months !== undefined) {
    const today = new Date(now);
    const [y, m] = [today.getFullYear(), today.getMonth() - months];
    return endOfDay ? new Date(new Date(y, m + 1, 1).getTime() - 1000) : new Date(y, m, 1);
  }
  const day = DATE_ONLY.exec(t);
  if (day !== null) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = new Date(y, m - 1, d);
    if (start.getFullYear() !== y || start.getMonth() !== m - 1 || start.getDate() !== d) throw badWhen(text, flag);
    return endOfDay ? new Date(new Date(y, m - 1, d + 1).getTime() - 1000) : start;
  }
  if (DATE_TIME.test(t)) {
    const ms = Date.parse(t.replace(' ', 'T'));
    if (Number.isNaN(ms)) throw badWhen(text, flag);
    return new Date(ms);
  }
  const ago = durationMs(t);
  if (ago !== undefined && /[smhdw]$/i.test(t)) return new Date(now - ago);
  throw badWhen(text, flag);
}

function badWhen(text: string, flag: string): UsageError {
  return new UsageError(
    `${flag} must be a date (2026-11-01), today, yesterday, this-month, last-month, a date and time (2026-11-01T14:30) or a duration ago (2h, 7d) (got "${text.slice(0, 40)}")`,
  );
}

/** A number of seconds (0.001 to `max`, decimals allowed), as milliseconds: --forward-timeout, the sandbox's notification waits. */
export function parseSeconds(text: string, flag: string, max = 600): number {
  const seconds = /^\d+(?:\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(seconds >= 0.001 && seconds <= max)) throw new UsageError(`${flag} must be a number of seconds from 0.001 to ${max} (got "${text.slice(0, 20)}")`);
  return Math.round(seconds * 1000);
}
