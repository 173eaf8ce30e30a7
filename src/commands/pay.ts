// gw pay <amount> <currency>: create a white-label payment and show it to the payer — the amount,
// the network, the payment URI for that network, and a QR code that scans on any terminal theme.
//
// What the exit code must never hide: once the request may have reached the gateway, a payment may
// exist. So everything that can be checked is checked before the request; after it, a failure
// still shows the payment it concerns first, says whether it exists ("created") or may exist
// ("unknown"), and never exits with a usage code.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { parseSymbol, parseText } from '../cmdutil/args.js';
import type { Clock } from '../cmdutil/clock.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { checkFeePaidByPayer, checkLifeTime, checkUnderPaidCover, isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, Payment, PaymentRequest } from '../gateway/gateway.js';
import { isGenericFailure } from '../gateway/result-codes.js';
import { Decimal } from '../money/decimal.js';
import type { IOStreams } from '../output/iostreams.js';
import { Untrusted } from '../output/untrusted.js';
import { renderDetails, type DetailRow } from '../output/table.js';
import { parseTimestamp, timeLeftWords } from '../output/time.js';
import { maxAssetDecimals } from '../payment-uri/decimals.js';
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
}

export interface PayOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  request: PaymentRequest;
  qr: 'auto' | 'always' | 'never';
  qrOut: string | undefined;
}

export function newCmdPay(f: Factory, runF: (opts: PayOptions) => Promise<void> = payRun): Command {
  const command = new Command('pay')
    .description('create a white-label payment and show it to the payer with a QR code')
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
    .action((amount: string, currency: string, flags: PayFlags) =>
      runF({
        io: f.io,
        gateway: () => f.gateway(),
        clock: f.clock,
        request: buildPaymentRequest(amount, currency, flags),
        qr: flags.qr === true ? 'always' : flags.qr === false ? 'never' : 'auto',
        qrOut: parseQrOut(flags.qrOut),
      }),
    );
  return withHelp(command, {
    examples: [
      'gw pay 25 USD --pay-currency USDT --order-id 1042',
      'gw pay 0.00038127 BTC --life-time 30',
      'gw pay 25 USDT --sandbox',
      'gw pay 10 EUR --pay-currency BTC --json | jq -r .address',
    ],
    json: '{"trackId", "amount", "currency", "payAmount", "payCurrency", "network", "address", "memo", …, "uri"} (amounts as exact decimal strings)',
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
  if (flags.callbackUrl !== undefined) request.callbackUrl = parseHttpUrl(flags.callbackUrl, '--callback-url');
  if (flags.email !== undefined) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(flags.email)) throw new UsageError(`--email must be an e-mail address (got "${flags.email.slice(0, 60)}")`);
    request.email = flags.email;
  }
  if (flags.description !== undefined) request.description = parseText(flags.description, '--description');
  if (flags.orderId !== undefined) request.orderId = parseText(flags.orderId, '--order-id', 100);
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

function parseHttpUrl(text: string, flag: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(`${flag} must be an http(s) URL (got "${text.slice(0, 60)}")`);
  }
  return text;
}

/** --qr-out is checked before the payment exists: its folder must exist and be writable. */
export async function checkQrOutWritable(file: string): Promise<void> {
  const target = path.resolve(file);
  try {
    const existing = await stat(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (existing !== undefined) {
      if (!existing.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
      await access(target, constants.W_OK);
    } else {
      await access(path.dirname(target), constants.W_OK);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new GwError(ExitCode.CANTCREAT, `--qr-out ${file} cannot be written (${code}); no payment was created`);
  }
}

/**
 * After the request may have reached the gateway, a failure without a clear refusal is ambiguous:
 * the payment may exist. Say so, and how to recognise it; never send it again automatically.
 */
export function ambiguousFailure(error: GwError, request: PaymentRequest): GwError {
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
      ? `look for order id "${request.orderId}" before trying again: gw payments --order-id ${shellWord(request.orderId)}`
      : `look for a payment of ${request.amount} ${request.currency} created just now before trying again; give --order-id next time so it can be recognised`;
  return error.with({
    message: `${error.message}; the payment MAY HAVE BEEN CREATED — it was not sent again`,
    hint: recognise,
    payment: 'unknown',
  });
}

function shellWord(text: string): string {
  return /^[A-Za-z0-9._:@%+=,/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Why a created payment cannot be shown to a payer as payable, if it cannot. */
function unpayableReason(payment: Payment): string | undefined {
  if (payment.payAmount === null) return 'the gateway gave no amount to pay';
  if (!payment.payAmount.isPositive) return `the gateway priced it at ${payment.payAmount}`;
  if (payment.payCurrency === null || payment.payCurrency.isBlank) return 'the gateway gave no currency to pay in';
  if (payment.address === null || payment.address.isBlank) return 'the gateway gave no address';
  return undefined;
}

export async function payRun(opts: PayOptions): Promise<void> {
  const { io, request } = opts;
  if (opts.qrOut !== undefined) await checkQrOutWritable(opts.qrOut);
  const gateway = await opts.gateway();

  let payment: Payment;
  try {
    payment = await gateway.createPayment(request);
  } catch (error) {
    throw error instanceof GwError ? ambiguousFailure(error, request) : error;
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
    await printPayment(opts, payment, uri);
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
      const { writeQrImage } = await import('../qr/index.js');
      await writeQrImage(uri.uri, opts.qrOut);
    } catch (error) {
      await printPayment(opts, payment, uri);
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw created(
        new GwError(ExitCode.CANTCREAT, `payment ${payment.trackId} was created, but the QR image could not be written to ${opts.qrOut} (${code})`),
      );
    }
  }

  await printPayment(opts, payment, uri);
  try {
    await io.flush();
  } catch (error) {
    if (error instanceof GwError) throw created(error.with({ message: `payment ${payment.trackId} was created, but ${error.message}` }));
    throw error;
  }
}

/** The payment, as JSON or for people; with its QR when `uri` is given and wanted. */
async function printPayment(opts: PayOptions, payment: Payment, uri: PaymentUri | undefined): Promise<void> {
  const { io } = opts;
  const wantQr = uri?.qr && (opts.qr === 'always' || (opts.qr === 'auto' && io.drawQrByDefault()));
  if (io.json) {
    // A URI that would let a wallet pay without the required memo is not offered at all.
    io.printJson({ ...payment, uri: uri?.qr === true ? uri.uri : null });
    if (wantQr) io.err(await renderQr(io, uri.uri));
    return;
  }
  io.sandboxBanner();
  const { chalk } = io;
  let text = renderDetails(paymentRows(opts, payment, uri));
  if (uri === undefined) {
    io.out(`${text}${chalk.bold.red('NOT PAYABLE: do not show this to a payer.')}\n`);
    return;
  }
  if (wantQr) text += `\n${await renderQr(io, uri.uri)}`;
  if (!uri.qr) {
    text += `\n${chalk.bold.yellow(`No QR code: ${uri.qrRefusal ?? 'the memo cannot go in one'}.`)} The payer must send ${chalk.bold(`${payment.payAmount} ${payment.payCurrency}`)} to the address above with the memo ${chalk.bold(Untrusted.of(uri.memo ?? '').toString())}.\n`;
  } else if (!uri.amountInUri) {
    text += `\n${chalk.bold.yellow('The QR code holds only the address.')} The payer must enter the amount: ${chalk.bold(`${payment.payAmount} ${payment.payCurrency}`)}\n`;
  }
  if (opts.qrOut !== undefined) text += `QR image written to ${opts.qrOut}\n`;
  if (io.sandbox) text += `${chalk.yellow('SANDBOX payment: testnet-form address, do not send real funds.')}\n`;
  io.out(text);
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
    const expiry = parseTimestamp(payment.expiredAt);
    if (expiry !== undefined) rows.push({ label: 'Expires', value: timeLeftWords(expiry, opts.clock.now()) });
    else if (payment.expiredAt !== null) rows.push({ label: 'Expires', value: String(payment.expiredAt) });
  }
  if (payment.amount !== null) rows.push({ label: 'Amount', value: `${payment.amount} ${payment.currency ?? ''}`.trim() });
  if (payment.rate !== null && uri !== undefined) rows.push({ label: 'Rate', value: payment.rate.toString() });
  rows.push({ label: 'Track ID', value: payment.trackId.toString() });
  if (payment.orderId && !payment.orderId.isBlank) rows.push({ label: 'Order ID', value: payment.orderId.toString() });
  if (payment.description && !payment.description.isBlank) rows.push({ label: 'Description', value: payment.description.toString() });
  if (payment.email && !payment.email.isBlank) rows.push({ label: 'Payer e-mail', value: payment.email.toString() });
  if (payment.callbackUrl && !payment.callbackUrl.isBlank) rows.push({ label: 'Callback', value: payment.callbackUrl.toString() });
  if (uri?.qr === true) rows.push({ label: 'URI', value: uri.uri });
  return rows;
}

async function renderQr(io: IOStreams, text: string): Promise<string> {
  const { renderTerminalQr, qrWidth } = await import('../qr/index.js');
  const width = qrWidth(text);
  const columns = io.width();
  if (io.stdoutIsTTY && width > columns) {
    io.warn(`the QR code needs ${width} columns and the terminal has ${columns}: widen it, or use --qr-out <file.png>`);
    return '';
  }
  return renderTerminalQr(text, io.qrRenderOptions());
}
