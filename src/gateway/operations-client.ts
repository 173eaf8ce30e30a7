// The GatewayClient over either API: every named method is one operation (src/operations/*),
// sent by perform() (./call.ts) over the speaker's API where the operation has both, else over the
// one that has it. legacy/client.ts and v1/client.ts only say which API and what each adds.
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import { ACCEPTED_CURRENCIES, type CurrenciesEndpoint } from '../operations/accepted-currencies.js';
import { BALANCE, type Balance } from '../operations/balance.js';
import type { Operation } from '../operations/codec.js';
import { CREATE_PAYMENT, type Payment, type PaymentRequest } from '../operations/create-payment.js';
import { PAYMENT_HISTORY, type PaymentFilter, type PaymentPage } from '../operations/payment-history.js';
import { PAYMENT_INFO, type PaymentInfo } from '../operations/payment-info.js';
import { RATE } from '../operations/rate.js';
import { perform, type Speaker } from './call.js';
import type { GatewayClient } from './gateway.js';

export class OperationsClient implements GatewayClient {
  constructor(private readonly speaker: Speaker) {}

  /** Any operation, over the speaker's API where it has both endpoints (else the one it has). */
  perform<Req, Ans>(operation: Operation<Req, Ans, never>, request: Req): Promise<Ans> {
    return perform(this.speaker, operation, request);
  }

  /** The default endpoint is the interface document's GET /v1/payment/accepted-currencies; `legacy`: POST /merchants/allowedCoins. */
  acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const op = ACCEPTED_CURRENCIES;
    return perform(this.speaker, op, {}, endpoint === 'legacy' ? op.endpoints.legacy : op.endpoints.v1);
  }

  /** A white-label payment. Never re-sent once it may have arrived. */
  createPayment(request: PaymentRequest): Promise<Payment> {
    return this.perform(CREATE_PAYMENT, request);
  }

  balances(currency?: string): Promise<Balance[]> {
    return this.perform(BALANCE, currency === undefined ? {} : { currency });
  }

  rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    return this.perform(RATE, { fromCurrency, toCurrency });
  }

  /** An unknown track id is exit 65 under either API (PAYMENT_INFO.refine: legacy result 116, v1 HTTP 404). */
  paymentInfo(trackId: string): Promise<PaymentInfo> {
    return this.perform(PAYMENT_INFO, { trackId });
  }

  /** One page of the history, with the filters the API documents (the rest: src/gateway/history.ts). */
  payments(filter: PaymentFilter): Promise<PaymentPage> {
    return this.perform(PAYMENT_HISTORY, filter);
  }
}
