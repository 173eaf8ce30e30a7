// The gateway's operations over the interface document's (legacy) endpoints: each operation's
// module (src/operations/*) says where its endpoint is and how its fields travel; perform()
// (../call.ts) sends it and decodes the answer. An operation the legacy API does not have goes to
// the versioned endpoint whatever `api` says (chooseEndpoint).
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { ACCEPTED_CURRENCIES, type CurrenciesEndpoint } from '../../operations/accepted-currencies.js';
import { BALANCE, type Balance } from '../../operations/balance.js';
import type { Operation } from '../../operations/codec.js';
import { CREATE_PAYMENT, type Payment, type PaymentRequest } from '../../operations/create-payment.js';
import { PAYMENT_HISTORY, type PaymentFilter, type PaymentPage } from '../../operations/payment-history.js';
import { PAYMENT_INFO, type PaymentInfo } from '../../operations/payment-info.js';
import { RATE } from '../../operations/rate.js';
import { perform, type ClientOptions, type Speaker } from '../call.js';
import type { GatewayClient, HttpTransport, Keys } from '../gateway.js';
import { jsonNumber } from '../json.js';

export { checkHeaderKey, missingKeyError, withKeyHint } from '../call.js';

/** A track id as the gateway's own client sends it: a JSON integer when it is all digits, else text. */
export function trackIdValue(trackId: string): unknown {
  return /^[1-9]\d{0,30}$/.test(trackId) ? jsonNumber(trackId) : trackId;
}

export type KeyKind = 'merchant' | 'payout';

export class LegacyGateway implements GatewayClient {
  private readonly speaker: Speaker;

  constructor(transport: HttpTransport, keys: Keys, options: ClientOptions = {}) {
    this.speaker = { ...options, transport, keys, api: 'legacy' };
  }

  /** Any operation, over its legacy endpoint where it has one (else the versioned one). */
  perform<Req, Ans>(operation: Operation<Req, Ans, never>, request: Req): Promise<Ans> {
    return perform(this.speaker, operation, request);
  }

  /** GET /v1/payment/accepted-currencies (the interface document's default); `legacy`: POST /merchants/allowedCoins. */
  acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const op = ACCEPTED_CURRENCIES;
    return perform(this.speaker, op, {}, endpoint === 'legacy' ? op.endpoints.legacy : op.endpoints.v1);
  }

  /** POST /merchants/request/whitelabel, JSON body with the key in field merchant. Never re-sent once it may have arrived. */
  createPayment(request: PaymentRequest): Promise<Payment> {
    return this.perform(CREATE_PAYMENT, request);
  }

  /** POST /api/balance, form field key (payout key), optional currency. */
  balances(currency?: string): Promise<Balance[]> {
    return this.perform(BALANCE, currency === undefined ? {} : { currency });
  }

  /** POST /exchange/rate, JSON fromCurrency/toCurrency, no key. */
  rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    return this.perform(RATE, { fromCurrency, toCurrency });
  }

  /** POST /merchants/inquiry, JSON {merchant, trackId}. */
  paymentInfo(trackId: string): Promise<PaymentInfo> {
    return this.perform(PAYMENT_INFO, { trackId });
  }

  /**
   * POST /merchants/list, JSON with the merchant key and the filters given: every one of gw's
   * filters is a documented field of this list (docs/gateway.md §6), so `historyFilters` is left
   * at its default, all. The rows that come back are still checked (src/gateway/history.ts).
   */
  payments(filter: PaymentFilter): Promise<PaymentPage> {
    return this.perform(PAYMENT_HISTORY, filter);
  }
}
