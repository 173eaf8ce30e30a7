// A payment's state for people: the state first, prominent and coloured, then the amounts, network,
// address, transaction and dates. Used by `gw status` and after a wait that is not on a counter screen.
import type { Palette } from './palette.js';
import type { PaymentState } from '../domain/payment-status.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import { receivedAmount } from '../cmdutil/wait.js';
import type { Decimal } from '../money/decimal.js';
import { renderDetails, type DetailRow } from './table.js';
import { expiryWords, localDateTime, parseTimestamp } from './time.js';

/** What each state means at the counter, in a few words. */
export const STATE_WORDS: Readonly<Record<PaymentState, string>> = {
  new: 'created, the payer has not chosen how to pay',
  waiting: 'waiting for the payment',
  confirming: 'transaction seen, waiting for confirmations',
  paid: 'paid: safe to hand over the goods',
  underpaid: 'less than the amount was paid',
  expired: 'expired unpaid',
  failed: 'the payment failed',
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
  return `${stateColour(info.status, chalk)(`● ${info.status.toUpperCase()}`)}  ${STATE_WORDS[info.status]}${gateway}`;
}

function amount(value: Decimal | null, unit: { toString(): string } | null): string | undefined {
  return value === null ? undefined : `${value} ${unit ?? ''}`.trim();
}

function when(value: PaymentInfo['date']): string | undefined {
  const date = parseTimestamp(value);
  return date === undefined ? undefined : localDateTime(date);
}

/** The payment's details, one per line, state first. */
export function statusText(info: PaymentInfo, now: number, chalk: Palette): string {
  const rows: DetailRow[] = [];
  const add = (label: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') rows.push({ label, value });
  };
  add('Amount', amount(info.amount, info.currency));
  add('To pay', amount(info.payAmount, info.payCurrency));
  const received = receivedAmount(info);
  if (received !== undefined && (!received.isZero || info.status === 'underpaid')) add('Received', amount(received, info.payCurrency));
  add('Network', info.network?.toString());
  add('Address', info.address?.toString());
  add('Transaction', info.txID?.toString());
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
