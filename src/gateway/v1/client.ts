// The gateway's versioned API (docs/gateway.md §8), the one its official SDKs speak: each
// operation's versioned endpoint (src/operations/*: paths under /v1, the key in a header, snake_case
// fields, amounts as JSON numbers, the versioned envelope on every answer), sent and decoded through
// the one call (../call.ts), into the same values the legacy endpoints give, so commands print the
// same documents whichever API is configured (`api: v1`).
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { ACCEPTED_CURRENCIES, type CurrenciesEndpoint } from '../../operations/accepted-currencies.js';
import { BALANCE, type Balance } from '../../operations/balance.js';
import { asParams, type Operation } from '../../operations/codec.js';
import { CREATE_PAYMENT, encodePaymentRequest, type Payment, type PaymentRequest } from '../../operations/create-payment.js';
import {
  encodeHistoryRequest,
  historyFiltersOf,
  PAYMENT_HISTORY,
  type HistoryFilterName,
  type PaymentFilter,
  type PaymentPage,
} from '../../operations/payment-history.js';
import { PAYMENT_INFO, type PaymentInfo } from '../../operations/payment-info.js';
import { RATE } from '../../operations/rate.js';
import { missingKeyError, perform, type ClientOptions, type Speaker } from '../call.js';
import type { GatewayClient, HttpTransport, Keys } from '../gateway.js';
import { stringifyLossless } from '../json.js';

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

export class V1Gateway implements GatewayClient {
  readonly historyFilters = V1_HISTORY_FILTERS;
  private readonly speaker: Speaker;

  constructor(transport: HttpTransport, keys: Keys, options: ClientOptions = {}) {
    this.speaker = { ...options, transport, keys, api: 'v1', notFoundHint: NO_ENDPOINT_HINT };
  }

  /** Any operation, over its versioned endpoint where it has one (else the legacy one). */
  perform<Req, Ans>(operation: Operation<Req, Ans, never>, request: Req): Promise<Ans> {
    return perform(this.speaker, operation, request);
  }

  /** GET /v1/payment/accepted-currencies (merchant key). `legacy`: the interface's POST /merchants/allowedCoins, as asked. */
  acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const op = ACCEPTED_CURRENCIES;
    return perform(this.speaker, op, {}, endpoint === 'legacy' ? op.endpoints.legacy : op.endpoints.v1);
  }

  /** POST /v1/payment/white-label (merchant key), JSON body in snake_case. Never re-sent once it may have arrived. */
  createPayment(request: PaymentRequest): Promise<Payment> {
    return this.perform(CREATE_PAYMENT, request);
  }

  /** GET /v1/general/account/balance[?currency=] (general key). */
  balances(currency?: string): Promise<Balance[]> {
    return this.perform(BALANCE, currency === undefined ? {} : { currency });
  }

  /** POST /v1/general/swap/rate (general key), JSON {from_currency, to_currency}. */
  rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    return this.perform(RATE, { fromCurrency, toCurrency });
  }

  /**
   * GET /v1/payment/{track_id} (merchant key). An answer of 404 with an envelope is the request's
   * data being wrong, an unknown track id: exit 65, like the interface's result 116 (PAYMENT_INFO.refine).
   */
  paymentInfo(trackId: string): Promise<PaymentInfo> {
    return this.perform(PAYMENT_INFO, { trackId });
  }

  /**
   * GET /v1/payment?… (merchant key): one page of the history, the documented filters as query
   * parameters (V1_HISTORY_FILTERS); an order id is not sent (the history has no such parameter).
   */
  payments(filter: PaymentFilter): Promise<PaymentPage> {
    return this.perform(PAYMENT_HISTORY, filter);
  }
}
