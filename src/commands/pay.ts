// gw pay <amount> <currency>: create a white-label payment and show it to the payer — the amount,
// the network, the payment URI for that network, and a QR code that scans on any terminal theme.
//
// What the exit code must never hide: once the request may have reached the gateway, a payment may
// exist. So everything that can be checked is checked before the request; after it, a failure
// still shows the payment it concerns first, says whether it exists ("created") or may exist
// ("unknown"), and never exits with a usage code. Every payment carries an order id (the user's,
// or one gw makes up: src/cmdutil/order-id.ts), so such a failure names the command that finds
// it, and `--reuse-if-exists` looks for it before creating another.
//
// What it shows is src/views/pay-view.ts. On a terminal the payment is the counter screen
// (src/views/counter-screen.ts), drawn on a cleared screen; with --wait it is redrawn in place
// until the payment ends, and ends on PAID (or why not) in block letters. Exit codes of the wait:
// src/cmdutil/wait.ts.
import { Command } from 'commander';
import type { Factory } from '../cmdutil/factory.js';
import { followPayment } from '../cmdutil/follow.js';
import { withHelp } from '../cmdutil/help.js';
import { randomOrderId } from '../cmdutil/order-id.js';
import { type WaitFlags, waitChoice, waitContext } from '../cmdutil/wait-flags.js';
import { qrChoice } from '../cmdutil/args.js';
import { type Existing, findExisting, paymentFromInfo } from '../cmdutil/existing-payment.js';
import { expectedOfPayment, paymentUriOf, unpayableReason } from '../cmdutil/created-payment.js';
import { deliverOutput } from '../cmdutil/deliver-output.js';
import { ambiguousFailure, buildPaymentRequest, type PaymentRequestFlags } from '../cmdutil/payment-request.js';
import { checkQrOutWritable, writePaymentQr } from '../cmdutil/qr-out.js';
import { prepareReceipt, type ReceiptFlags, type ReceiptRequest, receiptRequestOf, writeFinalReceipt } from '../cmdutil/receipts.js';
import { endingFailure, resumeCommand } from '../cmdutil/wait.js';
import { LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, Payment, PaymentRequest } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { withSpinner } from '../output/spinner.js';
import { localDateTime, parseTimestamp, readTimestamp } from '../output/time.js';
import type { PaymentUri } from '../payment-uri/index.js';
import { type PayView, printPayment, showAlreadyPaid, showEnding } from '../views/pay-view.js';

// Moved to src/cmdutil/payment-request.ts (gw counter sends the same requests); still exported here.
export { ambiguousFailure, buildPaymentRequest };

export interface PayFlags extends ReceiptFlags, PaymentRequestFlags, WaitFlags {
  /** true: --qr, false: --no-qr, undefined: decide from the terminal. */
  qr?: boolean;
  qrOut?: string;
  reuseIfExists?: boolean;
  /** false with --no-clear. */
  clear?: boolean;
}

/** The parsed arguments and what pay needs from the factory; what it shows with is a PayView. */
export interface PayOptions extends PayView {
  gateway: () => Promise<GatewayClient>;
  request: PaymentRequest;
  /** Look for an open or paid payment with the order id before creating one. */
  reuseIfExists?: boolean;
  /** Follow the payment until it ends. */
  wait?: boolean;
  /** --wait-timeout in ms. */
  waitTimeoutMs?: number | undefined;
  /** Ends a wait (Ctrl-C); a never-aborted signal by default. */
  signal?: AbortSignal;
  /** Lifts the whole-command deadline for the wait. */
  releaseDeadline?: () => void;
  /** --receipt: written when the wait ends in a final state (src/cmdutil/receipts.ts). */
  receipt?: ReceiptRequest | undefined;
}

export function newCmdPay(f: Factory, runF: (opts: PayOptions) => Promise<void> = payRun): Command {
  const command = new Command('pay')
    .argument('<amount>', 'amount to charge, a plain decimal such as 25 or 0.00038127')
    .argument('<currency>', 'currency of the amount: a coin (BTC, USDT) or fiat (USD, EUR)')
    .option('--pay-currency <sym>', 'coin the payer sends (default: <currency>)')
    .option('--network <name>', 'network for a coin on several chains, e.g. "Ethereum Network" (sent only when given)')
    .option('--life-time <minutes>', `minutes until the payment expires, ${LIFETIME.min}–${LIFETIME.max} (gateway default when omitted)`)
    .option('--fee-paid-by-payer <0|1>', '1: the payer pays the network fee; 0: the merchant does')
    .option('--under-paid-cover <percent>', `accept payments short by up to this percentage, ${UNDERPAID_COVER.min}–${UNDERPAID_COVER.max}`)
    .option('--callback-url <url>', 'URL the gateway notifies on status changes')
    .option('--description <text>', 'free text stored with the payment')
    .option('--order-id <id>', 'your order identifier (it finds the payment again if anything fails)')
    .option('--email <addr>', "payer's e-mail")
    .option('--qr', 'always draw the QR code (on stderr with --json)')
    .option('--no-qr', 'never draw the QR code')
    .option('--qr-out <file>', 'also write the QR code to a .svg or .png file')
    .option('--reuse-if-exists', 'with --order-id: show or follow an open or paid payment of that order instead of creating another')
    .option('--wait', 'follow the payment until it is paid, expires or fails (exit 0 only when paid)')
    .option('--wait-timeout <duration>', 'stop waiting after this long, e.g. 10m (implies --wait; exit 124)')
    .option('--no-clear', 'do not clear the terminal before drawing the payment')
    .option('--receipt <file>', 'with --wait: write a receipt for a thermal printer there when the payment ends (never overwrites)')
    .option('--receipt-width <columns>', 'receipt width: 32 (58 mm paper), 42 or 48 (80 mm) (default: config receiptWidth, else 42)')
    .option('--receipt-unicode', 'keep non-ASCII characters on the receipt (default: ASCII only)')
    .action((amount: string, currency: string, flags: PayFlags) => {
      const request = buildPaymentRequest(amount, currency, flags);
      const generated = request.orderId === undefined;
      if (flags.reuseIfExists === true && generated) {
        throw new UsageError(
          '--reuse-if-exists needs --order-id: the order whose payment to look for',
          'e.g. gw pay 25 USDT --order-id 1042 --reuse-if-exists',
        );
      }
      if (generated) request.orderId = randomOrderId(f.clock.now());
      const options: PayOptions = {
        ...waitContext(f),
        request,
        qr: qrChoice(flags.qr),
        qrOut: parseQrOut(flags.qrOut),
        orderIdGenerated: generated,
        reuseIfExists: flags.reuseIfExists === true,
        // --wait-timeout implies --wait, as for gw status.
        ...waitChoice(flags),
        clear: flags.clear !== false,
        redraw: f.globals.verbose !== true,
        receipt: receiptRequestOf(flags, flags.wait === true || flags.waitTimeout !== undefined, flags.qrOut, () => f.config()),
      };
      // Without --wait gw ends as it prints the payment: no other client could reach a --sandbox port in time.
      if (options.wait !== true) f.sandboxNeedsNoPort();
      return runF(options);
    });
  return withHelp(command, {
    examples: [
      'gw pay 25 USD --pay-currency USDT --order-id 1042',
      'gw pay 0.00038127 BTC --life-time 30',
      'gw pay 25 USDT --sandbox --wait',
      'gw pay 25 USD --pay-currency USDT --order-id 1042 --reuse-if-exists --wait',
      'gw pay 25 USD --pay-currency USDT --wait --receipt receipt-1042.txt --receipt-width 32',
      'gw pay 10 EUR --pay-currency BTC --json | jq -r .address',
    ],
    json: '{"trackId", "amount", "currency", "payAmount", "payCurrency", "network", "address", "memo", "orderId", …, "uri"} (amounts as exact decimal strings); with --wait, the final status fields too ("status", "gatewayStatus", "txID", "payDate"…, and what arrived: "received", "expected", "difference", "transactions")',
    notes: `Without --order-id, gw sends one of its own (gw-YYYYMMDD-HHMMSS-xxxx, shown with the payment).
With --wait: exit 0 paid, 10 underpaid, 11 expired (nothing arrived), 12 failed or refunded, 13 late (funds arrived for an expired payment), 124 gave up waiting, 130 interrupted.`,
  });
}

function parseQrOut(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (!/\.(svg|png)$/i.test(file)) throw new UsageError('--qr-out must name a .svg or .png file');
  return file;
}

export async function payRun(opts: PayOptions): Promise<void> {
  const { io, request, clock } = opts;
  if (opts.qrOut !== undefined) await checkQrOutWritable(opts.qrOut);
  const receipt = opts.receipt === undefined ? undefined : await prepareReceipt(opts.receipt);
  const gateway = await opts.gateway();

  let existing: Existing | undefined;
  if (opts.reuseIfExists === true)
    existing = await withSpinner(io, clock, "Looking for this order's payment…", () => findExisting(gateway, request, clock.now()));
  if (existing?.kind === 'paid') {
    showAlreadyPaid(opts, existing.info, request.orderId);
    if (receipt !== undefined) await writeFinalReceipt(io, receipt, existing.info, clock.now(), existing.info.trackId.raw());
    return;
  }

  let payment: Payment;
  if (existing !== undefined) {
    payment = paymentFromInfo(existing.info);
    io.notice(`gw: order "${request.orderId ?? ''}" already has an open payment, ${existing.info.trackId}: showing it; no new payment was created`);
  } else {
    try {
      payment = await withSpinner(io, clock, 'Creating the payment…', () => gateway.createPayment(request));
    } catch (error) {
      throw error instanceof GwError ? ambiguousFailure(error, request, io.sandbox) : error;
    }
  }
  const trackId = payment.trackId.raw();
  const created = (error: GwError): GwError =>
    error.with({ trackId, payment: 'created', ...(error.exitCode === ExitCode.USAGE && { exitCode: ExitCode.SOFTWARE }) });

  const unpayable = unpayableReason(payment);
  if (unpayable !== undefined) {
    await printPayment(opts, payment, undefined);
    throw created(
      new GwError(ExitCode.PROTOCOL, `payment ${payment.trackId} was created, but ${unpayable}: it is not payable and no QR is shown`, {
        hint: 'do not take payment for it; check it with the gateway',
      }),
    );
  }

  // A payment that is already past its expiry is never shown as payable. Only a possible time
  // counts (src/output/time.ts): -1 or 10^20 is the gateway's broken value, shown as an unknown
  // expiry, not read as a date in 1970 or 2001 and blamed on this machine's clock.
  const expiry = parseTimestamp(payment.expiredAt);
  if (expiry !== undefined && expiry.getTime() <= clock.now()) {
    await printPayment(opts, payment, undefined);
    const createdAt = parseTimestamp(payment.createdAt);
    const contradicts = createdAt !== undefined && expiry.getTime() <= createdAt.getTime();
    throw created(
      new GwError(ExitCode.EXPIRED, `payment ${payment.trackId} arrived already expired (at ${localDateTime(expiry)}): it is not payable and no QR is shown`, {
        hint: contradicts
          ? `the gateway's own times disagree: it expires no later than it was created (${localDateTime(createdAt)}); check it with the gateway, then create a new payment`
          : `this machine's clock says ${localDateTime(new Date(clock.now()))}: check it; then create a new payment`,
      }),
    );
  }
  const expiryRead = readTimestamp(payment.expiredAt);
  if (expiryRead.kind === 'invalid')
    io.warn(`the gateway sent an expiry that is not a time (${JSON.stringify(expiryRead.text)}): when payment ${payment.trackId} expires is unknown`);

  let uri: PaymentUri;
  try {
    uri = await paymentUriOf(payment);
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    await printPayment(opts, payment, undefined);
    throw created(
      error.with({
        message: `payment ${payment.trackId} was created, but ${error.message}; no QR is shown`,
        hint: 'do not take payment for it; check it with the gateway',
      }),
    );
  }

  if (opts.qrOut !== undefined && !uri.qr) {
    // No image: nothing may say one was written.
    await printPayment({ ...opts, qrOut: undefined }, payment, uri);
    throw created(
      new GwError(
        ExitCode.CANTCREAT,
        `payment ${payment.trackId} was created, but no QR image was written: ${uri.qrRefusal ?? 'its memo cannot go in a QR code'}`,
        { hint: 'give the payer the address, amount and memo as text' },
      ),
    );
  }
  if (opts.qrOut !== undefined) {
    try {
      await writePaymentQr(payment, uri, opts.qrOut, io.sandbox);
    } catch (error) {
      // The payment is shown without any line saying the image was written.
      await printPayment({ ...opts, qrOut: undefined }, payment, uri);
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw created(
        new GwError(
          ExitCode.CANTCREAT,
          `payment ${payment.trackId} was created, but the QR image could not be written to ${opts.qrOut} (${code}): nothing was written there (a file already there is unchanged)`,
          {
            hint: `the payment is shown above; to write its image: gw pay ${request.amount} ${request.currency}${request.payCurrency === request.currency ? '' : ` --pay-currency ${request.payCurrency}`}${request.network === undefined ? '' : ` --network ${shellQuote(request.network)}`} --order-id ${shellQuote(request.orderId ?? '')} --reuse-if-exists --qr-out <file>${io.sandbox ? ' --sandbox' : ''}`,
          },
        ),
      );
    }
  }

  const notes = existing === undefined ? [] : [`Reusing payment ${existing.info.trackId} of this order: no new payment was created.`];
  // Without --wait, the next step: on the counter screen when stderr is that terminal too (a line
  // under the screen would scroll its top, the QR, away), else on stderr below.
  const follow = `Follow it until it is paid: ${resumeCommand(trackId, io.sandbox)}`;
  const followOnScreen = opts.wait !== true && !io.json && io.canRedraw() && io.stderrIsTTY;
  // The command on a line of its own, ready to copy.
  if (followOnScreen) notes.push('Follow it until it is paid:', resumeCommand(trackId, io.sandbox));
  const screen = await printPayment(opts, payment, uri, notes, existing !== undefined, opts.wait === true);
  // The payment exists: output that did not arrive is exit 74 naming it, before any wait.
  await deliver(io, payment, created);
  if (opts.wait !== true) {
    // What follows the payment from here: advice, so stderr, and never with --json (notice); on
    // the counter screen itself when stderr is the same terminal (above).
    if (screen === undefined || !followOnScreen) io.notice(follow);
    return;
  }

  opts.releaseDeadline?.();
  const createdAt = parseTimestamp(payment.createdAt)?.getTime();
  const ending = await followPayment({
    io,
    clock,
    signal: opts.signal ?? new AbortController().signal,
    gateway,
    trackId,
    ...(existing !== undefined && { initial: existing.info }),
    ...(expiry !== undefined && { expiresAt: expiry.getTime() }),
    ...(createdAt !== undefined && { createdAt }),
    ...(opts.waitTimeoutMs !== undefined && { until: clock.now() + opts.waitTimeoutMs }),
    ...(screen !== undefined && opts.redraw !== false && { screen: (line: string) => screen(line) }),
    // What arrived is compared with what this answer said was owed (the v1 information has no pay amount).
    expected: expectedOfPayment(payment),
  });
  showEnding(opts, payment, uri, ending, screen, existing !== undefined);
  await deliver(io, payment, created);
  if (receipt !== undefined) await writeFinalReceipt(io, receipt, ending.kind === 'final' ? ending.info : undefined, clock.now(), trackId);
  const failure = endingFailure(ending, trackId, io.sandbox);
  if (failure !== undefined) throw failure;
}

/** Everything written so far reached stdout, or exit 74 naming the payment that was created (deliverOutput). */
async function deliver(io: IOStreams, payment: Payment, created: (error: GwError) => GwError): Promise<void> {
  await deliverOutput(io, (error) => created(error.with({ message: `payment ${payment.trackId} was created, but ${error.message}` })));
}
