// Payment statistics: the gateway's own totals per pay currency (docs/gateway.md §12). Versioned
// GET /v1/payment/stats, key header `merchant_api_key`, filters in the query
// (docs.oxapay.com/api-reference/payment/payment-statistics). Answer `data.list[]` of
// {pay_currency, total (a count), received_amount (decimal TEXT, to keep precision)} and
// `data.meta` {page, last_page, total}. Which parameter names the coin (`pay_currency` or
// `currency`) and how the list pages are not published: gw sends only the date range, reads one
// page, and says so when the meta counts more. No legacy endpoint exists. `gw report --check-stats`
// compares it with the history (the source of truth).
import { coinKey } from '../domain/arrival.js';
import type { Decimal } from '../money/decimal.js';
import { isJsonObject } from '../util/json.js';
import { encodeFields, fields, type Endpoint, type Operation } from './codec.js';
import { readDecimal, readScalar, readText, shapeError, type JsonObject } from './read.js';

export interface StatsRequest {
  /** Created at or after / at or before. */
  from?: Date;
  to?: Date;
}

export interface StatsRow {
  /** The coin, upper case. */
  payCurrency: string;
  /** How many payments. */
  count: number;
  received: Decimal;
}

export interface PaymentStats {
  rows: StatsRow[];
  /** The meta counted more rows than the page held (paging is not published: gw reads one page). */
  more: boolean;
}

/** The sandbox's answer: per pay currency, the count and the exact received digits. */
export interface StatsAnswer {
  rows: ReadonlyArray<{ payCurrency: string; count: number; received: string }>;
}

const ROW = fields([
  ['payCurrency', 'pay_currency', 'text'],
  ['count', 'total', 'integer'],
  ['received', 'received_amount', 'numeric-text'],
]);

export const PAYMENT_STATS = {
  name: 'payment statistics',
  what: 'the payment statistics request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: StatsRequest): Record<string, unknown> =>
    encodeFields(endpoint.request, {
      fromDate: request.from === undefined ? undefined : String(Math.floor(request.from.getTime() / 1000)),
      toDate: request.to === undefined ? undefined : String(Math.floor(request.to.getTime() / 1000)),
    }),
  decodeAnswer: (_endpoint: Endpoint, body: JsonObject, what: string): PaymentStats => decodeStats(body, what),
  encodeAnswer: (_endpoint: Endpoint, answer: StatsAnswer): object => ({
    list: answer.rows.map((r) => encodeFields(ROW, { payCurrency: r.payCurrency, count: r.count, received: r.received })),
    meta: { page: 1, last_page: 1, total: answer.rows.length },
  }),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payment/stats',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'query',
      envelope: 'versioned',
      request: fields([
        ['fromDate', 'from_date', 'integer'],
        ['toDate', 'to_date', 'integer'],
      ]),
      answer: ROW,
    },
  },
} as const satisfies Operation<StatsRequest, PaymentStats, StatsAnswer> & { endpoints: { v1: Endpoint } };

/** `data.list[]` read liberally (a count as a number or digits, an amount as text or a number). */
export function decodeStats(body: JsonObject, what: string): PaymentStats {
  const data = body.data;
  const list = isJsonObject(data) ? data.list : undefined;
  if (!Array.isArray(list)) throw shapeError(what, 'no list of statistics');
  const rows = list.map((item): StatsRow => {
    if (!isJsonObject(item)) throw shapeError(what, 'a statistics row is not an object');
    const coin = coinKey(readText(item.pay_currency ?? item.currency, 'pay_currency', what)?.raw());
    if (coin === null) throw shapeError(what, 'a statistics row names no pay_currency');
    const count = readScalar(item.total ?? null);
    const n = typeof count === 'number' ? count : count === null ? Number.NaN : Number(count.raw());
    if (!Number.isSafeInteger(n) || n < 0) throw shapeError(what, 'a statistics row has no whole total');
    const received = readDecimal(item.received_amount, 'received_amount', what);
    if (received === null || received.isNegative) throw shapeError(what, 'a statistics row has no received_amount');
    return { payCurrency: coin, count: n, received };
  });
  const meta = isJsonObject(data) && isJsonObject(data.meta) ? data.meta : {};
  const total = readScalar(meta.total ?? null);
  const more = typeof total === 'number' && total > rows.length;
  return { rows, more };
}
