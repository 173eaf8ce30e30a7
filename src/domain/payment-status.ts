// One status vocabulary for payments, whatever spelling the gateway uses: the legacy inquiry's
// capitalised words (New, Waiting, Confirming, Paid, Expired, Failed), the newer API's lower-case
// snake_case (paying, manual_accept, underpaid, refunding…) and the notifications' mixtures.
// Sources: docs.oxapay.com (legacy "Payment Status" and v1 "Payment Status Table"). Used by `gw status`, `gw payments`,
// `gw listen` and the sandbox, so a status means the same everywhere.
import { asciiLowerCase } from '../util/ascii.js';

export const PAYMENT_STATES = ['new', 'waiting', 'confirming', 'paid', 'underpaid', 'expired', 'late', 'failed', 'refunding', 'refunded', 'unknown'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * Gateway spelling (compared case-insensitively, with spaces, dashes and underscores ignored) →
 * gw's state. Decisions where the facts leave room:
 * - `Paying` (the payer's transaction is seen, not yet confirmed) is `confirming`;
 * - `Manual_accept` (the merchant accepted an under-payment by hand) is `paid`: it is credited;
 * - `Refunding` is `refunding`: the refund has started, not finished (the order must not be
 *   delivered either way).
 * `late` (funds arrived for an expired payment) is no gateway word: the gateway says `expired`, and
 * gw reads the transactions (src/domain/arrival.ts, stateOf). normalizeStatus never returns it.
 */
const GATEWAY_SPELLINGS: Readonly<Record<string, PaymentState>> = {
  new: 'new',
  waiting: 'waiting',
  confirming: 'confirming',
  paying: 'confirming',
  paid: 'paid',
  manualaccept: 'paid',
  underpaid: 'underpaid',
  expired: 'expired',
  failed: 'failed',
  refunding: 'refunding',
  refunded: 'refunded',
};

/** gw's state for a status text the gateway sent; `unknown` for anything else. */
export function normalizeStatus(gatewayStatus: string): PaymentState {
  const key = asciiLowerCase(gatewayStatus).replace(/[\s_-]+/g, '');
  return Object.hasOwn(GATEWAY_SPELLINGS, key) ? (GATEWAY_SPELLINGS[key] as PaymentState) : 'unknown';
}

/** States after which nothing more happens to the payment, for waiting (`refunding` is not: the refund goes on). */
export function isFinal(state: PaymentState): boolean {
  return state === 'paid' || state === 'underpaid' || state === 'expired' || state === 'late' || state === 'failed' || state === 'refunded';
}

/** The legacy API's spelling of a state, for filters sent to the gateway (undefined: none exists). */
export function legacyStatusName(state: PaymentState): string | undefined {
  const names: Partial<Record<PaymentState, string>> = {
    new: 'New',
    waiting: 'Waiting',
    confirming: 'Confirming',
    paid: 'Paid',
    underpaid: 'Underpaid',
    expired: 'Expired',
    // The gateway has no word for it: late payments are expired ones with funds (the caller keeps those).
    late: 'Expired',
    failed: 'Failed',
    refunding: 'Refunding',
    refunded: 'Refunded',
  };
  return names[state];
}

/** The versioned API's spelling of a state, for filters sent to it (undefined: none exists). */
export function v1StatusName(state: PaymentState): string | undefined {
  const names: Partial<Record<PaymentState, string>> = {
    new: 'new',
    waiting: 'waiting',
    confirming: 'paying',
    paid: 'paid',
    underpaid: 'underpaid',
    expired: 'expired',
    late: 'expired',
    refunding: 'refunding',
    refunded: 'refunded',
  };
  return names[state];
}

/**
 * The word a versioned answer or notification writes for a state (the sandbox's). The versioned API
 * has no failed (docs/gateway.md §15): a payment whose transaction failed, nothing received, is
 * `expired` there, its transaction `failed` (read back: expired, nothing received). Filters keep
 * v1StatusName.
 */
export function v1AnswerWord(state: PaymentState): string {
  return state === 'failed' ? 'expired' : (v1StatusName(state) ?? state);
}

/** Parses a state the user typed (`--status paid`), case-insensitively; gateway spellings too. */
export function parseState(text: string): PaymentState | undefined {
  const lower = asciiLowerCase(text.trim());
  if ((PAYMENT_STATES as readonly string[]).includes(lower)) return lower as PaymentState;
  const state = normalizeStatus(text);
  return state === 'unknown' ? undefined : state;
}
