// What the gateway requires of a receiver (docs/gateway.md §7), in one place: answer
// HTTP 200 with the body `ok`, or the notification is sent again, up to 5 times in all.
import { Untrusted } from '../output/untrusted.js';

export const ACK_STATUS = 200;
export const ACK_BODY = 'ok';

/** Attempts in all (the first and four retries). */
export const MAX_ATTEMPTS = 5;
/** The gateway's waits before each retry: about 1 min, 3 min, 30 min and 3 h. */
export const GATEWAY_RETRY_DELAYS_MS: readonly number[] = [60_000, 180_000, 1_800_000, 10_800_000];

/**
 * Whether an answer acknowledges a notification: HTTP 200 and the body exactly `ok`. Strict on
 * purpose: what the gateway tolerates around `ok` (case, white space) is not documented, so a
 * receiver should send exactly this.
 */
export function isAcknowledged(status: number, body: string): boolean {
  return status === ACK_STATUS && body === ACK_BODY;
}

/** Why an answer does not acknowledge, for a person; undefined when it does. */
export function whyNotAcknowledged(status: number, body: string): string | undefined {
  if (isAcknowledged(status, body)) return undefined;
  const shown = body === '' ? 'an empty body' : `the body "${Untrusted.of(body).line(60)}"`;
  if (status === 200 && body.trim().toLowerCase() === ACK_BODY) {
    return `HTTP 200 with ${shown}: answer exactly "ok" (lower case, nothing around it) to be safe`;
  }
  if (status === 200) return `HTTP 200 with ${shown}: the gateway requires the body "ok"`;
  if (status >= 200 && status < 300) return `HTTP ${status} with ${shown}: the gateway requires HTTP 200 with the body "ok"`;
  return `HTTP ${status}: the gateway requires HTTP 200 with the body "ok"`;
}
