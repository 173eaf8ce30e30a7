// The payment statistics (docs/gateway.md §12): per pay currency, how many payments were created
// in the range, and per coin the total received for them (the counted transactions, each in its
// own coin, as the versioned history lists them: a -mixed payment's second coin counts under that
// coin), the received amount as exact text. The gateway does not publish what it counts: the
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
  const rowOf = (coin: string): { count: number; received: Decimal } => {
    let row = byCoin.get(coin);
    if (row === undefined) {
      row = { count: 0, received: Decimal.ZERO };
      byCoin.set(coin, row);
    }
    return row;
  };
  for (const payment of store.known()) {
    if (fromDate !== undefined && payment.createdAt < fromDate) continue;
    if (toDate !== undefined && payment.createdAt > toDate) continue;
    const record = lifecycles.record(payment, lifecycles.current(payment));
    rowOf(record.payCurrency).count++;
    for (const tx of record.txs) {
      if (tx.status === 'failed') continue;
      const row = rowOf(tx.currency);
      row.received = row.received.plus(Decimal.fromLiteral(tx.amount) ?? Decimal.ZERO);
    }
  }
  const rows = [...byCoin]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([payCurrency, r]) => ({ payCurrency, count: r.count, received: r.received.toString() }));
  return ok({ rows });
}
