// Pure decoders of the versioned API's answers (docs/gateway.md §8): the `data` of the
// versioned envelope in, gw's typed values out, under the interface's (camelCase) names that are
// gw's output contract. The versioned API writes its fields in snake_case and its amounts as JSON
// numbers; both are read with the shared readers (../read.ts), losslessly.
//
// V1_FIELDS below is THE table between the two spellings. The client (./client.ts) names its
// request fields and query parameters through it, and every answer is read through it.
import { addArrival } from '../../domain/arrival.js';
import { normalizeStatus } from '../../domain/payment-status.js';
import type { Decimal } from '../../money/decimal.js';
import { Untrusted } from '../../output/untrusted.js';
import type { Balance, Payment, PaymentInfo, PaymentPage, PaymentTransaction, Scalar } from '../gateway.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { decodeBalances, decodeRate } from '../legacy/decode.js';
import {
  outputValue,
  readDecimal,
  readScalar,
  readSymbolList,
  readOptionalText,
  readText,
  requiredText,
  shapeError,
  type JsonObject,
  type OutputObject,
} from '../read.js';

/**
 * The versioned API's name (`v1`) of each field and the interface's name for it (`name`), which gw
 * prints. `whiteLabel`: the name in the white-label answer where the interface uses another one
 * there (its white-label resource says `createdAt`, its inquiry `date`). A field the table does not
 * list keeps its meaning under its camelCase spelling (`mixed_payment` → `mixedPayment`).
 *
 * Request bodies and history filters use the same rows in the other direction.
 */
export const V1_FIELDS = [
  // Payment: white-label request and answer, payment information, history entries.
  { v1: 'track_id', name: 'trackId' },
  { v1: 'type', name: 'type' },
  { v1: 'status', name: 'status' },
  { v1: 'amount', name: 'amount' },
  { v1: 'currency', name: 'currency' },
  { v1: 'pay_amount', name: 'payAmount' },
  { v1: 'pay_currency', name: 'payCurrency' },
  { v1: 'network', name: 'network' },
  { v1: 'address', name: 'address' },
  { v1: 'memo', name: 'memo' },
  { v1: 'callback_url', name: 'callbackUrl' },
  { v1: 'description', name: 'description' },
  { v1: 'email', name: 'email' },
  { v1: 'fee_paid_by_payer', name: 'feePaidByPayer' },
  { v1: 'lifetime', name: 'lifeTime' },
  { v1: 'order_id', name: 'orderId' },
  { v1: 'under_paid_coverage', name: 'underPaidCover' },
  { v1: 'rate', name: 'rate' },
  { v1: 'qr_code', name: 'QRCode' },
  { v1: 'expired_at', name: 'expiredAt' },
  { v1: 'date', name: 'date', whiteLabel: 'createdAt' },
  { v1: 'pay_date', name: 'payDate' },
  // Transactions of a payment (`txs`).
  { v1: 'tx_hash', name: 'txID' },
  { v1: 'confirmations', name: 'confirmations' },
  // Exchange rate request.
  { v1: 'from_currency', name: 'fromCurrency' },
  { v1: 'to_currency', name: 'toCurrency' },
  // History filters and paging (query parameters).
  { v1: 'from_date', name: 'fromDate' },
  { v1: 'to_date', name: 'toDate' },
  { v1: 'from_amount', name: 'fromAmount' },
  { v1: 'to_amount', name: 'toAmount' },
  { v1: 'page', name: 'page' },
  { v1: 'size', name: 'size' },
] as const satisfies ReadonlyArray<{ v1: string; name: string; whiteLabel?: string }>;

export type InterfaceName = (typeof V1_FIELDS)[number]['name'];
export type V1Name = (typeof V1_FIELDS)[number]['v1'];

/** Which answer a field is read from: the white-label answer, or anything else. */
export type AnswerKind = 'white-label' | 'payment';

const TO_V1 = new Map<string, string>(V1_FIELDS.map((row) => [row.name, row.v1]));
const FROM_V1 = new Map<string, string>(V1_FIELDS.map((row) => [row.v1, row.name]));
const FROM_V1_WHITE_LABEL = new Map<string, string>(V1_FIELDS.map((row) => [row.v1, 'whiteLabel' in row ? row.whiteLabel : row.name]));

/** The versioned API's name of an interface field (for request bodies and query parameters). */
export function v1Name(name: InterfaceName): V1Name {
  return TO_V1.get(name) as V1Name;
}

/** snake_case → camelCase, for fields the table does not list. */
export function camelCase(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_match, c: string) => c.toUpperCase());
}

/** The interface's name of a field the versioned API sent. */
export function interfaceName(v1: string, kind: AnswerKind = 'payment'): string {
  return (kind === 'white-label' ? FROM_V1_WHITE_LABEL : FROM_V1).get(v1) ?? camelCase(v1);
}

/**
 * Every field of a versioned answer under the interface's names, nested objects and lists too,
 * made fit for gw's JSON output (amounts as exact decimal strings, text Untrusted).
 */
export function interfaceFields(object: JsonObject, kind: AnswerKind = 'payment'): OutputObject {
  const out: OutputObject = Object.create(null) as OutputObject;
  for (const [key, value] of Object.entries(object)) {
    const name = interfaceName(key, kind);
    out[name] = convert(value, name);
  }
  return out;
}

function convert(value: JsonValue, name: string): OutputObject[string] {
  if (Array.isArray(value)) return value.map((item) => convert(item, name));
  if (isJsonObject(value)) return interfaceFields(value);
  return outputValue(value, name);
}

// ---------------------------------------------------------------------------------------------
// Answers

/** The envelope's `data` object: every versioned answer's payload. */
export function v1Data(body: JsonObject, what: string): JsonObject {
  if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
  return body.data;
}

/** A field by its versioned name, or (liberally) by the interface's name when that is all there is. */
function field(data: JsonObject, v1: V1Name): JsonValue | undefined {
  const value = data[v1];
  if (value !== undefined) return value;
  const name = FROM_V1.get(v1);
  return name === undefined ? undefined : data[name];
}

/** `data.list` of GET /v1/payment/accepted-currencies. */
export function decodeV1AcceptedCurrencies(body: JsonObject, what: string): Untrusted[] {
  return readSymbolList(v1Data(body, what).list, what);
}

/** The white-label answer (POST /v1/payment/white-label): every field under the interface's name; only track_id is required. */
export function decodeV1Payment(body: JsonObject, what: string): Payment {
  const data = v1Data(body, what);
  const text = (v1: V1Name): Untrusted | null => readText(field(data, v1), v1, what);
  const decimal = (v1: V1Name): Decimal | null => readDecimal(field(data, v1), v1, what);
  return {
    trackId: requiredText(field(data, 'track_id'), 'track_id', what),
    amount: decimal('amount'),
    currency: text('currency'),
    payAmount: decimal('pay_amount'),
    payCurrency: text('pay_currency'),
    network: text('network'),
    address: text('address'),
    memo: readOptionalText(field(data, 'memo'), 'memo', what),
    callbackUrl: text('callback_url'),
    description: text('description'),
    email: text('email'),
    feePaidByPayer: readScalar(field(data, 'fee_paid_by_payer')),
    lifeTime: readScalar(field(data, 'lifetime')),
    orderId: text('order_id'),
    underPaidCover: decimal('under_paid_coverage'),
    rate: decimal('rate'),
    expiredAt: readScalar(field(data, 'expired_at')),
    createdAt: readScalar(data.date ?? data.created_at ?? data.createdAt),
    QRCode: text('qr_code'),
  };
}

/**
 * The balance answer (GET /v1/general/account/balance): `data` maps each symbol to its amount. One
 * of the gateway's own clients reads `{symbol: {available, pending}}` instead: then the balance is
 * what is available.
 */
export function decodeV1Balances(body: JsonObject, what: string): Balance[] {
  const data = body.data;
  if (!isJsonObject(data)) return decodeBalances(data, what);
  const amounts = Object.create(null) as JsonObject;
  // The first of available, balance, amount the object has, null included (unknown, never 0).
  const pick = (value: JsonObject): JsonValue => {
    const name = ['available', 'balance', 'amount'].find((field) => Object.hasOwn(value, field));
    return name === undefined ? value : (value[name] ?? null);
  };
  for (const [symbol, value] of Object.entries(data)) amounts[symbol] = isJsonObject(value) ? pick(value) : value;
  return decodeBalances(amounts, what);
}

/** The swap-rate answer (POST /v1/general/swap/rate): `data.rate`, a non-negative decimal. */
export function decodeV1Rate(body: JsonObject, what: string): Decimal {
  return decodeRate(v1Data(body, what), what);
}

/** One transaction of a payment (`txs[]`). */
function decodeTransaction(tx: JsonValue, what: string): PaymentTransaction {
  if (!isJsonObject(tx)) throw shapeError(what, 'a transaction in txs is not an object');
  const text = (v1: V1Name): Untrusted | null => readText(field(tx, v1), `txs[].${v1}`, what);
  return {
    txID: text('tx_hash'),
    amount: readDecimal(tx.amount ?? tx.received_amount ?? tx.sent_amount, 'txs[].amount', what),
    currency: text('currency'),
    network: text('network'),
    address: text('address'),
    status: text('status'),
    confirmations: readScalar(tx.confirmations),
    date: readScalar(tx.date),
  };
}

/**
 * One payment as GET /v1/payment/{track_id} (its `data`) or a history entry describes it. Only
 * track_id is required. The status is normalised to gw's vocabulary, the gateway's text kept
 * beside it. The versioned answer names the pay currency, network, address and transaction hash
 * per transaction: where the payment itself does not, the first transaction's are used.
 */
export function decodeV1PaymentInfo(data: JsonObject, what: string): PaymentInfo {
  const text = (v1: V1Name): Untrusted | null => readText(field(data, v1), v1, what);
  const rawTxs = data.txs;
  if (rawTxs !== undefined && rawTxs !== null && !Array.isArray(rawTxs)) throw shapeError(what, 'txs is not a list');
  const txs = (rawTxs ?? []).map((tx) => decodeTransaction(tx, what));
  const first = txs[0];
  const gatewayStatus = text('status');
  const status = gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus.raw());
  const fields = interfaceFields(data);
  fields.status = Untrusted.of(status);
  fields.gatewayStatus = gatewayStatus;
  const scalar = (v1: V1Name): Scalar | null => readScalar(field(data, v1));
  // What arrived is read from txs (src/domain/arrival.ts): an answer without the list says nothing of it.
  const txsReported = Array.isArray(rawTxs);
  return addArrival(
    {
      trackId: requiredText(field(data, 'track_id'), 'track_id', what),
      status,
      gatewayStatus,
      type: text('type'),
      amount: readDecimal(field(data, 'amount'), 'amount', what),
      currency: text('currency'),
      payAmount: readDecimal(field(data, 'pay_amount'), 'pay_amount', what),
      payCurrency: text('pay_currency') ?? first?.currency ?? null,
      network: text('network') ?? first?.network ?? null,
      address: text('address') ?? first?.address ?? null,
      txID: readText(data.tx_hash ?? data.txID, 'tx_hash', what) ?? first?.txID ?? null,
      email: text('email'),
      orderId: text('order_id'),
      description: text('description'),
      date: scalar('date'),
      payDate: scalar('pay_date'),
      expiredAt: scalar('expired_at'),
      txs,
      fields,
    },
    txsReported,
  );
}

/** A non-negative integer sent as a number or numeric text. */
function readCount(value: JsonValue | undefined): number | undefined {
  const scalar = readScalar(value ?? null);
  const n = typeof scalar === 'number' ? scalar : scalar === null ? Number.NaN : Number(scalar.raw());
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The history answer (GET /v1/payment): `data` is `{list: [...], meta: {page, last_page, total}}`.
 * Liberal about the paging: `last_page`, `lastPage` or `pages`; without paging, one page holding
 * what was sent.
 */
export function decodeV1PaymentPage(body: JsonObject, what: string): PaymentPage {
  const data = body.data;
  const list = isJsonObject(data) ? data.list : Array.isArray(data) ? data : undefined;
  if (!Array.isArray(list)) throw shapeError(what, 'no list of payments');
  const payments = list.map((item) => {
    if (!isJsonObject(item)) throw shapeError(what, 'a payment in the list is not an object');
    return decodeV1PaymentInfo(item, what);
  });
  const meta = isJsonObject(data) && isJsonObject(data.meta) ? data.meta : isJsonObject(body.meta) ? body.meta : {};
  const declared = { page: readCount(meta.page), pages: readCount(meta.last_page ?? meta.lastPage ?? meta.pages), total: readCount(meta.total) };
  const page = declared.page ?? 1;
  const pages = declared.pages ?? page;
  const total = declared.total ?? payments.length;
  return { payments, page: Math.max(1, page), pages: Math.max(page, pages), total, declared: definedOnly(declared) };
}

/** The paging fields the answer gave (absent ones left out, as exactOptionalPropertyTypes wants). */
function definedOnly(counts: { page: number | undefined; pages: number | undefined; total: number | undefined }): NonNullable<PaymentPage['declared']> {
  const out: NonNullable<PaymentPage['declared']> = {};
  if (counts.page !== undefined) out.page = counts.page;
  if (counts.pages !== undefined) out.pages = counts.pages;
  if (counts.total !== undefined) out.total = counts.total;
  return out;
}
