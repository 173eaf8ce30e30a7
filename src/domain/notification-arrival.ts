// What arrived, read from a payment notification's body (src/domain/arrival.ts does the sums): the
// versioned API's notifications list their transfers in `txs[]` with `tx_hash`, `received_amount`
// (what reached the merchant; `sent_amount` what the payer sent), `currency`, `network`,
// `confirmations` and `status` (docs.oxapay.com/webhook); legacy notifications list none. What was
// owed: the body's pay amount (legacy `payAmount`), else its amount when stated in the coin paid.
// Used by `gw listen`, so its records carry the same "received", "expected", "difference" and
// "transactions" fields as gw status.
import { isLosslessNumber, parse } from 'lossless-json';
import type { OutputObject, PaymentTransaction, Scalar } from './values.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { coinKey, computeArrival, expectedOf, stateOf, toArrivalJson, type Arrival } from './arrival.js';
import type { PaymentState } from './payment-status.js';

type Fields = Readonly<Record<string, unknown>>;

function get(fields: Fields, ...names: string[]): unknown {
  for (const name of names) if (Object.hasOwn(fields, name) && fields[name] !== null && fields[name] !== '') return fields[name];
  return undefined;
}

function text(value: unknown): Untrusted | null {
  if (typeof value === 'string') return value === '' ? null : Untrusted.of(value);
  if (isLosslessNumber(value)) return Untrusted.of(value.value);
  return null;
}

function decimal(value: unknown): Decimal | null {
  const literal = isLosslessNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  return literal === undefined ? null : (Decimal.fromLiteral(literal.trim()) ?? null);
}

function scalar(value: unknown): Scalar | null {
  if (isLosslessNumber(value)) {
    const n = Number(value.value);
    return Number.isSafeInteger(n) && String(n) === value.value ? n : Untrusted.of(value.value);
  }
  return typeof value === 'string' ? Untrusted.of(value) : null;
}

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);

export interface NotificationArrival {
  arrival: Arrival;
  /** gw's state: the gateway's word, `late` when an expired payment's notification lists funds. */
  state: PaymentState;
  /** The JSON fields: received, expected, difference, transactions. */
  json: OutputObject;
}

/** What arrived according to a notification body; undefined when the body is not a JSON object. */
export function notificationArrival(body: Uint8Array): NotificationArrival | undefined {
  let value: unknown;
  try {
    value = parse(new TextDecoder('utf-8').decode(body).replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  return isObject(value) ? arrivalOfFields(value) : undefined;
}

/**
 * The same from a body already parsed into lossless-json values (gw listen parses each body once:
 * src/notifications/decode.ts). The JSON fields are made when first asked for.
 */
export function arrivalOfFields(fields: Fields): NotificationArrival {
  const rawTxs = get(fields, 'txs');
  const txs: PaymentTransaction[] | null = Array.isArray(rawTxs)
    ? rawTxs.filter(isObject).map((tx) => ({
        txID: text(get(tx, 'tx_hash', 'txHash', 'txID')),
        amount: decimal(get(tx, 'received_amount', 'receivedAmount', 'amount', 'sent_amount')),
        currency: text(get(tx, 'currency')),
        network: text(get(tx, 'network')),
        address: text(get(tx, 'address')),
        status: text(get(tx, 'status')),
        confirmations: scalar(get(tx, 'confirmations')),
        date: scalar(get(tx, 'date')),
      }))
    : null;
  const payCurrency = text(get(fields, 'payCurrency', 'pay_currency')) ?? txs?.[0]?.currency ?? null;
  const expected = expectedOf(
    {
      payAmount: decimal(get(fields, 'payAmount', 'pay_amount')),
      payCurrency,
      amount: decimal(get(fields, 'amount')),
      currency: text(get(fields, 'currency')),
      txs: txs ?? [],
    },
    text(get(fields, 'fee_paid_by_payer', 'feePaidByPayer')) ?? undefined,
  );
  const arrival = computeArrival({
    txs,
    payCurrency: coinKey(payCurrency?.raw()),
    txID: text(get(fields, 'txID', 'tx_hash'))?.raw() ?? null,
    expected,
  });
  const status = text(get(fields, 'status'));
  return new ArrivalRead(arrival, stateOf(status?.raw() ?? null, arrival));
}

/**
 * What arrivalOfFields returns, its JSON fields made when first asked for. A class, not an object
 * literal with a getter made per call: under gw listen's load that literal left about half of each
 * scavenge promoted to the old generation, then full collections (--trace-gc-nvp); with the class,
 * next to nothing.
 */
class ArrivalRead implements NotificationArrival {
  #json: OutputObject | undefined;

  constructor(
    readonly arrival: Arrival,
    readonly state: PaymentState,
  ) {}

  get json(): OutputObject {
    this.#json ??= toArrivalJson(this.arrival);
    return this.#json;
  }
}
