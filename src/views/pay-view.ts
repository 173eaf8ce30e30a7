// What gw pay shows of the payment it created or found: one JSON document, the counter screen (a
// terminal, payable) or the details with the terminal QR; after --wait the final screen or the
// last state; and the order --reuse-if-exists found already paid. Everything goes through IOStreams.
import type { Payment, PaymentInfo } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { paymentFromInfo } from '../operations/payment-info.js';
import type { IOStreams } from '../output/iostreams.js';
import { counterScreen, outcomeScreen, rateWords, type Outcome, type ScreenQrChoices } from './counter-screen.js';
import { statusText } from './status-view.js';
import { renderDetails, type DetailRow } from '../output/table.js';
import { expiryWords } from '../output/time.js';
import { Untrusted } from '../output/untrusted.js';
import { maskUrlText } from '../output/url-credentials.js';
import type { PaymentUri } from '../payment-uri/index.js';
import type { Clock } from '../util/clock.js';
import type { WaitEnding } from './wait-ending.js';

/** What showing a payment needs of gw pay's options (io, clock, --qr, --qr-out, --no-clear). */
export interface PayView {
  io: IOStreams;
  clock: Clock;
  qr: 'auto' | 'always' | 'never';
  qrOut: string | undefined;
  /**
   * The way out the counter screen names when no QR fits, besides a larger window (or the
   * locale's fix): unset, --qr-out; null, none (gw counter has no --qr-out).
   */
  qrWayOut?: string | null;
  /** gw made the order id up (none was given). */
  orderIdGenerated?: boolean;
  /** Clear the terminal before drawing the counter screen (false with --no-clear). */
  clear?: boolean;
  /** Redraw the counter screen in place while waiting (not with --verbose, whose lines would break it). */
  redraw?: boolean;
}

/** The amount received, when the answer says (receivedAmount: the sandbox's; a number or numeric text). */
function receivedAmount(info: PaymentInfo): Decimal | undefined {
  const value = info.fields.receivedAmount;
  const amount = value instanceof Decimal ? value : value instanceof Untrusted ? Decimal.fromLiteral(value.raw()) : undefined;
  return amount === undefined || amount.isNegative ? undefined : amount;
}

/** The outcome a final state is shown as, on the counter screen. */
function outcomeOf(ending: WaitEnding): Outcome | undefined {
  if (ending.kind === 'final') {
    const status = ending.info.status;
    return status === 'paid' || status === 'underpaid' || status === 'expired' || status === 'late' || status === 'failed' || status === 'refunded'
      ? status
      : undefined;
  }
  return ending.kind === 'gave-up' && ending.reason === 'expiry' ? 'not-paid' : undefined;
}

/** After the wait: the final screen, or the last state, and for scripts the final document. */
export function showEnding(
  opts: PayView,
  payment: Payment,
  uri: PaymentUri,
  ending: WaitEnding,
  screen: ((status?: string) => void) | undefined,
  reused: boolean,
): void {
  const { io, clock } = opts;
  const info = ending.info;
  if (io.json) {
    io.printJson({ ...payment, uri: uri.qr ? uri.uri : null, ...(info === undefined ? {} : info.fields), ...(reused && { reused: true }) });
    return;
  }
  const outcome = outcomeOf(ending);
  if (screen !== undefined && opts.redraw !== false) {
    if (outcome !== undefined) {
      io.drawScreen(
        outcomeScreen({
          outcome,
          payment,
          info,
          received: info === undefined ? undefined : receivedAmount(info),
          width: io.width(),
          height: io.height(),
          chalk: io.chalk,
          sandbox: io.sandbox,
          orderIdGenerated: opts.orderIdGenerated === true,
        }),
        { clear: opts.clear !== false },
      );
    } else {
      screen(io.chalk.yellow.bold(`■ Stopped waiting: the payment is still ${info?.status ?? 'open'}`));
    }
    io.endScreen();
    return;
  }
  if (info !== undefined) io.out(`\n${statusText(info, clock.now(), io.chalk, io.sandbox)}`);
}

/** --reuse-if-exists found the order paid: show it, create nothing, exit 0. */
export function showAlreadyPaid(opts: PayView, info: PaymentInfo, orderId: string | undefined): void {
  const { io } = opts;
  if (io.json) {
    io.printJson({ ...info.fields, reused: true });
    return;
  }
  if (io.canRedraw()) {
    if (opts.clear !== false) io.clearScreen();
    io.drawScreen(
      outcomeScreen({
        outcome: 'paid',
        payment: paymentFromInfo(info),
        info,
        received: receivedAmount(info),
        width: io.width(),
        height: io.height(),
        chalk: io.chalk,
        sandbox: io.sandbox,
      }),
    );
    io.endScreen();
    io.notice(`gw: order "${orderId ?? ''}" is already paid (payment ${info.trackId}): no new payment was created`);
    return;
  }
  io.notice(`gw: order "${orderId ?? ''}" is already paid (payment ${info.trackId}): no new payment was created`);
  io.out(statusText(info, opts.clock.now(), io.chalk, io.sandbox));
}

/**
 * The payment, as JSON, as the counter screen (a terminal, payable) or as details; with its QR
 * when `uri` is given and wanted. Returns the screen's redraw function when the counter screen was
 * drawn (its argument: the state line while waiting).
 */
export async function printPayment(
  opts: PayView,
  payment: Payment,
  uri: PaymentUri | undefined,
  notes: readonly string[] = [],
  reused = false,
  /** A wait follows: its one JSON document comes at the end (showEnding). */
  waiting = false,
): Promise<((status?: string) => void) | undefined> {
  const { io } = opts;
  const wantQr = uri?.qr && (opts.qr === 'always' || (opts.qr === 'auto' && io.drawQrByDefault()));
  if (io.json) {
    if (!waiting) io.printJson({ ...payment, uri: uri?.qr === true ? uri.uri : null, ...(reused && { reused: true }) });
    if (wantQr) io.err(await renderQr(io, uri.uri));
    return undefined;
  }
  // The previous payment's screen must not stay visible above this one, payable or not.
  if (opts.clear !== false) io.clearScreen();
  if (uri !== undefined && io.canRedraw()) {
    const qr = wantQr ? await screenQr(io, uri.uri) : undefined;
    const draw = (status?: string): void =>
      io.drawScreen(
        counterScreen({
          payment,
          uri,
          qr,
          width: io.width(),
          height: io.height(),
          now: opts.clock.now(),
          chalk: io.chalk,
          sandbox: io.sandbox,
          orderIdGenerated: opts.orderIdGenerated === true,
          qrOut: opts.qrOut,
          ...(opts.qrWayOut !== undefined && { qrWayOut: opts.qrWayOut }),
          status,
          notes,
        }),
        { clear: opts.clear !== false },
      );
    draw(waiting ? '… Checking the payment' : undefined);
    if (!waiting) io.endScreen();
    return draw;
  }
  io.sandboxBanner();
  const { chalk } = io;
  let text = renderDetails(paymentRows(opts, payment, uri));
  for (const note of notes) text += `${note}\n`;
  if (uri === undefined) {
    io.out(`${text}${chalk.bold.red('NOT PAYABLE: do not show this to a payer.')}\n`);
    return undefined;
  }
  if (wantQr) text += `\n${await renderQr(io, uri.uri)}`;
  if (!uri.qr) {
    text += `\n${chalk.bold.yellow(`No QR code: ${uri.qrRefusal ?? 'the memo cannot go in one'}.`)} The payer must send ${chalk.bold(`${payment.payAmount} ${payment.payCurrency}`)} to the address above with the memo ${chalk.bold(Untrusted.of(uri.memo ?? '').toString())}.\n`;
  } else if (!uri.amountInUri) {
    text += `\n${chalk.bold.yellow('The QR code holds only the address.')} The payer must enter the amount: ${chalk.bold(`${payment.payAmount} ${payment.payCurrency}`)}\n`;
  }
  if (opts.qrOut !== undefined) text += `QR image written to ${opts.qrOut}\n`;
  if (io.sandbox) text += `${chalk.yellow('SANDBOX payment: a made-up address nobody watches; never send funds to it.')}\n`;
  io.out(text);
  return undefined;
}

/** The ways the counter screen may draw the QR, best first (src/qr qrChoices); it takes the first that fits. */
export async function screenQr(io: IOStreams, text: string): Promise<ScreenQrChoices> {
  const { asciiReason, qrChoices } = await import('../qr/index.js');
  const options = io.qrRenderOptions();
  return { choices: qrChoices(text, options), ...(options.charset === 'ascii' && { asciiReason: asciiReason(options.locale) }) };
}

function paymentRows(opts: PayView, payment: Payment, uri: PaymentUri | undefined): DetailRow[] {
  const { chalk } = opts.io;
  const rows: DetailRow[] = [];
  if (uri !== undefined) {
    // What the payer reads. A payment that is not payable shows none of it: no amount to send,
    // no address to send it to.
    const network = payment.network?.toString() ?? '';
    rows.push(
      { label: 'Pay exactly', value: `${chalk.bold(String(payment.payAmount))} ${payment.payCurrency ?? ''}`.trim() },
      { label: 'Network', value: uri.networkId && uri.networkName !== network ? `${uri.networkName} (${network})` : network || '(not given)' },
      { label: 'Address', value: chalk.bold(String(payment.address)) },
    );
    if (uri.memo !== undefined)
      rows.push({
        label: 'Memo',
        value: `${chalk.bold(Untrusted.of(uri.memo).toString())}  ${chalk.yellow('(required: without it the payment cannot be matched)')}`,
      });
    const expires = expiryWords(payment.expiredAt, opts.clock.now());
    if (expires !== undefined) rows.push({ label: 'Expires', value: expires });
  }
  if (payment.amount !== null) rows.push({ label: 'Amount', value: `${payment.amount} ${payment.currency ?? ''}`.trim() });
  const rate = rateWords(payment);
  if (rate !== undefined && uri !== undefined) rows.push({ label: 'Rate', value: rate });
  rows.push({ label: 'Track ID', value: payment.trackId.toString() });
  if (payment.orderId && !payment.orderId.isBlank)
    rows.push({ label: 'Order ID', value: `${payment.orderId}${opts.orderIdGenerated === true ? ' (generated by gw)' : ''}` });
  if (payment.description && !payment.description.isBlank) rows.push({ label: 'Description', value: payment.description.toString() });
  if (payment.email && !payment.email.isBlank) rows.push({ label: 'Payer e-mail', value: payment.email.toString() });
  if (payment.callbackUrl && !payment.callbackUrl.isBlank) rows.push({ label: 'Callback', value: maskUrlText(payment.callbackUrl.toString()) });
  if (uri?.qr === true) rows.push({ label: 'URI', value: uri.uri });
  return rows;
}

async function renderQr(io: IOStreams, text: string): Promise<string> {
  const { asciiReason, renderTerminalQr, qrWidth } = await import('../qr/index.js');
  const options = io.qrRenderOptions();
  const width = qrWidth(text, options);
  const columns = io.width();
  if (io.stdoutIsTTY && width > columns) {
    // Under a locale without UTF-8 the way out is the locale, not the window.
    const fix = options.charset === 'ascii' ? asciiReason(options.locale) : 'widen it';
    io.warn(`the QR code needs ${width} columns and the terminal has ${columns}: ${fix}; or use --qr-out <file.png>`);
    return '';
  }
  const drawn = renderTerminalQr(text, options);
  // A code taller than the screen can never be scanned whole from it: never drawn cut.
  const rows = drawn.split('\n').filter((line) => line !== '').length;
  if (io.stdoutIsTTY && rows > io.height() - 1) {
    const fix = options.charset === 'ascii' ? asciiReason(options.locale) : 'enlarge the window';
    io.warn(`the QR code needs ${rows} lines and the terminal has ${io.height()}: ${fix}; or use --qr-out <file.png>`);
    return '';
  }
  return drawn;
}
