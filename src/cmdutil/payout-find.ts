// Finding payouts again. The gateway's payouts carry no order id and its history filters by date,
// currency, network and amount only (docs/gateway.md §19), so gw lists the history from a date and
// matches the reference (the description's last word: ./payout-reference.ts) and the address
// itself. `gw payout --reference`, `gw refund`, `gw payouts --reference/--address` and
// `gw status --refunds` find payouts this way.
import { payoutCounts } from '../domain/payout-status.js';
import { ExitCode, GwError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { PAYOUT_HISTORY } from '../operations/payout-history.js';
import type { Payout } from '../operations/payout-info.js';
import { lookFailed, type PayoutDraft } from './payout-checks.js';
import { referenceOf } from './payout-reference.js';

/** How far back gw looks for a payout by its reference (history from_date). */
export const LOOKBACK_DAYS = 90;
/** Pages of 200 gw reads at most when looking; more is "could not look through it all". */
export const MAX_LOOK_PAGES = 25;

export interface PayoutQuery {
  /** The reference, exactly (the description's last word). */
  reference?: string;
  /** Or every reference starting with this (a payment's refunds). */
  referencePrefix?: string;
  address?: string;
  currency?: string;
  since: Date;
}

/** Payouts whose description carries the reference (and to the address, when given), newest first. */
export async function findPayouts(gateway: GatewayClient, query: PayoutQuery): Promise<Payout[]> {
  const found: Payout[] = [];
  for (let page = 1; ; page++) {
    const answer = await gateway.perform(PAYOUT_HISTORY, {
      from: query.since,
      size: 200,
      page,
      ...(query.currency !== undefined && { currency: query.currency }),
    });
    for (const payout of answer.payouts) {
      const reference = referenceOf(payout.description?.raw());
      if (reference === undefined) continue;
      if (query.reference !== undefined && reference !== query.reference) continue;
      if (query.referencePrefix !== undefined && !reference.startsWith(query.referencePrefix)) continue;
      if (query.address !== undefined && payout.address?.raw().trim() !== query.address) continue;
      found.push(payout);
    }
    if (answer.payouts.length === 0 || page >= answer.pages) return found;
    if (page >= MAX_LOOK_PAGES) {
      throw new GwError(
        ExitCode.UNAVAILABLE,
        `the payout history since ${query.since.toISOString().slice(0, 10)} has more than ${MAX_LOOK_PAGES} pages: gw could not look through it all`,
      );
    }
  }
}

/** Before sending with a reference the user gave: a payout already made with it (not rejected or canceled), if any. A failed look sends nothing. */
export async function lookFirst(gateway: GatewayClient, plan: PayoutDraft, now: number): Promise<Payout | undefined> {
  let found: Payout[];
  try {
    found = await findPayouts(gateway, {
      reference: plan.reference,
      address: plan.address,
      currency: plan.currency,
      since: new Date(now - LOOKBACK_DAYS * 86_400_000),
    });
  } catch (error) {
    return lookFailed(error, `the payout history (looking for reference ${plan.reference})`);
  }
  return found.find((p) => payoutCounts(p.status));
}
