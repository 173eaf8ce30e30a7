// The one interface commands use to talk to the gateway, and the values it returns. Commands never
// know which API is behind it: the interface document's endpoints (legacy.ts) or the newer
// versioned API; the factory picks one from the configuration.
//
// Every string the gateway sent is Untrusted (terminal-safe when printed), every amount a Decimal
// (exact digits), so a command cannot print gateway text unsafely or round money by accident.
// Field names are the interface document's (camelCase): they are gw's JSON output contract.
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import type { RawResponse } from './envelope.js';
import type { TransportRequest } from './transport.js';

export interface PaymentRequest {
  /** Exactly as typed: it goes out as a JSON number literal with these digits. */
  amount: Decimal;
  currency: string;
  payCurrency: string;
  /** Minutes. */
  lifeTime?: number;
  feePaidByPayer?: 0 | 1;
  /** Percent. */
  underPaidCover?: Decimal;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
  /** Not in the interface document; sent only when the user names a network. */
  network?: string;
}

/** A timestamp or a count as the gateway sent it: a number when it was an exact integer, else its text. */
export type Scalar = number | Untrusted;

/**
 * The white-label payment the gateway created: every field of its answer, under its own name.
 * Only the track id is certain: a created payment whose answer lacks an amount, currency or address
 * is still a payment that exists (the pay command shows it, and refuses to present it as payable).
 */
export interface Payment {
  trackId: Untrusted;
  amount: Decimal | null;
  currency: Untrusted | null;
  payAmount: Decimal | null;
  payCurrency: Untrusted | null;
  network: Untrusted | null;
  address: Untrusted | null;
  /** Deposit memo/tag (newer API); a payment on a memo network cannot be attributed without it. */
  memo: Untrusted | null;
  callbackUrl: Untrusted | null;
  description: Untrusted | null;
  email: Untrusted | null;
  feePaidByPayer: Decimal | null;
  lifeTime: Scalar | null;
  orderId: Untrusted | null;
  underPaidCover: Decimal | null;
  rate: Decimal | null;
  expiredAt: Scalar | null;
  createdAt: Scalar | null;
  QRCode: Untrusted | null;
}

/** One line of the balance answer. A symbol may appear more than once; nothing is dropped. */
export interface Balance {
  currency: Untrusted;
  amount: Decimal;
}

/** Which accepted-currencies endpoint: the default, or the interface's legacy one (`--legacy`). */
export type CurrenciesEndpoint = 'default' | 'legacy';

export interface GatewayClient {
  /** The cryptocurrencies the merchant accepts. */
  acceptedCurrencies(endpoint?: CurrenciesEndpoint): Promise<Untrusted[]>;
  /** Creates a white-label payment. Never sent twice once it may have reached the gateway. */
  createPayment(request: PaymentRequest): Promise<Payment>;
  /** Wallet balances: every currency, or one. */
  balances(currency?: string): Promise<Balance[]>;
  /** How many `to` one `from` is worth. */
  rate(from: string, to: string): Promise<Decimal>;
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
}
