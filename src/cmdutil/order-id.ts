// The order id gw sends when the user gives none: every payment carries one, so that after a
// failure that leaves the payment's existence unknown, `gw payments --order-id <id>` finds it.
//
// Format: gw-YYYYMMDD-HHMMSS-xxxx — the local date and time of the request, then four random
// characters of Crockford's base 32 in lower case (0-9 a-z without i, l, o, u), e.g.
// gw-20261122-140205-k7q3. Letters, digits and dashes only (safe in a shell word and in every
// gateway field). A generated id never ends in one of the sandbox's situation endings
// (src/sandbox/lifecycle.ts: -underpay, -expire, -fail, -late, -partial, -mixed, -refund): its last
// dash-separated part has four characters, and the two four-letter endings, "fail" and "late",
// each have a letter the alphabet lacks (i, l).

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

const pad = (n: number): string => String(n).padStart(2, '0');

/** A new order id for `now` (ms), with four characters from `random` (at least 4 bytes). */
export function generateOrderId(now: number, random: (size: number) => Uint8Array): string {
  const d = new Date(now);
  const date = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  const suffix = [...random(4).subarray(0, 4)].map((b) => ALPHABET[b % ALPHABET.length] ?? '0').join('');
  return `gw-${date}-${time}-${suffix}`;
}

/**
 * A new order id for `now` (ms). The suffix only has to differ from other orders of the same
 * second; it is no secret, so Math.random serves (node:crypto would cost every gw pay 2 ms to load).
 */
export function randomOrderId(now: number): string {
  return generateOrderId(now, (size) => Uint8Array.from({ length: size }, () => Math.floor(Math.random() * 256)));
}

/** Whether `orderId` has the generated form. */
export function isGeneratedOrderId(orderId: string): boolean {
  return /^gw-\d{8}-\d{6}-[0-9a-hjkmnp-tv-z]{4}$/.test(orderId);
}
