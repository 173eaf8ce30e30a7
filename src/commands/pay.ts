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
// On a terminal the payment is the counter screen (src/output/counter-screen.ts), drawn on a
// cleared screen; with --wait it is redrawn in place until the payment ends, and ends on PAID (or
// why not) in block letters. Exit codes of the wait: src/cmdutil/wait.ts.
import path from 'node:path';
import { Command } from 'commander';
import { parseHttpUrl, parseOrderId, parseSymbol, parseText } from '../cmdutil/args.js';
import type { Clock } from '../util/clock.js';
import type { Factory } from '../cmdutil/factory.js';
import { followPayment } from '../cmdutil/follow.js';
import { withHelp } from '../cmdutil/help.js';
import { generateOrderId } from '../cmdutil/order-id.js';
import { parseDuration } from '../cmdutil/time-args.js';
import { arrivedWords, endingFailure, receivedAmount, type WaitEnding } from '../cmdutil/wait.js';
import { coinKey, type Expected } from '../domain/arrival.js';
import { checkFeePaidByPayer, checkLifeTime, checkUnderPaidCover, isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, Payment, PaymentInfo, PaymentRequest } from '../gateway/gateway.js';
import { isGenericFailure } from '../gateway/result-codes.js';
import { Decimal } from '../money/decimal.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { maskUrlText } from '../output/url-credentials.js';
import { Untrusted } from '../output/untrusted.js';
import { counterScreen, outcomeScreen, rateWords, type Outcome, type ScreenQr } from '../output/counter-screen.js';
import { statusText } from '../output/status-view.js';
import { renderDetails, type DetailRow } from '../output/table.js';
import { expiryWords, localDateTime, parseTimestamp, readTimestamp } from '../output/time.js';
import { maxAssetDecimals } from '../payment-uri/decimals.js';
import { normalizeSymbol } from '../payment-uri/networks.js';
import type { PaymentUri } from '../payment-uri/index.js';

export interface PayFlags {
  payCurrency?: string;
  network?: string;
  lifeTime?: string;
  feePaidByPayer?: string;
  underPaidCover?: string;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
  /** true: --qr, false: --no-qr, undefined: decide from the terminal. */
  qr?: boolean;
  qrOut?: string;
  reuseIfExists?: boolean;
  wait?: boolean;
  waitTimeout?: string;
  /** false with --no-clear. */
  clear?: boolean;
}

export interface PayOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  request: PaymentRequest;
  qr: 'auto' | 'always' | 'never';
  qrOut: string | undefined;
  /** gw made the order id up (none was given). */
  orderIdGenerated?: boolean;
  /** Look for an open or paid payment with the order id before creating one. */
  reuseIfExists?: boolean;
  /** Follow the payment until it ends. */
  wait?: boolean;
  /** --wait-timeout in ms. */
  waitTimeoutMs?: number | undefined;
  /** Clear the terminal before drawing the counter screen (false with --no-clear). */
  clear?: boolean;
  /** Redraw the counter screen in place while waiting (not with --verbose, whose lines would break it). */
  redraw?: boolean;
  /** Ends a wait (Ctrl-C); a never-aborted signal by default. */
  signal?: AbortSignal;
  /** Lifts the whole-command deadline for the wait. */
  releaseDeadline?: () => void;
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
    .action((amount: string, currency: string, flags: PayFlags) => {
      const request = buildPaymentRequest(amount, currency, flags);
      const generated = request.orderId === undefined;
      if (flags.reuseIfExists === true && generated) {
        throw new UsageError(
          '--reuse-if-exists needs --order-id: the order whose payment to look for',
          'e.g. gw pay 25 USDT --order-id 1042 --reuse-if-exists',
        );
      }
      // The suffix only has to differ from other orders of the same second; it is no secret, so
      // Math.random serves (node:crypto would cost every gw pay 2 ms to load).
      if (generated) request.orderId = generateOrderId(f.clock.now(), (size) => Uint8Array.from({ length: size }, () => Math.floor(Math.random() * 256)));
      return runF({
        io: f.io,
        gateway: () => f.gateway(),
        clock: f.clock,
        request,
        qr: flags.qr === true ? 'always' : flags.qr === false ? 'never' : 'auto',
        qrOut: parseQrOut(flags.qrOut),
        orderIdGenerated: generated,
        reuseIfExists: flags.reuseIfExists === true,
        // --wait-timeout implies --wait, as for gw status.
        wait: flags.wait === true || flags.waitTimeout !== undefined,
        waitTimeoutMs: flags.waitTimeout === undefined ? undefined : parseDuration(flags.waitTimeout, '--wait-timeout'),
        clear: flags.clear !== false,
        redraw: f.globals.verbose !== true,
        signal: f.signal,
        releaseDeadline: () => f.releaseDeadline(),
      });
    });
  return withHelp(command, {
    examples: [
      'gw pay 25 USD --pay-currency USDT --order-id 1042',
      'gw pay 0.00038127 BTC --life-time 30',
      'gw pay 25 USDT --sandbox --wait',
      'gw pay 25 USD --pay-currency USDT --order-id 1042 --reuse-if-exists --wait',
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

/** Validates everything before any request is made: a usage error costs nothing, a bad payment does. */
export function buildPaymentRequest(amountText: string, currencyText: string, flags: PayFlags): PaymentRequest {
  const amount = Decimal.parseAmount(amountText);
  if (amount === undefined) {
    throw new UsageError(
      `<amount> must be a plain positive decimal such as 25 or 0.00038127 (got "${amountText.slice(0, 40)}")`,
      'no signs, exponents, thousands separators or commas',
    );
  }
  const currency = parseSymbol(currencyText, '<currency>');
  const payCurrency = parseSymbol(flags.payCurrency ?? currency, '--pay-currency');
  if (isFiat(payCurrency)) {
    throw new UsageError(
      `${payCurrency} is not a coin a payer can send: name one with --pay-currency`,
      `e.g. gw pay ${amount} ${currency} --pay-currency USDT`,
    );
  }
  if (currency === payCurrency) {
    const decimals = maxAssetDecimals(payCurrency, flags.network);
    if (decimals !== undefined && !fitsDecimals(amount, decimals)) {
      throw new UsageError(
        `${amount} ${payCurrency} has more decimal places than ${payCurrency} has (${decimals}): it cannot be paid exactly`,
        'gw never rounds an amount: give at most that many decimals',
      );
    }
  }
  const request: PaymentRequest = { amount, currency, payCurrency };

  if (flags.lifeTime !== undefined) {
    const check = checkLifeTime(flags.lifeTime);
    if (!check.ok)
      throw new UsageError(`--life-time must be a whole number of minutes from ${LIFETIME.min} to ${LIFETIME.max} (got "${flags.lifeTime.slice(0, 20)}")`);
    request.lifeTime = check.value;
  }
  if (flags.feePaidByPayer !== undefined) {
    const check = checkFeePaidByPayer(flags.feePaidByPayer);
    if (!check.ok)
      throw new UsageError(`--fee-paid-by-payer must be 0 (merchant pays the fee) or 1 (payer pays it), got "${flags.feePaidByPayer.slice(0, 20)}"`);
    request.feePaidByPayer = check.value;
  }
  if (flags.underPaidCover !== undefined) {
    const check = checkUnderPaidCover(flags.underPaidCover);
    if (!check.ok)
      throw new UsageError(
        `--under-paid-cover must be a percentage from ${UNDERPAID_COVER.min} to ${UNDERPAID_COVER.max} (got "${flags.underPaidCover.slice(0, 20)}")`,
      );
    request.underPaidCover = check.value;
  }
  if (flags.callbackUrl !== undefined) {
    parseHttpUrl(flags.callbackUrl, '--callback-url', { credentials: 'allowed' });
    request.callbackUrl = flags.callbackUrl;
  }
  if (flags.email !== undefined) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(flags.email)) throw new UsageError(`--email must be an e-mail address (got "${flags.email.slice(0, 60)}")`);
    request.email = flags.email;
  }
  if (flags.description !== undefined) request.description = parseText(flags.description, '--description');
  if (flags.orderId !== undefined) request.orderId = parseOrderId(flags.orderId);
  if (flags.network !== undefined) request.network = parseText(flags.network, '--network', 60);
  return request;
}

function fitsDecimals(amount: Decimal, decimals: number): boolean {
  try {
    amount.toBaseUnits(decimals);
    return true;
  } catch {
    return false;
  }
}

/**
 * --qr-out is checked before the payment exists: its folder must exist and be writable (the image
 * is written beside it first, then renamed), and a file already there must be a regular file gw
 * may write.
 */
export async function checkQrOutWritable(file: string): Promise<void> {
  // Loaded here, not at start-up: only --qr-out needs them.
  const { constants } = await import('node:fs');
  const { access, stat } = await import('node:fs/promises');
  const target = path.resolve(file);
  try {
    const existing = await stat(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (existing !== undefined) {
      if (!existing.isFile()) throw Object.assign(new Error('not a regular file'), { code: existing.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
      await access(target, constants.W_OK);
    }
    await access(path.dirname(target), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new GwError(ExitCode.CANTCREAT, `--qr-out ${file} cannot be written (${code}); no payment was created`);
  }
}

/**
 * After the request may have reached the gateway, a failure without a clear refusal is ambiguous:
 * the payment may exist. Say so, and how to recognise it; never send it again automatically.
 */
export function ambiguousFailure(error: GwError, request: PaymentRequest, sandbox = false): GwError {
  const notSent = (error as GwError & { delivery?: string }).delivery === 'not-sent';
  // A definite refusal: the gateway answered with a result code or an error object, and not one
  // that says it failed inside (its generic failures 131 and 500, or a 5xx status).
  const failedInside = (error.result !== undefined && isGenericFailure(error.result)) || (error.status !== undefined && error.status >= 500);
  const refused = !failedInside && (error.result !== undefined || error.type !== undefined);
  const uncertainExit = (
    [ExitCode.UNAVAILABLE, ExitCode.TEMPFAIL, ExitCode.PROTOCOL, ExitCode.INTERRUPTED, ExitCode.TERMINATED, ExitCode.REFUSED] as number[]
  ).includes(error.exitCode);
  if (notSent || refused || (!uncertainExit && !failedInside)) return error;
  const recognise =
    request.orderId !== undefined
      ? `look for order id "${request.orderId}" before trying again: gw payments --order-id ${shellQuote(request.orderId)}${sandbox ? ' --sandbox' : ''}, or pay again with --order-id ${shellQuote(request.orderId)} --reuse-if-exists`
      : `look for a payment of ${request.amount} ${request.currency} created just now before trying again; give --order-id next time so it can be recognised`;
  return error.with({
    message: `${error.message}; the payment MAY HAVE BEEN CREATED — it was not sent again`,
    hint: recognise,
    payment: 'unknown',
    ...(request.orderId !== undefined && { orderId: request.orderId }),
  });
}

/** Why a created payment cannot be shown to a payer as payable, if it cannot. */
function unpayableReason(payment: Payment): string | undefined {
  if (payment.payAmount === null) return 'the gateway gave no amount to pay';
  if (!payment.payAmount.isPositive) return `the gateway priced it at ${payment.payAmount}`;
  if (payment.payCurrency === null || payment.payCurrency.isBlank) return 'the gateway gave no currency to pay in';
  if (payment.address === null || payment.address.isBlank) return 'the gateway gave no address';
  return undefined;
}

/** An open or paid payment of the order, found before creating another (--reuse-if-exists). */
type Existing = { kind: 'paid' | 'open'; info: PaymentInfo };

const OPEN_STATES = new Set(['new', 'waiting', 'confirming', 'unknown']);

/**
 * Looks up the payments of the request's order id: a paid one, else the newest open one (not past
 * its expiry, unless a transaction is already confirming). One for another amount or currency is
 * never reused: that is an error, and nothing is created.
 */
export async function findExisting(gateway: GatewayClient, request: PaymentRequest, now: number): Promise<Existing | undefined> {
  const orderId = request.orderId ?? '';
  const nothingCreated = 'nothing was created: try again, or leave out --reuse-if-exists';
  let found: PaymentInfo[];
  try {
    // Every payment of the order, whatever page it is on; with api v1, whose history has no order
    // id filter, gw reads the history and keeps the order's own (src/gateway/history.ts).
    const { listPayments, SCAN_PAGE_SIZE } = await import('../gateway/history.js');
    const listing = await listPayments(gateway, { orderId, size: SCAN_PAGE_SIZE }, { all: true, maxPages: 50 });
    if (listing.failure !== undefined) throw listing.failure;
    if (listing.incomplete !== undefined) {
      throw new GwError(ExitCode.PROTOCOL, `could not read every payment of order "${orderId}": ${listing.incomplete}`, { hint: nothingCreated });
    }
    found = listing.payments;
  } catch (error) {
    if (!(error instanceof GwError) || error.hint === nothingCreated) throw error;
    throw error.with({ message: `could not look for the payments of order "${orderId}": ${error.message}`, hint: nothingCreated });
  }
  const mine = found.filter((p) => p.orderId?.raw() === orderId);
  const createdAt = (p: PaymentInfo): number => parseTimestamp(p.date)?.getTime() ?? 0;
  const stillOpen = (p: PaymentInfo): boolean => {
    if (!OPEN_STATES.has(p.status)) return false;
    const expiry = parseTimestamp(p.expiredAt);
    return p.status === 'confirming' || expiry === undefined || expiry.getTime() > now;
  };
  const paid = mine.find((p) => p.status === 'paid');
  // Funds arrived for an expired payment of the order (late, src/domain/arrival.ts): another payment could bill the customer twice.
  const late = paid === undefined ? mine.find((p) => p.status === 'late') : undefined;
  if (late !== undefined) {
    const id = late.trackId.line(100);
    throw new GwError(
      ExitCode.LATE,
      `order "${orderId}" already received funds on payment ${id} after it expired (${arrivedWords(late.arrival, 'arrived') ?? 'a transaction was reported'}): no new payment was created`,
      { trackId: late.trackId.raw(), hint: `decide about those funds first (gw status ${id}): accept them, or refund them in the merchant panel` },
    );
  }
  const open = mine.filter(stillOpen).sort((a, b) => createdAt(b) - createdAt(a))[0];
  const existing: Existing | undefined = paid !== undefined ? { kind: 'paid', info: paid } : open !== undefined ? { kind: 'open', info: open } : undefined;
  if (existing === undefined) return undefined;
  const { info } = existing;
  const sameAmount = info.amount === null || info.amount.equals(request.amount);
  const sameCurrency = info.currency === null || normalizeSymbol(info.currency.raw()) === request.currency;
  if (!sameAmount || !sameCurrency) {
    throw new GwError(
      ExitCode.DATA,
      `order "${orderId}" already has a ${info.status} payment ${info.trackId.line(100)} for ${info.amount ?? '?'} ${info.currency?.line(20) ?? ''}, not ${request.amount} ${request.currency}: no second payment was created`,
      { trackId: info.trackId.raw(), hint: 'a different amount is a different order: give another --order-id' },
    );
  }
  return existing;
}

/** A payment as the history describes it, in the shape of a created one (what it does not say is null). */
export function paymentFromInfo(info: PaymentInfo): Payment {
  const memo = info.fields.memo;
  return {
    trackId: info.trackId,
    amount: info.amount,
    currency: info.currency,
    payAmount: info.payAmount,
    payCurrency: info.payCurrency,
    network: info.network,
    address: info.address,
    memo: memo instanceof Untrusted ? memo : null,
    callbackUrl: null,
    description: info.description,
    email: info.email,
    feePaidByPayer: null,
    lifeTime: null,
    orderId: info.orderId,
    underPaidCover: null,
    rate: null,
    expiredAt: info.expiredAt,
    createdAt: info.date,
    QRCode: null,
  };
}

export async function payRun(opts: PayOptions): Promise<void> {
  const { io, request, clock } = opts;
  if (opts.qrOut !== undefined) await checkQrOutWritable(opts.qrOut);
  const gateway = await opts.gateway();

  let existing: Existing | undefined;
  if (opts.reuseIfExists === true) existing = await findExisting(gateway, request, clock.now());
  if (existing?.kind === 'paid') return showAlreadyPaid(opts, existing.info);

  let payment: Payment;
  if (existing !== undefined) {
    payment = paymentFromInfo(existing.info);
    io.notice(`gw: order "${request.orderId ?? ''}" already has an open payment, ${existing.info.trackId}: showing it; no new payment was created`);
  } else {
    try {
      payment = await gateway.createPayment(request);
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
    const { buildPaymentUri } = await import('../payment-uri/index.js');
    uri = buildPaymentUri({
      network: payment.network?.raw() ?? '',
      payCurrency: payment.payCurrency?.raw() ?? '',
      address: payment.address?.raw() ?? '',
      payAmount: payment.payAmount?.toString() ?? '',
      memo: payment.memo?.raw() ?? null,
    });
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
      const { writeQrImage, qrCaption } = await import('../qr/index.js');
      // The image carries what the payer needs beside the code: amount, network, expiry, track id.
      const expires = parseTimestamp(payment.expiredAt);
      const caption = qrCaption({
        payAmount: String(payment.payAmount),
        payCurrency: String(payment.payCurrency ?? ''),
        network: uri.networkName,
        ...(expires !== undefined && { expires }),
        trackId: payment.trackId.toString(),
        sandbox: io.sandbox,
      });
      await writeQrImage(uri.uri, opts.qrOut, { caption });
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
  const screen = await printPayment(opts, payment, uri, notes, existing !== undefined, opts.wait === true);
  // The payment exists: output that did not arrive is exit 74 naming it, before any wait.
  await deliver(io, payment, created);
  if (opts.wait !== true) return;

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
  const failure = endingFailure(ending, trackId, io.sandbox);
  if (failure !== undefined) throw failure;
}

/**
 * Everything written so far reached stdout, or exit 74 naming the payment that was created: a
 * stdout that refused the bytes (disk full, EBADF), or one that looks closed (`>&-`, which Node
 * turns into a read-write /dev/null: see FdStream.looksClosed) and so took them without keeping
 * them. One line on stderr (one JSON line with --json), no hint.
 */
async function deliver(io: IOStreams, payment: Payment, created: (error: GwError) => GwError): Promise<void> {
  try {
    await io.flush();
    if (io.stdoutLooksClosed) throw new GwError(ExitCode.IOERR, 'the output could not be written to stdout (it is closed)');
  } catch (error) {
    if (error instanceof GwError) throw created(error.with({ message: `payment ${payment.trackId} was created, but ${error.message}` }));
    throw error;
  }
}

/** What the creation answer says the payer owes, in the coin to pay. */
function expectedOfPayment(payment: Payment): Expected | null {
  const coin = coinKey(payment.payCurrency?.raw());
  return payment.payAmount === null || coin === null ? null : { amount: payment.payAmount, coin };
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
function showEnding(
  opts: PayOptions,
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
function showAlreadyPaid(opts: PayOptions, info: PaymentInfo): void {
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
    io.notice(`gw: order "${opts.request.orderId ?? ''}" is already paid (payment ${info.trackId}): no new payment was created`);
    return;
  }
  io.notice(`gw: order "${opts.request.orderId ?? ''}" is already paid (payment ${info.trackId}): no new payment was created`);
  io.out(statusText(info, opts.clock.now(), io.chalk, io.sandbox));
}

/**
 * The payment, as JSON, as the counter screen (a terminal, payable) or as details; with its QR
 * when `uri` is given and wanted. Returns the screen's redraw function when the counter screen was
 * drawn (its argument: the state line while waiting).
 */
async function printPayment(
  opts: PayOptions,
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

/** The QR for the counter screen, drawn through the one renderer, with its size from the symbol. */
async function screenQr(io: IOStreams, text: string): Promise<ScreenQr> {
  const { renderTerminalQr, qrSize } = await import('../qr/index.js');
  const options = io.qrRenderOptions();
  return { text: renderTerminalQr(text, options), ...qrSize(text, options) };
}

function paymentRows(opts: PayOptions, payment: Payment, uri: PaymentUri | undefined): DetailRow[] {
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
  const { renderTerminalQr, qrWidth } = await import('../qr/index.js');
  const width = qrWidth(text, io.qrRenderOptions());
  const columns = io.width();
  if (io.stdoutIsTTY && width > columns) {
    io.warn(`the QR code needs ${width} columns and the terminal has ${columns}: widen it, or use --qr-out <file.png>`);
    return '';
  }
  return renderTerminalQr(text, io.qrRenderOptions());
}
