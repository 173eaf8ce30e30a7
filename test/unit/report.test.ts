// gw report's sums (src/domain/report.ts): local periods (weeks from Monday, TZ honoured across
// daylight-saving changes), exact Decimal sums over mixed coins, refunds, payouts and the net, an
// empty range, and the value in a fiat at current prices (own amounts kept exact).
import { afterEach, describe, expect, it } from 'vitest';
import { type Grouping, netOf, periodOf, periodsBetween, periodValue, type PriceTable, ReportBuilder } from '../../src/domain/report.js';
import { paymentTotals, totalsJson } from '../../src/domain/takings.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { Decimal } from '../../src/money/decimal.js';
import { parseTimestamp } from '../../src/output/time.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const d = (s: string): Decimal => Decimal.fromLiteral(s) as Decimal;
/** Decimals compared by their digits (toEqual cannot see a Decimal's private text). */
const digits = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof Map ? Object.fromEntries(x) : x)));
const unix = (iso: string): number => Date.parse(iso) / 1000;
const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

describe('periods: the local day, week (from Monday) or month', () => {
  // [TZ, instant, by, key, start, end (excluded)]
  it.each([
    ['UTC', '2025-11-25T12:00:00Z', 'day', '2025-11-25', '2025-11-25T00:00:00Z', '2025-11-26T00:00:00Z'],
    ['UTC', '2025-11-25T12:00:00Z', 'week', '2025-11-24', '2025-11-24T00:00:00Z', '2025-12-01T00:00:00Z'],
    // Sunday's last second is still the week that began on Monday; Monday's first starts the next.
    ['UTC', '2025-11-30T23:59:59Z', 'week', '2025-11-24', '2025-11-24T00:00:00Z', '2025-12-01T00:00:00Z'],
    ['UTC', '2025-12-01T00:00:00Z', 'week', '2025-12-01', '2025-12-01T00:00:00Z', '2025-12-08T00:00:00Z'],
    // Berlin leaves summer time on Sunday 25 October 2026: that week is 169 hours long.
    ['Europe/Berlin', '2026-10-25T22:30:00Z', 'week', '2026-10-19', '2026-10-18T22:00:00Z', '2026-10-25T23:00:00Z'],
    ['Europe/Berlin', '2026-10-25T23:00:00Z', 'week', '2026-10-26', '2026-10-25T23:00:00Z', '2026-11-01T23:00:00Z'],
    // New York enters summer time on Sunday 8 March 2026: a 167-hour week.
    ['America/New_York', '2026-03-09T03:59:59Z', 'week', '2026-03-02', '2026-03-02T05:00:00Z', '2026-03-09T04:00:00Z'],
    ['America/New_York', '2026-03-09T04:00:00Z', 'week', '2026-03-09', '2026-03-09T04:00:00Z', '2026-03-16T04:00:00Z'],
    // A 23-hour day in London.
    ['Europe/London', '2026-03-29T22:59:59Z', 'day', '2026-03-29', '2026-03-29T00:00:00Z', '2026-03-29T23:00:00Z'],
    // 30 November 15:00 UTC is already December in Tokyo.
    ['Asia/Tokyo', '2026-11-30T15:00:00Z', 'month', '2026-12', '2026-11-30T15:00:00Z', '2026-12-31T15:00:00Z'],
  ] as const)('TZ=%s %s by %s: %s', (tz, instant, by, key, start, end) => {
    process.env.TZ = tz;
    const p = periodOf(new Date(instant), by as Grouping);
    expect(p.key).toBe(key);
    expect(p.start.toISOString()).toBe(new Date(start).toISOString());
    expect(p.end.toISOString()).toBe(new Date(end).toISOString());
  });

  it('the periods of a range, in order, and none past the cap', () => {
    process.env.TZ = 'Europe/Berlin';
    const weeks = periodsBetween(new Date('2026-10-20T10:00:00Z'), new Date('2026-11-03T10:00:00Z'), 'week', 10);
    expect(weeks?.map((p) => p.key)).toEqual(['2026-10-19', '2026-10-26', '2026-11-02']);
    expect(periodsBetween(new Date('2026-01-01T00:00:00Z'), new Date('2026-12-31T00:00:00Z'), 'day', 100)).toBeUndefined();
  });
});

/** A v1 history row created at `iso`. */
function pay(iso: string, status: string, currency: string, amount: string, txs: string[] = []): PaymentInfo {
  return v1InfoOf({ track_id: String(Math.floor(Math.random() * 1e9)), status, currency, amount, date: unix(iso) }, txs);
}

const at = (p: PaymentInfo) => ({ ...p, created: parseTimestamp(p.date) });

describe('sums per period: exact, mixed coins', () => {
  const PAYMENTS = [
    pay('2026-11-23T09:00:00Z', 'paid', 'USD', '0.1', [v1Tx('a1', '0.00000001', 'BTC')]),
    pay('2026-11-23T10:00:00Z', 'paid', 'USD', '0.2', [v1Tx('a2', '0.12345678', 'BTC')]),
    pay('2026-11-23T11:00:00Z', 'paid', 'ETH', '1.000000000000000001', [v1Tx('a3', '1.000000000000000001', 'ETH')]),
    pay('2026-11-24T11:00:00Z', 'underpaid', 'USDT', '25', [v1Tx('a4', '12.5', 'USDT'), v1Tx('a5', '0.000001', 'USDT')]),
    pay('2026-11-24T12:00:00Z', 'waiting', 'EUR', '10'),
    pay('2026-11-29T23:59:59Z', 'refunded', 'USDT', '10', [v1Tx('a6', '10', 'USDT')]),
  ];

  it('each day, and the whole range equal to the payments totals', () => {
    process.env.TZ = 'UTC';
    const b = new ReportBuilder('day');
    for (const p of PAYMENTS) b.addPayment(at(p));
    const days = b.periods();
    expect(days.map((t) => t.period?.key)).toEqual(['2026-11-23', '2026-11-24', '2026-11-29']);
    expect(totalsJson(days[0]?.totals ?? paymentTotals([]))).toEqual({
      count: 3,
      byState: { paid: 3 },
      asked: { ETH: '1.000000000000000001', USD: '0.3' },
      received: { BTC: '0.12345679', ETH: '1.000000000000000001' },
      unconfirmed: {},
      unreported: 0,
      states: { paid: { count: 3, asked: { ETH: '1.000000000000000001', USD: '0.3' }, received: { BTC: '0.12345679', ETH: '1.000000000000000001' } } },
    });
    expect(totalsJson(days[1]?.totals ?? paymentTotals([])).received).toEqual({ USDT: '12.500001' });
    // The range's totals are the payments command's, to the digit.
    expect(totalsJson(b.total.totals)).toEqual(totalsJson(paymentTotals(PAYMENTS)));
    expect(b.total.byCurrency.get('USD')?.amount.toString()).toBe('0.3');
    expect(digits(b.total.byCoin.get('BTC'))).toEqual({ payments: 2, byState: { paid: 2 }, amount: '0.12345679' });
    expect(digits(b.total.byCoin.get('USDT'))).toEqual({ payments: 2, byState: { refunded: 1, underpaid: 1 }, amount: '22.500001' });
  });

  it('weeks from Monday: Sunday night belongs to the week before', () => {
    process.env.TZ = 'UTC';
    const b = new ReportBuilder('week');
    for (const p of PAYMENTS) b.addPayment(at(p));
    expect(b.periods().map((t) => [t.period?.key, t.totals.count])).toEqual([['2026-11-23', 6]]);
    process.env.TZ = 'Asia/Tokyo'; // the last payment is Monday 30 November there
    const tokyo = new ReportBuilder('week');
    for (const p of PAYMENTS) tokyo.addPayment(at(p));
    expect(tokyo.periods().map((t) => [t.period?.key, t.totals.count])).toEqual([
      ['2026-11-23', 5],
      ['2026-11-30', 1],
    ]);
  });

  it('refunds, payouts with their fees, and the net per coin (negative when more left than came)', () => {
    process.env.TZ = 'UTC';
    const b = new ReportBuilder('month');
    for (const p of PAYMENTS) b.addPayment(at(p));
    b.addPayout({ coin: 'usdt', amount: d('12.5'), fee: d('1'), created: new Date('2026-11-25T00:00:00Z') });
    b.addPayout({ coin: 'BTC', amount: d('0.2'), fee: null, created: new Date('2026-11-26T00:00:00Z') });
    b.addPayout({ coin: null, amount: d('1'), fee: null, created: new Date('2026-11-26T00:00:00Z') });
    const [month] = b.periods();
    expect(digits(month?.refunds)).toEqual({ USDT: '10' });
    expect(digits(month?.payouts.get('USDT'))).toEqual({ count: 1, amount: '12.5', fee: '1' });
    expect(month?.unreadPayouts).toBe(1);
    const net = Object.fromEntries([...netOf(b.total)].map(([c, v]) => [c, v.toString()]));
    // USDT: 22.500001 received − 10 refunded − 12.5 paid out − 1 fee.
    expect(net).toEqual({ BTC: '-0.07654321', ETH: '1.000000000000000001', USDT: '-0.999999' });
  });

  it('an empty range: every period there, all zero', () => {
    process.env.TZ = 'UTC';
    const b = new ReportBuilder('day');
    const fill = periodsBetween(new Date('2026-11-01T00:00:00Z'), new Date('2026-11-03T23:59:59Z'), 'day', 10) ?? [];
    const periods = b.periods(fill);
    expect(periods.map((t) => [t.period?.key, t.totals.count])).toEqual([
      ['2026-11-01', 0],
      ['2026-11-02', 0],
      ['2026-11-03', 0],
    ]);
    expect(totalsJson(b.total.totals)).toEqual({ count: 0, byState: {}, asked: {}, received: {}, unconfirmed: {}, unreported: 0, states: {} });
    expect(netOf(b.total).size).toBe(0);
  });

  it('a payment without a creation time is kept, in its own row after the periods', () => {
    const b = new ReportBuilder('day');
    b.addPayment({ ...at(PAYMENTS[0] as PaymentInfo), created: undefined });
    b.addPayment(at(PAYMENTS[1] as PaymentInfo));
    expect(b.periods().map((t) => t.period?.key ?? 'undated')).toEqual(['2026-11-23', 'undated']);
    expect(b.total.totals.count).toBe(2);
  });
});

describe('value in a fiat at current prices', () => {
  const prices = (fiat: string, fiatUsd: string): PriceTable => ({
    fiat,
    fiatUsd: d(fiatUsd),
    usd: new Map([
      ['BTC', d('65573.55')],
      ['USDT', d('1')],
      ['EUR', d('1.08')],
    ]),
    at: new Date('2026-11-25T16:00:00Z'),
    places: 2,
  });

  it('paid payments asked in the fiat count as asked; everything else at current prices, rounded once', () => {
    const b = new ReportBuilder('day', 'USD');
    const rows = [
      pay('2026-11-23T09:00:00Z', 'paid', 'USD', '25.005', [v1Tx('b1', '25.1', 'USDT')]),
      pay('2026-11-23T10:00:00Z', 'underpaid', 'USD', '10', [v1Tx('b2', '0.0001', 'BTC')]),
      pay('2026-11-23T11:00:00Z', 'waiting', 'EUR', '10'),
      pay('2026-11-23T12:00:00Z', 'paid', 'XYZ', '3', [v1Tx('b3', '3', 'XYZ')]),
    ];
    for (const p of rows) b.addPayment(at(p));
    const v = periodValue(b.total, prices('USD', '1'));
    // Asked: 35.005 USD as asked (never rounded), 10 EUR × 1.08 = 10.80 at current prices; XYZ has no price.
    expect(digits(v.asked)).toEqual({ own: '35.005', atCurrentPrices: '10.8', total: '45.805' });
    // Received: 25.005 (paid, asked in USD); 0.0001 BTC × 65573.55 = 6.557355 → 6.56.
    expect(digits(v.received)).toEqual({ own: '25.005', atCurrentPrices: '6.56', total: '31.565' });
    expect(v.unpriced).toEqual(['XYZ']);
    expect(digits(v.net)).toBe('31.565');
  });

  it('in EUR: through the fiat price, refunds and payouts subtracted', () => {
    const b = new ReportBuilder('day', 'EUR');
    b.addPayment(at(pay('2026-11-23T09:00:00Z', 'paid', 'USDT', '108', [v1Tx('c1', '108', 'USDT')])));
    b.addPayout({ coin: 'USDT', amount: d('53'), fee: d('1'), created: new Date('2026-11-23T10:00:00Z') });
    const v = periodValue(b.total, prices('EUR', '1.08'));
    expect(digits(v.received.total)).toBe('100');
    expect(digits(v.payouts)).toBe('50');
    expect(digits(v.net)).toBe('50');
  });
});
