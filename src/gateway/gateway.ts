// The one interface commands use to talk to the gateway, and the values it returns. Commands never
// know which API is behind it: the interface document's endpoints (legacy/client.ts) or the newer
// versioned API (v1/client.ts); the factory picks one from the configuration (`api`).
//
// Every string the gateway sent is Untrusted (terminal-safe when printed), every amount a Decimal
// (exact digits), so a command cannot print gateway text unsafely or round money by accident.
// Field names are the interface document's (camelCase): they are gw's JSON output contract. Each
// operation (its values, and its endpoint in each API) is one module of src/operations/.
import type { Decimal } from '../money/decimal.js';
import type { CurrenciesEndpoint } from '../operations/accepted-currencies.js';
import type { Operation } from '../operations/codec.js';
import type { Balance } from '../operations/balance.js';
import type { Payment, PaymentRequest } from '../operations/create-payment.js';
import type { HistoryFilterName, PaymentFilter, PaymentPage } from '../operations/payment-history.js';
import type { PaymentInfo } from '../operations/payment-info.js';
import type { Untrusted } from '../output/untrusted.js';
import type { RawResponse } from './envelope.js';
import type { TransportRequest } from './transport.js';

// Each operation's canonical values live with the operation (src/operations/); here for the commands.
export type { CurrenciesEndpoint } from '../operations/accepted-currencies.js';
export type { Balance } from '../operations/balance.js';
export type { Payment, PaymentRequest } from '../operations/create-payment.js';
export { HISTORY_FILTERS, type HistoryFilterName, type PaymentFilter, type PaymentPage } from '../operations/payment-history.js';
export type { PaymentInfo } from '../operations/payment-info.js';
export type { PaymentTransaction, Scalar } from '../operations/values.js';

export interface GatewayClient {
  /**
   * Any gateway operation (src/operations/*), over the configured API's endpoint where it has both,
   * else the one API that has it; NotServedError (exit 78, nothing sent) where it cannot be served.
   * The methods below are the operations gw's commands use most, by name.
   */
  perform<Req, Ans>(operation: Operation<Req, Ans, never>, request: Req): Promise<Ans>;
  /** The cryptocurrencies the merchant accepts. */
  acceptedCurrencies(endpoint?: CurrenciesEndpoint): Promise<Untrusted[]>;
  /** Creates a white-label payment. Never sent twice once it may have reached the gateway. */
  createPayment(request: PaymentRequest): Promise<Payment>;
  /** Wallet balances: every currency, or one. */
  balances(currency?: string): Promise<Balance[]>;
  /** How many `to` one `from` is worth. */
  rate(from: string, to: string): Promise<Decimal>;
  /** One payment's state (inquiry). */
  paymentInfo(trackId: string): Promise<PaymentInfo>;
  /**
   * One page of the payment history. Only the filters in `historyFilters` are sent to the gateway
   * (those its API documents); the others are left to the caller (src/gateway/history.ts).
   */
  payments(filter: PaymentFilter): Promise<PaymentPage>;
  /** The filters `payments()` sends to the gateway; absent: all of them. */
  readonly historyFilters?: ReadonlySet<HistoryFilterName>;
}

/** What a client needs from the transport (tests give a scripted one). */
export interface HttpTransport {
  send(request: TransportRequest): Promise<RawResponse>;
}

/** A key and where it came from ("env GATEWAY_MERCHANT_KEY", "~/.config/gateway/config.yaml (profile shop)"). */
export interface KeySetting {
  value: string;
  from: string;
}

export interface Keys {
  merchant?: KeySetting;
  payout?: KeySetting;
  /** The versioned API's general key (balance and rate with `api: v1`). */
  general?: KeySetting;
}
