// The versioned API (path prefix /v1): keys in headers, the versioned envelope for every answer.
import { header, type Route } from './routes.js';

export const V1_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/v1/payment/accepted-currencies',
    style: 'versioned',
    handle: (g, r) => g.acceptedCurrenciesV1(header(r, 'merchant_api_key')),
  },
];
