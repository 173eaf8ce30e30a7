// Payout history: one page of the account's payouts, newest first (docs/gateway.md §13).
// Versioned GET /v1/payout (filters in the query), key header `payout_api_key`
// (docs.oxapay.com/api-reference/payout/payout-history). The rows are payout records
// (./payout-info.ts). The gateway filters by status, type, currency, network, amount and date only:
// no address, track id or description filter exists, so gw matches those itself (src/cmdutil/payout-send.ts).
import type { Decimal } from '../money/decimal.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { checkPageSize, encodeFields, fields, type Endpoint, type Field, type Operation } from './codec.js';
import { decodePayout, encodePayout, V1_PAYOUT_FIELDS, type Payout, type PayoutRecord } from './payout-info.js';
import { readScalar, shapeError, type JsonObject } from './read.js';

/** The filters the payout history documents; every one optional. */
export interface PayoutFilter {
  /** The gateway's status word (processing, confirmed…). */
  status?: string;
  type?: 'internal' | 'external';
  currency?: string;
  network?: string;
  minAmount?: Decimal;
  maxAmount?: Decimal;
  /** Created at or after / at or before. */
  from?: Date;
  to?: Date;
  sortBy?: 'create_date' | 'pay_date' | 'amount';
  sortType?: 'asc' | 'desc';
  /** 1-based. */
  page?: number;
  /** 1–200 (default 10). */
  size?: number;
}

export interface PayoutPage {
  payouts: Payout[];
  /** 1-based page number of this page, the number of pages and of payouts in all (liberal defaults when unsaid). */
  page: number;
  pages: number;
  total: number;
}

/** The sandbox's page: records in canonical names, and the paging. */
export interface PayoutHistoryAnswer {
  payouts: readonly PayoutRecord[];
  page: number;
  pages: number;
  total: number;
}

/** The most payouts one page may hold (D:po-hist). */
export const MAX_PAYOUT_PAGE_SIZE = 200;

const META = fields([
  ['page', 'page', 'integer'],
  ['pages', 'last_page', 'integer'],
  ['total', 'total', 'integer'],
]);

type PayoutHistoryEndpoint = Endpoint & { readonly meta: readonly Field[] };

export const PAYOUT_HISTORY = {
  name: 'the payout history',
  what: 'the payout history request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, filter: PayoutFilter): Record<string, unknown> => encodePayoutFilter(endpoint, filter),
  decodeAnswer: (_endpoint: Endpoint, body: JsonObject, what: string): PayoutPage => decodePayoutPage(body, what),
  encodeAnswer: (_endpoint: Endpoint, answer: PayoutHistoryAnswer): object => ({
    list: answer.payouts.map(encodePayout),
    meta: encodeFields(META, { ...answer }),
  }),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payout',
      key: { kind: 'payout', header: 'payout_api_key' },
      body: 'query',
      envelope: 'versioned',
      request: fields([
        ['status', 'status', 'text'],
        ['type', 'type', 'text'],
        ['currency', 'currency', 'text'],
        ['network', 'network', 'text'],
        ['fromAmount', 'from_amount', 'number'],
        ['toAmount', 'to_amount', 'number'],
        ['fromDate', 'from_date', 'integer'],
        ['toDate', 'to_date', 'integer'],
        ['sortBy', 'sort_by', 'text'],
        ['sortType', 'sort_type', 'text'],
        ['size', 'size', 'integer'],
        ['page', 'page', 'integer'],
      ]),
      answer: V1_PAYOUT_FIELDS,
      meta: META,
    },
  },
} as const satisfies Operation<PayoutFilter, PayoutPage, PayoutHistoryAnswer> & { endpoints: { v1: PayoutHistoryEndpoint } };

const unixSeconds = (date: Date): string => String(Math.floor(date.getTime() / 1000));

/** The request's query fields; a page size outside 1–200 is a usage error (nothing sent). */
export function encodePayoutFilter(endpoint: Endpoint, filter: PayoutFilter): Record<string, unknown> {
  checkPageSize(filter.size, MAX_PAYOUT_PAGE_SIZE);
  return encodeFields(endpoint.request, {
    status: filter.status,
    type: filter.type,
    currency: filter.currency,
    network: filter.network,
    fromAmount: filter.minAmount,
    toAmount: filter.maxAmount,
    fromDate: filter.from === undefined ? undefined : unixSeconds(filter.from),
    toDate: filter.to === undefined ? undefined : unixSeconds(filter.to),
    sortBy: filter.sortBy,
    sortType: filter.sortType,
    size: filter.size,
    page: filter.page,
  });
}

function count(value: JsonValue | undefined): number | undefined {
  const scalar = readScalar(value ?? null);
  const n = typeof scalar === 'number' ? scalar : scalar === null ? Number.NaN : Number(scalar.raw());
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `data: {list: [...], meta: {page, last_page, total}}`; without paging, one page holding what was sent. */
export function decodePayoutPage(body: JsonObject, what: string): PayoutPage {
  const data = body.data;
  const list = isJsonObject(data) ? data.list : Array.isArray(data) ? data : undefined;
  if (!Array.isArray(list)) throw shapeError(what, 'no list of payouts');
  const payouts = list.map((item) => {
    if (!isJsonObject(item)) throw shapeError(what, 'a payout in the list is not an object');
    return decodePayout(item, what);
  });
  const meta = isJsonObject(data) && isJsonObject(data.meta) ? data.meta : {};
  const page = Math.max(1, count(meta.page) ?? 1);
  const pages = Math.max(page, count(meta.last_page ?? meta.lastPage) ?? page);
  return { payouts, page, pages, total: count(meta.total) ?? payouts.length };
}
