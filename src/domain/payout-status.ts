// One status vocabulary for payouts, whatever spelling the gateway uses (docs/gateway.md §13): the
// versioned payout status table (processing, pending, confirming, confirmed, canceled, rejected),
// the legacy words (Processing, Confirming, Complete, Rejected) and what clients in the wild see
// (failed). Compared case-insensitively; `complete` is `confirmed`. Used by `gw payout status`,
// `gw payouts`, `gw refund`, the refunds lookup and the sandbox, so a status means the same everywhere.
import { asciiLowerCase } from '../util/ascii.js';

export const PAYOUT_STATES = ['processing', 'pending', 'confirming', 'confirmed', 'canceled', 'rejected', 'unknown'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

const SPELLINGS: Readonly<Record<string, PayoutState>> = {
  processing: 'processing',
  pending: 'pending',
  confirming: 'confirming',
  confirmed: 'confirmed',
  complete: 'confirmed',
  completed: 'confirmed',
  canceled: 'canceled',
  cancelled: 'canceled',
  rejected: 'rejected',
  // A community client expects `failed`: the money did not go, like a rejection.
  failed: 'rejected',
};

/** gw's state for the gateway's payout status text; `unknown` for anything else. */
export function normalizePayoutStatus(text: string): PayoutState {
  const key = asciiLowerCase(text).replace(/[\s_-]+/g, '');
  return Object.hasOwn(SPELLINGS, key) ? (SPELLINGS[key] as PayoutState) : 'unknown';
}

/** Final: nothing more happens to the payout. */
export function isFinalPayout(state: PayoutState): boolean {
  return state === 'confirmed' || state === 'canceled' || state === 'rejected';
}

/** The money left or may still leave: counts against what a payment can still refund (in progress or confirmed). */
export function payoutCounts(state: PayoutState): boolean {
  return state !== 'canceled' && state !== 'rejected';
}

/** The versioned API's word for a state (filters, the sandbox's answers). */
export function v1PayoutWord(state: Exclude<PayoutState, 'unknown'>): string {
  return state;
}
