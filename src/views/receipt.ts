// A receipt for a payment in a final state, as plain text for a thermal printer: 32 columns (58 mm
// paper), 42 or 48 (80 mm). Pure: the payment, the merchant's name and the time in, lines out.
//
// - Every line is at most `width` columns. Long values (an address, a transaction hash, a long
//   order id) are wrapped at the width, never cut: every character the gateway sent is on paper.
// - ASCII only by default (a printer's built-in code page rarely has more): accented letters lose
//   their accents (NFKD), anything else becomes "?". `unicode: true` keeps the text as it is
//   (wide characters count two columns).
// - Gateway text is Untrusted: escape sequences, control and invisible characters are removed
//   (terminalSafe) and white space is folded to single spaces, so nothing in it can drive a printer
//   or a terminal (no ESC/POS command, no form feed, no line of its own).
// - The state is the counter screen's words (STATE_WORDS); what arrived is the exact Decimal sums
//   per coin from src/domain/arrival.ts, never converted.
import type { ReceiptWidth } from '../config/resolve.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import { terminalSafe } from '../output/sanitize.js';
import { cellWidth } from '../output/wrap.js';
import { localDateTime, parseTimestamp } from '../output/time.js';
import { STATE_WORDS } from './status-view.js';

// The printer widths gw lays receipts out for (58 mm paper: 32 columns; 80 mm: 42 or 48) are the
// configuration's (config `receiptWidth`).
export { RECEIPT_WIDTHS, type ReceiptWidth } from '../config/resolve.js';
/** The width when neither a flag nor the configuration gives one. */
export const DEFAULT_RECEIPT_WIDTH: ReceiptWidth = 42;

export interface ReceiptOptions {
  width: ReceiptWidth;
  /** Keep non-ASCII characters (the printer takes UTF-8); default ASCII only. */
  unicode?: boolean;
  /** The merchant's name (config `merchantName`), printed at the top; none: no name line. */
  merchantName?: string | undefined;
  /** When the receipt is made (ms): its date and time, in local time (TZ honoured). */
  now: number;
  /** A sandbox payment: the receipt says it is no real payment. */
  sandbox?: boolean;
}

/** The label column: "Track ID" and a space. */
const LABEL = 10;

/** Text fit for paper: sequences and controls gone, white space folded, ASCII unless asked. */
export function receiptText(text: string, unicode: boolean): string {
  const safe = terminalSafe(text.replace(/\s+/g, ' ')).replace(/\s+/g, ' ').trim();
  if (unicode) return safe.normalize('NFC');
  // Accents dropped (é → e), typographic punctuation made plain, then anything still outside
  // printable ASCII is a "?".
  return safe
    .normalize('NFKD')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/gu, '?');
}

/** The columns `text` takes on paper. */
export function receiptWidthOf(text: string): number {
  return cellWidth(text);
}

/**
 * `text` (one line, already fit for paper) in lines of at most `width` columns: broken at spaces,
 * and a word longer than a line (a hash, an address) broken wherever it must be. Nothing is dropped
 * but the spaces a line breaks at.
 */
export function wrapColumns(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const push = (): void => {
    lines.push(line);
    line = '';
    used = 0;
  };
  for (const word of text.split(' ')) {
    if (word === '') continue;
    const w = receiptWidthOf(word);
    if (used > 0 && used + 1 + w <= width) {
      line += ` ${word}`;
      used += 1 + w;
      continue;
    }
    if (used > 0) push();
    if (w <= width) {
      line = word;
      used = w;
      continue;
    }
    for (const ch of word) {
      const cw = cellWidth(ch);
      if (used + cw > width && used > 0) push();
      line += ch;
      used += cw;
    }
  }
  if (used > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/** "Label     value", the value wrapped in its column (continuations indented under it). */
function row(label: string, value: string, width: number): string[] {
  const wrapped = wrapColumns(value, width - LABEL);
  return wrapped.map((text, i) => `${(i === 0 ? label : '').padEnd(LABEL)}${text}`.trimEnd());
}

/** Centred lines of `text`. */
function centred(text: string, width: number): string[] {
  return wrapColumns(text, width).map((line) => `${' '.repeat(Math.floor((width - receiptWidthOf(line)) / 2))}${line}`.trimEnd());
}

/** The words for the payment's state on the receipt (the counter screen's). */
export function receiptStateWords(info: PaymentInfo): string {
  return info.status === 'expired' && info.arrival.received === null ? 'expired; the gateway does not say whether anything arrived' : STATE_WORDS[info.status];
}

/** The receipt's text: lines of at most `options.width` columns, each ended by "\n". */
export function renderReceipt(info: PaymentInfo, options: ReceiptOptions): string {
  const { width } = options;
  const unicode = options.unicode === true;
  // Gateway text from its exact characters (white space folded before anything is removed).
  const paper = (value: { toString(): string; raw?: () => string } | null | undefined): string =>
    value === null || value === undefined ? '' : receiptText(value.raw?.() ?? String(value), unicode);
  const lines: string[] = [];
  const add = (label: string, value: string): void => {
    if (value !== '') lines.push(...row(label, value, width));
  };
  const heavy = (unicode ? '═' : '=').repeat(width);
  const light = (unicode ? '─' : '-').repeat(width);

  lines.push(heavy);
  const merchant = paper(options.merchantName);
  if (merchant !== '') lines.push(...centred(merchant, width));
  lines.push(...centred('RECEIPT', width));
  if (options.sandbox === true) lines.push(...centred('SANDBOX - NOT A REAL PAYMENT', width));
  lines.push(heavy);

  add('Date', localDateTime(new Date(options.now)));
  add('Order', paper(info.orderId));
  add('Track ID', paper(info.trackId));
  lines.push(light);

  const amount = (value: { toString(): string } | null, unit: { toString(): string } | null): string =>
    value === null ? '' : `${value}${unit === null ? '' : ` ${paper(unit)}`}`;
  add('Amount', amount(info.amount, info.currency) || 'not given');
  add('To pay', amount(info.payAmount, info.payCurrency));
  const { arrival } = info;
  if (arrival.received === null) add('Received', 'not reported by the gateway');
  else if (arrival.received.size === 0) add('Received', arrival.incomplete ? 'an amount gw could not read' : 'nothing');
  else {
    // One line per coin: exact sums, never converted.
    let first = true;
    for (const [coin, sum] of arrival.received) {
      add(first ? 'Received' : '', `${sum} ${paper(coin)}`);
      first = false;
    }
    if (arrival.unconfirmed.size > 0) add('', `(${[...arrival.unconfirmed].map(([c, s]) => `${s} ${paper(c)}`).join(' + ')} not confirmed)`);
    if (arrival.incomplete) add('', '+ an amount gw could not read');
  }
  if (arrival.difference !== null && arrival.expected !== null && !arrival.difference.isZero) {
    const coin = paper(arrival.expected.coin);
    if (arrival.difference.isNegative) add('Over', `${arrival.difference.toString().slice(1)} ${coin}`);
    else add('Short', `${arrival.difference} ${coin}`);
  }
  add('Network', paper(info.network));
  add('Address', paper(info.address));
  const txs = arrival.transactions;
  if (txs === null) add('Tx', paper(info.txID));
  else
    txs.forEach((tx, i) => {
      const label = txs.length === 1 ? 'Tx' : `Tx ${i + 1}`;
      const what = tx.amount === null ? 'amount not given' : `${tx.amount}${tx.coin === null ? '' : ` ${paper(tx.coin)}`}`;
      add(label, tx.count === 'not-counted' ? `${what} (${paper(tx.status) || 'not counted'}, not counted)` : what);
      add('', paper(tx.hash) || 'no hash');
    });
  const paid = parseTimestamp(info.payDate);
  if (paid !== undefined) add('Paid at', localDateTime(paid));
  lines.push(light);

  add('State', info.status.toUpperCase());
  add('', receiptText(receiptStateWords(info), unicode));
  lines.push(heavy);
  return `${lines.join('\n')}\n`;
}
