// The versioned payment information (GET /v1/payment/{track_id}) and history (GET /v1/payment)
// on top of the interface's inquiry and list operations (docs/gateway.md §5, §6), which the
// sandbox's payment lifecycle provides. This module only translates: the request into the
// operation's fields (key from the header, snake_case query → camelCase), the legacy answer into
// the versioned one (§8: snake_case `data`, amounts as JSON numbers, statuses in the versioned
// spelling, `txs[]`). Which payments exist, their states and the filters' meaning stay with the
// operations.
import { isLosslessNumber } from 'lossless-json';
import { versionedError, type GatewayReply, type RequestFields } from './gateway.js';
import { legacyWord, parseSandboxStatus, v1Word } from './lifecycle.js';
import { asNumber, fromLegacy, missingKeyReply, rename } from './v1-translate.js';

/**
 * What the v1 status and history routes need from the sandbox gateway: the interface's two
 * payment operations, HTTP aside, like its other operations (fields in, status and legacy body out).
 */
export interface LegacyPaymentOperations {
  /**
   * POST /merchants/inquiry. Fields `{merchant, trackId}` (trackId as text). Answers result 100
   * with the payment's fields at the top level (§5: trackId, status, type, amount, currency,
   * payAmount, payCurrency, network, address, txID, email, orderId, description, feePaidByPayer,
   * underPaidCover, date, payDate, and also lifeTime, expiredAt, callbackUrl, and `txs` when it has
   * them), 102 for a wrong key, 116 for an unknown track id.
   */
  inquiry(fields: RequestFields): GatewayReply | Promise<GatewayReply>;
  /**
   * POST /merchants/list. Fields `{merchant, ...filters}` with the §6 names (page, size, status in
   * the legacy spelling, orderId, trackId, currency, payCurrency, network, address, type, fromDate,
   * toDate in Unix seconds, fromAmount, toAmount, feePaidByPayer, sortBy, orderBy), numbers as
   * text. Answers result 100 with the payments (entries shaped like the inquiry's) under `data`
   * (or `list`, or `data.list`) and the paging under `meta` (or the top level): page, last_page,
   * total.
   */
  list(fields: RequestFields): GatewayReply | Promise<GatewayReply>;
}

/**
 * The gateway's payment operations when it has them (the lifecycle adds them), else undefined: the
 * variants that list each payment's transactions (`inquiryWithTxs`, `listWithTxs`) where the
 * gateway has them, since the legacy answers name only one (`txID`).
 */
export function legacyPaymentOperations(gateway: object): LegacyPaymentOperations | undefined {
  const g = gateway as Partial<Record<keyof LegacyPaymentOperations | 'inquiryWithTxs' | 'listWithTxs', unknown>>;
  const inquiry = typeof g.inquiryWithTxs === 'function' ? g.inquiryWithTxs : g.inquiry;
  const list = typeof g.listWithTxs === 'function' ? g.listWithTxs : g.list;
  if (typeof inquiry !== 'function' || typeof list !== 'function') return undefined;
  return {
    inquiry: (fields) => (inquiry as LegacyPaymentOperations['inquiry']).call(gateway, fields),
    list: (fields) => (list as LegacyPaymentOperations['list']).call(gateway, fields),
  };
}

function notServed(what: string): GatewayReply {
  return versionedError(501, 'api_error', 'not_implemented', `${what} is not served by this sandbox yet`);
}

type Fields = Readonly<Record<string, unknown>>;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || isLosslessNumber(value)) return String(value);
  return undefined;
}

/** A status in the versioned API's spelling (`Confirming` → `paying`, `Refunding` → `refunding`; words the sandbox has not, lower-cased). */
function v1Status(value: unknown): string | undefined {
  const status = text(value);
  if (status === undefined) return undefined;
  const word = parseSandboxStatus(status);
  return word === undefined ? status.toLowerCase() : word === 'manual_accept' ? word : v1Word(word);
}

/** The state of one transaction of a payment in `status`. */
function txStatus(paymentStatus: string | undefined): string {
  return paymentStatus === 'paying' ? 'confirming' : 'confirmed';
}

/** One transaction: the operation's own (`txs` entries, interface names) translated. */
const TX_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['txID', 'tx_hash'],
  ['txHash', 'tx_hash'],
  ['amount', 'amount'],
  ['currency', 'currency'],
  ['network', 'network'],
  ['address', 'address'],
  ['status', 'status'],
  ['confirmations', 'confirmations'],
  ['date', 'date'],
];

function v1Transaction(tx: Fields): Record<string, unknown> {
  const out = rename(tx, TX_FIELDS);
  for (const name of ['amount', 'confirmations', 'date']) if (name in out) out[name] = asNumber(out[name]);
  return out;
}

/** The transactions of a payment: the operation's `txs`, or the one its `txID` names. */
function v1Transactions(payment: Fields, status: string | undefined): Array<Record<string, unknown>> {
  if (Array.isArray(payment.txs)) return payment.txs.filter((tx): tx is Fields => typeof tx === 'object' && tx !== null).map(v1Transaction);
  const txID = text(payment.txID);
  if (txID === undefined || txID === '') return [];
  return [
    v1Transaction({
      txID,
      amount: payment.receivedAmount ?? payment.payAmount,
      currency: payment.payCurrency,
      network: payment.network,
      address: payment.address,
      status: txStatus(status),
      confirmations: payment.confirmations ?? (status === 'paying' ? 0 : 1),
      date: payment.payDate,
    }),
  ];
}

/** A payment as the inquiry (or a list entry) gives it, as the versioned payment information `data` (§8). */
export function v1PaymentInfo(payment: Fields): Record<string, unknown> {
  const status = v1Status(payment.status);
  const data: Record<string, unknown> = {
    track_id: text(payment.trackId),
    type: payment.type ?? 'white_label',
    amount: asNumber(payment.amount),
    currency: payment.currency,
    status,
    mixed_payment: payment.mixedPayment ?? false,
    fee_paid_by_payer: asNumber(payment.feePaidByPayer),
    under_paid_coverage: asNumber(payment.underPaidCover),
    lifetime: asNumber(payment.lifeTime),
    callback_url: payment.callbackUrl,
    email: payment.email,
    order_id: payment.orderId,
    description: payment.description,
    expired_at: asNumber(payment.expiredAt),
    date: asNumber(payment.date ?? payment.createdAt),
    txs: v1Transactions(payment, status),
  };
  for (const [key, value] of Object.entries(data)) if (value === undefined || value === null) delete data[key];
  return data;
}

/** GET /v1/payment/{track_id}: the merchant key from its header. */
export async function paymentInfoV1(ops: LegacyPaymentOperations | undefined, trackId: string, headerKey: string | undefined): Promise<GatewayReply> {
  const missing = missingKeyReply('merchant', headerKey);
  if (missing) return missing;
  if (ops === undefined) return notServed('Payment information');
  return fromLegacy(await ops.inquiry({ merchant: headerKey, trackId }), v1PaymentInfo);
}

/** History query parameters: versioned name → the list operation's (§6). */
const HISTORY_QUERY: ReadonlyArray<readonly [string, string]> = [
  ['page', 'page'],
  ['size', 'size'],
  ['status', 'status'],
  ['order_id', 'orderId'],
  ['track_id', 'trackId'],
  ['currency', 'currency'],
  ['pay_currency', 'payCurrency'],
  ['network', 'network'],
  ['address', 'address'],
  ['type', 'type'],
  ['from_date', 'fromDate'],
  ['to_date', 'toDate'],
  ['from_amount', 'fromAmount'],
  ['to_amount', 'toAmount'],
  ['fee_paid_by_payer', 'feePaidByPayer'],
  ['sort_by', 'sortBy'],
  ['sort_type', 'orderBy'],
];

/** The versioned API's bound on the page size (§6). */
export const V1_MAX_PAGE_SIZE = 200;

function listOf(body: Fields): unknown[] {
  const data = body.data;
  if (Array.isArray(data)) return data;
  if (Array.isArray(body.list)) return body.list;
  if (typeof data === 'object' && data !== null && Array.isArray((data as Fields).list)) return (data as Fields).list as unknown[];
  return [];
}

function metaOf(body: Fields): Fields {
  if (typeof body.meta === 'object' && body.meta !== null) return body.meta as Fields;
  const data = body.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data) && typeof (data as Fields).meta === 'object') return (data as Fields).meta as Fields;
  return body;
}

/** GET /v1/payment?…: the merchant key from its header, filters from the query string. */
export async function paymentListV1(ops: LegacyPaymentOperations | undefined, query: URLSearchParams, headerKey: string | undefined): Promise<GatewayReply> {
  const missing = missingKeyReply('merchant', headerKey);
  if (missing) return missing;
  const size = query.get('size');
  if (size !== null && !(/^\d{1,3}$/.test(size) && Number(size) >= 1 && Number(size) <= V1_MAX_PAGE_SIZE)) {
    return versionedError(400, 'invalid_request_error', 'size', `size must be a whole number from 1 to ${V1_MAX_PAGE_SIZE}`);
  }
  if (ops === undefined) return notServed('Payment history');
  const filters = rename(Object.fromEntries(query), HISTORY_QUERY);
  const status = typeof filters.status === 'string' ? filters.status : undefined;
  const word = status === undefined ? undefined : parseSandboxStatus(status);
  if (word !== undefined) filters.status = word === 'manual_accept' ? 'Manual_accept' : legacyWord(word);
  return fromLegacy(await ops.list({ ...filters, merchant: headerKey }), (body) => {
    const payments = listOf(body).filter((p): p is Fields => typeof p === 'object' && p !== null);
    const meta = metaOf(body);
    return {
      list: payments.map(v1PaymentInfo),
      meta: {
        page: asNumber(meta.page ?? 1),
        last_page: asNumber(meta.last_page ?? meta.lastPage ?? meta.pages ?? 1),
        total: asNumber(meta.total ?? payments.length),
      },
    };
  });
}
