// Payment history: one page of the merchant's payments (docs/gateway.md §6, §12). Legacy POST
// /merchants/list (JSON with the merchant key and the filters), versioned GET /v1/payment (filters
// in the query). Its rows are payments in the information shape (./payment-info.ts). What gw makes
// of the pages (filters it applies itself, reading many pages, completeness) is src/gateway/history.ts.
import { legacyStatusName, v1StatusName, type PaymentState } from '../domain/payment-status.js';
import type { Decimal } from '../money/decimal.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { readScalar, shapeError, type JsonObject } from './read.js';
import { checkPageSize, encodeFields, fields, type Endpoint, type Field, type Operation } from './codec.js';
import {
  decodePaymentInfo,
  decodeV1PaymentInfo,
  encodePaymentRecord,
  LEGACY_PAYMENT_FIELDS,
  V1_PAYMENT_FIELDS,
  V1_TX_FIELDS,
  type PaymentInfo,
  type PaymentRecord,
} from './payment-info.js';

/** History filters; every one optional. Amount bounds compare with the requested amount. */
export interface PaymentFilter {
  status?: PaymentState;
  orderId?: string;
  trackId?: string;
  currency?: string;
  payCurrency?: string;
  network?: string;
  /** Paid to this address (a static address's payments): the payment's address or a transaction's. */
  address?: string;
  /** Created at or after / at or before. */
  from?: Date;
  to?: Date;
  minAmount?: Decimal;
  maxAmount?: Decimal;
  /** 1-based. */
  page?: number;
  size?: number;
}

export interface PaymentPage {
  payments: PaymentInfo[];
  /** 1-based page number of this page, the number of pages and of payments in all. */
  page: number;
  pages: number;
  total: number;
  /**
   * The paging exactly as the answer stated it (each absent when the answer did not say), before
   * the liberal defaults above: how a reader of many pages sees that the gateway's counts are
   * impossible (a last page before this one, a page other than the one asked for).
   */
  declared?: { page?: number; pages?: number; total?: number };
}

/** The history filters, by name (every PaymentFilter field but the paging). */
export type HistoryFilterName = Exclude<keyof PaymentFilter, 'page' | 'size'>;

/** Every history filter gw has. */
export const HISTORY_FILTERS: readonly HistoryFilterName[] = [
  'status',
  'orderId',
  'trackId',
  'currency',
  'payCurrency',
  'network',
  'address',
  'from',
  'to',
  'minAmount',
  'maxAmount',
];

/** The most payments one history page may hold (the versioned API's bound, docs/gateway.md §6). */
export const MAX_PAGE_SIZE = 200;

/** A page as the sandbox answers it: payments in canonical names, and the paging. */
export interface PaymentHistoryAnswer {
  payments: readonly PaymentRecord[];
  page: number;
  pages: number;
  total: number;
  size: number;
}

type HistoryEndpoint = Endpoint & { readonly meta: readonly Field[]; readonly txs?: readonly Field[] };

export const PAYMENT_HISTORY = {
  name: 'the payment history',
  what: 'the payment history request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, filter: PaymentFilter): Record<string, unknown> => encodeHistoryRequest(endpoint, filter),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): PaymentPage => decodePaymentPageAnswer(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: PaymentHistoryAnswer): object => encodePaymentPage(endpoint as HistoryEndpoint, answer),
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/merchants/list',
      key: { kind: 'merchant', field: 'merchant' },
      body: 'json',
      envelope: 'legacy',
      // Every one of gw's filters is a documented field of this list (docs/gateway.md §6).
      request: fields([
        ['trackId', 'trackId', 'id'],
        ['orderId', 'orderId', 'text'],
        ['status', 'status', 'text'],
        ['currency', 'currency', 'text'],
        ['payCurrency', 'payCurrency', 'text'],
        ['network', 'network', 'text'],
        ['fromDate', 'fromDate', 'integer'],
        ['toDate', 'toDate', 'integer'],
        ['fromAmount', 'fromAmount', 'number'],
        ['toAmount', 'toAmount', 'number'],
        ['size', 'size', 'integer'],
        ['page', 'page', 'integer'],
        ['address', 'address', 'text'],
        // Sorting (§6 names sortBy and orderBy, not their values): gw sends neither; the sandbox
        // honours them with the versioned values (create_date, pay_date, amount; desc, asc).
        ['sortBy', 'sortBy', 'text'],
        ['sortType', 'orderBy', 'text'],
      ]),
      answer: LEGACY_PAYMENT_FIELDS,
      meta: fields([
        ['page', 'page', 'integer'],
        ['pages', 'last_page', 'integer'],
        ['total', 'total', 'integer'],
        ['size', 'size', 'integer'],
      ]),
    },
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payment',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'query',
      envelope: 'versioned',
      // docs.oxapay.com/api-reference/payment/payment-history: no order id (gw applies that one itself).
      request: fields([
        ['page', 'page', 'integer'],
        ['size', 'size', 'integer'],
        ['status', 'status', 'text'],
        ['trackId', 'track_id', 'text'],
        ['currency', 'currency', 'text'],
        ['payCurrency', 'pay_currency', 'text'],
        ['network', 'network', 'text'],
        ['fromDate', 'from_date', 'integer'],
        ['toDate', 'to_date', 'integer'],
        ['fromAmount', 'from_amount', 'number'],
        ['toAmount', 'to_amount', 'number'],
        ['address', 'address', 'text'],
        // Sorting and the payment type (§12): gw sends none of them (it sorts and filters itself); the sandbox honours them.
        ['type', 'type', 'text'],
        ['sortBy', 'sort_by', 'text'],
        ['sortType', 'sort_type', 'text'],
      ]),
      answer: V1_PAYMENT_FIELDS,
      txs: V1_TX_FIELDS,
      meta: fields([
        ['page', 'page', 'integer'],
        ['pages', 'last_page', 'integer'],
        ['total', 'total', 'integer'],
      ]),
    },
  },
} as const satisfies Operation<PaymentFilter, PaymentPage, PaymentHistoryAnswer> & { endpoints: Record<'v1' | 'legacy', HistoryEndpoint> };

/** The filters an endpoint sends (the others are left to gw: src/gateway/history.ts). */
export function historyFiltersOf(endpoint: Endpoint): ReadonlySet<HistoryFilterName> {
  const wire = new Set(endpoint.request.map((f) => f.name));
  const sent: Record<HistoryFilterName, string> = {
    status: 'status',
    orderId: 'orderId',
    trackId: 'trackId',
    currency: 'currency',
    payCurrency: 'payCurrency',
    network: 'network',
    address: 'address',
    from: 'fromDate',
    to: 'toDate',
    minAmount: 'fromAmount',
    maxAmount: 'toAmount',
  };
  return new Set(HISTORY_FILTERS.filter((name) => wire.has(sent[name])));
}

/** Unix seconds of a date. */
const unixSeconds = (date: Date): string => String(Math.floor(date.getTime() / 1000));

/** The request's fields, canonical: the filters given, the status in the API's spelling. */
function canonicalFilter(endpoint: Endpoint, filter: PaymentFilter): Record<string, unknown> {
  const statusName = endpoint.api === 'legacy' ? legacyStatusName : v1StatusName;
  return {
    trackId: filter.trackId,
    orderId: filter.orderId,
    status: filter.status === undefined ? undefined : (statusName(filter.status) ?? filter.status),
    currency: filter.currency,
    payCurrency: filter.payCurrency,
    network: filter.network,
    address: filter.address,
    fromDate: filter.from === undefined ? undefined : unixSeconds(filter.from),
    toDate: filter.to === undefined ? undefined : unixSeconds(filter.to),
    fromAmount: filter.minAmount,
    toAmount: filter.maxAmount,
    size: filter.size,
    page: filter.page,
  };
}

/** The request's fields (the key aside), in the endpoint's order. A versioned page size outside 1–200 is a usage error. */
export function encodeHistoryRequest(endpoint: Endpoint, filter: PaymentFilter): Record<string, unknown> {
  if (endpoint.api === 'v1') checkPageSize(filter.size, MAX_PAGE_SIZE, ' with the versioned API');
  return encodeFields(endpoint.request, canonicalFilter(endpoint, filter));
}

/** A non-negative integer sent as a number or numeric text. */
function readCount(value: JsonValue | undefined): number | undefined {
  const scalar = readScalar(value ?? null);
  const n = typeof scalar === 'number' ? scalar : scalar === null ? Number.NaN : Number(scalar.raw());
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The paging the answer declared, under any of its spellings (`last_page`, `lastPage`, `pages`). */
function declaredPaging(meta: JsonObject): NonNullable<PaymentPage['declared']> {
  const out: NonNullable<PaymentPage['declared']> = {};
  const [page, pages, total] = [readCount(meta.page), readCount(meta.last_page ?? meta.lastPage ?? meta.pages), readCount(meta.total)];
  if (page !== undefined) out.page = page;
  if (pages !== undefined) out.pages = pages;
  if (total !== undefined) out.total = total;
  return out;
}

function pageOf(payments: PaymentInfo[], declared: NonNullable<PaymentPage['declared']>): PaymentPage {
  const shown = declared.page ?? 1;
  return { payments, page: Math.max(1, shown), pages: Math.max(shown, declared.pages ?? shown), total: declared.total ?? payments.length, declared };
}

function rows(list: JsonValue[], what: string, decode: (item: JsonObject, what: string) => PaymentInfo): PaymentInfo[] {
  return list.map((item) => {
    if (!isJsonObject(item)) throw shapeError(what, 'a payment in the list is not an object');
    return decode(item, what);
  });
}

/**
 * The legacy history answer. Liberal about where the list and the paging are: `data` or `list` (or
 * `data.list`) for the payments; `meta` (or the top level) with `page`, `last_page`/`pages` and
 * `total`. Missing paging means one page holding what was sent.
 */
export function decodePaymentPage(body: JsonObject, what: string): PaymentPage {
  const data = body.data;
  const list = Array.isArray(data) ? data : Array.isArray(body.list) ? body.list : isJsonObject(data) && Array.isArray(data.list) ? data.list : undefined;
  if (list === undefined) throw shapeError(what, 'no list of payments');
  const payments = rows(list, what, decodePaymentInfo);
  const meta = isJsonObject(body.meta) ? body.meta : isJsonObject(data) && isJsonObject(data.meta) ? data.meta : body;
  return pageOf(payments, declaredPaging(meta));
}

/**
 * The versioned history answer: `data` is `{list: [...], meta: {page, last_page, total}}`. Without
 * paging, one page holding what was sent.
 */
export function decodeV1PaymentPage(body: JsonObject, what: string): PaymentPage {
  const data = body.data;
  const list = isJsonObject(data) ? data.list : Array.isArray(data) ? data : undefined;
  if (!Array.isArray(list)) throw shapeError(what, 'no list of payments');
  const payments = rows(list, what, decodeV1PaymentInfo);
  const meta = isJsonObject(data) && isJsonObject(data.meta) ? data.meta : isJsonObject(body.meta) ? body.meta : {};
  return pageOf(payments, declaredPaging(meta));
}

export function decodePaymentPageAnswer(endpoint: Endpoint, body: JsonObject, what: string): PaymentPage {
  return endpoint.envelope === 'legacy' ? decodePaymentPage(body, what) : decodeV1PaymentPage(body, what);
}

/** The payload of the sandbox's answer: legacy `{data: [...], meta}`, versioned `{list: [...], meta}`. */
export function encodePaymentPage(endpoint: HistoryEndpoint, answer: PaymentHistoryAnswer): object {
  const list = answer.payments.map((p) => encodePaymentRecord(endpoint, p));
  const meta = encodeFields(endpoint.meta, { ...answer });
  return endpoint.api === 'legacy' ? { data: list, meta } : { list, meta };
}
