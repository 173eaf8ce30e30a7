// Payment information: one payment's state (docs/gateway.md §5, §8, §12). Legacy POST
// /merchants/inquiry (JSON {merchant, trackId}), versioned GET /v1/payment/{track_id}. The history
// (./payment-history.ts) lists payments in the same shape, so its rows are read and written here too.
import { LosslessNumber } from 'lossless-json';
import { addArrival, type WithArrival } from '../domain/arrival.js';
import { legacyStatusName, normalizeStatus, v1AnswerWord, type PaymentState } from '../domain/payment-status.js';
import { ExitCode, type GwError } from '../errors.js';
import type { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { outputObject, outputValue, readDecimal, readScalar, readText, requiredText, shapeError, type JsonObject } from './read.js';
import { answerValue, encodeFields, fields, type Endpoint, type Field, type Operation } from './codec.js';
import type { Payment } from './create-payment.js';
import type { OutputObject, PaymentTerms, PaymentTransaction, Scalar } from './values.js';

/** A payment with what arrived (src/domain/arrival.ts). */
export type PaymentInfo = WithArrival;

export interface PaymentInfoRequest {
  trackId: string;
}

/** A payment as the history describes it, in the shape of a created one (what it does not say is null). */
export function paymentFromInfo(info: PaymentInfo): Payment {
  const memo = info.fields.memo;
  return {
    trackId: info.trackId,
    amount: info.amount,
    currency: info.currency,
    payAmount: info.payAmount,
    payCurrency: info.payCurrency,
    network: info.network,
    address: info.address,
    memo: memo instanceof Untrusted ? memo : null,
    callbackUrl: null,
    description: info.description,
    email: info.email,
    feePaidByPayer: null,
    lifeTime: null,
    orderId: info.orderId,
    underPaidCover: null,
    rate: null,
    expiredAt: info.expiredAt,
    createdAt: info.date,
    QRCode: null,
  };
}

/**
 * What kind of payment a record is. The sandbox makes white-label payments only today; the others
 * are the gateway's (a link whose coin is chosen later, a fixed address receiving many payments,
 * an invoice, a payout), named so that a record never assumes white-label.
 */
export type PaymentKind = 'white-label' | 'invoice' | 'payment-link' | 'static-address' | 'donation' | 'payout';

/** `type` as each API writes it (docs/gateway.md §7, §15): the legacy inquiry says `payment` for every payment. */
const TYPE_WORDS: Readonly<Record<PaymentKind, { legacy: string; v1: string }>> = {
  'white-label': { legacy: 'payment', v1: 'white_label' },
  invoice: { legacy: 'payment', v1: 'invoice' },
  'payment-link': { legacy: 'payment', v1: 'payment_link' },
  'static-address': { legacy: 'payment', v1: 'static_address' },
  donation: { legacy: 'payment', v1: 'donation' },
  payout: { legacy: 'payout', v1: 'payout' },
};

/** One transaction of a payment the sandbox answers for, in canonical names. */
export interface TransactionRecord {
  txID: string;
  amount: string;
  currency: string;
  network: string;
  address: string;
  status: string;
  confirmations: number;
  date: number;
}

/** A payment as the sandbox answers for it, in canonical names: amounts as exact digits, times as Unix seconds. */
export interface PaymentRecord extends PaymentTerms {
  kind: PaymentKind;
  status: PaymentState;
  /** The latest transaction's hash, "" before one. */
  txID: string;
  email: string;
  orderId: string;
  description: string;
  callbackUrl: string;
  feePaidByPayer: number;
  underPaidCover: string;
  lifeTime: number;
  /** Unix seconds: created, credited (0 until then), expiring. */
  date: number;
  payDate: number;
  expiredAt: number;
  /** The counted transactions' total in the pay currency. */
  receivedAmount: string;
  mixedPayment: boolean;
  /** A payment link's (an invoice's) page: where it sends the payer after paying, and its note; "" for other payments. */
  returnUrl?: string;
  thanksMessage?: string;
  txs: readonly TransactionRecord[];
}

/** A history row's or an inquiry's endpoint: `txs` is the table of each transaction (versioned API only). */
export type InfoEndpoint = Endpoint & { readonly extras: readonly Field[]; readonly txs?: readonly Field[]; readonly txExtras?: readonly Field[] };

/** The legacy inquiry's answer (top level), as the sandbox writes it and the client reads it. */
export const LEGACY_PAYMENT_FIELDS = fields([
  ['trackId', 'trackId', 'text'],
  ['status', 'status', 'text'],
  ['type', 'type', 'text'],
  ['amount', 'amount', 'numeric-text'],
  ['currency', 'currency', 'text'],
  ['payAmount', 'payAmount', 'numeric-text'],
  ['payCurrency', 'payCurrency', 'text'],
  ['network', 'network', 'text'],
  ['address', 'address', 'text'],
  ['txID', 'txID', 'text'],
  ['email', 'email', 'text'],
  ['orderId', 'orderId', 'text'],
  ['description', 'description', 'text'],
  ['feePaidByPayer', 'feePaidByPayer', 'integer'],
  ['underPaidCover', 'underPaidCover', 'numeric-text'],
  ['date', 'date', 'integer'],
  ['payDate', 'payDate', 'integer'],
  // Beyond the published inquiry (gw reads them where they are there; the sandbox sends them).
  ['expiredAt', 'expiredAt', 'integer'],
  ['lifeTime', 'lifeTime', 'integer'],
  ['receivedAmount', 'receivedAmount', 'numeric-text'],
]);

/** The versioned payment information `data` (docs.oxapay.com/api-reference/payment/payment-information), in its order. */
export const V1_PAYMENT_FIELDS = fields([
  ['trackId', 'track_id', 'text'],
  ['type', 'type', 'text'],
  ['amount', 'amount', 'number'],
  ['currency', 'currency', 'text'],
  ['status', 'status', 'text'],
  ['mixedPayment', 'mixed_payment', 'boolean'],
  ['feePaidByPayer', 'fee_paid_by_payer', 'integer'],
  ['underPaidCover', 'under_paid_coverage', 'number'],
  ['lifeTime', 'lifetime', 'integer'],
  ['callbackUrl', 'callback_url', 'text'],
  ['returnUrl', 'return_url', 'text'],
  ['email', 'email', 'text'],
  ['orderId', 'order_id', 'text'],
  ['description', 'description', 'text'],
  ['thanksMessage', 'thanks_message', 'text'],
  ['expiredAt', 'expired_at', 'integer'],
  ['date', 'date', 'integer'],
]);

/** Fields some versioned answers carry beyond the published ones; gw reads them, the sandbox does not send them. */
export const V1_PAYMENT_EXTRAS = fields([
  ['payAmount', 'pay_amount', 'number'],
  ['payCurrency', 'pay_currency', 'text'],
  ['network', 'network', 'text'],
  ['address', 'address', 'text'],
  ['memo', 'memo', 'memo'],
  ['QRCode', 'qr_code', 'text'],
  ['payDate', 'pay_date', 'integer'],
  ['txID', 'tx_hash', 'text'],
]);

/** One transaction of `txs[]` (docs/gateway.md §12). */
export const V1_TX_FIELDS = fields([
  ['txID', 'tx_hash', 'text'],
  ['amount', 'amount', 'number'],
  ['currency', 'currency', 'text'],
  ['network', 'network', 'text'],
  ['address', 'address', 'text'],
  ['status', 'status', 'text'],
  ['confirmations', 'confirmations', 'integer'],
  ['date', 'date', 'integer'],
]);

/** A transaction's amount where `amount` is missing (notifications' spellings). */
const V1_TX_AMOUNT_EXTRAS = fields([
  ['amount', 'received_amount', 'number'],
  ['amount', 'sent_amount', 'number'],
]);

export const PAYMENT_INFO = {
  name: 'payment information',
  what: 'the payment status request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: PaymentInfoRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): PaymentInfo => decodePaymentInfoAnswer(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: PaymentRecord): object => encodePaymentInfo(endpoint, answer),
  // An enveloped 404 from the versioned endpoint is the request's data being wrong, an unknown track
  // id: exit 65, like the legacy result 116.
  refine: (endpoint: Endpoint, error: GwError): GwError =>
    endpoint.api === 'v1' && error.exitCode === ExitCode.REFUSED && error.status === 404
      ? error.with({
          exitCode: ExitCode.DATA,
          hint: 'no payment of this merchant account has that track id: check it (if every track id gets this, check the base URL and api v1)',
        })
      : error,
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/merchants/inquiry',
      key: { kind: 'merchant', field: 'merchant' },
      body: 'json',
      envelope: 'legacy',
      request: fields([['trackId', 'trackId', 'id']]),
      answer: LEGACY_PAYMENT_FIELDS,
      extras: fields([['date', 'createdAt', 'integer']]),
    },
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payment/:track_id',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'none',
      envelope: 'versioned',
      request: fields([['trackId', 'track_id', 'text']]),
      answer: V1_PAYMENT_FIELDS,
      extras: V1_PAYMENT_EXTRAS,
      txs: V1_TX_FIELDS,
      txExtras: V1_TX_AMOUNT_EXTRAS,
    },
  },
} as const satisfies Operation<PaymentInfoRequest, PaymentInfo, PaymentRecord> & { endpoints: Record<'v1' | 'legacy', InfoEndpoint> };

// ---------------------------------------------------------------------------------------------
// Names for gw's JSON output

/** snake_case → camelCase, for fields no table lists. */
export function camelCase(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_match, c: string) => c.toUpperCase());
}

const V1_NAMES = new Map<string, string>([...V1_PAYMENT_FIELDS, ...V1_PAYMENT_EXTRAS, ...V1_TX_FIELDS].map((f) => [f.wire, f.name]));

/**
 * Every field of a versioned answer under gw's names (a field no table lists under its camelCase
 * spelling), nested objects and lists too, made fit for gw's JSON output (amounts as exact decimal
 * strings, text Untrusted). `names`: the wire → canonical names to use.
 */
export function interfaceFields(object: JsonObject, names: ReadonlyMap<string, string> = V1_NAMES): OutputObject {
  const out: OutputObject = Object.create(null) as OutputObject;
  for (const [key, value] of Object.entries(object)) {
    const name = names.get(key) ?? camelCase(key);
    out[name] = convert(value, name, names);
  }
  return out;
}

function convert(value: JsonValue, name: string, names: ReadonlyMap<string, string>): OutputObject[string] {
  if (Array.isArray(value)) return value.map((item) => convert(item, name, names));
  if (isJsonObject(value)) return interfaceFields(value, names);
  return outputValue(value, name);
}

// ---------------------------------------------------------------------------------------------
// The client: answers in, PaymentInfo out

/** Envelope fields that are not the payment's. */
const ENVELOPE_FIELDS = ['result', 'message'] as const;

function text(object: JsonObject, tables: ReadonlyArray<readonly Field[]>, name: string, what: string): Untrusted | null {
  for (const table of tables)
    for (const f of table) {
      if (f.name !== name) continue;
      const value = readText(answerValue(object, f), f.wire, what);
      if (value !== null) return value;
    }
  return null;
}

function decimal(object: JsonObject, tables: ReadonlyArray<readonly Field[]>, name: string, what: string): Decimal | null {
  for (const table of tables)
    for (const f of table) {
      if (f.name !== name) continue;
      const value = readDecimal(answerValue(object, f), f.wire, what);
      if (value !== null) return value;
    }
  return null;
}

function scalar(object: JsonObject, tables: ReadonlyArray<readonly Field[]>, name: string): Scalar | null {
  for (const table of tables)
    for (const f of table) {
      if (f.name !== name) continue;
      const value = readScalar(answerValue(object, f));
      if (value !== null) return value;
    }
  return null;
}

function required(object: JsonObject, table: readonly Field[], name: string, what: string): Untrusted {
  const f = table.find((r) => r.name === name);
  return requiredText(f === undefined ? undefined : answerValue(object, f), f?.wire ?? name, what);
}

/**
 * One payment as the legacy inquiry answer (top level) or a legacy history entry describes it. Only
 * trackId is required; the status is normalised to gw's vocabulary, the gateway's text kept beside it.
 */
export function decodePaymentInfo(body: JsonObject, what: string): PaymentInfo {
  const endpoint = PAYMENT_INFO.endpoints.legacy;
  const tables = [endpoint.answer, endpoint.extras];
  const gatewayStatus = text(body, tables, 'status', what);
  const status = gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus.raw());
  const fields = outputObject(body, ENVELOPE_FIELDS);
  fields.status = Untrusted.of(status);
  fields.gatewayStatus = gatewayStatus;
  // The legacy inquiry lists no transactions: what arrived is unreported (src/domain/arrival.ts).
  return addArrival(
    {
      trackId: required(body, endpoint.answer, 'trackId', what),
      status,
      gatewayStatus,
      type: text(body, tables, 'type', what),
      amount: decimal(body, tables, 'amount', what),
      currency: text(body, tables, 'currency', what),
      payAmount: decimal(body, tables, 'payAmount', what),
      payCurrency: text(body, tables, 'payCurrency', what),
      network: text(body, tables, 'network', what),
      address: text(body, tables, 'address', what),
      txID: text(body, tables, 'txID', what),
      email: text(body, tables, 'email', what),
      orderId: text(body, tables, 'orderId', what),
      description: text(body, tables, 'description', what),
      date: scalar(body, tables, 'date'),
      payDate: scalar(body, tables, 'payDate'),
      expiredAt: scalar(body, tables, 'expiredAt'),
      txs: [],
      fields,
    },
    false,
  );
}

/** One transaction of `txs[]`. */
function decodeTransaction(tx: JsonValue, what: string): PaymentTransaction {
  if (!isJsonObject(tx)) throw shapeError(what, 'a transaction in txs is not an object');
  const at = (name: string): Untrusted | null => {
    const f = V1_TX_FIELDS.find((r) => r.name === name) as Field;
    return readText(answerValue(tx, f), `txs[].${f.wire}`, what);
  };
  const amountFields = [...V1_TX_FIELDS, ...V1_TX_AMOUNT_EXTRAS].filter((f) => f.name === 'amount');
  const amount = amountFields.map((f) => tx[f.wire]).find((v) => v !== undefined && v !== null);
  return {
    txID: at('txID'),
    amount: readDecimal(amount, 'txs[].amount', what),
    currency: at('currency'),
    network: at('network'),
    address: at('address'),
    status: at('status'),
    confirmations: scalar(tx, [V1_TX_FIELDS], 'confirmations'),
    date: scalar(tx, [V1_TX_FIELDS], 'date'),
  };
}

/**
 * One payment as GET /v1/payment/{track_id} (its `data`) or a versioned history entry describes
 * it. Only track_id is required. The versioned answer names the pay currency, network, address and
 * transaction hash per transaction: where the payment itself does not, the first transaction's are used.
 */
export function decodeV1PaymentInfo(data: JsonObject, what: string): PaymentInfo {
  const endpoint = PAYMENT_INFO.endpoints.v1;
  const tables = [endpoint.answer, endpoint.extras];
  const rawTxs = data.txs;
  if (rawTxs !== undefined && rawTxs !== null && !Array.isArray(rawTxs)) throw shapeError(what, 'txs is not a list');
  const txs = (rawTxs ?? []).map((tx) => decodeTransaction(tx, what));
  const first = txs[0];
  const gatewayStatus = text(data, tables, 'status', what);
  const status = gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus.raw());
  const fields = interfaceFields(data);
  fields.status = Untrusted.of(status);
  fields.gatewayStatus = gatewayStatus;
  // What arrived is read from txs (src/domain/arrival.ts): an answer without the list says nothing of it.
  return addArrival(
    {
      trackId: required(data, endpoint.answer, 'trackId', what),
      status,
      gatewayStatus,
      type: text(data, tables, 'type', what),
      amount: decimal(data, tables, 'amount', what),
      currency: text(data, tables, 'currency', what),
      payAmount: decimal(data, tables, 'payAmount', what),
      payCurrency: text(data, tables, 'payCurrency', what) ?? first?.currency ?? null,
      network: text(data, tables, 'network', what) ?? first?.network ?? null,
      address: text(data, tables, 'address', what) ?? first?.address ?? null,
      txID: text(data, tables, 'txID', what) ?? first?.txID ?? null,
      email: text(data, tables, 'email', what),
      orderId: text(data, tables, 'orderId', what),
      description: text(data, tables, 'description', what),
      date: scalar(data, tables, 'date'),
      payDate: scalar(data, tables, 'payDate'),
      expiredAt: scalar(data, tables, 'expiredAt'),
      txs,
      fields,
    },
    Array.isArray(rawTxs),
  );
}

/** The payment of an answer to either endpoint. */
export function decodePaymentInfoAnswer(endpoint: Endpoint, body: JsonObject, what: string): PaymentInfo {
  if (endpoint.envelope === 'legacy') return decodePaymentInfo(body, what);
  if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
  return decodeV1PaymentInfo(body.data, what);
}

// ---------------------------------------------------------------------------------------------
// The sandbox: PaymentRecord in, the API's fields out

/** A status in an API's spelling (`Confirming` / `paying`). */
export function statusWord(api: 'legacy' | 'v1', status: PaymentState): string {
  return api === 'legacy' ? (legacyStatusName(status) ?? status) : v1AnswerWord(status);
}

/**
 * A payment as the API's answer writes it: the documented fields in order, each in its kind. The
 * legacy inquiry names one transaction (`txID`, the latest); the versioned answer lists them (`txs`).
 */
export function encodePaymentRecord(endpoint: Endpoint & { readonly txs?: readonly Field[] }, record: PaymentRecord): Record<string, unknown> {
  const api = endpoint.api;
  const canonical = { ...record, status: statusWord(api, record.status), type: TYPE_WORDS[record.kind][api] };
  const out = encodeFields(endpoint.answer, canonical as unknown as Record<string, unknown>);
  // The transactions, where the endpoint's answer lists them (its `txs` table).
  const txs = endpoint.txs;
  if (txs !== undefined) out.txs = record.txs.map((tx) => withConversion(encodeFields(txs, tx as unknown as Record<string, unknown>)));
  return out;
}

/**
 * A versioned transaction with what became of it (docs/gateway.md §12): `auto_convert {processed,
 * amount, currency}` and `auto_withdrawal {processed}`, before its `date`. The sandbox converts and
 * forwards nothing: processed false, amount 0, the transaction's own currency (as the published
 * sample of an unconverted transaction has it).
 */
function withConversion(tx: Record<string, unknown>): Record<string, unknown> {
  const { date, ...rest } = tx;
  const out: Record<string, unknown> = {
    ...rest,
    auto_convert: { processed: false, amount: new LosslessNumber('0'), currency: rest.currency ?? '' },
    auto_withdrawal: { processed: false },
  };
  if (date !== undefined) out.date = date;
  return out;
}

/** The payload of the sandbox's answer to a payment-information request. */
export function encodePaymentInfo(endpoint: Endpoint, record: PaymentRecord): object {
  return encodePaymentRecord(endpoint, record);
}
