// The counter screen: what `gw pay` shows on a terminal the merchant turns to the customer. Pure
// functions from the payment, its URI, the QR as drawn, the terminal's size and the time to the
// lines to print; the pay command draws them (IOStreams.drawScreen), the tests decode them.
//
// Layout (docs/commands.md, "gw pay at the counter"):
// - the customer block (amount with its unit, network, address, memo, time left, and while
//   waiting the state) and the QR are visible together; the merchant's block (amount asked,
//   rate with its units, track id, order id, URI…) is separate, under a "Merchant" heading;
// - where the terminal is wide enough (28 columns beside the code), the text goes beside the QR,
//   customer block first; otherwise the customer block is above the QR and the merchant block
//   below it, or, when that would not fit the height, above everything (it scrolls away first);
// - everything fits height − 1 rows (the shell's prompt takes the last one) and width − 1
//   columns, so nothing scrolls or wraps;
// - the QR is drawn the first way that fits with the customer block (src/qr SCREEN_QR_LADDER:
//   the highest error correction level, then a narrower quiet zone, then a lower level); a code
//   that fits no way is never drawn cut: a notice says so where it stays visible, with the way
//   out (a larger window, the locale's fix, and the caller's: --qr-out for gw pay, qrWayOut);
// - a command to run in a note is never cut or broken: it is whole on a line of its own; beside
//   the QR where the column holds it, else under the QR at full width, else (no row left) above
//   everything, where it scrolls away first. When the text beside the QR is too long, the
//   merchant's least important rows go first (URI, callback, e-mail, description, rate…); the
//   customer block is never dropped. The state line wraps where there is room.
// The final screens (outcomeScreen) say PAID, or why not, in block letters.
import type { Palette } from '../output/palette.js';
import { amountsWords, differenceWords } from '../domain/arrival.js';
import type { Payment, PaymentInfo } from '../gateway/gateway.js';
import type { Decimal } from '../money/decimal.js';
import type { PaymentUri } from '../payment-uri/index.js';
import { bigText } from '../output/big-text.js';
import { padVisible, truncateVisible, visibleWidth, wrapPlain } from '../output/cells.js';
import { expiryWords as expiryText, localDateTime, parseTimestamp } from '../output/time.js';
import { Untrusted } from '../output/untrusted.js';
import { maskUrlText } from '../output/url-credentials.js';
import { wrapLine } from '../output/wrap.js';

/** The QR as renderTerminalQr drew it, and its size in cells (from qrSymbol). */
export interface ScreenQr {
  text: string;
  columns: number;
  rows: number;
}

export interface CounterScreenInput {
  payment: Payment;
  uri: PaymentUri;
  /**
   * The QR as drawn, or the ways it can be drawn (the first that fits the window is used); undefined
   * when the URI must not be drawn (a memo it cannot carry).
   */
  qr: ScreenQr | ScreenQrChoices | undefined;
  width: number;
  height: number;
  now: number;
  chalk: Palette;
  sandbox: boolean;
  /** The order id was made up by gw (shown as such). */
  orderIdGenerated?: boolean;
  /** The file the QR image was written to. */
  qrOut?: string | undefined;
  /**
   * The way out the notice names when no QR is drawn, besides a larger window (or the locale's
   * fix): words after "or" ("write the code to a file with …"). Unset: gw pay's --qr-out; null:
   * none (gw counter has no --qr-out).
   */
  qrWayOut?: string | null | undefined;
  /** While waiting: one line of state (spinner, state, last check), under the customer block. */
  status?: string | undefined;
  /** More lines for the merchant ("reusing payment …"), already safe. */
  notes?: readonly string[];
}

/** Columns between the QR and the text beside it. */
const GAP = 2;
/** The narrowest text column worth putting beside the QR. */
export const MIN_SIDE_WIDTH = 28;

interface Row {
  label: string;
  /** Plain, terminal-safe text (wrapped here, then styled). */
  value: string;
  style?: (text: string) => string;
}

/** Label/value rows in `width` columns, each row's lines apart: values wrapped under their column, long labels on their own line. */
function rowLines(rows: readonly Row[], width: number, chalk: Palette): string[][] {
  const labelWidth = Math.min(12, Math.max(0, ...rows.map((r) => r.label.length)));
  const valueWidth = width - labelWidth - 1;
  return rows.map((row) => {
    const style = row.style ?? ((t: string) => t);
    // A long unbroken value (an address, a URI) gets whole lines of its own rather than a sliver.
    const ownLines = valueWidth < 12 || (!row.value.includes(' ') && row.value.length > valueWidth && valueWidth < width * 0.75);
    if (ownLines) return [chalk.dim(truncateVisible(row.label, width)), ...wrapPlain(row.value, width).map((piece) => style(piece))];
    return wrapPlain(row.value, valueWidth).map((piece, i) => `${padVisible(i === 0 ? chalk.dim(row.label) : '', labelWidth)} ${style(piece)}`.trimEnd());
  });
}

/** Label/value rows in `width` columns. */
function renderRows(rows: readonly Row[], width: number, chalk: Palette): string[] {
  return rowLines(rows, width, chalk).flat();
}

/** A line of plain text wrapped to `width`, each piece styled. */
function prose(text: string, width: number, style: (t: string) => string): string[] {
  return wrapPlain(text, width).map((piece) => style(piece));
}

function networkWords(payment: Payment, uri: PaymentUri): string {
  const network = payment.network?.toString() ?? '';
  if (uri.networkId !== undefined && uri.networkName !== network) return network === '' ? uri.networkName : `${uri.networkName} (${network})`;
  return network || '(not given)';
}

function expiryWords(payment: Payment, now: number): string | undefined {
  // A value that is no possible time (-1, 10^20) is "unknown (the gateway sent …)", never a date.
  return expiryText(payment.expiredAt, now);
}

function toUnits(d: Decimal): bigint {
  return d.toBaseUnits(d.fractionDigits);
}

/**
 * The rate with its units. Which way the gateway's `rate` goes is not documented, so it is read
 * from the amounts: "1 USD = 0.0000152 BTC" when amount × rate is the pay amount, "1 BTC = 65573.55
 * USD" when pay amount × rate is the amount (exact BigInt arithmetic; the closer one wins).
 */
export function rateWords(payment: Pick<Payment, 'amount' | 'currency' | 'payAmount' | 'payCurrency' | 'rate'>): string | undefined {
  const { amount, payAmount, rate } = payment;
  if (rate === null) return undefined;
  const currency = payment.currency?.toString() ?? '';
  const pay = payment.payCurrency?.toString() ?? '';
  if (currency === '' || pay === '') return `${rate}`;
  const forward = `1 ${currency} = ${rate} ${pay}`;
  const backward = `1 ${pay} = ${rate} ${currency}`;
  if (amount === null || payAmount === null || !amount.isPositive || !payAmount.isPositive || !rate.isPositive || currency === pay) return forward;
  const [A, sa, P, sp, R, sr] = [toUnits(amount), amount.fractionDigits, toUnits(payAmount), payAmount.fractionDigits, toUnits(rate), rate.fractionDigits];
  const ten = (n: number): bigint => 10n ** BigInt(n);
  const abs = (n: bigint): bigint => (n < 0n ? -n : n);
  // Relative errors of both readings as fractions N/D; compared by cross-multiplying.
  const n1 = abs(A * R * ten(sp) - P * ten(sa + sr));
  const d1 = P * ten(sa + sr);
  const n2 = abs(P * R * ten(sa) - A * ten(sp + sr));
  const d2 = A * ten(sp + sr);
  return n1 * d2 <= n2 * d1 ? forward : backward;
}

/**
 * What the customer reads, as short lines rather than a table (a narrow column beside the QR
 * keeps them whole): the SANDBOX mark, the amount in bold, the network, the address, the memo,
 * the time left and, while waiting, the state.
 */
function customerBlock(input: CounterScreenInput, width: number, wrapStatus = true): string[] {
  const { chalk, payment, uri } = input;
  const lines: string[] = [];
  if (input.sandbox) {
    // Whole, never cut: the mark and its words, on two lines when one is too narrow.
    const mark = chalk.bgYellow.black(' SANDBOX ');
    const words = 'test payment: send nothing';
    if (visibleWidth(mark) + 1 + words.length <= width) lines.push(`${mark} ${chalk.yellow(words)}`);
    else lines.push(mark, ...prose(words, width, chalk.yellow));
  }
  const amount = `${payment.payAmount} ${payment.payCurrency ?? ''}`.trim();
  if (`Pay exactly ${amount}`.length <= width) lines.push(`${chalk.dim('Pay exactly')} ${chalk.bold(amount)}`);
  else lines.push(chalk.dim('Pay exactly'), ...prose(amount, width, (t) => chalk.bold(t)));
  const full = `on ${networkWords(payment, uri)}`;
  lines.push(...(full.length <= width || uri.networkId === undefined ? prose(full, width, (t) => t) : prose(`on ${uri.networkName}`, width, (t) => t)));
  lines.push(...indented('to', String(payment.address), width, chalk, (t) => t));
  if (uri.memo !== undefined) lines.push(...indented('memo', `${Untrusted.of(uri.memo).toString()} (required)`, width, chalk, (t) => chalk.bold(t)));
  const expires = expiryWords(payment, input.now);
  if (expires !== undefined) lines.push(...prose(expires, width, (t) => t));
  if (!uri.qr) {
    lines.push(...prose(`No QR code: ${uri.qrRefusal ?? 'the memo cannot go in one'}. Send the amount to the address with the memo.`, width, chalk.yellow));
  } else if (!uri.amountInUri) {
    lines.push(...prose('The QR code holds only the address: enter the amount above.', width, chalk.yellow));
  }
  if (input.status !== undefined) {
    // Wrapped at words where there is room (the layout asks), else the one line, cut.
    lines.push('', ...(wrapStatus ? wrapLine(input.status, width).map((line) => truncateVisible(line, width)) : [truncateVisible(input.status, width)]));
  }
  return lines;
}

/** "to tb1q…" with the value's further lines under its first character. */
function indented(word: string, value: string, width: number, chalk: Palette, style: (t: string) => string): string[] {
  const pad = word.length + 1;
  return wrapPlain(value, Math.max(8, width - pad)).map((piece, i) => `${i === 0 ? chalk.dim(word) : ' '.repeat(word.length)} ${style(piece)}`);
}

/**
 * The merchant's rows, each with the rank it is dropped in when the text beside the QR is too
 * long (lowest first: the URI, which the QR holds, before the track id).
 */
function merchantRows(input: CounterScreenInput): (Row & { rank: number })[] {
  const rows = merchantRowList(input);
  const RANKS: Record<string, number> = { URI: 1, Callback: 2, 'E-mail': 3, Description: 4, Rate: 5, Amount: 6, 'QR image': 7, 'Order ID': 8, 'Track ID': 9 };
  return rows.map((row) => ({ ...row, rank: RANKS[row.label] ?? 0 }));
}

function merchantRowList(input: CounterScreenInput): Row[] {
  const { payment, uri } = input;
  const rows: Row[] = [];
  if (payment.amount !== null) rows.push({ label: 'Amount', value: `${payment.amount} ${payment.currency ?? ''}`.trim() });
  const rate = rateWords(payment);
  if (rate !== undefined) rows.push({ label: 'Rate', value: rate });
  rows.push({ label: 'Track ID', value: payment.trackId.toString() });
  if (payment.orderId !== null && !payment.orderId.isBlank)
    rows.push({ label: 'Order ID', value: `${payment.orderId}${input.orderIdGenerated === true ? ' (generated)' : ''}` });
  if (payment.description !== null && !payment.description.isBlank) rows.push({ label: 'Description', value: payment.description.toString() });
  if (payment.email !== null && !payment.email.isBlank) rows.push({ label: 'E-mail', value: payment.email.toString() });
  if (payment.callbackUrl !== null && !payment.callbackUrl.isBlank) rows.push({ label: 'Callback', value: maskUrlText(payment.callbackUrl.toString()) });
  if (uri.qr) rows.push({ label: 'URI', value: uri.uri });
  if (input.qrOut !== undefined) rows.push({ label: 'QR image', value: input.qrOut });
  return rows;
}

/**
 * The notes in groups laid out together: a note ending with ":" leads the next one in ("Follow it
 * until it is paid:" and the command).
 */
function noteGroups(notes: readonly string[]): string[][] {
  const groups: string[][] = [];
  let open = false;
  for (const note of notes) {
    const last = groups.at(-1);
    if (open && last !== undefined) last.push(note);
    else groups.push([note]);
    open = /:\s*$/.test(note);
  }
  return groups;
}

/** A group of notes in `width` columns: words wrapped, each command to run whole on a line of its own (wider than `width` when it must be: never cut). */
function noteLines(group: readonly string[], width: number): string[] {
  return group.flatMap((note) => wrapLine(note, width));
}

function merchantBlock(input: CounterScreenInput, width: number): string[] {
  const { chalk } = input;
  const lines = [chalk.dim('─ Merchant ─'), ...renderRows(merchantRowList(input), width, chalk)];
  for (const group of noteGroups(input.notes ?? [])) lines.push(...noteLines(group, width));
  return lines;
}

/** The ways the QR can be drawn, sized (src/qr qrChoices), best first: the screen draws the first that fits. */
export interface ScreenQrChoices {
  choices: readonly { columns: number; rows: number; draw(): string }[];
  /** Drawn in ASCII (a locale without UTF-8): why, and the fix (src/qr asciiReason), for the notice. */
  asciiReason?: string | undefined;
}

/** The QR and the layout the screen uses, or undefined when no way of drawing it fits. */
/**
 * The QR and the layout the screen uses, or undefined when no way of drawing it fits. Beside the
 * QR, a way that leaves rows under it for the notes too wide for the column (a command) is
 * preferred; else the first that fits with the customer block.
 */
function fitQr(
  input: CounterScreenInput,
  qr: ScreenQrChoices,
  width: number,
  height: number,
  wrapStatus: boolean,
): { qr: ScreenQr; side: boolean } | undefined {
  for (const whole of [true, false]) {
    for (const choice of qr.choices) {
      if (choice.columns > width || choice.rows > height) continue;
      const side = width - choice.columns - GAP;
      const fits =
        side >= MIN_SIDE_WIDTH
          ? customerBlock(input, side, wrapStatus).length <= Math.max(choice.rows, height) &&
            (!whole || choice.rows + splitNotes(input, side, width).wide.length <= height)
          : customerBlock(input, width, wrapStatus).length + choice.rows <= height;
      if (fits) return { qr: { text: choice.draw(), columns: choice.columns, rows: choice.rows }, side: side >= MIN_SIDE_WIDTH };
    }
  }
  return undefined;
}

/** The notes beside the QR (`side` columns), and those with a command too wide for it, at the full width. */
function splitNotes(input: CounterScreenInput, side: number, width: number): { beside: string[]; wide: string[] } {
  const beside: string[] = [];
  const wide: string[] = [];
  for (const group of noteGroups(input.notes ?? [])) {
    const lines = noteLines(group, side);
    if (lines.every((line) => visibleWidth(line) <= side)) beside.push(...lines);
    else wide.push(...noteLines(group, width));
  }
  return { beside, wide };
}

/** Why no code is drawn, and the way out: a larger window (or the locale's fix), and the caller's (gw pay's --qr-out). */
function notDrawnWords(input: CounterScreenInput, qr: ScreenQrChoices): string {
  const out =
    input.qrWayOut === undefined
      ? `write the code to a file with --qr-out <file.png>${input.qrOut === undefined ? '' : ` (as ${input.qrOut})`}`
      : (input.qrWayOut ?? undefined);
  if (qr.asciiReason !== undefined) return `No QR code here: ${qr.asciiReason}${out === undefined ? '' : `; or ${out}`}.`;
  const least = qr.choices.at(-1);
  const size = least === undefined ? '' : `, ${least.columns} columns by ${least.rows} rows,`;
  return `No QR code here: the smallest that scans${size} does not fit this ${input.width}×${input.height} window with the amount and address. Enlarge the window${out === undefined ? '' : `, or ${out}`}.`;
}

/** The counter screen's lines (no trailing newline on any). */
export function counterScreen(input: CounterScreenInput): string[] {
  const width = Math.max(20, input.width - 1);
  const height = Math.max(5, input.height - 1);
  const { chalk } = input;
  if (input.qr === undefined) return [...customerBlock(input, width), '', ...merchantBlock(input, width)];
  const choices: ScreenQrChoices = 'choices' in input.qr ? input.qr : { choices: [{ ...input.qr, draw: () => (input.qr as ScreenQr).text }] };
  // The state line wrapped where that leaves room for the code, else on one line.
  let wrapStatus = true;
  let fitted = fitQr(input, choices, width, height, true);
  if (fitted === undefined && input.status !== undefined) {
    fitted = fitQr(input, choices, width, height, false);
    wrapStatus = fitted === undefined;
  }
  if (fitted === undefined) {
    // Never a code cut by the window: none, and a notice that stays on screen.
    const customer = customerBlock(input, width);
    const notice = wrapLine(notDrawnWords(input, choices), width).map((line) => chalk.yellow.bold(line));
    const merchant = merchantBlock(input, width);
    return customer.length + notice.length + 1 + merchant.length <= height
      ? [...customer, ...notice, '', ...merchant]
      : [...merchant, '', ...customer, ...notice];
  }
  const { qr } = fitted;
  const qrLines = qr.text.replace(/\n$/, '').split('\n');
  if (fitted.side) return besideQr(input, qrLines, qr.columns, width, height, wrapStatus);
  const customer = customerBlock(input, width, wrapStatus);
  const merchant = merchantBlock(input, width);
  return customer.length + qrLines.length + 1 + merchant.length <= height
    ? [...customer, ...qrLines, '', ...merchant]
    : [...merchant, '', ...customer, ...qrLines];
}

/**
 * The text beside the QR: the customer block, then the merchant's rows and the notes. A note
 * whose command is wider than the column goes under the QR at full width, or above everything
 * when no row is left under it (it scrolls away first, whole). When the column is longer than the
 * screen, the merchant's rows go, least important first; only then is the column cut.
 */
function besideQr(input: CounterScreenInput, qrLines: readonly string[], columns: number, width: number, height: number, wrapStatus: boolean): string[] {
  const { chalk } = input;
  const side = width - columns - GAP;
  const customer = customerBlock(input, side, wrapStatus);
  const { beside, wide } = splitNotes(input, side, width);
  const rows = merchantRows(input);
  const rendered = rowLines(rows, side, chalk);
  const kept = new Set(rows.map((_, i) => i));
  const column = (): string[] => {
    const merchant = rendered.filter((_, i) => kept.has(i)).flat();
    const under = [...merchant, ...beside];
    return under.length === 0 ? customer : [...customer, '', chalk.dim('─ Merchant ─'), ...under];
  };
  const room = Math.max(qrLines.length, height);
  const below = wide.length > 0 && qrLines.length + wide.length <= height;
  const fits = (): boolean => {
    const length = column().length;
    return below ? Math.max(length, qrLines.length) + wide.length <= height : length <= room;
  };
  const order = rows.map((row, i) => ({ rank: row.rank, i })).sort((a, b) => a.rank - b.rank);
  for (const { i } of order) {
    if (fits()) break;
    kept.delete(i);
  }
  let right = column();
  const limit = below ? height - wide.length : room;
  // The last resort, with nothing left to drop: the column cut (no command is in it).
  if (right.length > limit) right = [...right.slice(0, Math.max(0, limit - 1)), chalk.dim('…')];
  const lines: string[] = [];
  for (let i = 0; i < Math.max(qrLines.length, right.length); i++) {
    const text = right[i] ?? '';
    const left = qrLines[i] ?? (text === '' ? '' : ' '.repeat(columns));
    lines.push(text === '' ? left : `${left}${' '.repeat(GAP)}${text}`);
  }
  if (wide.length === 0) return lines;
  return below ? [...lines, ...wide] : [...wide, '', ...lines];
}

// ---------------------------------------------------------------------------------------------
// The end of a payment

export type Outcome = 'paid' | 'underpaid' | 'expired' | 'late' | 'failed' | 'refunded' | 'not-paid';

export interface OutcomeScreenInput {
  outcome: Outcome;
  payment: Payment;
  /** The last answer, when there was one. */
  info: PaymentInfo | undefined;
  /** Amount received when the gateway said (underpaid), where the answer lists no transactions (info.arrival says more). */
  received: Decimal | undefined;
  width: number;
  height: number;
  chalk: Palette;
  sandbox: boolean;
  orderIdGenerated?: boolean;
}

const WORDS: Record<Outcome, string> = {
  paid: 'PAID',
  underpaid: 'UNDERPAID',
  expired: 'EXPIRED',
  late: 'LATE',
  failed: 'FAILED',
  refunded: 'REFUNDED',
  'not-paid': 'NOT PAID',
};

/** The final screen: PAID, or why not, in block letters, and what the merchant needs next. */
export function outcomeScreen(input: OutcomeScreenInput): string[] {
  const { chalk, payment, info, outcome } = input;
  const width = Math.max(20, input.width - 1);
  const height = Math.max(5, input.height - 1);
  const owed = `${info?.payAmount ?? payment.payAmount} ${info?.payCurrency ?? payment.payCurrency ?? ''}`.trim();
  const tone = outcome === 'paid' ? chalk.green.bold : outcome === 'not-paid' ? chalk.yellow.bold : chalk.red.bold;
  // What arrived, from the transactions (src/domain/arrival.ts): never "nothing" when something did.
  const arrival = info?.arrival;
  const received = arrival?.received ?? null;
  const check = `gw status ${payment.trackId.line(100)} --api v1`;
  const short = arrival === undefined ? undefined : differenceWords(arrival);
  const underpaid =
    received !== null
      ? `Only ${amountsWords(received)} arrived${short === undefined ? '' : `: ${short}`}. Do not hand over the goods for the full amount: ask for the rest, accept it, or refund it.`
      : input.received !== undefined
        ? `Only ${input.received} of ${owed} was received. Do not hand over the goods for the full amount.`
        : 'Less than the amount was paid; the legacy API does not say how much. Do not hand over the goods for the full amount.';
  const expired =
    received !== null
      ? 'Nothing arrived, and this payment can no longer be paid.'
      : `This payment expired and can no longer be paid. The legacy API does not say whether anything arrived: check with ${check} before creating another payment.`;
  const late =
    received !== null
      ? `${amountsWords(received)} arrived after the payment expired${short === undefined ? '' : ` (${short})`}. Do not create a new payment for this order: accept the funds or refund them.`
      : `A transaction arrived after the payment expired; the legacy API does not say how much. Do not create a new payment for this order: check with ${check}, then accept or refund it.`;
  const headline: Record<Outcome, string> = {
    paid: `${owed} received. The payment is complete.`,
    underpaid,
    expired,
    late,
    failed: 'The payment failed. Do not hand over the goods.',
    refunded: 'The payment was refunded. Do not hand over the goods.',
    'not-paid': 'No payment was seen, long after it expired. Treat it as unpaid.',
  };
  const rows: Row[] = [];
  rows.push({ label: 'Track ID', value: payment.trackId.toString() });
  const orderId = info?.orderId ?? payment.orderId;
  if (orderId !== null && !orderId.isBlank) rows.push({ label: 'Order ID', value: `${orderId}${input.orderIdGenerated === true ? ' (generated)' : ''}` });
  if (payment.amount !== null) rows.push({ label: 'Amount', value: `${payment.amount} ${payment.currency ?? ''}`.trim() });
  const paidAt = parseTimestamp(info?.payDate);
  if (paidAt !== undefined) rows.push({ label: 'Paid at', value: localDateTime(paidAt) });
  if (info?.txID !== null && info?.txID !== undefined && !info.txID.isBlank) rows.push({ label: 'Transaction', value: info.txID.toString() });
  const gatewayStatus = info?.gatewayStatus;
  if (gatewayStatus !== null && gatewayStatus !== undefined) rows.push({ label: 'Gateway says', value: gatewayStatus.toString() });

  const below = [...prose(headline[outcome], width, tone), '', ...renderRows(rows, width, chalk)];
  const top = input.sandbox ? [truncateVisible(`${chalk.bgYellow.black(' SANDBOX ')} ${chalk.yellow('test payment: no real money')}`, width), ''] : [];
  const big = bigText(WORDS[outcome], width, height - below.length - top.length - 1) ?? [WORDS[outcome]];
  return [...top, ...big.map((line) => tone(line)), '', ...below];
}

/** Visible width of the widest line (for tests and callers that centre). */
export function screenWidth(lines: readonly string[]): number {
  return Math.max(0, ...lines.map(visibleWidth));
}
