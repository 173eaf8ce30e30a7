// Catching up on notifications a receiver missed (`gw listen --catch-up`, `gw webhook replay`):
// the payment history shows each payment's CURRENT state (docs/gateway.md §12), so each payment
// whose current state the receiver has not seen is one missed state change it can still deliver.
// Earlier states a payment went through while the receiver was down are not in the history and
// cannot be recovered. Pure: the diff, the stable event ids, and the recovered notification's body
// in the gateway's own format (./payload.ts), signed as the gateway signs (./signature.ts).
//
// Event id: the first 32 hex digits of SHA-256 over "<track id>:<state>" (gw's state, the one
// vocabulary of src/domain/payment-status.ts). The same change always has the same id, whether it
// was seen live or recovered, so a receiver can drop a repeat, and gw can tell what it delivered.
import { createHash } from 'node:crypto';
import type { WithArrival } from '../domain/arrival.js';
import type { PaymentState } from '../domain/payment-status.js';
import type { PayoutState } from '../domain/payout-status.js';
import type { Scalar } from '../domain/values.js';
import type { Payout } from '../operations/payout-info.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { parseTimestamp } from '../output/time.js';
import { LosslessNumber, stringify } from 'lossless-json';
import { buildNotification, type NotificationPayment, type NotificationTx } from './payload.js';
import { SIGNATURE_HEADER_NAME, signBody } from './signature.js';
import type { NotificationStyle, NotificationType } from './types.js';

/** The header that marks a notification gw recovered from the history, and the one carrying its event id. */
export const RECOVERED_HEADER = 'X-Gw-Recovered';
export const EVENT_ID_HEADER = 'X-Gw-Event-Id';

/** The stable id of "this payment reached this state". */
export function eventId(trackId: string, state: PaymentState): string {
  return createHash('sha256').update(`${trackId}:${state}`).digest('hex').slice(0, 32);
}

/** A missed change: the payment (or payout) as its history shows it now, and its event id. */
export interface MissedEvent {
  id: string;
  trackId: string;
  /** gw's state: the payment vocabulary, or the payout one for a payout. */
  state: PaymentState | PayoutState;
  /** Unix seconds the payment or payout was created (what the state keeps to forget old events). */
  createdAt: number;
  orderId: Untrusted | null;
  payment?: WithArrival;
  payout?: Payout;
}

/** The stable id of "this payout reached this state" (prefixed, so it never equals a payment's). */
export function payoutEventId(trackId: string, state: PayoutState): string {
  return eventId(`payout/${trackId}`, state as PaymentState);
}

/**
 * The changes among `rows` (history rows, any order) whose event ids are not in `seen`, oldest
 * payment first, each once. A state gw cannot name (`unknown`) is no event.
 */
export function missedEvents(rows: Iterable<WithArrival>, seen: ReadonlySet<string>): MissedEvent[] {
  const out = new Map<string, MissedEvent>();
  for (const payment of rows) {
    if (payment.status === 'unknown') continue;
    const trackId = payment.trackId.raw().trim();
    if (trackId === '') continue;
    const id = eventId(trackId, payment.status);
    if (seen.has(id) || out.has(id)) continue;
    const created = parseTimestamp(payment.date);
    out.set(id, {
      id,
      trackId,
      state: payment.status,
      createdAt: created === undefined ? 0 : Math.floor(created.getTime() / 1000),
      orderId: payment.orderId,
      payment,
    });
  }
  return oldestFirst(out);
}

/** The payouts among `rows` whose current state's event id is not in `seen`, oldest first, each once. */
export function missedPayoutEvents(rows: Iterable<Payout>, seen: ReadonlySet<string>): MissedEvent[] {
  const out = new Map<string, MissedEvent>();
  for (const payout of rows) {
    const trackId = payout.trackId.raw().trim();
    if (payout.status === 'unknown' || trackId === '') continue;
    const id = payoutEventId(trackId, payout.status);
    if (seen.has(id) || out.has(id)) continue;
    out.set(id, { id, trackId, state: payout.status, createdAt: seconds(payout.date), orderId: null, payout });
  }
  return oldestFirst(out);
}

function oldestFirst(events: ReadonlyMap<string, MissedEvent>): MissedEvent[] {
  return [...events.values()].sort((a, b) => a.createdAt - b.createdAt || (a.trackId < b.trackId ? -1 : a.trackId > b.trackId ? 1 : 0));
}

const text = (v: { raw(): string } | null | undefined): string => v?.raw() ?? '';
const seconds = (v: Scalar | null): number => {
  const d = parseTimestamp(v);
  return d === undefined ? 0 : Math.floor(d.getTime() / 1000);
};

/** The history row as a notification describes a payment (amounts as exact digits). */
export function notificationPaymentOf(p: WithArrival): NotificationPayment {
  const payCurrency = text(p.payCurrency) || (p.txs[0]?.currency?.raw() ?? '');
  const received = p.arrival.received?.get(payCurrency.trim().toUpperCase())?.toString() ?? '0';
  const txs: NotificationTx[] | undefined =
    p.arrival.source === 'transactions'
      ? p.txs.map((t) => ({
          txHash: text(t.txID),
          amount: t.amount?.toString() ?? '0',
          currency: text(t.currency) || payCurrency,
          network: text(t.network) || text(p.network),
          address: text(t.address) || text(p.address),
          confirmations: typeof t.confirmations === 'number' ? t.confirmations : Number(t.confirmations?.raw() ?? 0) || 0,
          status: text(t.status) || 'confirmed',
          date: seconds(t.date),
          senderAddress: null,
        }))
      : undefined;
  const fee = p.fields.feePaidByPayer;
  // The payment's own under-paid coverage, as digits (0 when the history gives none).
  const cover = p.fields.underPaidCover;
  const coverText =
    cover instanceof Decimal ? cover.toString() : cover instanceof Untrusted ? cover.raw().trim() : typeof cover === 'number' ? String(cover) : '';
  return {
    trackId: p.trackId.raw().trim(),
    status: p.status,
    amount: p.amount?.toString() ?? '0',
    currency: text(p.currency),
    // What was to be paid: the answer's, else what gw knows was owed, else the amount itself when it
    // was asked in the coin paid (the versioned history gives no pay_amount); only then what arrived.
    payAmount:
      p.payAmount?.toString() ??
      p.arrival.expected?.amount.toString() ??
      (text(p.currency).trim().toUpperCase() === payCurrency.trim().toUpperCase() && p.amount !== null ? p.amount.toString() : received),
    payCurrency,
    network: text(p.network),
    address: text(p.address),
    receivedAmount: received,
    txID: text(p.txID) || (txs?.at(-1)?.txHash ?? ''),
    description: text(p.description),
    email: text(p.email),
    orderId: text(p.orderId),
    feePaidByPayer: String(fee ?? '0').trim() === '1' ? 1 : 0,
    underPaidCover: /^\d+(?:\.\d+)?$/.test(coverText) ? coverText : '0',
    createdAt: seconds(p.date),
    payDate: seconds(p.payDate),
    ...(txs !== undefined && { txs }),
  };
}

/** A recovered notification, ready to send: its exact body and headers. */
export interface RecoveredNotification {
  event: MissedEvent;
  style: NotificationStyle;
  type: NotificationType;
  body: string;
  headers: Record<string, string>;
}

/** The versioned notification type a history row names (`white_label`, `invoice`, `static_address`), else the style's default. */
function typeOf(p: WithArrival, style: NotificationStyle): NotificationType {
  if (style === 'legacy') return 'payment';
  const t = text(p.type)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return t === 'invoice' || t === 'static_address' || t === 'white_label' ? t : 'white_label';
}

/**
 * The v1 payout notification body for the payout's current record (docs/gateway.md §13): track_id,
 * type, status (capitalised, as the webhook samples write it), tx_hash, address, amount, currency,
 * network, description, date. `value` (its worth in USD) is in no history answer: left out.
 */
export function payoutBody(p: Payout): string {
  const word = text(p.gatewayStatus) || p.status;
  return (
    stringify({
      track_id: p.trackId.raw(),
      type: 'payout',
      status: `${word.charAt(0).toUpperCase()}${word.slice(1)}`,
      tx_hash: text(p.txHash),
      address: text(p.address),
      amount: new LosslessNumber(p.amount?.toString() ?? '0'),
      currency: text(p.currency),
      network: text(p.network),
      description: text(p.description),
      date: seconds(p.date),
    }) ?? '{}'
  );
}

/**
 * The body the gateway would send for this state, signed as it signs: a payment's in `style` with
 * the merchant key, a payout's (v1 style) with the payout key; marked recovered.
 */
export function recoveredNotification(event: MissedEvent, style: NotificationStyle, key: string): RecoveredNotification {
  const payout = event.payout;
  const type: NotificationType = payout !== undefined ? 'payout' : typeOf(event.payment as WithArrival, style);
  const body = payout !== undefined ? payoutBody(payout) : buildNotification(notificationPaymentOf(event.payment as WithArrival), style, type).body;
  return {
    event,
    style: payout !== undefined ? 'v1' : style,
    type,
    body,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER_NAME]: signBody(key, body),
      [RECOVERED_HEADER]: '1',
      [EVENT_ID_HEADER]: event.id,
      'user-agent': 'gw-catch-up',
    },
  };
}
