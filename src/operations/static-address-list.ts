// The static address list, one page (docs/gateway.md §11): versioned GET /v1/payment/static-address
// with its filters and paging in the query (key header `merchant_api_key`); answer `data.list[]`
// (track_id, address, network, callback_url, email, order_id, description, date) and `data.meta`
// {page, last_page, total}. The gateway's page size is 1 when none is sent: gw always sends one.
// Sent over the versioned API whatever `api` says.
import { isJsonObject, type JsonValue } from '../util/json.js';
import { readScalar, shapeError, type JsonObject } from './read.js';
import { checkPageSize, encodeFields, fields, payloadOf, type Endpoint, type Field, type Operation } from './codec.js';
import { decodeStaticAddress, STATIC_ADDRESS_FIELDS, type StaticAddress, type StaticAddressRecord } from './static-address.js';

/** The list's filters, every one optional, and its paging. */
export interface StaticAddressFilter {
  trackId?: string;
  network?: string;
  currency?: string;
  address?: string;
  /** Only addresses that have received a payment (true), or none (false). */
  haveTx?: boolean;
  orderId?: string;
  email?: string;
  /** 1-based. */
  page?: number;
  /** 1–200. */
  size?: number;
}

export interface StaticAddressPage {
  addresses: StaticAddress[];
  page: number;
  pages: number;
  total: number;
  /** The paging exactly as the answer stated it (each absent when it did not say). */
  declared: { page?: number; pages?: number; total?: number };
}

/** A page as the sandbox answers it. */
export interface StaticAddressListAnswer {
  addresses: readonly StaticAddressRecord[];
  page: number;
  pages: number;
  total: number;
}

/** The most rows one page may hold (the documented bound). */
export const MAX_ADDRESS_PAGE_SIZE = 200;

type ListEndpoint = Endpoint & { readonly meta: readonly Field[] };

export const STATIC_ADDRESS_LIST = {
  name: 'the static address list',
  what: 'the static address list request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, filter: StaticAddressFilter): Record<string, unknown> => {
    checkPageSize(filter.size, MAX_ADDRESS_PAGE_SIZE);
    return encodeFields(endpoint.request, { ...filter });
  },
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): StaticAddressPage => decodeAddressPage(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: StaticAddressListAnswer): object => ({
    list: answer.addresses.map((a) => encodeFields(endpoint.answer, { ...a })),
    meta: encodeFields((endpoint as ListEndpoint).meta, { ...answer }),
  }),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payment/static-address',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'query',
      envelope: 'versioned',
      // docs.oxapay.com/api-reference/payment/static-address-list, in its order.
      request: fields([
        ['trackId', 'track_id', 'id'],
        ['network', 'network', 'text'],
        ['currency', 'currency', 'text'],
        ['address', 'address', 'text'],
        ['haveTx', 'have_tx', 'boolean'],
        ['orderId', 'order_id', 'text'],
        ['email', 'email', 'text'],
        ['page', 'page', 'integer'],
        ['size', 'size', 'integer'],
      ]),
      answer: STATIC_ADDRESS_FIELDS.filter((f) => f.name !== 'QRCode'),
      meta: fields([
        ['page', 'page', 'integer'],
        ['pages', 'last_page', 'integer'],
        ['total', 'total', 'integer'],
      ]),
    },
  },
} as const satisfies Operation<StaticAddressFilter, StaticAddressPage, StaticAddressListAnswer> & { endpoints: Record<'v1', ListEndpoint> };

/** A non-negative integer sent as a number or numeric text. */
function count(value: JsonValue | undefined): number | undefined {
  const scalar = readScalar(value ?? null);
  const n = typeof scalar === 'number' ? scalar : scalar === null ? Number.NaN : Number(scalar.raw());
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `data.list` and `data.meta`; without paging, one page holding what was sent. */
export function decodeAddressPage(endpoint: Endpoint, body: JsonObject, what: string): StaticAddressPage {
  const data = payloadOf(endpoint, body, what);
  if (!Array.isArray(data.list)) throw shapeError(what, 'no list of addresses');
  const addresses = data.list.map((item) => {
    if (!isJsonObject(item)) throw shapeError(what, 'an address in the list is not an object');
    return decodeStaticAddress(item, endpoint.answer, what);
  });
  const meta = isJsonObject(data.meta) ? data.meta : {};
  const declared: StaticAddressPage['declared'] = {};
  const [page, pages, total] = [count(meta.page), count(meta.last_page ?? meta.lastPage), count(meta.total)];
  if (page !== undefined) declared.page = page;
  if (pages !== undefined) declared.pages = pages;
  if (total !== undefined) declared.total = total;
  const shown = Math.max(1, page ?? 1);
  return { addresses, page: shown, pages: Math.max(shown, pages ?? shown), total: total ?? addresses.length, declared };
}
