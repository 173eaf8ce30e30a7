// Creating a payout: money leaves the account, irreversibly (docs/gateway.md §13). Versioned POST
// /v1/payout (JSON), key header `payout_api_key` (docs.oxapay.com/api-reference/payout/generate-payout).
// NOT idempotent: no idempotency key or duplicate check exists, so it is never re-sent once it may
// have reached the gateway (the transport retries it only when it provably never left). Who sends
// it, once per invocation, is src/cmdutil/payout-send.ts.
import { normalizePayoutStatus, type PayoutState } from '../domain/payout-status.js';
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import { encodeFields, fields, payloadOf, readFields, type Endpoint, type Operation } from './codec.js';
import { requiredText, type JsonObject } from './read.js';

export interface PayoutRequest {
  address: string;
  /** The coin symbol. */
  currency: string;
  /** Exactly as checked: it goes out as a JSON number literal with these digits. */
  amount: Decimal;
  network?: string;
  callbackUrl?: string;
  memo?: string;
  /** Carries gw's payout reference (src/cmdutil/payout-send.ts). */
  description?: string;
}

/** What the gateway said it created. */
export interface CreatedPayout {
  trackId: Untrusted;
  status: PayoutState;
  gatewayStatus: Untrusted | null;
}

/** The sandbox's answer. */
export interface CreatedPayoutAnswer {
  trackId: string;
  status: string;
}

export const CREATE_PAYOUT = {
  name: 'payout creation',
  what: 'the payout request',
  idempotent: false,
  encodeRequest: (endpoint: Endpoint, request: PayoutRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): CreatedPayout => {
    const data = payloadOf(endpoint, body, what);
    const read = readFields(data, [endpoint.answer], what);
    const gatewayStatus = (read.status ?? null) as Untrusted | null;
    return {
      trackId: requiredText(data.track_id, 'track_id', what),
      status: gatewayStatus === null ? 'unknown' : normalizePayoutStatus(gatewayStatus.raw()),
      gatewayStatus,
    };
  },
  encodeAnswer: (endpoint: Endpoint, answer: CreatedPayoutAnswer): object => encodeFields(endpoint.answer, { ...answer }),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/payout',
      key: { kind: 'payout', header: 'payout_api_key' },
      body: 'json',
      envelope: 'versioned',
      request: fields([
        ['address', 'address', 'text'],
        ['currency', 'currency', 'text'],
        ['amount', 'amount', 'number'],
        ['network', 'network', 'text'],
        ['callbackUrl', 'callback_url', 'text'],
        ['memo', 'memo', 'text'],
        ['description', 'description', 'text'],
      ]),
      answer: fields([
        ['trackId', 'track_id', 'text'],
        ['status', 'status', 'text'],
      ]),
    },
  },
} as const satisfies Operation<PayoutRequest, CreatedPayout, CreatedPayoutAnswer> & { endpoints: { v1: Endpoint } };
