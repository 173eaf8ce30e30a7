// Revoking a static address (docs/gateway.md §11): versioned POST /v1/payment/static-address/revoke
// with `{address}` (key header `merchant_api_key`), answer `data: {}`. After it, payments to the
// address are no longer credited. Sent over the versioned API whatever `api` says; not re-sent
// once it may have reached the gateway (the second would be refused, the address being revoked).
import type { JsonObject } from './read.js';
import { encodeFields, fields, payloadOf, type Endpoint, type Operation } from './codec.js';

export interface RevokeStaticAddressRequest {
  address: string;
}

/** The sandbox's answer: nothing (`data: {}`). */
export type RevokedAnswer = Record<string, never>;

export const REVOKE_STATIC_ADDRESS = {
  name: 'revoking a static address',
  what: 'the static address revocation',
  idempotent: false,
  encodeRequest: (endpoint: Endpoint, request: RevokeStaticAddressRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  // The answer's data is empty: that it is a success envelope is the answer.
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): true => {
    payloadOf(endpoint, body, what);
    return true;
  },
  encodeAnswer: (): object => ({}),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/payment/static-address/revoke',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'json',
      envelope: 'versioned',
      // docs.oxapay.com/api-reference/payment/revoking-static-address.
      request: fields([['address', 'address', 'text']]),
      answer: [],
    },
  },
} as const satisfies Operation<RevokeStaticAddressRequest, true, RevokedAnswer> & { endpoints: Record<'v1', Endpoint> };
