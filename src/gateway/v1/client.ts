// The gateway's versioned API (docs/gateway.md §8), the one its official SDKs speak: each
// operation's versioned endpoint (src/operations/*: paths under /v1, the key in a header, snake_case
// fields, amounts as JSON numbers, the versioned envelope on every answer), sent and decoded through
// the one call (../call.ts), into the same values the legacy endpoints give, so commands print the
// same documents whichever API is configured (`api: v1`).
import { ExitCode, GwError } from '../../errors.js';
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { ACCEPTED_CURRENCIES, decodeAcceptedCurrencies, type CurrenciesEndpoint } from '../../operations/accepted-currencies.js';
import { BALANCE, decodeBalanceAnswer, type Balance } from '../../operations/balance.js';
import { asParams, chooseEndpoint, encodeFields, type Endpoint } from '../../operations/codec.js';
import { CREATE_PAYMENT, decodePaymentAnswer, encodePaymentRequest, type Payment, type PaymentRequest } from '../../operations/create-payment.js';
import {
  decodePaymentPageAnswer,
  encodeHistoryRequest,
  historyFiltersOf,
  PAYMENT_HISTORY,
  type HistoryFilterName,
  type PaymentFilter,
  type PaymentPage,
} from '../../operations/payment-history.js';
import { decodePaymentInfoAnswer, PAYMENT_INFO, type PaymentInfo } from '../../operations/payment-info.js';
import { decodeRate, encodeRateRequest, RATE } from '../../operations/rate.js';
import { call, missingKeyError, type ClientOptions } from '../call.js';
import type { GatewayClient, HttpTransport, Keys } from '../gateway.js';
import { stringifyLossless } from '../json.js';
import type { JsonObject } from '../read.js';

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

  constructor(
    private readonly transport: HttpTransport,
    private readonly keys: Keys,
    private readonly options: ClientOptions = {},
  ) {}

  private send(operation: { name: string; what: string; idempotent: boolean }, endpoint: Endpoint, fields: Record<string, unknown>): Promise<JsonObject> {
    return call({
      ...this.options,
      operation: operation.name,
      transport: this.transport,
      keys: this.keys,
      endpoint,
      what: operation.what,
      idempotent: operation.idempotent,
      fields,
      ...(endpoint.api === 'v1' && { notFoundHint: NO_ENDPOINT_HINT }),
    });
  }

  /** GET /v1/payment/accepted-currencies (merchant key). `legacy`: the interface's POST /merchants/allowedCoins, as asked. */
  async acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const op = ACCEPTED_CURRENCIES;
    const chosen = endpoint === 'legacy' ? op.endpoints.legacy : op.endpoints.v1;
    return decodeAcceptedCurrencies(chosen, await this.send(op, chosen, {}), op.what);
  }

  /** POST /v1/payment/white-label (merchant key), JSON body in snake_case. Never re-sent once it may have arrived. */
  async createPayment(req: PaymentRequest): Promise<Payment> {
    const op = CREATE_PAYMENT;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'v1');
    return decodePaymentAnswer(endpoint, await this.send(op, endpoint, encodePaymentRequest(endpoint, req)), op.what);
  }

  /** GET /v1/general/account/balance[?currency=] (general key). */
  async balances(currency?: string): Promise<Balance[]> {
    const op = BALANCE;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'v1');
    return decodeBalanceAnswer(endpoint, await this.send(op, endpoint, encodeFields(endpoint.request, { currency })), op.what);
  }

  /** POST /v1/general/swap/rate (general key), JSON {from_currency, to_currency}. */
  async rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    const op = RATE;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'v1');
    return decodeRate(endpoint, await this.send(op, endpoint, encodeRateRequest(endpoint, { fromCurrency, toCurrency })), op.what);
  }

  /**
   * GET /v1/payment/{track_id} (merchant key). An answer of 404 with an envelope is the request's
   * data being wrong, an unknown track id: exit 65, like the interface's result 116.
   */
  async paymentInfo(trackId: string): Promise<PaymentInfo> {
    const op = PAYMENT_INFO;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'v1');
    let body: JsonObject;
    try {
      body = await call({
        ...this.options,
        operation: op.name,
        transport: this.transport,
        keys: this.keys,
        endpoint,
        what: op.what,
        idempotent: true,
        fields: encodeFields(endpoint.request, { trackId }),
      });
    } catch (error) {
      if (error instanceof GwError && error.exitCode === ExitCode.REFUSED && error.status === 404) {
        throw error.with({
          exitCode: ExitCode.DATA,
          hint: 'no payment of this merchant account has that track id: check it (if every track id gets this, check the base URL and api v1)',
        });
      }
      throw error;
    }
    return decodePaymentInfoAnswer(endpoint, body, op.what);
  }

  /**
   * GET /v1/payment?… (merchant key): one page of the history, the documented filters as query
   * parameters (V1_HISTORY_FILTERS); an order id is not sent (the history has no such parameter).
   */
  async payments(filter: PaymentFilter): Promise<PaymentPage> {
    const op = PAYMENT_HISTORY;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'v1');
    return decodePaymentPageAnswer(endpoint, await this.send(op, endpoint, encodeHistoryRequest(endpoint, filter)), op.what);
  }
}
