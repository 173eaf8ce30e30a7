// What arrived for a payment, read from the transactions the gateway reports — never from the
// status word alone. The versioned API lists a payment's transfers in `txs[]` (payment information
// and history, docs/gateway.md §12); the gateway's own pages disagree on what `expired` means
// (its status table: nothing arrived in time; a help-centre page: the full amount arrived after
// the expiry; docs/gateway.md §15): so gw sums the
// transactions, per coin, exactly, and compares them with what was owed in the coin paid. Nothing is
// converted at any price. The legacy inquiry lists no transactions: under it, gw says it does not
// know rather than guess.
//
// Which transactions count as received (transaction statuses beyond `confirmed` are not published):
// - `confirmed` (and paid, success, completed…): received, confirmed;
// - `confirming` (and pending, paying, unconfirmed…), a missing status or a word gw does not know:
//   received, NOT confirmed (counted, so money that may have arrived is never called nothing, and
//   labelled, so it is never called settled);
// - `failed` (and rejected, cancelled, reverted, dropped, invalid): not counted.
//
// JSON (added beside the gateway's fields; see toArrivalJson): "received" {COIN: "amount"} or null
// (not reported), "expected" {COIN: "amount"} or null, "difference" {COIN: "expected − received"}
// or null (not computable), "transactions" [...] or null (not reported).
import { asciiLowerCase, asciiUpperCase } from '../util/ascii.js';
import type { OutputObject, OutputValue, PaymentInfoBase, PaymentTransaction, Scalar } from './values.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { normalizeStatus, type PaymentState } from './payment-status.js';

/** How a transaction counts. */
export type TxCount = 'confirmed' | 'confirming' | 'not-counted';

const CONFIRMED_WORDS = new Set(['confirmed', 'paid', 'success', 'successful', 'completed', 'complete', 'done', 'credited', 'settled']);
const NOT_COUNTED_WORDS = new Set(['failed', 'failure', 'rejected', 'cancelled', 'canceled', 'reverted', 'dropped', 'invalid']);

/** How a transaction with this status counts toward what arrived. */
export function txCount(status: string | null): TxCount {
  if (status === null) return 'confirming';
  const word = asciiLowerCase(status).replace(/[\s_-]+/g, '');
  if (CONFIRMED_WORDS.has(word)) return 'confirmed';
  if (NOT_COUNTED_WORDS.has(word)) return 'not-counted';
  return 'confirming';
}

/** One transaction as gw reports it. */
export interface ArrivedTx {
  hash: Untrusted | null;
  amount: Decimal | null;
  /** The coin, upper case (the payment's pay currency when the transaction names none). */
  coin: string | null;
  network: Untrusted | null;
  confirmations: Scalar | null;
  /** The gateway's word for it. */
  status: Untrusted | null;
  count: TxCount;
}

/** What was owed, in the coin to be paid. */
export interface Expected {
  amount: Decimal;
  coin: string;
}

export interface Arrival {
  /**
   * How gw knows: `transactions` (the gateway listed them), `total` (it gave only a received total
   * for the payment), `unreported` (it says nothing of what arrived: the legacy inquiry).
   */
  source: 'transactions' | 'total' | 'unreported';
  transactions: ArrivedTx[] | null;
  /** Per coin (upper case), the counted transactions' amounts added up exactly; null when unreported. */
  received: ReadonlyMap<string, Decimal> | null;
  /** The part of `received` not confirmed yet, per coin. */
  unconfirmed: ReadonlyMap<string, Decimal>;
  /** A counted transaction's amount could not be read: `received` is a lower bound. */
  incomplete: boolean;
  /** Unreported, but the answer names a transaction (the legacy txID): something arrived. */
  transactionNamed: boolean;
  expected: Expected | null;
  /** expected − received in the expected coin (negative: more than owed); null when not computable. */
  difference: Decimal | null;
  /** Why the difference is null, for people ("the amount owed is not in the gateway's answer"). */
  noDifference: string | undefined;
}

export interface ArrivalInput {
  /** The transactions the gateway listed; null when its answer has no list (legacy). */
  txs: readonly PaymentTransaction[] | null;
  /** The payment's pay currency, for a transaction that names no coin. */
  payCurrency: string | null;
  /** A received total the answer gives without a list (the sandbox's legacy `receivedAmount`). */
  reportedTotal?: Decimal | null;
  /** The legacy txID, when the answer names one. */
  txID?: string | null;
  expected: Expected | null;
}

/** A coin as gw compares it: trimmed, upper-cased by ASCII rules only ("uſdt" is no USDT). */
export function coinKey(text: string | null | undefined): string | null {
  const key = text === null || text === undefined ? undefined : asciiUpperCase(text.trim());
  return key === undefined || key === '' ? null : key;
}

/** a − b, exact, either sign. */
export function subtract(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.fractionDigits, b.fractionDigits);
  const units = (d: Decimal): bigint => (d.isNegative ? -(Decimal.fromLiteral(d.toString().slice(1)) as Decimal).toBaseUnits(scale) : d.toBaseUnits(scale));
  const diff = units(a) - units(b);
  const magnitude = Decimal.fromBaseUnits(diff < 0n ? -diff : diff, scale);
  return diff < 0n ? (Decimal.fromLiteral(`-${magnitude}`) as Decimal) : magnitude;
}

function add(map: Map<string, Decimal>, coin: string, amount: Decimal): void {
  const before = map.get(coin);
  map.set(coin, before === undefined ? amount : before.plus(amount));
}

/** What arrived, computed from what the gateway reported. Pure. */
export function computeArrival(input: ArrivalInput): Arrival {
  const payCoin = coinKey(input.payCurrency);
  const expected = input.expected;
  let source: Arrival['source'];
  let transactions: ArrivedTx[] | null = null;
  let received: Map<string, Decimal> | null = null;
  const unconfirmed = new Map<string, Decimal>();
  let incomplete = false;
  if (input.txs !== null) {
    source = 'transactions';
    received = new Map();
    transactions = input.txs.map((tx) => {
      const coin = coinKey(tx.currency?.raw()) ?? payCoin;
      const count = txCount(tx.status?.raw() ?? null);
      const amount = tx.amount !== null && !tx.amount.isNegative ? tx.amount : null;
      if (count !== 'not-counted') {
        if (amount === null || coin === null) incomplete = true;
        else {
          add(received as Map<string, Decimal>, coin, amount);
          if (count === 'confirming') add(unconfirmed, coin, amount);
        }
      }
      return { hash: tx.txID, amount: tx.amount, coin, network: tx.network, confirmations: tx.confirmations, status: tx.status, count };
    });
  } else if (input.reportedTotal != null && !input.reportedTotal.isNegative && payCoin !== null) {
    source = 'total';
    received = new Map(input.reportedTotal.isZero ? [] : [[payCoin, input.reportedTotal]]);
  } else {
    source = 'unreported';
  }
  const transactionNamed = source !== 'transactions' && input.txID != null && input.txID.trim() !== '';

  let difference: Decimal | null = null;
  let noDifference: string | undefined;
  if (received === null) noDifference = 'the gateway’s answer does not say what arrived';
  else if (expected === null) noDifference = 'the amount owed in the coin paid is not in the gateway’s answer';
  else if (incomplete) noDifference = 'a transaction’s amount could not be read';
  else if ([...received.keys()].some((coin) => coin !== expected.coin))
    noDifference = `funds arrived in a coin other than ${expected.coin}, and gw does not convert at today's price`;
  else difference = subtract(expected.amount, received.get(expected.coin) ?? Decimal.ZERO);
  return { source, transactions, received, unconfirmed, incomplete, transactionNamed, expected, difference, noDifference };
}

/** Whether any money arrived, or may have (a counted transaction, a named one, a received total above zero). */
export function fundsArrived(arrival: Arrival): boolean {
  if (arrival.incomplete || arrival.transactionNamed) return true;
  for (const amount of arrival.received?.values() ?? []) if (amount.isPositive) return true;
  return false;
}

/** gw's state from the gateway's word and what arrived: `expired` with funds is `late`. */
export function stateOf(gatewayStatus: string | null, arrival: Arrival): PaymentState {
  const state = gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus);
  return state === 'expired' && fundsArrived(arrival) ? 'late' : state;
}

/**
 * What was owed in the coin paid, as far as the answer says: its pay amount; else the requested
 * amount when it is stated in the very coin every counted transaction paid in and the payer was not
 * charged the fee on top (then the payer owed exactly it).
 */
export function expectedOf(info: Pick<PaymentInfoBase, 'payAmount' | 'payCurrency' | 'amount' | 'currency' | 'txs'>, feePaidByPayer: unknown): Expected | null {
  const payCoin = coinKey(info.payCurrency?.raw());
  if (info.payAmount !== null && payCoin !== null) return { amount: info.payAmount, coin: payCoin };
  const coin = coinKey(info.currency?.raw());
  if (info.amount === null || coin === null) return null;
  const fee = feePaidByPayer instanceof Untrusted ? feePaidByPayer.raw() : String(feePaidByPayer ?? '');
  if (fee.trim() === '1') return null;
  const coins = new Set(info.txs.filter((tx) => txCount(tx.status?.raw() ?? null) !== 'not-counted').map((tx) => coinKey(tx.currency?.raw()) ?? payCoin));
  return coins.size === 1 && coins.has(coin) ? { amount: info.amount, coin } : null;
}

function coinMap(map: ReadonlyMap<string, Decimal>): OutputObject {
  const out = Object.create(null) as OutputObject;
  for (const [coin, amount] of map) out[coin] = amount;
  return out;
}

/** The arrival fields of gw's JSON output (the same in status, payments, pay --wait and listen). */
export function toArrivalJson(arrival: Arrival): OutputObject {
  const one = (coin: string, amount: Decimal): OutputObject => coinMap(new Map([[coin, amount]]));
  return {
    received: arrival.received === null ? null : coinMap(arrival.received),
    expected: arrival.expected === null ? null : one(arrival.expected.coin, arrival.expected.amount),
    difference: arrival.difference === null || arrival.expected === null ? null : one(arrival.expected.coin, arrival.difference),
    transactions:
      arrival.transactions === null
        ? null
        : arrival.transactions.map(
            (tx): OutputValue => ({
              hash: tx.hash,
              amount: tx.amount,
              currency: tx.coin === null ? null : Untrusted.of(tx.coin),
              network: tx.network,
              confirmations: tx.confirmations,
              status: tx.status,
              counted: tx.count !== 'not-counted',
              confirmed: tx.count === 'confirmed',
            }),
          ),
  };
}

/** A payment as a decoder reads it, before gw adds what arrived. */
export type { PaymentInfoBase } from './values.js';

/** A payment with what arrived (src/operations/payment-info.ts calls it PaymentInfo). */
export interface WithArrival extends PaymentInfoBase {
  /** What arrived, from the transactions; `status` is `late` when an expired payment received funds. */
  arrival: Arrival;
}

/**
 * The payment with what arrived: its arrival, its state (`late` for funds on an expired payment)
 * and the JSON fields. `txsReported`: whether the answer lists transactions (the versioned API
 * does; the legacy inquiry does not). `expected`: what gw knows was owed (pay --wait: the creation
 * answer); else what the answer says.
 */
export function addArrival(info: PaymentInfoBase, txsReported: boolean, expected?: Expected | null): WithArrival {
  const fields = info.fields;
  const reported = fields.receivedAmount;
  const reportedTotal = reported instanceof Decimal ? reported : reported instanceof Untrusted ? (Decimal.fromLiteral(reported.raw()) ?? null) : null;
  const arrival = computeArrival({
    txs: txsReported ? info.txs : null,
    payCurrency: info.payCurrency?.raw() ?? null,
    reportedTotal,
    txID: info.txID?.raw() ?? null,
    expected: expected ?? expectedOf(info, fields.feePaidByPayer),
  });
  const status = stateOf(info.gatewayStatus?.raw() ?? null, arrival);
  return { ...info, status, arrival, fields: { ...fields, status: Untrusted.of(status), ...toArrivalJson(arrival) } };
}

/** The same payment with what arrived compared against what gw knows was owed (pay --wait: the creation answer). */
export function withExpected(info: WithArrival, expected: Expected | null): WithArrival {
  if (expected === null) return info;
  return addArrival(info, info.arrival.source === 'transactions', expected);
}

/** "0.0005 BTC + 10 USDT"; "nothing" when empty. */
export function amountsWords(map: ReadonlyMap<string, Decimal>): string {
  if (map.size === 0) return 'nothing';
  return [...map].map(([coin, amount]) => `${amount} ${Untrusted.of(coin).line(20)}`).join(' + ');
}

/** "0.0001 BTC short of 0.0005 BTC" / "0.0001 BTC more than the 0.0005 BTC owed" / "the full 0.0005 BTC" */
export function differenceWords(arrival: Arrival): string | undefined {
  const { difference, expected } = arrival;
  if (difference === null || expected === null) return undefined;
  const coin = Untrusted.of(expected.coin).line(20);
  if (difference.isZero) return `the full ${expected.amount} ${coin}`;
  if (difference.isNegative) return `${difference.toString().slice(1)} ${coin} more than the ${expected.amount} ${coin} owed`;
  return `${difference} ${coin} short of ${expected.amount} ${coin}`;
}
