// The versioned API (path prefix /v1): keys in headers (`merchant_api_key`, `general_api_key`),
// snake_case fields, the versioned envelope for every answer. Each row translates to the sandbox's
// existing operations (v1-translate.ts, v1-payments.ts), so the rules live in one place.
import { isLosslessNumber } from 'lossless-json';
import { header, type Route, type SandboxRequest } from './routes.js';
import { legacyPaymentOperations, paymentInfoV1, paymentListV1 } from './v1-payments.js';
import { balanceV1, swapRateV1, whiteLabelV1, type V1SandboxKeys } from './v1-translate.js';

export type { V1SandboxKeys } from './v1-translate.js';

/**
 * A GET's parameters: its query string, and the fields of a JSON body where the query does not
 * name them (the gateway's own Node client sends GET filters as a JSON body).
 */
export function getParams(request: SandboxRequest): URLSearchParams {
  const params = new URLSearchParams(request.query);
  for (const [name, value] of Object.entries(request.fields)) {
    if (params.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || isLosslessNumber(value)) params.set(name, String(value));
  }
  return params;
}

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
      handle: (g, r) => paymentListV1(legacyPaymentOperations(g), getParams(r), header(r, 'merchant_api_key')),
    },
    {
      method: 'GET',
      pattern: '/v1/general/account/balance',
      style: 'versioned',
      handle: (g, r) => balanceV1(g, keys, header(r, 'general_api_key'), getParams(r)),
    },
    { method: 'POST', pattern: '/v1/general/swap/rate', style: 'versioned', handle: (g, r) => swapRateV1(g, keys, header(r, 'general_api_key'), r.fields) },
  ];
}
