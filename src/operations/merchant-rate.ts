// The exchange rate as the merchant API has it (docs/gateway.md §1): legacy POST /merchants/rate,
// JSON {merchant, fromCurrency, toCurrency}, answering `rate` as text. It is what the gateway's
// official Node library calls for exchangeRate() (NODE methodInfos.json: Merchant.exchangeRate,
// path merchants/rate); gw's own `gw rate` uses the keyless /exchange/rate (./rate.ts). The
// versioned API has no merchant-key twin (its rate is /v1/general/swap/rate, ./rate.ts).
import type { Decimal } from '../money/decimal.js';
import type { Endpoint, Operation } from './codec.js';
import { RATE, type RateAnswer, type RateRequest } from './rate.js';

/** RATE's codec and fields over another path, with the merchant key in the body. */
export const MERCHANT_RATE = {
  ...RATE,
  name: 'the merchant exchange rate',
  what: 'the merchant rate request',
  endpoints: {
    legacy: { ...RATE.endpoints.legacy, path: '/merchants/rate', key: { kind: 'merchant', field: 'merchant' } },
  },
} as const satisfies Operation<RateRequest, Decimal, RateAnswer> & { endpoints: Record<'legacy', Endpoint> };
