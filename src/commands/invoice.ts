// gw invoice <amount> <currency>: create a payment link (an invoice, docs/gateway.md §10) and show
// it: the link, its track id and expiry, and on a terminal a QR code of the link. The payer opens
// it and chooses the coin on the gateway's page, so nothing here names a coin, an address or a pay
// amount. Only the versioned API has invoices: it is sent over it under any `api` setting, with
// the same merchant key and base URL.
//
// As for gw pay: everything that can be checked is checked before the request (a usage error costs
// nothing); once the request may have reached the gateway, a failure says whether the invoice
// exists ("created") or may exist ("unknown") and never exits with a usage code. Every invoice
// carries an order id (the user's, or one gw makes up) so that such a failure names the command
// that finds it. `--wait` follows it as `pay --wait` does (src/cmdutil/follow.ts, wait.ts): the
// same states, exit codes and reading of what arrived (src/domain/arrival.ts).
import { Command } from 'commander';
import { ambiguousCreation } from '../cmdutil/ambiguous-creation.js';
import { parseHttpUrl, parseOrderId, parseSymbol, parseText, qrChoice } from '../cmdutil/args.js';
import { deliverOutput } from '../cmdutil/deliver-output.js';
import type { Factory } from '../cmdutil/factory.js';
import { followPayment } from '../cmdutil/follow.js';
import { withHelp } from '../cmdutil/help.js';
import { randomOrderId } from '../cmdutil/order-id.js';
import { type WaitChoice, type WaitContext, type WaitFlags, waitChoice, waitContext } from '../cmdutil/wait-flags.js';
import { parseAmountArg, parseTermFlags } from '../cmdutil/payment-request.js';
import { endingFailure, resumeCommand } from '../cmdutil/wait.js';
import { coinKey, type Expected } from '../domain/arrival.js';
import { isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { CREATE_INVOICE, type Invoice, type InvoiceRequest } from '../operations/create-invoice.js';
import { PAYMENT_INFO } from '../operations/payment-info.js';
import { DEFAULT_SETTLE_SECONDS } from '../sandbox/options.js';
import type { IOStreams } from '../output/iostreams.js';
import { parseTimestamp } from '../output/time.js';
import { wrapText } from '../output/wrap.js';
import { invoiceJson, printInvoice } from '../views/invoice-view.js';
import { statusText } from '../views/status-view.js';

export interface InvoiceFlags extends WaitFlags {
  lifeTime?: string;
  feePaidByPayer?: string;
  underPaidCover?: string;
  toCurrency?: string;
  autoWithdrawal?: string;
  mixedPayment?: string;
  callbackUrl?: string;
  returnUrl?: string;
  email?: string;
  orderId?: string;
  thanksMessage?: string;
  description?: string;
  testInvoice?: boolean;
  /** true: --qr, false: --no-qr, undefined: decide from the terminal. */
  qr?: boolean;
}

export interface InvoiceOptions extends WaitContext, WaitChoice {
  request: InvoiceRequest;
  qr: 'auto' | 'always' | 'never';
  orderIdGenerated: boolean;
}

export function newCmdInvoice(f: Factory, runF: (opts: InvoiceOptions) => Promise<void> = invoiceRun): Command {
  const command = new Command('invoice')
    .argument('<amount>', 'amount to charge, a plain decimal such as 25 or 0.00038127')
    .argument('<currency>', 'currency of the amount: fiat (USD, EUR) or a coin (BTC, USDT)')
    .option('--life-time <minutes>', `minutes until the link expires, ${LIFETIME.min}–${LIFETIME.max} (gateway default ${LIFETIME.default} when omitted)`)
    .option('--fee-paid-by-payer <0|1>', '1: the payer pays the network fee; 0: the merchant does (default: your panel setting)')
    .option('--under-paid-cover <percent>', `accept payments short by up to this percentage, ${UNDERPAID_COVER.min}–${UNDERPAID_COVER.max}`)
    .option('--to-currency <sym>', 'convert what arrives into this coin (the gateway documents USDT)')
    .option('--auto-withdrawal <0|1>', '1: forward what arrives to your address list; 0: keep it on your gateway balance')
    .option('--mixed-payment <0|1>', '1: the payer may finish an under-payment in another coin')
    .option('--callback-url <url>', 'URL the gateway notifies on status changes')
    .option('--return-url <url>', 'where the page sends the payer after paying')
    .option('--email <addr>', "payer's e-mail")
    .option('--order-id <id>', 'your order identifier (it finds the invoice again if anything fails)')
    .option('--thanks-message <text>', 'a short note the page shows the payer after paying')
    .option('--description <text>', 'free text stored with the invoice')
    .option('--test-invoice', "the real gateway's own test invoice (its sandbox flag): nothing is charged. Not gw's --sandbox")
    .option('--qr', 'always draw the QR code of the link (on stderr with --json)')
    .option('--no-qr', 'never draw the QR code')
    .option('--wait', 'follow the payment until it is paid, expires or fails (exit 0 only when paid)')
    .option('--wait-timeout <duration>', 'stop waiting after this long, e.g. 10m (implies --wait; exit 124)')
    .action((amount: string, currency: string, flags: InvoiceFlags) => {
      const request = buildInvoiceRequest(amount, currency, flags);
      const generated = request.orderId === undefined;
      if (generated) request.orderId = randomOrderId(f.clock.now());
      return runF({ ...waitContext(f), request, qr: qrChoice(flags.qr), orderIdGenerated: generated, ...waitChoice(flags) });
    });
  return withHelp(command, {
    examples: [
      'gw invoice 25 USD --order-id 1042 --email buyer@example.com',
      'gw invoice 0.0005 BTC --life-time 30 --description "Order 1042"',
      'gw invoice 25 USD --sandbox --wait',
      'gw invoice 25 USD --json | jq -r .paymentUrl',
    ],
    json: '{"trackId", "paymentUrl", "expiredAt", "createdAt", "amount", "currency", "orderId"} (amounts as exact decimal strings); with --wait, the final status fields too ("status", "gatewayStatus", "type", "txs"…, and what arrived: "received", "expected", "difference", "transactions")',
    notes: `Sent over the versioned API (POST /v1/payment/invoice) whatever api says. Without --order-id, gw sends one of its own (gw-YYYYMMDD-HHMMSS-xxxx).
With --wait: exit 0 paid, 10 underpaid, 11 expired (nothing arrived), 12 failed or refunded, 13 late (funds arrived for an expired payment), 124 gave up waiting, 130 interrupted.`,
  });
}

/** A 0 or 1 flag as the boolean the gateway takes. */
function parseBit(text: string, flag: string, meaning: string): boolean {
  if (text === '0' || text === '1') return text === '1';
  throw new UsageError(`${flag} must be 0 or 1 (${meaning}), got "${text.slice(0, 20)}"`);
}

/** Validates everything before any request is made: a usage error costs nothing. */
export function buildInvoiceRequest(amountText: string, currencyText: string, flags: InvoiceFlags): InvoiceRequest {
  const amount = parseAmountArg(amountText);
  const request: InvoiceRequest = { amount, currency: parseSymbol(currencyText, '<currency>'), ...parseTermFlags(flags) };
  if (flags.toCurrency !== undefined) {
    const to = parseSymbol(flags.toCurrency, '--to-currency');
    if (isFiat(to)) throw new UsageError(`--to-currency must be a coin (the gateway converts into USDT), not ${to}`);
    request.toCurrency = to;
  }
  if (flags.autoWithdrawal !== undefined) request.autoWithdrawal = parseBit(flags.autoWithdrawal, '--auto-withdrawal', '1 forwards to your address list');
  if (flags.mixedPayment !== undefined) request.mixedPayment = parseBit(flags.mixedPayment, '--mixed-payment', '1 lets the payer finish in another coin');
  for (const [flag, value, key] of [
    ['--callback-url', flags.callbackUrl, 'callbackUrl'],
    ['--return-url', flags.returnUrl, 'returnUrl'],
  ] as const) {
    if (value === undefined) continue;
    parseHttpUrl(value, flag, { credentials: 'allowed' });
    request[key] = value;
  }
  if (flags.email !== undefined) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(flags.email)) throw new UsageError(`--email must be an e-mail address (got "${flags.email.slice(0, 60)}")`);
    request.email = flags.email;
  }
  if (flags.orderId !== undefined) request.orderId = parseOrderId(flags.orderId);
  if (flags.thanksMessage !== undefined) request.thanksMessage = parseText(flags.thanksMessage, '--thanks-message');
  if (flags.description !== undefined) request.description = parseText(flags.description, '--description');
  if (flags.testInvoice === true) request.testInvoice = true;
  return request;
}

/** The longest link gw shows (a QR code still holds it). */
const MAX_LINK = 2048;

/**
 * The link as a URL a browser opens (http or https), or undefined. Only visible ASCII: a control
 * character, a space or anything the URL parser would rewrite would show one link and encode
 * another in the QR.
 */
function linkOf(invoice: Invoice): string | undefined {
  const text = invoice.paymentUrl?.raw().trim();
  if (text === undefined || text === '' || text.length > MAX_LINK || !/^[\x21-\x7e]+$/.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An invoice is followed over the versioned API whatever `api` says: it was created there, so that
 * API answers with this key, and its information there says `type: invoice` with the transactions
 * (docs/gateway.md §10, §12). A gateway serving only the versioned API is followed too.
 */
const INVOICE_INFO = { ...PAYMENT_INFO, endpoints: { v1: PAYMENT_INFO.endpoints.v1 } };

function followedOverV1(gateway: GatewayClient): GatewayClient {
  return new Proxy(gateway, {
    get(target, key) {
      if (key === 'paymentInfo') return (trackId: string) => target.perform(INVOICE_INFO, { trackId });
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** What the payer owes where gw knows it: an invoice stated in a coin, paid in that coin. */
function expectedOf(request: InvoiceRequest): Expected | null {
  const coin = request.currency === undefined || isFiat(request.currency) ? null : coinKey(request.currency);
  return coin === null ? null : { amount: request.amount, coin };
}

export async function invoiceRun(opts: InvoiceOptions): Promise<void> {
  const { io, request, clock } = opts;
  const gateway = await opts.gateway();
  let invoice: Invoice;
  try {
    invoice = await gateway.perform(CREATE_INVOICE, request);
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    throw ambiguousCreation(error, {
      thing: 'invoice',
      orderId: request.orderId,
      amountWords: `${request.amount} ${request.currency ?? 'USD'}`,
      sandbox: io.sandbox,
    });
  }
  const trackId = invoice.trackId.raw();
  const created = (error: GwError): GwError =>
    error.with({ trackId, payment: 'created', ...(error.exitCode === ExitCode.USAGE && { exitCode: ExitCode.SOFTWARE }) });
  const view = { io, now: clock.now(), qr: opts.qr, orderIdGenerated: opts.orderIdGenerated };
  const url = linkOf(invoice);
  if (url === undefined) {
    await printInvoice(invoice, request, undefined, view);
    throw created(
      new GwError(ExitCode.PROTOCOL, `invoice ${invoice.trackId} was created, but the gateway gave no link a browser can open: no QR is shown`, {
        hint: `follow it with ${resumeCommand(trackId, io.sandbox)}, and get its link from the merchant panel`,
      }),
    );
  }
  // The notices below the link: its QR is sized to stay on the screen with them (terminal-qr.ts).
  const notices = opts.wait
    ? io.sandbox
      ? [
          `Sandbox: open the link within ${DEFAULT_SETTLE_SECONDS} s to choose a coin and pay on its page (in full, in part, or late); left alone, it is paid on its own`,
        ]
      : []
    : [
        `Follow it until it is paid: ${resumeCommand(trackId, io.sandbox)}`,
        ...(io.sandbox
          ? ['Sandbox: its page is served only while this command runs; add --wait to open it in a browser, or start the sandbox server with gw sandbox']
          : []),
      ];
  // With --wait, a line for the first state it reaches too.
  const after = notices.reduce((sum, n) => sum + wrapText(n, io.width()).split('\n').length, 0) + (opts.wait ? 1 : 0);
  await printInvoice(invoice, request, url, view, !opts.wait, after);
  // With --json the document comes at the end of a wait: the link the payer needs is told now.
  if (io.json && opts.wait) io.note(`payment link ${url} (track id ${trackId}): waiting until it is paid`);
  if (!opts.wait) await deliver(io, invoice, created);
  // The embedded sandbox serves the page while this process runs: they say how to try the payer's side.
  for (const notice of notices) io.notice(notice);
  if (!opts.wait) return;
  await deliver(io, invoice, created);
  opts.releaseDeadline();
  const expiry = parseTimestamp(invoice.expiredAt)?.getTime();
  const createdAt = parseTimestamp(invoice.createdAt)?.getTime();
  const ending = await followPayment({
    io,
    clock,
    signal: opts.signal,
    gateway: followedOverV1(gateway),
    trackId,
    ...(expiry !== undefined && { expiresAt: expiry }),
    ...(createdAt !== undefined && { createdAt }),
    ...(opts.waitTimeoutMs !== undefined && { until: clock.now() + opts.waitTimeoutMs }),
    expected: expectedOf(request),
  }).catch((error: unknown) => {
    // The invoice exists whatever stopped the wait: say so, and how to follow it again.
    if (!(error instanceof GwError)) throw error;
    throw created(
      error.with({
        message: `invoice ${invoice.trackId} was created, but following it failed: ${error.message}`,
        hint: error.hint ?? `follow it again with ${resumeCommand(trackId, io.sandbox)}`,
      }),
    );
  });
  const info = ending.info;
  if (io.json) io.printJson({ ...invoiceJson(invoice, request), ...(info === undefined ? {} : info.fields) });
  else if (info !== undefined) io.out(`\n${statusText(info, clock.now(), io.chalk, io.sandbox)}`);
  await deliver(io, invoice, created);
  const failure = endingFailure(ending, trackId, io.sandbox);
  if (failure !== undefined) throw failure;
}

/** Everything written so far reached stdout, or exit 74 naming the invoice that was created (deliverOutput). */
async function deliver(io: IOStreams, invoice: Invoice, created: (error: GwError) => GwError): Promise<void> {
  await deliverOutput(io, (error) => created(error.with({ message: `invoice ${invoice.trackId} was created, but ${error.message}` })));
}
