// The versioned API (path prefix /v1): keys in headers (`merchant_api_key`, `general_api_key`),
// snake_case fields, the versioned envelope for every answer. Each row translates to the sandbox's
// existing operations (v1-translate.ts, v1-payments.ts), so the rules live in one place.
import { header, type Route } from './routes.js';
import { legacyPaymentOperations, paymentInfoV1, paymentListV1 } from './v1-payments.js';
import { balanceV1, swapRateV1, whiteLabelV1, type V1SandboxKeys } from './v1-translate.js';

export type { V1SandboxKeys } from './v1-translate.js';

/** The versioned routes of a sandbox accepting `keys` (the merchant key is checked by the operations). */
export function v1Routes(keys: V1SandboxKeys): readonly Route[] {
  return [
    {
      method: 'GET',
      pattern: '/v1/payment/accepted-currencies',
      style: 'versioned',
      handle: (g, r) => g.acceptedCurrenciesV1(header(r, 'merchant_api_key')),
    },
    { method: 'POST', pattern: '/v1/payment/white-label', style: 'versioned', handle: (g, r) => whiteLabelV1(g, header(r, 'merchant_api_key'), r.fields) },
    {
      method: 'GET',
      pattern: '/v1/payment/:track_id',
      style: 'versioned',
      handle: (g, r) => paymentInfoV1(legacyPaymentOperations(g), r.params.track_id ?? '', header(r, 'merchant_api_key')),
    },
    {
      method: 'GET',
      pattern: '/v1/payment',
      style: 'versioned',
      handle: (g, r) => paymentListV1(legacyPaymentOperations(g), r.query, header(r, 'merchant_api_key')),
    },
    {
      method: 'GET',
      pattern: '/v1/general/account/balance',
      style: 'versioned',
      handle: (g, r) => balanceV1(g, keys, header(r, 'general_api_key'), r.query),
    },
    { method: 'POST', pattern: '/v1/general/swap/rate', style: 'versioned', handle: (g, r) => swapRateV1(g, keys, header(r, 'general_api_key'), r.fields) },
  ];
}
