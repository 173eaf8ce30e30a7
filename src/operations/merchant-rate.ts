// The exchange rate as the merchant API has it (docs/gateway.md §1): legacy POST /merchants/rate,
// JSON {merchant, fromCurrency, toCurrency}, answering `rate` as text. It is what the gateway's
// official Node library calls for exchangeRate() (NODE methodInfos.json: Merchant.exchangeRate,
// path merchants/rate); gw's own `gw rate` uses the keyless /exchange/rate (./rate.ts). The
// versioned API has no merchant-key twin (its rate is /v1/general/swap/rate, ./rate.ts).
import type { Decimal } from '../money/decimal.js';
import type { JsonObject } from './read.js';
import { fields, type Endpoint, type Operation } from './codec.js';
import { decodeRate, encodeRate, encodeRateRequest, type RateAnswer, type RateRequest } from './rate.js';

export const MERCHANT_RATE = {
  name: 'the merchant exchange rate',
  what: 'the merchant rate request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: RateRequest): Record<string, unknown> => encodeRateRequest(endpoint, request),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Decimal => decodeRate(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: RateAnswer): object => encodeRate(endpoint, answer),
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/merchants/rate',
      key: { kind: 'merchant', field: 'merchant' },
      body: 'json',
      envelope: 'legacy',
      request: fields([
        ['fromCurrency', 'fromCurrency', 'text'],
        ['toCurrency', 'toCurrency', 'text'],
      ]),
      answer: fields([['rate', 'rate', 'numeric-text']]),
    },
  },
} as const satisfies Operation<RateRequest, Decimal, RateAnswer> & { endpoints: Record<'legacy', Endpoint> };
