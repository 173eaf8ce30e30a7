// A payment's state for people: the state first, prominent and coloured, then the amounts, network,
// address, transaction and dates. Used by `gw status` and after a wait that is not on a counter screen.
import type { Palette } from '../output/palette.js';
import type { PaymentState } from '../domain/payment-status.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import { amountsWords, differenceWords, type Arrival, type ArrivedTx } from '../domain/arrival.js';
import type { Decimal } from '../money/decimal.js';
import { renderDetails, type DetailRow } from '../output/table.js';
import { expiryWords, localDateTime, parseTimestamp } from '../output/time.js';
import { v1StatusCommand } from './follow-commands.js';

/** What each state means at the counter, in a few words. */
export const STATE_WORDS: Readonly<Record<PaymentState, string>> = {
  new: 'created, the payer has not chosen how to pay',
  waiting: 'waiting for the payment',
  confirming: 'transaction seen, waiting for confirmations',
  paid: 'paid: safe to hand over the goods',
  underpaid: 'less than the amount was paid',
  expired: 'expired, nothing arrived',
  late: 'funds arrived for an expired payment: accept or refund them',
  failed: 'the payment failed',
  refunding: 'a refund is under way: do not hand over the goods',
  refunded: 'the payment was refunded',
  unknown: 'a status gw does not know',
};

/** The colour of a state: green paid, yellow still open, red ended without the full payment. */
export function stateColour(state: PaymentState, chalk: Palette): Palette {
  if (state === 'paid') return chalk.green.bold;
  if (state === 'new' || state === 'waiting' || state === 'confirming' || state === 'unknown') return chalk.yellow.bold;
  return chalk.red.bold;
}

/** "● PAID  paid: safe to hand over the goods  (gateway: Paid)" */
export function stateHeadline(info: PaymentInfo, chalk: Palette): string {
  const gateway = info.gatewayStatus === null ? '' : chalk.dim(`  (gateway: ${info.gatewayStatus.line(40)})`);
  const words =
    info.status === 'expired' && info.arrival.received === null ? 'expired; the gateway does not say whether anything arrived' : STATE_WORDS[info.status];
  return `${stateColour(info.status, chalk)(`● ${info.status.toUpperCase()}`)}  ${words}${gateway}`;
}

/** "0.0005 BTC · Bitcoin Network · 3 confirmations · confirmed · 4f3a…" for one transaction. */
export function transactionWords(tx: ArrivedTx): string {
  const parts: string[] = [];
  parts.push(tx.amount === null ? 'amount not given' : `${tx.amount}${tx.coin === null ? '' : ` ${tx.coin}`}`);
  if (tx.network !== null && !tx.network.isBlank) parts.push(tx.network.line(40));
  if (tx.confirmations !== null)
    parts.push(`${typeof tx.confirmations === 'number' ? tx.confirmations : tx.confirmations.line(12)} confirmation${tx.confirmations === 1 ? '' : 's'}`);
  const word = tx.status === null ? 'no status' : tx.status.line(30);
  parts.push(tx.count === 'confirmed' ? word : tx.count === 'confirming' ? `${word} (counted, not confirmed)` : `${word} (not counted)`);
  parts.push(tx.hash === null || tx.hash.isBlank ? 'no hash' : tx.hash.toString());
  return parts.join(' · ');
}

/** The rows of what arrived: Received, Difference, one per transaction (or why gw cannot say). */
export function arrivalRows(info: PaymentInfo, sandbox: boolean): DetailRow[] {
  const arrival: Arrival = info.arrival;
  const rows: DetailRow[] = [];
  const open = info.status === 'new' || info.status === 'waiting' || info.status === 'unknown';
  if (arrival.received === null) {
    if (!open && info.status !== 'paid' && info.status !== 'confirming')
      rows.push({ label: 'Received', value: `not reported by the legacy API: ${v1StatusCommand(info.trackId.raw(), sandbox)}` });
    return rows;
  }
  if (open && arrival.received.size === 0 && !arrival.incomplete) return rows;
  const count = arrival.transactions?.length;
  let value = amountsWords(arrival.received);
  if (arrival.unconfirmed.size > 0) value += ` (${amountsWords(arrival.unconfirmed)} not confirmed yet)`;
  if (arrival.incomplete) value += ', and a transaction whose amount gw could not read';
  if (count !== undefined) value += ` · ${count} transaction${count === 1 ? '' : 's'}`;
  rows.push({ label: 'Received', value });
  const difference = differenceWords(arrival);
  // A difference of zero: "none", with what arrived ("the full 25 USDT" alone reads like an amount missing).
  if (difference !== undefined) rows.push({ label: 'Difference', value: arrival.difference?.isZero === true ? `none: ${difference} arrived` : difference });
  else if (arrival.received.size > 0 || info.status === 'underpaid')
    rows.push({ label: 'Difference', value: `cannot be computed: ${arrival.noDifference ?? ''}` });
  arrival.transactions?.forEach((tx, i) => {
    rows.push({ label: `Transaction ${i + 1}`, value: transactionWords(tx) });
  });
  return rows;
}

function amount(value: Decimal | null, unit: { toString(): string } | null): string | undefined {
  return value === null ? undefined : `${value} ${unit ?? ''}`.trim();
}

function when(value: PaymentInfo['date']): string | undefined {
  const date = parseTimestamp(value);
  return date === undefined ? undefined : localDateTime(date);
}

/** The payment's details, one per line, state first. */
export function statusText(info: PaymentInfo, now: number, chalk: Palette, sandbox = false): string {
  const rows: DetailRow[] = [];
  const add = (label: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') rows.push({ label, value });
  };
  add('Amount', amount(info.amount, info.currency));
  add('To pay', amount(info.payAmount, info.payCurrency));
  const arrival = arrivalRows(info, sandbox);
  rows.push(...arrival);
  add('Network', info.network?.toString());
  add('Address', info.address?.toString());
  // The legacy inquiry's one txID (with a list, every transaction has its row above).
  if (info.arrival.transactions === null) add('Transaction', info.txID?.toString());
  add('Created', when(info.date));
  add('Paid at', when(info.payDate));
  // A value that is no possible time (-1, 10^20) shows as "unknown (the gateway sent …)", never a date.
  if (info.status === 'new' || info.status === 'waiting' || info.status === 'confirming' || info.status === 'unknown')
    add('Expires', expiryWords(info.expiredAt, now));
  add('Track ID', info.trackId.toString());
  add('Order ID', info.orderId?.toString());
  add('Description', info.description?.toString());
  add('E-mail', info.email?.toString());
  return `${stateHeadline(info, chalk)}\n${renderDetails(rows)}`;
}
