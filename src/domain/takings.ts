// The takings of a range of payments: how many, per state; the amounts asked, summed per currency;
// what arrived, summed per coin (./arrival.ts). Exact Decimal sums, nothing converted. One home
// for `gw payments --since …` (its footer and "totals") and `gw report` (each period and the
// whole range), so the two agree to the last digit. Built one payment at a time (addPayment), so
// a caller reading the history page by page keeps no rows.
import type { Decimal } from '../money/decimal.js';
import { amountsWords, coinKey, type WithArrival } from './arrival.js';

export interface PaymentTotals {
  count: number;
  byState: Map<string, number>;
  asked: Map<string, Decimal>;
  received: Map<string, Decimal>;
  /** The part of `received` not confirmed yet, per coin. */
  unconfirmed: Map<string, Decimal>;
  /** Payments whose arrival the gateway does not report (the legacy history): not in `received`. */
  unreported: number;
  /** Per state: how many, asked per currency, received per coin. */
  states: Map<string, StateTotals>;
}

export interface StateTotals {
  count: number;
  asked: Map<string, Decimal>;
  received: Map<string, Decimal>;
}

/** What the totals read of a payment. */
export type TakingsPayment = Pick<WithArrival, 'status' | 'amount' | 'currency' | 'arrival'>;

export function emptyTotals(): PaymentTotals {
  return { count: 0, byState: new Map(), asked: new Map(), received: new Map(), unconfirmed: new Map(), unreported: 0, states: new Map() };
}

/** `amount` added to `key`'s sum, exact. */
export function addAmount(map: Map<string, Decimal>, key: string, amount: Decimal): void {
  const before = map.get(key);
  map.set(key, before === undefined ? amount : before.plus(amount));
}

/** One more payment counted into `totals`. */
export function addPayment(totals: PaymentTotals, p: TakingsPayment): void {
  totals.count++;
  totals.byState.set(p.status, (totals.byState.get(p.status) ?? 0) + 1);
  let state = totals.states.get(p.status);
  if (state === undefined) {
    state = { count: 0, asked: new Map(), received: new Map() };
    totals.states.set(p.status, state);
  }
  state.count++;
  const currency = coinKey(p.currency?.raw());
  if (p.amount !== null && currency !== null) {
    addAmount(totals.asked, currency, p.amount);
    addAmount(state.asked, currency, p.amount);
  }
  const { received, unconfirmed } = p.arrival;
  if (received === null) totals.unreported++;
  else
    for (const [coin, amount] of received) {
      addAmount(totals.received, coin, amount);
      addAmount(state.received, coin, amount);
    }
  for (const [coin, amount] of unconfirmed) addAmount(totals.unconfirmed, coin, amount);
}

export function paymentTotals(payments: Iterable<TakingsPayment>): PaymentTotals {
  const totals = emptyTotals();
  for (const p of payments) addPayment(totals, p);
  return totals;
}

/** A map's entries sorted by key (code-unit order: the same in every locale). */
export const byKey = <V>(map: ReadonlyMap<string, V>): Array<[string, V]> => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Amounts as exact decimal strings, by key. */
export const amountsJson = (map: ReadonlyMap<string, Decimal>): Record<string, string> => Object.fromEntries(byKey(map).map(([k, v]) => [k, v.toString()]));

/** `"totals"` in --json: amounts as exact decimal strings (docs/json-and-exit-codes.md). */
export function totalsJson(t: PaymentTotals, complete = true): Record<string, unknown> {
  return {
    count: t.count,
    byState: Object.fromEntries(byKey(t.byState)),
    asked: amountsJson(t.asked),
    received: amountsJson(t.received),
    unconfirmed: amountsJson(t.unconfirmed),
    unreported: t.unreported,
    states: Object.fromEntries(
      byKey(t.states).map(([state, x]) => [state, { count: x.count, asked: amountsJson(x.asked), received: amountsJson(x.received) }]),
    ),
    // Totals of an incomplete listing are of the rows read only: said where the totals are read.
    ...(!complete && { complete: false }),
  };
}

/** "3 paid, 1 waiting": the count per state, most first. */
export function statesWords(byState: ReadonlyMap<string, number>): string {
  return byKey(byState)
    .sort(([, a], [, b]) => b - a)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
}

/**
 * The footer under a range's payments: the count per state, then the sums asked and received; for
 * an incomplete listing (`complete` false) a first line says they are the totals of the rows read.
 */
export function totalsFooter(t: PaymentTotals, complete = true): string {
  const sums = (map: ReadonlyMap<string, Decimal>): string => (map.size === 0 ? 'nothing' : amountsWords(new Map(byKey(map))));
  const states = statesWords(t.byState);
  const unreported = t.unreported === 0 ? '' : ` (${t.unreported === t.count ? 'not reported' : `${t.unreported} of ${t.count} payments not reported`})`;
  const unconfirmed = t.unconfirmed.size === 0 ? '' : ` (of which ${sums(t.unconfirmed)} not confirmed yet)`;
  // Per state, when there is more than one: how many, what was asked, what arrived.
  const perState =
    t.states.size < 2
      ? []
      : byKey(t.states)
          .sort(([, a], [, b]) => b.count - a.count)
          .flatMap(([state, x]) => [`  ${`${x.count} ${state}`.padEnd(14)}asked     ${sums(x.asked)}`, `  ${''.padEnd(14)}received  ${sums(x.received)}`]);
  return [
    '',
    ...(complete ? [] : ['Totals of the rows read; the listing is incomplete:']),
    `Payments  ${t.count}${states ? `: ${states}` : ''}`,
    `Asked     ${sums(t.asked)}`,
    `Received  ${t.unreported === t.count && t.count > 0 ? 'unreported' : `${sums(t.received)}${unconfirmed}${unreported}`}`,
    ...perState,
    '',
  ].join('\n');
}
