// The refunds made against a payment. The gateway has no refund call and links no payout to a
// payment (docs/gateway.md §13): a refund is a payout whose reference (the last word of its
// description: ./payout-reference.ts) is refund-<payment track id>-<suffix>. So a payment's
// refunds are the payouts since the payment was created whose reference has that prefix, found by
// listing the payout history (./payout-send.ts findPayouts). `gw refund` counts those in progress or
// confirmed against what arrived; `gw status --refunds` lists them.
import { payoutCounts } from '../domain/payout-status.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import type { Payout } from '../operations/payout-info.js';
import type { Scalar } from '../operations/values.js';
import { parseTimestamp } from '../output/time.js';
import { asciiUpperCase } from '../util/ascii.js';
import { refundPrefix } from './payout-reference.js';
import { findPayouts, LOOKBACK_DAYS } from './payout-find.js';

/** Where to start looking: an hour before the payment was created, else the default window. */
export function refundsSince(paymentDate: Scalar | null, now: number): Date {
  const created = parseTimestamp(paymentDate);
  return created === undefined ? new Date(now - LOOKBACK_DAYS * 86_400_000) : new Date(created.getTime() - 3_600_000);
}

/** Every payout made as a refund of payment `trackId` since `since`, newest first (rejected and canceled ones too). */
export function refundsOf(gateway: GatewayClient, trackId: string, since: Date): Promise<Payout[]> {
  return findPayouts(gateway, { referencePrefix: refundPrefix(trackId), since });
}

/** Per coin (upper case), what refunds in progress or confirmed took: what can no longer be refunded. */
export function refundedByCoin(refunds: readonly Payout[]): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const r of refunds) {
    if (!payoutCounts(r.status) || r.amount === null || r.currency === null) continue;
    const coin = asciiUpperCase(r.currency.raw().trim());
    out.set(coin, (out.get(coin) ?? Decimal.ZERO).plus(r.amount));
  }
  return out;
}
