// The payment statistics (docs/gateway.md §12): per pay currency, how many payments were created
// in the range and the total received for them (the counted transactions, as the history reports
// them), the received amount as exact text. The gateway does not publish what it counts: the
// sandbox counts every payment of the range, whatever its state.
import { Decimal } from '../money/decimal.js';
import type { StatsAnswer } from '../operations/payment-stats.js';
import { fail, ok, type Answer } from './envelopes.js';
import { field, readInteger, type RequestFields } from './fields.js';
import type { PaymentLifecycles } from './live.js';
import type { PaymentStore } from './store.js';

export function paymentStats(store: PaymentStore, lifecycles: PaymentLifecycles, fields: RequestFields): Answer<StatsAnswer> {
  const fromDate = readInteger(fields, 'fromDate', undefined);
  const toDate = readInteger(fields, 'toDate', undefined);
  if (fromDate === undefined && field(fields, 'fromDate') !== undefined) return fail(101, 'Validation problem: fromDate must be Unix seconds', 'from_date');
  if (toDate === undefined && field(fields, 'toDate') !== undefined) return fail(101, 'Validation problem: toDate must be Unix seconds', 'to_date');
  const byCoin = new Map<string, { count: number; received: Decimal }>();
  for (const payment of store.known()) {
    if (fromDate !== undefined && payment.createdAt < fromDate) continue;
    if (toDate !== undefined && payment.createdAt > toDate) continue;
    const record = lifecycles.record(payment, lifecycles.current(payment));
    const row = byCoin.get(record.payCurrency) ?? { count: 0, received: Decimal.ZERO };
    row.count++;
    const received = Decimal.fromLiteral(record.receivedAmount || '0') ?? Decimal.ZERO;
    row.received = row.received.plus(received);
    byCoin.set(record.payCurrency, row);
  }
  const rows = [...byCoin]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([payCurrency, r]) => ({ payCurrency, count: r.count, received: r.received.toString() }));
  return ok({ rows });
}
