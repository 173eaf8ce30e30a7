// Pure decoders of the interface document's (legacy) answers: envelope object in, gw's typed values
// out. Field names are the interface's camelCase ones.
import type { Decimal } from '../../money/decimal.js';
import { addArrival } from '../../domain/arrival.js';
import { normalizeStatus } from '../../domain/payment-status.js';
import type { Balance, Payment, PaymentInfo, PaymentPage } from '../gateway.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { outputObject, readDecimal, readScalar, readOptionalText, readSymbolList, readText, requiredText, shapeError, type JsonObject } from '../read.js';
import { Untrusted } from '../../output/untrusted.js';

/** `allowed` of POST /merchants/allowedCoins. */
export function decodeAllowedCoins(body: JsonObject, what: string): Untrusted[] {
  return readSymbolList(body.allowed, what);
}

/** `data.list` of the versioned accepted-currencies answer. */
export function decodeAcceptedCurrencies(body: JsonObject, what: string): Untrusted[] {
  if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
  return readSymbolList(body.data.list, what);
}

/** The white-label answer: every field under its own name; only trackId is required. */
export function decodePayment(body: JsonObject, what: string): Payment {
  const text = (field: string): Untrusted | null => readText(body[field], field, what);
  const decimal = (field: string) => readDecimal(body[field], field, what);
  return {
    trackId: requiredText(body.trackId, 'trackId', what),
    amount: decimal('amount'),
    currency: text('currency'),
    payAmount: decimal('payAmount'),
    payCurrency: text('payCurrency'),
    network: text('network'),
    address: text('address'),
    memo: readOptionalText(body.memo, 'memo', what),
    callbackUrl: text('callbackUrl'),
    description: text('description'),
    email: text('email'),
    feePaidByPayer: readScalar(body.feePaidByPayer),
    lifeTime: readScalar(body.lifeTime),
    orderId: text('orderId'),
    underPaidCover: decimal('underPaidCover'),
    rate: decimal('rate'),
    expiredAt: readScalar(body.expiredAt),
    createdAt: readScalar(body.createdAt),
    QRCode: text('QRCode'),
  };
}

/**
 * The balance `data`. The interface calls it an array of objects mapping symbol → amount string;
 * the gateway's own client reads a plain object. Both are accepted, as is an array of
 * {currency, balance} records. Every entry is kept, a repeated symbol included; an amount the
 * gateway sent as null (or "", or not at all) is null: unknown.
 */
export function decodeBalances(data: JsonValue | undefined, what: string): Balance[] {
  const entries: Balance[] = [];
  const add = (symbol: string, value: JsonValue | undefined): void => {
    const amount = readDecimal(value ?? null, `the balance of ${Untrusted.of(symbol).line(20)}`, what);
    if (amount?.isNegative) throw shapeError(what, `the balance of ${Untrusted.of(symbol).line(20)} is negative`);
    // null, "" or nothing: unknown (null), never 0.
    entries.push({ currency: Untrusted.of(symbol), amount });
  };
  if (isJsonObject(data)) {
    for (const [symbol, value] of Object.entries(data)) add(symbol, value);
  } else if (Array.isArray(data)) {
    for (const item of data) {
      if (!isJsonObject(item)) throw shapeError(what, 'a balance entry is not an object');
      const symbol = item.currency ?? item.symbol;
      if (typeof symbol === 'string' && ('balance' in item || 'amount' in item)) add(symbol, item.balance ?? item.amount);
      else for (const [key, value] of Object.entries(item)) add(key, value);
    }
  } else {
    throw shapeError(what, 'no balance data');
  }
  return entries;
}

/** The rate answer: a non-negative decimal. */
export function decodeRate(body: JsonObject, what: string): Decimal {
  const rate = readDecimal(body.rate, 'rate', what);
  if (rate === null) throw shapeError(what, 'no rate');
  if (rate.isNegative) throw shapeError(what, 'the rate is negative');
  return rate;
}

/** Envelope fields that are not the payment's. */
const ENVELOPE_FIELDS = ['result', 'message'] as const;

/**
 * One payment as the inquiry answer (top level) or a history entry describes it. Only trackId is
 * required; the status is normalised to gw's vocabulary, the gateway's text kept beside it.
 */
export function decodePaymentInfo(body: JsonObject, what: string): PaymentInfo {
  const text = (field: string): Untrusted | null => readText(body[field], field, what);
  const decimal = (field: string): Decimal | null => readDecimal(body[field], field, what);
  const gatewayStatus = text('status');
  const status = gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus.raw());
  const txID = text('txID');
  const fields = outputObject(body, ENVELOPE_FIELDS);
  fields.status = Untrusted.of(status);
  fields.gatewayStatus = gatewayStatus;
  // The legacy inquiry lists no transactions: what arrived is unreported (src/domain/arrival.ts).
  return addArrival(
    {
      trackId: requiredText(body.trackId, 'trackId', what),
      status,
      gatewayStatus,
      type: text('type'),
      amount: decimal('amount'),
      currency: text('currency'),
      payAmount: decimal('payAmount'),
      payCurrency: text('payCurrency'),
      network: text('network'),
      address: text('address'),
      txID,
      email: text('email'),
      orderId: text('orderId'),
      description: text('description'),
      date: readScalar(body.date ?? body.createdAt),
      payDate: readScalar(body.payDate),
      expiredAt: readScalar(body.expiredAt),
      txs: [],
      fields,
    },
    false,
  );
}

/** A positive integer sent as a number or numeric text. */
function readCount(value: JsonValue | undefined): number | undefined {
  const scalar = readScalar(value ?? null);
  const n = typeof scalar === 'number' ? scalar : scalar === null ? Number.NaN : Number(scalar.raw());
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The history answer. Liberal about where the list and the paging are: `data` or `list` (or
 * `data.list`) for the payments; `meta` (or the top level) with `page`, `last_page`/`pages` and
 * `total`. Missing paging means one page holding what was sent.
 */
export function decodePaymentPage(body: JsonObject, what: string): PaymentPage {
  const data = body.data;
  const list = Array.isArray(data) ? data : Array.isArray(body.list) ? body.list : isJsonObject(data) && Array.isArray(data.list) ? data.list : undefined;
  if (list === undefined) throw shapeError(what, 'no list of payments');
  const payments = list.map((item) => {
    if (!isJsonObject(item)) throw shapeError(what, 'a payment in the list is not an object');
    return decodePaymentInfo(item, what);
  });
  const meta = isJsonObject(body.meta) ? body.meta : isJsonObject(data) && isJsonObject(data.meta) ? data.meta : body;
  const declared: NonNullable<PaymentPage['declared']> = {};
  const [page, pages, total] = [readCount(meta.page), readCount(meta.last_page ?? meta.lastPage ?? meta.pages), readCount(meta.total)];
  if (page !== undefined) declared.page = page;
  if (pages !== undefined) declared.pages = pages;
  if (total !== undefined) declared.total = total;
  const shown = page ?? 1;
  return { payments, page: Math.max(1, shown), pages: Math.max(shown, pages ?? shown), total: total ?? payments.length, declared };
}
