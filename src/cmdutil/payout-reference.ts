// The reference every payout gw sends carries in its description (docs/decisions.md "Payout
// references"): the gateway's payouts have no order id or client reference, and their history
// filters by date, currency, network and amount only, so gw finds a payout again by listing a
// window of the history and matching the address and this reference itself.
//
// - The description sent is the reference alone, or the user's description, a space, then the
//   reference: the reference is always its LAST space-separated word (what matching reads).
// - Generated: gw-po-YYYYMMDD-HHMMSS-xxxx (local time, four characters of Crockford's base 32), or
//   for a refund refund-<payment track id>-xxxx, so the refunds of a payment are found by its track id.
// - A reference is letters, digits and . _ : - only, at most 64 characters.
import { UsageError } from '../errors.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const pad = (n: number): string => String(n).padStart(2, '0');

function suffix(random: (size: number) => Uint8Array): string {
  return [...random(4).subarray(0, 4)].map((b) => ALPHABET[b % ALPHABET.length] ?? '0').join('');
}

/** A new payout reference for `now` (ms). */
export function generatePayoutReference(now: number, random: (size: number) => Uint8Array): string {
  const d = new Date(now);
  return `gw-po-${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}-${suffix(random)}`;
}

/** The prefix every refund of payment `trackId` carries. */
export const refundPrefix = (trackId: string): string => `refund-${trackId}-`;

/** A new refund reference for payment `trackId`. */
export function generateRefundReference(trackId: string, random: (size: number) => Uint8Array): string {
  return `${refundPrefix(trackId)}${suffix(random)}`;
}

/** A reference the user gives (`--reference`): checked, or a usage error (nothing sent). */
export function parseReference(text: string, flag = '--reference'): string {
  if (!REFERENCE.test(text)) {
    throw new UsageError(`${flag} must be 1 to 64 letters, digits, dots, underscores, colons or dashes (got ${JSON.stringify(text.slice(0, 70))})`);
  }
  return text;
}

/** The description sent: the user's (if any), then the reference as its last word. */
export function describeWithReference(reference: string, description?: string): string {
  const text = description?.trim() ?? '';
  return text === '' ? reference : `${text} ${reference}`;
}

/** The reference a payout's description carries (its last word), if it looks like one. */
export function referenceOf(description: string | null | undefined): string | undefined {
  const last = description?.trim().split(/\s+/).pop();
  return last !== undefined && REFERENCE.test(last) ? last : undefined;
}

/** Random bytes without node:crypto (the suffix is no secret; it only has to differ). */
export const mathRandom = (size: number): Uint8Array => Uint8Array.from({ length: size }, () => Math.floor(Math.random() * 256));
