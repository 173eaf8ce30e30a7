// Accepted currencies: the coins the merchant accepts (docs/gateway.md §1, §8). Two endpoints: the
// versioned GET /v1/payment/accepted-currencies (the interface document's default, whatever `api`
// says) and the legacy POST /merchants/allowedCoins (`gw currencies --legacy`).
import type { Untrusted } from '../output/untrusted.js';
import { isJsonObject } from '../util/json.js';
import { readSymbolList, shapeError, type JsonObject } from './read.js';
import { fields, type Endpoint, type Operation } from './codec.js';

/** Which accepted-currencies endpoint: the default, or the interface's legacy one (`--legacy`). */
export type CurrenciesEndpoint = 'default' | 'legacy';

/** The sandbox's answer: the symbols, each once. */
export interface AcceptedCurrenciesAnswer {
  list: readonly string[];
}

export const ACCEPTED_CURRENCIES = {
  name: 'accepted currencies',
  what: 'the accepted-currencies request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Untrusted[] => decodeAcceptedCurrencies(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: AcceptedCurrenciesAnswer): object => encodeAcceptedCurrencies(endpoint, answer),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payment/accepted-currencies',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'none',
      envelope: 'versioned',
      request: [],
      answer: fields([['list', 'list', 'text']]),
    },
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/merchants/allowedCoins',
      key: { kind: 'merchant', field: 'merchant' },
      body: 'form',
      envelope: 'legacy',
      request: [],
      answer: fields([['list', 'allowed', 'text']]),
    },
  },
} as const satisfies Operation<Record<string, never>, Untrusted[], AcceptedCurrenciesAnswer> & { endpoints: Record<'v1' | 'legacy', Endpoint> };

/** The list from an answer: `allowed` (legacy, top level) or `data.list` (versioned). */
export function decodeAcceptedCurrencies(endpoint: Endpoint, body: JsonObject, what: string): Untrusted[] {
  if (endpoint.envelope === 'legacy') return readSymbolList(body.allowed, what);
  if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
  return readSymbolList(body.data.list, what);
}

/** The payload of the sandbox's answer. */
export function encodeAcceptedCurrencies(endpoint: Endpoint, answer: AcceptedCurrenciesAnswer): object {
  return { [endpoint.answer[0]?.wire ?? 'list']: [...answer.list] };
}

/** `data.list` of the versioned answer. */
export const decodeV1AcceptedCurrencies = (body: JsonObject, what: string): Untrusted[] =>
  decodeAcceptedCurrencies(ACCEPTED_CURRENCIES.endpoints.v1, body, what);

/** `allowed` of the legacy answer. */
export const decodeAllowedCoins = (body: JsonObject, what: string): Untrusted[] => decodeAcceptedCurrencies(ACCEPTED_CURRENCIES.endpoints.legacy, body, what);
