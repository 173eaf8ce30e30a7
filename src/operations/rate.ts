// The exchange rate: how many `to` one `from` is worth (docs/gateway.md §1, §14). Legacy
// POST /exchange/rate (no key), versioned POST /v1/general/swap/rate (general key).
import type { Decimal } from '../money/decimal.js';
import { isJsonObject } from '../util/json.js';
import { readDecimal, shapeError, type JsonObject } from './read.js';
import { encodeFields, fields, row, type Endpoint, type Operation } from './codec.js';

export interface RateRequest {
  fromCurrency: string;
  toCurrency: string;
}

/** The sandbox's answer: the rate's exact digits. */
export interface RateAnswer {
  rate: string;
}

export const RATE = {
  name: 'the exchange rate',
  what: 'the rate request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: RateRequest): Record<string, unknown> => encodeRateRequest(endpoint, request),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Decimal => decodeRate(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: RateAnswer): object => encodeRate(endpoint, answer),
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/exchange/rate',
      body: 'json',
      envelope: 'legacy',
      request: fields([
        ['fromCurrency', 'fromCurrency', 'text'],
        ['toCurrency', 'toCurrency', 'text'],
      ]),
      // The interface document shows the rate as text.
      answer: fields([['rate', 'rate', 'numeric-text']]),
    },
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/general/swap/rate',
      key: { kind: 'general', header: 'general_api_key' },
      body: 'json',
      envelope: 'versioned',
      request: fields([
        ['fromCurrency', 'from_currency', 'text'],
        ['toCurrency', 'to_currency', 'text'],
      ]),
      answer: fields([['rate', 'rate', 'number']]),
    },
  },
} as const satisfies Operation<RateRequest, Decimal, RateAnswer> & { endpoints: Record<'v1' | 'legacy', Endpoint> };

export function encodeRateRequest(endpoint: Endpoint, request: RateRequest): Record<string, unknown> {
  return encodeFields(endpoint.request, { ...request });
}

/** The rate of an answer (top level, or the versioned `data`): a non-negative decimal. */
export function decodeRate(endpoint: Endpoint | undefined, body: JsonObject, what: string): Decimal {
  let payload = body;
  if (endpoint?.envelope === 'versioned') {
    if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
    payload = body.data;
  }
  const field = endpoint === undefined ? 'rate' : row(endpoint.answer, 'rate').wire;
  const rate = readDecimal(payload[field], field, what);
  if (rate === null) throw shapeError(what, 'no rate');
  if (rate.isNegative) throw shapeError(what, 'the rate is negative');
  return rate;
}

export function encodeRate(endpoint: Endpoint, answer: RateAnswer): object {
  return encodeFields(endpoint.answer, { ...answer });
}

/** The versioned swap-rate answer: `data.rate`, a non-negative decimal. */
export const decodeV1Rate = (body: JsonObject, what: string): Decimal => decodeRate(RATE.endpoints.v1, body, what);
