// The Retry-After header (RFC 9110 §10.2.3): how long the gateway asks a client to wait. Read by
// the transport's retry loop (reads only) and by the failure messages ("try again in 30 s").

/** Retry-After in milliseconds (delta-seconds or an HTTP date), if present and sane. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (it names a weekday or month); Date.parse would read "1.5" or "-5" as a year.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** "try again in 30 s" when the answer said how long to wait, else "try again later". */
export function tryAgain(value: string | string[] | undefined, now = Date.now()): string {
  const ms = retryAfterMs(value, now);
  return ms === undefined || ms === 0 ? 'try again later' : `try again in ${Math.ceil(ms / 1000)} s (the gateway asked to wait that long)`;
}
