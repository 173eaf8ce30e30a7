// The report of a range (`gw report`): the payments and payouts of each local day, week (from
// Monday) or month, added up exactly. Per period: the takings of ./takings.ts (the same sums as
// `gw payments --since …`), the same by currency asked (count per state, amount) and by coin
// received (payments, amount), refunds (what arrived for payments now refunding or refunded),
// payouts made (amount and fee, per coin; canceled and rejected ones left out by the caller) and
// the net per coin (received − refunds − payouts − their fees). Built one record at a time, so a
// caller that reads the history page by page keeps only a few numbers per period.
//
// Valuation in one fiat (`--in USD`): a payment asked in that fiat counts at its own amount (asked,
// and received once it is paid); every other amount is valued at the gateway's CURRENT prices,
// which the result labels as such with the time they were read: never a value at payment time.
// Periods follow the local clock (TZ honoured): a day with a daylight-saving change is 23 or 25 h.
import { Decimal, divideRounded } from '../money/decimal.js';
import { coinKey, subtract } from './arrival.js';
import { addAmount, addPayment, emptyTotals, type PaymentTotals, type TakingsPayment } from './takings.js';

export const GROUPINGS = ['day', 'week', 'month'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/** A local calendar period: `key` 2026-11-23 (a day, or the Monday a week starts on) or 2026-11; `end` excluded. */
export interface Period {
  key: string;
  start: Date;
  end: Date;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const dateKey = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local period `date` falls in; weeks start on Monday. */
export function periodOf(date: Date, by: Grouping): Period {
  const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
  if (by === 'month') return { key: `${y}-${pad(m + 1)}`, start: new Date(y, m, 1), end: new Date(y, m + 1, 1) };
  const back = by === 'week' ? (date.getDay() + 6) % 7 : 0;
  const start = new Date(y, m, d - back);
  return { key: dateKey(start), start, end: new Date(y, m, d - back + (by === 'week' ? 7 : 1)) };
}

/** Every period from the one holding `from` to the one holding `to`, in order; at most `max` (undefined beyond). */
export function periodsBetween(from: Date, to: Date, by: Grouping, max: number): Period[] | undefined {
  const out: Period[] = [];
  for (let p = periodOf(from, by); p.start.getTime() <= to.getTime(); p = periodOf(p.end, by)) {
    if (out.length >= max) return undefined;
    out.push(p);
  }
  return out;
}

/** What the report reads of a payment: the takings' fields and when it was created. */
export interface ReportPayment extends TakingsPayment {
  created: Date | undefined;
}

/** A payout made (the caller leaves out canceled and rejected ones). */
export interface ReportPayout {
  coin: string | null;
  amount: Decimal | null;
  fee: Decimal | null;
  created: Date | undefined;
}

export interface AskedLine {
  count: number;
  byState: Map<string, number>;
  amount: Decimal;
}

export interface PayoutLine {
  count: number;
  amount: Decimal;
  fee: Decimal;
}

/** One period's sums (or the whole range's). */
export interface PeriodTakings {
  /** Null: payments whose creation time the gateway did not give (or the whole range). */
  period: Period | null;
  totals: PaymentTotals;
  byCurrency: Map<string, AskedLine>;
  /** Per coin received: how many payments brought some, in which states, and the amount. */
  byCoin: Map<string, { payments: number; byState: Map<string, number>; amount: Decimal }>;
  refunds: Map<string, Decimal>;
  payouts: Map<string, PayoutLine>;
  /** Payouts whose coin or amount could not be read (not in `payouts`). */
  unreadPayouts: number;
  /** With a fiat: the asked amounts of paid payments asked in it (counted at their own amount). */
  settledOwn: Decimal;
  /** With a fiat: what arrived for every other payment, per coin (valued at current prices). */
  receivedOther: Map<string, Decimal>;
}

const REFUND_STATES = new Set(['refunding', 'refunded']);

function emptyPeriod(period: Period | null): PeriodTakings {
  return {
    period,
    totals: emptyTotals(),
    byCurrency: new Map(),
    byCoin: new Map(),
    refunds: new Map(),
    payouts: new Map(),
    unreadPayouts: 0,
    settledOwn: Decimal.ZERO,
    receivedOther: new Map(),
  };
}

function addTo(t: PeriodTakings, p: ReportPayment, fiat: string | undefined): void {
  addPayment(t.totals, p);
  const currency = coinKey(p.currency?.raw());
  if (currency !== null) {
    const line = t.byCurrency.get(currency) ?? { count: 0, byState: new Map<string, number>(), amount: Decimal.ZERO };
    line.count++;
    line.byState.set(p.status, (line.byState.get(p.status) ?? 0) + 1);
    if (p.amount !== null) line.amount = line.amount.plus(p.amount);
    t.byCurrency.set(currency, line);
  }
  const received = p.arrival.received ?? new Map<string, Decimal>();
  for (const [coin, amount] of received) {
    const line = t.byCoin.get(coin) ?? { payments: 0, byState: new Map<string, number>(), amount: Decimal.ZERO };
    line.payments++;
    line.byState.set(p.status, (line.byState.get(p.status) ?? 0) + 1);
    line.amount = line.amount.plus(amount);
    t.byCoin.set(coin, line);
    if (REFUND_STATES.has(p.status)) addAmount(t.refunds, coin, amount);
  }
  if (fiat === undefined) return;
  if (p.status === 'paid' && currency === fiat && p.amount !== null) t.settledOwn = t.settledOwn.plus(p.amount);
  else for (const [coin, amount] of received) addAmount(t.receivedOther, coin, amount);
}

function addPayoutTo(t: PeriodTakings, p: ReportPayout): void {
  const coin = coinKey(p.coin);
  if (coin === null || p.amount === null || p.amount.isNegative || p.fee?.isNegative === true) {
    t.unreadPayouts++;
    return;
  }
  const line = t.payouts.get(coin) ?? { count: 0, amount: Decimal.ZERO, fee: Decimal.ZERO };
  line.count++;
  line.amount = line.amount.plus(p.amount);
  if (p.fee !== null) line.fee = line.fee.plus(p.fee);
  t.payouts.set(coin, line);
}

/** Per coin: received − refunds − payouts − payout fees, exact (negative when more left than came). */
export function netOf(t: PeriodTakings): Map<string, Decimal> {
  const net = new Map<string, Decimal>();
  const less = (coin: string, amount: Decimal): void => {
    net.set(coin, subtract(net.get(coin) ?? Decimal.ZERO, amount));
  };
  for (const [coin, amount] of t.totals.received) net.set(coin, amount);
  for (const [coin, amount] of t.refunds) less(coin, amount);
  for (const [coin, line] of t.payouts) less(coin, line.amount.plus(line.fee));
  return net;
}

/** The sums of a range, per period and in all; add payments and payouts in any order. */
export class ReportBuilder {
  readonly total: PeriodTakings = emptyPeriod(null);
  readonly #periods = new Map<string, PeriodTakings>();
  #undated: PeriodTakings | undefined;

  constructor(
    readonly by: Grouping,
    /** The fiat of --in (upper case), when asked. */
    readonly fiat?: string,
  ) {}

  #periodFor(created: Date | undefined): PeriodTakings {
    if (created === undefined) {
      this.#undated ??= emptyPeriod(null);
      return this.#undated;
    }
    const period = periodOf(created, this.by);
    let t = this.#periods.get(period.key);
    if (t === undefined) {
      t = emptyPeriod(period);
      this.#periods.set(period.key, t);
    }
    return t;
  }

  addPayment(p: ReportPayment): void {
    addTo(this.total, p, this.fiat);
    addTo(this.#periodFor(p.created), p, this.fiat);
  }

  addPayout(p: ReportPayout): void {
    addPayoutTo(this.total, p);
    addPayoutTo(this.#periodFor(p.created), p);
  }

  /** The periods in order, `fill`'s empty ones included, then the undated payments if any. */
  periods(fill: readonly Period[] = []): PeriodTakings[] {
    for (const period of fill) if (!this.#periods.has(period.key)) this.#periods.set(period.key, emptyPeriod(period));
    const sorted = [...this.#periods.values()].sort((a, b) => (a.period?.start.getTime() ?? 0) - (b.period?.start.getTime() ?? 0));
    return this.#undated === undefined ? sorted : [...sorted, this.#undated];
  }
}

// ---------------------------------------------------------------------------------------------
// Valuation at the gateway's current prices

/** The gateway's prices as read at `at`: USD per unit of each symbol (crypto and fiat), and the fiat asked for. */
export interface PriceTable {
  fiat: string;
  /** USD per unit of the fiat (1 for USD). */
  fiatUsd: Decimal;
  usd: ReadonlyMap<string, Decimal>;
  at: Date;
  /** Decimal places a valued amount is rounded to (half up). */
  places: number;
}

/** `amounts` valued in the table's fiat at its prices: the sum, rounded once; the symbols it has no price for. */
export function valueAtPrices(amounts: ReadonlyMap<string, Decimal>, prices: PriceTable): { value: Decimal; unpriced: string[] } {
  const unpriced: string[] = [];
  let usd = Decimal.ZERO;
  let own = Decimal.ZERO;
  for (const [symbol, amount] of amounts) {
    if (symbol === prices.fiat) own = own.plus(amount);
    else {
      const price = prices.usd.get(symbol);
      if (price === undefined) unpriced.push(symbol);
      else usd = usd.plus(amount.times(price, amount.fractionDigits + price.fractionDigits));
    }
  }
  const converted = usd.isZero ? Decimal.ZERO : (Decimal.fromLiteral(divideRounded(usd.toString(), prices.fiatUsd.toString(), prices.places)) as Decimal);
  return { value: own.plus(converted), unpriced: unpriced.sort() };
}

/**
 * One amount asked, valued as the report values it: asked in the table's fiat, its own amount;
 * in anything else, at the table's (current) prices, rounded to the fiat's places. `unpriced`: the
 * currency the table has no price for (then no value).
 */
export function askedValue(amount: Decimal, currency: string, prices: PriceTable): { value: Decimal } | { unpriced: string } {
  const key = coinKey(currency) ?? currency;
  const { value, unpriced } = valueAtPrices(new Map([[key, amount]]), prices);
  return unpriced.length > 0 ? { unpriced: key } : { value };
}

/** A period's value in the fiat: each figure's part counted at its own amount, the part at current prices, and the total. */
export interface PeriodValue {
  asked: { own: Decimal; atCurrentPrices: Decimal; total: Decimal };
  received: { own: Decimal; atCurrentPrices: Decimal; total: Decimal };
  refunds: Decimal;
  payouts: Decimal;
  net: Decimal;
  unpriced: string[];
}

export function periodValue(t: PeriodTakings, prices: PriceTable): PeriodValue {
  const unpriced = new Set<string>();
  const at = (amounts: ReadonlyMap<string, Decimal>): Decimal => {
    const v = valueAtPrices(amounts, prices);
    for (const s of v.unpriced) unpriced.add(s);
    return v.value;
  };
  const askedOwn = t.totals.asked.get(prices.fiat) ?? Decimal.ZERO;
  const askedOther = new Map([...t.totals.asked].filter(([c]) => c !== prices.fiat));
  const askedAt = at(askedOther);
  const receivedAt = at(t.receivedOther);
  const refunds = at(t.refunds);
  const payoutCoins = new Map<string, Decimal>();
  for (const [coin, line] of t.payouts) payoutCoins.set(coin, line.amount.plus(line.fee));
  const payouts = at(payoutCoins);
  const received = t.settledOwn.plus(receivedAt);
  return {
    asked: { own: askedOwn, atCurrentPrices: askedAt, total: askedOwn.plus(askedAt) },
    received: { own: t.settledOwn, atCurrentPrices: receivedAt, total: received },
    refunds,
    payouts,
    net: subtract(subtract(received, refunds), payouts),
    unpriced: [...unpriced].sort(),
  };
}
