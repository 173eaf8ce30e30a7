// A payment as CSV rows (src/views/payment-csv.ts): one row per transaction, one for a payment with
// none; the amounts asked on the first row only, so a spreadsheet's sums are right; times in UTC;
// the gateway's digits exactly; hostile text guarded and quoted. Read back by an independent reader.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { Decimal } from '../../src/money/decimal.js';
import { PAYMENT_CSV_COLUMNS, paymentCsvHeader, paymentCsvRows } from '../../src/views/payment-csv.js';
import { readCsv } from '../support/csv-reader.js';
import { paymentInfoOf } from '../support/fake-gateway.js';
import { T_DATE, V1_SAMPLES, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

type Row = Record<(typeof PAYMENT_CSV_COLUMNS)[number], string>;

/** The rows as objects by header name, read back from the text. */
function rows(...payments: PaymentInfo[]): Row[] {
  const text = paymentCsvHeader() + payments.map((p) => paymentCsvRows(p)).join('');
  const [header, ...records] = readCsv(text);
  expect(header).toEqual([...PAYMENT_CSV_COLUMNS]);
  return records.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i] ?? ''])) as Row);
}

/** A column summed exactly (blank cells skipped). */
function sum(values: string[]): string {
  return values
    .filter((v) => v !== '')
    .reduce((a, v) => a.plus(Decimal.fromLiteral(v) as Decimal), Decimal.ZERO)
    .toString();
}

describe('paymentCsvRows', () => {
  // Times are UTC whatever the local zone.
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/New_York';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('a mixed payment: one row per transaction, the amount asked on the first only', () => {
    const r = rows(V1_SAMPLES.mixed());
    expect(r).toHaveLength(2);
    expect(r.map((x) => x.amount)).toEqual(['25', '']);
    expect(r.map((x) => x.currency)).toEqual(['USD', 'USD']);
    expect(r.map((x) => x.track_id)).toEqual(['184729305', '184729305']);
    expect(r.map((x) => [x.tx_amount, x.tx_currency, x.tx_counted])).toEqual([
      ['0.0002', 'BTC', 'yes'],
      ['10.5', 'USDT', 'yes'],
    ]);
    expect(r[0]?.created_at).toBe('2025-11-25T12:00:00Z');
    expect(r[0]?.tx_time).toBe('2025-11-25T12:10:00Z');
    expect(r[1]?.tx_status).toBe('confirming');
  });

  it('a payment with no transaction: one row, no transaction cells', () => {
    const r = rows(V1_SAMPLES.expiredEmpty());
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ status: 'expired', amount: '0.0005', tx_hash: '', tx_amount: '', tx_counted: '' });
  });

  it('the legacy inquiry: its one txID on the payment row', () => {
    const r = rows(paymentInfoOf({ status: 'Paid', amount: '25', currency: 'USDT', txID: 'abc123', date: T_DATE }));
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ tx_hash: 'abc123', tx_amount: '', amount: '25' });
  });

  it('the sums of a spreadsheet are right: asked once per payment, received per coin from the counted rows', () => {
    const payments = [
      V1_SAMPLES.mixed(),
      V1_SAMPLES.underpaid(),
      V1_SAMPLES.lateFull(),
      V1_SAMPLES.expiredEmpty(),
      v1InfoOf({ status: 'paid', currency: 'BTC', amount: '0.001' }, [
        v1Tx('t1', '0.0006', 'BTC'),
        v1Tx('t2', '0.0004', 'BTC'),
        v1Tx('t3', '0.5', 'BTC', { status: 'failed' }),
      ]),
    ];
    const r = rows(...payments);
    expect(r).toHaveLength(2 + 1 + 1 + 1 + 3);
    // Asked, per currency: each payment once.
    expect(sum(r.filter((x) => x.currency === 'BTC').map((x) => x.amount))).toBe('0.0025');
    expect(sum(r.filter((x) => x.currency === 'USD').map((x) => x.amount))).toBe('25');
    // Received, per coin: the counted rows, as src/domain/arrival.ts sums them.
    const received = new Map<string, Decimal>();
    for (const p of payments) for (const [coin, amount] of p.arrival.received ?? []) received.set(coin, (received.get(coin) ?? Decimal.ZERO).plus(amount));
    for (const [coin, total] of received)
      expect(sum(r.filter((x) => x.tx_currency === coin && x.tx_counted === 'yes').map((x) => x.tx_amount)), coin).toBe(total.toString());
    expect(r.find((x) => x.tx_hash === 't3')?.tx_counted).toBe('no');
  });

  it('amounts are the gateway digits exactly: trailing zeros kept, nothing rounded, a negative difference a number', () => {
    const p = v1InfoOf({ status: 'paid', currency: 'USDT', amount: '25.100', pay_amount: '25.100', pay_currency: 'USDT' }, [
      v1Tx('t1', '25.1000000000000000001', 'USDT'),
    ]);
    const [row] = rows(p);
    expect(row).toMatchObject({ amount: '25.100', pay_amount: '25.100', tx_amount: '25.1000000000000000001', difference: '-0.0000000000000000001' });
  });

  it('an underpaid payment: its positive difference on the first row', () => {
    const [row] = rows(
      v1InfoOf({ status: 'underpaid', currency: 'BTC', amount: '0.0005', pay_amount: '0.0005', pay_currency: 'BTC' }, [v1Tx('h', '0.0004', 'BTC')]),
    );
    expect(row?.difference).toBe('0.0001');
  });

  it('hostile text: guarded, quoted, read back with the apostrophe; no control character written', () => {
    const p = v1InfoOf(
      {
        status: 'paid',
        currency: 'USDT',
        amount: '5',
        order_id: "=cmd|' /C calc'!A0",
        description: 'line 1\n"quoted", comma\r\n@SUM(1)\u001b[2J',
      },
      [v1Tx('-0xdead', '5', 'USDT', { network: '+Tron', status: '@confirmed' })],
    );
    const text = paymentCsvRows(p);
    expect(text).not.toMatch(/\u001b/);
    const [row] = rows(p);
    expect(row).toMatchObject({
      order_id: "'=cmd|' /C calc'!A0",
      description: 'line 1\n"quoted", comma\r\n@SUM(1)',
      tx_hash: "'-0xdead",
      tx_network: "'+Tron",
      // A status gw does not know counts as not confirmed yet, and it is text: guarded.
      tx_status: "'@confirmed",
      amount: '5',
    });
  });

  it('a time that is no possible time is written as the gateway sent it, as text', () => {
    const [row] = rows(paymentInfoOf({ status: 'Paid', amount: '1', currency: 'USDT', date: 'soon', payDate: -1 }));
    expect(row?.created_at).toBe('soon');
    expect(row?.paid_at).toBe("'-1");
  });

  it('a fiat value column only when asked, labelled with where the prices come from', () => {
    const valuer = { currency: 'USD', label: 'at_current_prices', value: () => Decimal.fromLiteral('12.5') ?? null };
    expect(paymentCsvHeader()).not.toMatch(/value_/);
    const header = paymentCsvHeader({ valuer });
    expect(header).toMatch(/,value_usd_at_current_prices\r\n$/);
    const [record] = readCsv(paymentCsvRows(V1_SAMPLES.underpaid(), { valuer }));
    expect(record?.at(-1)).toBe('12.5');
    // A payment of two rows: the value on the first only, beside the amount asked.
    const records = readCsv(paymentCsvRows(V1_SAMPLES.mixed(), { valuer }));
    expect(records.map((r) => r.at(-1))).toEqual(['12.5', '']);
  });
});
