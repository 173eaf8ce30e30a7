// The gateway's versioned API (docs/gateway.md §8), the one its official SDKs speak: each
// operation's versioned endpoint (src/operations/*: paths under /v1, the key in a header, snake_case
// fields, amounts as JSON numbers, the versioned envelope on every answer), sent and decoded through
// the one call (../call.ts), into the same values the legacy endpoints give, so commands print the
// same documents whichever API is configured (`api: v1`).
import { asParams } from '../../operations/codec.js';
import { CREATE_PAYMENT, encodePaymentRequest, type PaymentRequest } from '../../operations/create-payment.js';
import { encodeHistoryRequest, historyFiltersOf, PAYMENT_HISTORY, type HistoryFilterName, type PaymentFilter } from '../../operations/payment-history.js';
import { missingKeyError, type ClientOptions } from '../call.js';
import type { HttpTransport, Keys } from '../gateway.js';
import { stringifyLossless } from '../../util/json.js';
import { OperationsClient } from '../operations-client.js';

export { trackIdSegment } from '../call.js';
export { MAX_PAGE_SIZE } from '../../operations/payment-history.js';

/** The versioned API's key kinds: the merchant key for payments, the general key for balance and rate. */
export type V1KeyKind = 'merchant' | 'general';

/** Where to set a key that is missing (exit 78, before any request). */
export function missingV1KeyError(kind: V1KeyKind, keys: Keys = {}) {
  return missingKeyError(kind, keys);
}

/**
 * The history filters GET /v1/payment documents (docs.oxapay.com/api-reference/payment/payment-history):
 * its codec's request table. It has no order id: the caller applies that one itself
 * (src/gateway/history.ts), and nothing else is sent.
 */
export const V1_HISTORY_FILTERS: ReadonlySet<HistoryFilterName> = historyFiltersOf(PAYMENT_HISTORY.endpoints.v1);

/** The query string of a history request: the documented filters given, under the versioned API's names. */
export function historyQuery(filter: PaymentFilter): string {
  const text = new URLSearchParams(asParams(encodeHistoryRequest(PAYMENT_HISTORY.endpoints.v1, filter))).toString();
  return text === '' ? '' : `?${text}`;
}

/** The white-label request body: snake_case, amounts as JSON number literals with exactly the digits given. */
export function whiteLabelBody(req: PaymentRequest): string {
  return stringifyLossless(encodePaymentRequest(CREATE_PAYMENT.endpoints.v1, req));
}

const NO_ENDPOINT_HINT = 'the gateway has no such endpoint here: check the base URL, and that your account uses the versioned API (api v1)';

/** The versioned endpoints (docs/gateway.md §8): the history sends only the filters it documents. */
export class V1Gateway extends OperationsClient {
  readonly historyFilters = V1_HISTORY_FILTERS;

  constructor(transport: HttpTransport, keys: Keys, options: ClientOptions = {}) {
    super({ ...options, transport, keys, api: 'v1', notFoundHint: NO_ENDPOINT_HINT });
  }
}
