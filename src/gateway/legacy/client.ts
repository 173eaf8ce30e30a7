// The gateway's operations as the interface document gives them: each operation's legacy endpoint
// (src/operations/*: path, method, body encoding, key placement, field table), sent and decoded
// through the one call (../call.ts). An operation the legacy API does not have goes to the versioned
// endpoint whatever `api` says (the accepted currencies' default is the versioned one).
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { ACCEPTED_CURRENCIES, decodeAcceptedCurrencies, type CurrenciesEndpoint } from '../../operations/accepted-currencies.js';
import { BALANCE, decodeBalanceAnswer, type Balance } from '../../operations/balance.js';
import { CREATE_PAYMENT, decodePaymentAnswer, encodePaymentRequest, type Payment, type PaymentRequest } from '../../operations/create-payment.js';
import { decodePaymentPageAnswer, encodeHistoryRequest, PAYMENT_HISTORY, type PaymentFilter, type PaymentPage } from '../../operations/payment-history.js';
import { decodePaymentInfoAnswer, PAYMENT_INFO, type PaymentInfo } from '../../operations/payment-info.js';
import { decodeRate, encodeRateRequest, RATE } from '../../operations/rate.js';
import { chooseEndpoint, encodeFields, type Endpoint } from '../../operations/codec.js';
import { call, type ClientOptions } from '../call.js';
import type { GatewayClient, HttpTransport, Keys } from '../gateway.js';
import { jsonNumber } from '../json.js';
import type { JsonObject } from '../read.js';

export { checkHeaderKey, missingKeyError, withKeyHint } from '../call.js';

/** A track id as the gateway's own client sends it: a JSON integer when it is all digits, else text. */
export function trackIdValue(trackId: string): unknown {
  return /^[1-9]\d{0,30}$/.test(trackId) ? jsonNumber(trackId) : trackId;
}

export type KeyKind = 'merchant' | 'payout';

export class LegacyGateway implements GatewayClient {
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
    });
  }

  /** GET /v1/payment/accepted-currencies (the interface document's default); `legacy`: POST /merchants/allowedCoins. */
  async acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const op = ACCEPTED_CURRENCIES;
    const chosen = endpoint === 'legacy' ? op.endpoints.legacy : op.endpoints.v1;
    return decodeAcceptedCurrencies(chosen, await this.send(op, chosen, {}), op.what);
  }

  /** POST /merchants/request/whitelabel, JSON body with the key in field merchant. Never re-sent once it may have arrived. */
  async createPayment(req: PaymentRequest): Promise<Payment> {
    const op = CREATE_PAYMENT;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'legacy');
    return decodePaymentAnswer(endpoint, await this.send(op, endpoint, encodePaymentRequest(endpoint, req)), op.what);
  }

  /** POST /api/balance, form field key (payout key), optional currency. */
  async balances(currency?: string): Promise<Balance[]> {
    const op = BALANCE;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'legacy');
    const body = await this.send(op, endpoint, encodeFields(endpoint.request, { currency }));
    return decodeBalanceAnswer(endpoint, body, op.what);
  }

  /** POST /exchange/rate, JSON fromCurrency/toCurrency, no key. */
  async rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    const op = RATE;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'legacy');
    return decodeRate(endpoint, await this.send(op, endpoint, encodeRateRequest(endpoint, { fromCurrency, toCurrency })), op.what);
  }

  /** POST /merchants/inquiry, JSON {merchant, trackId}. */
  async paymentInfo(trackId: string): Promise<PaymentInfo> {
    const op = PAYMENT_INFO;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'legacy');
    const body = await this.send(op, endpoint, encodeFields(endpoint.request, { trackId }));
    return decodePaymentInfoAnswer(endpoint, body, op.what);
  }

  /**
   * POST /merchants/list, JSON with the merchant key and the filters given: every one of gw's
   * filters is a documented field of this list (docs/gateway.md §6), so `historyFilters` is left
   * at its default, all. The rows that come back are still checked (src/gateway/history.ts).
   */
  async payments(filter: PaymentFilter): Promise<PaymentPage> {
    const op = PAYMENT_HISTORY;
    const endpoint = chooseEndpoint(op.name, op.endpoints, 'legacy');
    return decodePaymentPageAnswer(endpoint, await this.send(op, endpoint, encodeHistoryRequest(endpoint, filter)), op.what);
  }
}
