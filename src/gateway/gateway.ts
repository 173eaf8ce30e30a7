// The one interface commands use to talk to the gateway, and the values it returns. Commands never
// know which API is behind it: the interface document's endpoints (legacy/client.ts) or the newer
// versioned API (v1/client.ts); the factory picks one from the configuration (`api`).
//
// Every string the gateway sent is Untrusted (terminal-safe when printed), every amount a Decimal
// (exact digits), so a command cannot print gateway text unsafely or round money by accident.
// Field names are the interface document's (camelCase): they are gw's JSON output contract.
import type { Arrival } from '../domain/arrival.js';
import type { PaymentState } from '../domain/payment-status.js';
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import type { RawResponse } from './envelope.js';
import type { OutputObject } from './read.js';
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
  /** 0 or 1 as the gateway sent it (a flag, not an amount: a number in JSON, as in gw status). */
  feePaidByPayer: Scalar | null;
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
  /** null: the gateway sent null, "" or nothing for it: unknown, never taken as 0. */
  amount: Decimal | null;
}

/** One blockchain transaction of a payment (the newer API lists them; the legacy inquiry gives one txID). */
export interface PaymentTransaction {
  txID: Untrusted | null;
  amount: Decimal | null;
  currency: Untrusted | null;
  network: Untrusted | null;
  address: Untrusted | null;
  status: Untrusted | null;
  confirmations: Scalar | null;
  date: Scalar | null;
}

/**
 * A payment as the status (inquiry) and history answers describe it. `status` is gw's one
 * vocabulary (src/domain/payment-status.ts); `gatewayStatus` the text the gateway sent.
 */
export interface PaymentInfo {
  trackId: Untrusted;
  status: PaymentState;
  gatewayStatus: Untrusted | null;
  type: Untrusted | null;
  amount: Decimal | null;
  currency: Untrusted | null;
  payAmount: Decimal | null;
  payCurrency: Untrusted | null;
  network: Untrusted | null;
  address: Untrusted | null;
  txID: Untrusted | null;
  email: Untrusted | null;
  orderId: Untrusted | null;
  description: Untrusted | null;
  /** When the payment was created, paid, and when it expires (Unix seconds in practice). */
  date: Scalar | null;
  payDate: Scalar | null;
  expiredAt: Scalar | null;
  txs: PaymentTransaction[];
  /** What arrived, from the transactions (src/domain/arrival.ts); `status` is `late` when an expired payment received funds. */
  arrival: Arrival;
  /**
   * Every field the gateway sent, under the interface's (camelCase) names, amounts as exact
   * decimal strings: what `--json` prints, with `status` and `gatewayStatus` set by gw.
   */
  fields: Readonly<OutputObject>;
}

/** History filters; every one optional. Amount bounds compare with the requested amount. */
export interface PaymentFilter {
  status?: PaymentState;
  orderId?: string;
  trackId?: string;
  currency?: string;
  payCurrency?: string;
  network?: string;
  /** Created at or after / at or before. */
  from?: Date;
  to?: Date;
  minAmount?: Decimal;
  maxAmount?: Decimal;
  /** 1-based. */
  page?: number;
  size?: number;
}

export interface PaymentPage {
  payments: PaymentInfo[];
  /** 1-based page number of this page, the number of pages and of payments in all. */
  page: number;
  pages: number;
  total: number;
  /**
   * The paging exactly as the answer stated it (each absent when the answer did not say), before
   * the liberal defaults above: how a reader of many pages sees that the gateway's counts are
   * impossible (a last page before this one, a page other than the one asked for).
   */
  declared?: { page?: number; pages?: number; total?: number };
}

/** The history filters, by name (every PaymentFilter field but the paging). */
export type HistoryFilterName = Exclude<keyof PaymentFilter, 'page' | 'size'>;

/** Every history filter gw has. */
export const HISTORY_FILTERS: readonly HistoryFilterName[] = [
  'status',
  'orderId',
  'trackId',
  'currency',
  'payCurrency',
  'network',
  'from',
  'to',
  'minAmount',
  'maxAmount',
];

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
