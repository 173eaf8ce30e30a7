// Notification bodies as the gateway writes them (docs/gateway.md §7), in its two styles:
// - legacy (payments created through the interface document's endpoints): camelCase, amounts and
//   times as text — status, trackId, type, orderId, amount, currency, payAmount, payCurrency,
//   network, address, txID, date, payDate, plus the payment's other fields;
// - v1 (payments created through the versioned API): snake_case, amounts and times as JSON
//   numbers — track_id, type, status, amount, value, sent_value, currency, order_id, email, note,
//   fee_paid_by_payer, under_paid_coverage, description, date, and txs[]; plus what the gateway's
//   published Paying and Paid samples carry (docs/gateway.md §7): `module_name` at the top level,
//   and in each transaction `value`, `sent_value`, `sender_address`, `rate`,
//   `auto_convert_amount` and `auto_convert_currency`, in the samples' order.
// Pure: the same payment gives the same bytes. Used by the sandbox's deliveries and by
// `gw webhook send`. Amounts stay decimal strings throughout (written as JSON number literals with
// exactly their digits in v1 bodies).
import { createHash } from 'node:crypto';
import { LosslessNumber, stringify } from 'lossless-json';
import { legacyStatusName, v1AnswerWord, type PaymentState } from '../domain/payment-status.js';
import { compareDecimals, divideRounded, fractionDigits, fromBaseUnits, multiplyRounded, toBaseUnits } from '../money/decimal.js';
import { matchNetwork } from '../payment-uri/networks.js';
import { testNetworkAddress } from '../payment-uri/test-addresses.js';
import { defaultType, type NotificationStyle, type NotificationType } from './types.js';
import type { PaymentTerms } from '../operations/values.js';

export { NOTIFICATION_STYLES, NOTIFICATION_TYPES, LEGACY_TYPES, V1_TYPES, defaultType } from './types.js';
export type { NotificationStyle, NotificationType } from './types.js';

/** A payment at one moment: what a notification about it says (the sandbox's PaymentSnapshot adds where it goes). */
export interface NotificationPayment extends PaymentTerms {
  status: PaymentState;
  /** Received so far; "0" before any. */
  receivedAmount: string;
  txID: string;
  description: string;
  email: string;
  orderId: string;
  feePaidByPayer: number;
  underPaidCover: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds, 0 before the payment. */
  payDate: number;
  /**
   * Every transaction, when the caller knows them (the sandbox does: several, or in two coins, or
   * after the payment expired); without it, one is made from txID and receivedAmount when the
   * status has a transaction.
   */
  txs?: readonly NotificationTx[];
}

/** One transaction of a payment, as a v1 notification's `txs[]` carries it. */
export interface NotificationTx {
  txHash: string;
  /** Plain decimal, in `currency` (sent and received alike). */
  amount: string;
  currency: string;
  network: string;
  address: string;
  confirmations: number;
  /** `confirming`, `confirmed`, `failed`. */
  status: string;
  /** Unix seconds. */
  date: number;
  /**
   * Price of one unit of `currency` in the payment's currency (plain decimal), when the caller
   * knows it; without it, the payment's own rate (amount / payAmount) for a transaction in the pay
   * currency, else the rate that makes the transactions add up to what was received (txRates).
   */
  rate?: string;
  /** The payer's address, when the caller knows it; without it, a made-up one (senderAddress). */
  senderAddress?: string | null;
}

export interface Notification {
  style: NotificationStyle;
  type: NotificationType;
  /** The exact bytes to sign and send. */
  body: string;
}

/** The status word a style writes: legacy `Paid`, `Confirming`…; v1 `Paying`, `Paid`… (capitalised, as the gateway's webhook examples write them). */
export function statusText(state: PaymentState, style: NotificationStyle): string {
  if (style === 'legacy') return legacyStatusName(state) ?? 'Unknown';
  const word = v1AnswerWord(state);
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}

/**
 * Whether a transaction has been seen in this state. `refunding` and `refunded`: the payment was
 * paid first; `late`: the gateway's word is expired, and the transaction that arrived after the
 * expiry is what tells a receiver the payment is not plainly expired.
 */
export function hasTransaction(state: PaymentState): boolean {
  return state === 'confirming' || state === 'paid' || state === 'underpaid' || state === 'late' || state === 'refunding' || state === 'refunded';
}

const num = (digits: string): LosslessNumber => new LosslessNumber(digits);

/** The notification body for `payment` in `style`, typed `type` (default: the style's payment type). */
export function buildNotification(payment: NotificationPayment, style: NotificationStyle, type: NotificationType = defaultType(style)): Notification {
  const body = style === 'legacy' ? legacyBody(payment, type) : v1Body(payment, type);
  return { style, type, body: stringify(body) ?? '{}' };
}

function legacyBody(p: NotificationPayment, type: NotificationType): Record<string, unknown> {
  const seen = p.txs === undefined ? hasTransaction(p.status) : p.txs.length > 0;
  return {
    status: statusText(p.status, 'legacy'),
    trackId: p.trackId,
    type,
    orderId: p.orderId,
    amount: p.amount,
    currency: p.currency,
    payAmount: p.payAmount,
    payCurrency: p.payCurrency,
    network: p.network,
    address: p.address,
    txID: seen ? p.txID : '',
    date: String(p.createdAt),
    payDate: p.payDate > 0 ? String(p.payDate) : '',
    email: p.email,
    description: p.description,
    feePaidByPayer: p.feePaidByPayer,
    underPaidCover: num(p.underPaidCover),
  };
}

function v1Body(p: NotificationPayment, type: NotificationType): Record<string, unknown> {
  const seen = p.txs === undefined ? hasTransaction(p.status) : p.txs.length > 0;
  const received = seen ? p.receivedAmount : '0';
  const txs: readonly NotificationTx[] =
    p.txs ??
    (seen
      ? [
          {
            txHash: p.txID,
            amount: received,
            currency: p.payCurrency,
            network: p.network,
            address: p.address,
            confirmations: p.status === 'confirming' ? 1 : 12,
            status: p.status === 'confirming' ? 'confirming' : 'confirmed',
            date: p.payDate > 0 ? p.payDate : p.createdAt,
          },
        ]
      : []);
  const rates = txRates(p, txs, received);
  const places = Math.max(fractionDigits(p.amount), 2);
  return {
    track_id: p.trackId,
    status: statusText(p.status, 'v1'),
    type,
    // The module the payment came through (the samples: "OxaPay", or a package's name); the
    // sandbox's and `gw webhook send`'s payments come through none.
    module_name: '',
    amount: num(p.amount),
    value: num(p.amount),
    sent_value: num(sentValue(p.amount, p.payAmount, received)),
    currency: p.currency,
    order_id: p.orderId,
    email: p.email,
    note: '',
    fee_paid_by_payer: p.feePaidByPayer,
    under_paid_coverage: num(p.underPaidCover),
    description: p.description,
    date: p.createdAt,
    txs: txs.map((t, i) => {
      const rate = rates[i] ?? '0';
      // What the transfer is worth in the payment's currency: the pay currency's share of the
      // amount exactly as sent_value counts it, any other coin at its rate.
      const value = t.rate === undefined && t.currency === p.payCurrency ? sentValue(p.amount, p.payAmount, t.amount) : multiplyRounded(t.amount, rate, places);
      return {
        status: t.status,
        tx_hash: t.txHash,
        sent_amount: num(t.amount),
        received_amount: num(t.amount),
        value: num(value),
        sent_value: num(value),
        currency: t.currency,
        network: t.network,
        sender_address: t.senderAddress === undefined ? senderAddress(t.network, t.currency, `${p.trackId}/${t.txHash}`) : t.senderAddress,
        address: t.address,
        rate: num(rate),
        confirmations: t.confirmations,
        // Nothing is converted: no to_currency is kept for a payment (docs/gateway.md §8), and the
        // gateway's own test callbacks say 0 and "" when nothing was.
        auto_convert_amount: 0,
        auto_convert_currency: '',
        date: t.date,
      };
    }),
  };
}

const RATE_PLACES = 8;
const RATE_SIGNIFICANT = 8;
const RATE_MAX_PLACES = 18;

/**
 * Each transaction's rate: price of one unit of its coin in the payment's currency. Given, or for
 * the pay currency amount / payAmount; a transaction in another coin (a mixed payment) gets the
 * rate that makes it worth what was received beyond the pay currency's transactions (`received`
 * counts every coin in pay-currency units), shared equally between the other coins when there are
 * several.
 */
export function txRates(p: Pick<NotificationPayment, 'amount' | 'payAmount' | 'payCurrency'>, txs: readonly NotificationTx[], received: string): string[] {
  const own = /[1-9]/.test(p.payAmount) ? divideRounded(p.amount, p.payAmount, RATE_PLACES, RATE_SIGNIFICANT, RATE_MAX_PLACES) : '0';
  const counted = txs.filter((t) => t.status !== 'failed');
  const scale = Math.max(fractionDigits(received), ...counted.map((t) => fractionDigits(t.amount)));
  let inPay = 0n;
  for (const t of counted) if (t.currency === p.payCurrency) inPay += toBaseUnits(t.amount, scale);
  const rest = toBaseUnits(received, scale) - inPay;
  const others = [...new Set(txs.filter((t) => t.currency !== p.payCurrency && t.rate === undefined).map((t) => t.currency))];
  const rateOf = new Map<string, string>();
  for (const coin of others) {
    const sent = counted.filter((t) => t.currency === coin).reduce((sum, t) => sum + toBaseUnits(t.amount, scale), 0n);
    const share = rest > 0n ? fromBaseUnits(rest / BigInt(others.length), scale) : '0';
    rateOf.set(
      coin,
      sent > 0n && /[1-9]/.test(share) && own !== '0'
        ? divideRounded(multiplyRounded(share, own, scale + RATE_MAX_PLACES), fromBaseUnits(sent, scale), RATE_PLACES, RATE_SIGNIFICANT, RATE_MAX_PLACES)
        : '0',
    );
  }
  return txs.map((t) => t.rate ?? (t.currency === p.payCurrency ? own : (rateOf.get(t.currency) ?? '0')));
}

/**
 * A made-up payer's address for a transaction, derived from `seed`, in the form of its network
 * (the TESTNET form where the network has one: BTC `tb1q…`, LTC `tltc1q…`, TON `0Q…`, XMR stagenet
 * `5…`…; EVM, Tron and Solana have none), or null when the network is not one gw knows (a
 * captured notification of the gateway's own test mode has null there: docs/gateway.md §7). It is
 * no one's key; never send funds to it.
 */
export function senderAddress(network: string, currency: string, seed: string): string | null {
  const id = matchNetwork(network, currency);
  return id === undefined ? null : testNetworkAddress('notification-sender', id, seed);
}

/**
 * What was received, in the payment's own currency: amount × received / payAmount, exact decimal
 * arithmetic; the amount itself once everything was received.
 */
export function sentValue(amount: string, payAmount: string, received: string): string {
  if (!/[1-9]/.test(received) || !/[1-9]/.test(payAmount)) return '0';
  if (compareDecimals(received, payAmount) >= 0) return amount;
  const share = divideRounded(received, payAmount, 18);
  return multiplyRounded(amount, share, Math.max(fractionDigits(amount), 2));
}

/** A made-up transaction hash for a test notification: 64 hex digits derived from the track id. */
export function fakeTxId(trackId: string): string {
  return createHash('sha256').update(`gw-test-transaction:${trackId}`).digest('hex');
}
