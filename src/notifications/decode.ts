// Reading a notification body for people and scripts: what it is about (type, track id, status in
// gw's one vocabulary with the gateway's own word, amounts, order id), in either style (legacy
// camelCase or v1 snake_case), liberal about where things are. Everything read is Untrusted text
// or an exact Decimal; the body's bytes themselves are never changed (only they verify).
import { isLosslessNumber, parse } from 'lossless-json';
import { normalizeStatus, type PaymentState } from '../domain/payment-status.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';

/** An amount as sent: exact when it is a number, else the text that came. */
export type Amount = Decimal | Untrusted;

export interface NotificationSummary {
  /** `v1` when the body has snake_case ids (track_id), `legacy` when camelCase (trackId). */
  style: 'legacy' | 'v1' | 'unknown';
  type: Untrusted | null;
  trackId: Untrusted | null;
  /** gw's state for the gateway's status word. */
  state: PaymentState;
  gatewayStatus: Untrusted | null;
  amount: Amount | null;
  currency: Untrusted | null;
  /** Legacy payAmount; v1: what the transactions received. */
  payAmount: Amount | null;
  payCurrency: Untrusted | null;
  orderId: Untrusted | null;
}

export type ReadResult = { ok: true; summary: NotificationSummary } | { ok: false; problem: string };

type Fields = Readonly<Record<string, unknown>>;

const decoder = new TextDecoder('utf-8');

/** Parses a notification body; `problem` says why it is not one (not JSON, not an object). */
export function readNotification(body: Uint8Array): ReadResult {
  let value: unknown;
  try {
    value = parse(decoder.decode(body).replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, problem: 'the body is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    return { ok: false, problem: 'the body is not a JSON object' };
  }
  return { ok: true, summary: summarise(value as Fields) };
}

function get(fields: Fields, ...names: string[]): unknown {
  for (const name of names) if (Object.hasOwn(fields, name)) return fields[name];
  return undefined;
}

function text(value: unknown): Untrusted | null {
  if (typeof value === 'string') return value === '' ? null : Untrusted.of(value);
  if (isLosslessNumber(value)) return Untrusted.of(value.value);
  if (typeof value === 'boolean') return Untrusted.of(String(value));
  return null;
}

function amount(value: unknown): Amount | null {
  const literal = isLosslessNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  if (literal === undefined || literal.trim() === '') return null;
  return Decimal.fromLiteral(literal) ?? Untrusted.of(literal);
}

function summarise(fields: Fields): NotificationSummary {
  const v1 = Object.hasOwn(fields, 'track_id');
  const style = v1 ? 'v1' : Object.hasOwn(fields, 'trackId') ? 'legacy' : 'unknown';
  const gatewayStatus = text(get(fields, 'status'));
  let payAmount = amount(get(fields, 'payAmount', 'pay_amount'));
  let payCurrency = text(get(fields, 'payCurrency', 'pay_currency'));
  const txs = get(fields, 'txs');
  if (payAmount === null && Array.isArray(txs) && txs.length > 0) {
    const items = txs.filter((t): t is Fields => typeof t === 'object' && t !== null && !Array.isArray(t) && !isLosslessNumber(t));
    payAmount = sumReceived(items);
    payCurrency ??= text(items[0] === undefined ? undefined : get(items[0], 'currency'));
  }
  return {
    style,
    type: text(get(fields, 'type')),
    trackId: text(get(fields, 'trackId', 'track_id')),
    state: gatewayStatus === null ? 'unknown' : normalizeStatus(gatewayStatus.raw()),
    gatewayStatus,
    amount: amount(get(fields, 'amount')),
    currency: text(get(fields, 'currency')),
    payAmount,
    payCurrency,
    orderId: text(get(fields, 'orderId', 'order_id')),
  };
}

/** The received amounts of the transactions added up, exactly; the first one's text when they do not add. */
function sumReceived(txs: readonly Fields[]): Amount | null {
  let total: Decimal | undefined;
  for (const tx of txs) {
    const a = amount(get(tx, 'received_amount', 'receivedAmount', 'sent_amount', 'amount'));
    if (!(a instanceof Decimal) || a.isNegative) return amount(get(txs[0] as Fields, 'received_amount', 'receivedAmount', 'sent_amount', 'amount'));
    total = total === undefined ? a : total.plus(a);
  }
  return total ?? null;
}
