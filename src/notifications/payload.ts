// Notification bodies as the gateway writes them (docs/gateway.md §7), in its two styles:
// - legacy (payments created through the interface document's endpoints): camelCase, amounts and
//   times as text — status, trackId, type, orderId, amount, currency, payAmount, payCurrency,
//   network, address, txID, date, payDate, plus the payment's other fields;
// - v1 (payments created through the versioned API): snake_case, amounts and times as JSON
//   numbers — track_id, type, status, amount, value, sent_value, currency, order_id, email, note,
//   fee_paid_by_payer, under_paid_coverage, description, date, and txs[].
// Pure: the same payment gives the same bytes. Used by the sandbox's deliveries and by
// `gw webhook send`. Amounts stay decimal strings throughout (written as JSON number literals with
// exactly their digits in v1 bodies).
import { createHash } from 'node:crypto';
import { LosslessNumber, stringify } from 'lossless-json';
import { legacyStatusName, v1StatusName, type PaymentState } from '../domain/payment-status.js';
import { compareDecimals, divideRounded, fractionDigits, multiplyRounded } from '../money/decimal.js';
import { defaultType, type NotificationStyle, type NotificationType } from './types.js';

export { NOTIFICATION_STYLES, NOTIFICATION_TYPES, LEGACY_TYPES, V1_TYPES, defaultType } from './types.js';
export type { NotificationStyle, NotificationType } from './types.js';

/** A payment at one moment: what a notification about it says (the sandbox's PaymentSnapshot adds where it goes). */
export interface NotificationPayment {
  trackId: string;
  status: PaymentState;
  /** Plain decimal strings. */
  amount: string;
  currency: string;
  payAmount: string;
  payCurrency: string;
  network: string;
  address: string;
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
  const word = v1StatusName(state) ?? state;
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
  return {
    track_id: p.trackId,
    status: statusText(p.status, 'v1'),
    type,
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
    txs: p.txs
      ? p.txs.map((t) => ({
          tx_hash: t.txHash,
          sent_amount: num(t.amount),
          received_amount: num(t.amount),
          currency: t.currency,
          network: t.network,
          address: t.address,
          confirmations: t.confirmations,
          status: t.status,
          date: t.date,
        }))
      : seen
        ? [
            {
              tx_hash: p.txID,
              sent_amount: num(received),
              received_amount: num(received),
              currency: p.payCurrency,
              network: p.network,
              address: p.address,
              confirmations: p.status === 'confirming' ? 1 : 12,
              status: p.status === 'confirming' ? 'confirming' : 'confirmed',
              date: p.payDate > 0 ? p.payDate : p.createdAt,
            },
          ]
        : [],
  };
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
