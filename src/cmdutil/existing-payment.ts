// gw pay --reuse-if-exists: before creating a payment, the payments of its order id are looked up;
// a paid one, or an open one for the same amount and currency, is shown instead of a new one.
import { ExitCode, GwError } from '../errors.js';
import type { GatewayClient, PaymentInfo, PaymentRequest } from '../gateway/gateway.js';
import { parseTimestamp } from '../output/time.js';
import { normalizeSymbol } from '../payment-uri/networks.js';
import { arrivedWords } from './wait.js';

export { paymentFromInfo } from '../operations/payment-info.js';

/** An open or paid payment of the order, found before creating another (--reuse-if-exists). */
export type Existing = { kind: 'paid' | 'open'; info: PaymentInfo };

const OPEN_STATES = new Set(['new', 'waiting', 'confirming', 'unknown']);

/**
 * Looks up the payments of the request's order id: a paid one, else the newest open one (not past
 * its expiry, unless a transaction is already confirming). One for another amount or currency is
 * never reused: that is an error, and nothing is created.
 */
export async function findExisting(gateway: GatewayClient, request: PaymentRequest, now: number): Promise<Existing | undefined> {
  const orderId = request.orderId ?? '';
  const nothingCreated = 'nothing was created: try again, or leave out --reuse-if-exists';
  let found: OrderPayments;
  try {
    found = await paymentsOfOrder(gateway, orderId);
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    throw error.with({ message: `could not look for the payments of order "${orderId}": ${error.message}`, hint: nothingCreated });
  }
  if (found.incomplete !== undefined) {
    throw new GwError(ExitCode.PROTOCOL, `could not read every payment of order "${orderId}": ${found.incomplete}`, { hint: nothingCreated });
  }
  const mine = found.payments;
  const createdAt = (p: PaymentInfo): number => parseTimestamp(p.date)?.getTime() ?? 0;
  const stillOpen = (p: PaymentInfo): boolean => {
    if (!OPEN_STATES.has(p.status)) return false;
    const expiry = parseTimestamp(p.expiredAt);
    return p.status === 'confirming' || expiry === undefined || expiry.getTime() > now;
  };
  const paid = mine.find((p) => p.status === 'paid');
  // Funds arrived for an expired payment of the order (late, src/domain/arrival.ts): another payment could bill the customer twice.
  const late = paid === undefined ? mine.find((p) => p.status === 'late') : undefined;
  if (late !== undefined) {
    const id = late.trackId.line(100);
    throw new GwError(
      ExitCode.LATE,
      `order "${orderId}" already received funds on payment ${id} after it expired (${arrivedWords(late.arrival, 'arrived') ?? 'a transaction was reported'}): no new payment was created`,
      { trackId: late.trackId.raw(), hint: `decide about those funds first (gw status ${id}): accept them, or refund them in the merchant panel` },
    );
  }
  const open = mine.filter(stillOpen).sort((a, b) => createdAt(b) - createdAt(a))[0];
  const existing: Existing | undefined = paid !== undefined ? { kind: 'paid', info: paid } : open !== undefined ? { kind: 'open', info: open } : undefined;
  if (existing === undefined) return undefined;
  const { info } = existing;
  const sameAmount = info.amount === null || info.amount.equals(request.amount);
  const sameCurrency = info.currency === null || normalizeSymbol(info.currency.raw()) === request.currency;
  if (!sameAmount || !sameCurrency) {
    throw new GwError(
      ExitCode.DATA,
      `order "${orderId}" already has a ${info.status} payment ${info.trackId.line(100)} for ${info.amount ?? '?'} ${info.currency?.line(20) ?? ''}, not ${request.amount} ${request.currency}: no second payment was created`,
      { trackId: info.trackId.raw(), hint: 'a different amount is a different order: give another --order-id' },
    );
  }
  return existing;
}

/** The payments of one order, and why the list may lack some (the gateway could not give it whole). */
export interface OrderPayments {
  payments: PaymentInfo[];
  incomplete: string | undefined;
}

/**
 * Every payment with this order id, whatever page it is on; with api v1, whose history has no
 * order id filter, gw reads the history and keeps the order's own (src/gateway/history.ts).
 */
export async function paymentsOfOrder(gateway: GatewayClient, orderId: string): Promise<OrderPayments> {
  const { listPayments, SCAN_PAGE_SIZE } = await import('../gateway/history.js');
  const listing = await listPayments(gateway, { orderId, size: SCAN_PAGE_SIZE }, { all: true, maxPages: 50 });
  if (listing.failure !== undefined) throw listing.failure;
  return { payments: listing.payments.filter((p) => p.orderId?.raw() === orderId), incomplete: listing.incomplete };
}
