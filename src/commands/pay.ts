// gw pay <amount> <currency>: create a white-label payment and show it to the payer — details,
// the payment URI for the network, and a QR code that scans on any terminal theme.
import { Command } from 'commander';
import type { Context } from '../context.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { Payment, PaymentRequest } from '../gateway/client.js';
import { parsePositiveDecimal } from '../money/decimal.js';
import { cell, renderDetails, type DetailRow } from '../output/table.js';
import type { PaymentUri } from '../payment-uri/index.js';
import { parseSymbol, printJson, sandboxBanner, withExamples, type ActionFactory } from './shared.js';

interface PayFlags {
  payCurrency?: string;
  network?: string;
  lifeTime?: string;
  feePaidByPayer?: string;
  underPaidCover?: string;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
  qr?: boolean;
  qrOut?: string;
}

/** Fiat codes the gateway prices in but a payer cannot send. */
const FIAT = new Set(['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY', 'CHF', 'CNY', 'INR', 'RUB', 'TRY', 'BRL', 'AED', 'IRR', 'IRT', 'SGD', 'HKD', 'KRW', 'MXN', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'ZAR']);

function option(flags: PayFlags, name: keyof PayFlags): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** Validates everything before any request is made: a usage error costs nothing, a bad payment does. */
export function buildPaymentRequest(amountText: string, currencyText: string, flags: PayFlags): PaymentRequest {
  const amount = parsePositiveDecimal(amountText);
  if (amount === undefined) {
    throw new UsageError(`<amount> must be a plain positive decimal such as 25 or 0.00038127 (got "${amountText.slice(0, 40)}")`, 'no signs, exponents, thousands separators or commas');
  }
  const currency = parseSymbol(currencyText, '<currency>');
  const payCurrency = parseSymbol(option(flags, 'payCurrency') ?? currency, '--pay-currency');
  if (FIAT.has(payCurrency)) {
    throw new UsageError(`${payCurrency} is not a coin a payer can send: name one with --pay-currency`, `e.g. gw pay ${amount} ${currency} --pay-currency USDT`);
  }
  const request: PaymentRequest = { amount, currency, payCurrency };

  const lifeTime = option(flags, 'lifeTime');
  if (lifeTime !== undefined) {
    if (!/^\d{1,6}$/.test(lifeTime.trim()) || Number(lifeTime) < 15 || Number(lifeTime) > 2880) {
      throw new UsageError(`--life-time must be a whole number of minutes from 15 to 2880 (got "${lifeTime.slice(0, 20)}")`);
    }
    request.lifeTime = String(Number(lifeTime));
  }
  const fee = option(flags, 'feePaidByPayer');
  if (fee !== undefined) {
    const trimmed = fee.trim();
    if (trimmed !== '0' && trimmed !== '1') throw new UsageError(`--fee-paid-by-payer must be 0 (merchant pays the fee) or 1 (payer pays it), got "${fee.slice(0, 20)}"`);
    request.feePaidByPayer = trimmed;
  }
  const cover = option(flags, 'underPaidCover');
  if (cover !== undefined) {
    const trimmed = cover.trim();
    const ok = /^\d{1,2}(?:\.\d{1,8})?$/.test(trimmed) && (Number(trimmed.split('.')[0]) < 60 || /^60(?:\.0*)?$/.test(trimmed));
    if (!ok) throw new UsageError(`--under-paid-cover must be a percentage from 0 to 60 (got "${cover.slice(0, 20)}")`);
    request.underPaidCover = trimmed.replace(/^0+(?=\d)/, '');
  }
  const callbackUrl = option(flags, 'callbackUrl');
  if (callbackUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(callbackUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new UsageError(`--callback-url must be an http(s) URL (got "${callbackUrl.slice(0, 60)}")`);
    }
    request.callbackUrl = callbackUrl;
  }
  const email = option(flags, 'email');
  if (email !== undefined) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`--email must be an e-mail address (got "${email.slice(0, 60)}")`);
    request.email = email;
  }
  for (const [flag, name] of [
    ['--description', 'description'],
    ['--order-id', 'orderId'],
    ['--network', 'network'],
  ] as const) {
    const value = option(flags, name);
    if (value === undefined) continue;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${flag} must not contain control characters`);
    request[name] = value;
  }
  const qrOut = option(flags, 'qrOut');
  if (qrOut !== undefined && !/\.(svg|png)$/i.test(qrOut)) throw new UsageError('--qr-out must name a .svg or .png file');
  return request;
}

/**
 * After the request may have reached the gateway, a failure without a clear refusal is ambiguous:
 * the payment may exist. Say so, and how to recognise it; never send it again automatically.
 */
function ambiguousFailure(error: GwError, request: PaymentRequest): GwError {
  const notSent = error.name === 'TransportError' && (error as GwError & { delivery?: string }).delivery === 'not-sent';
  // A definite refusal: the gateway answered with a result code or an error object, and not one
  // that says it failed internally (result 500, or a 5xx status) while handling the request.
  const failedInside = error.result === 500 || (error.status !== undefined && error.status >= 500);
  const refused = !failedInside && (error.result !== undefined || error.type !== undefined);
  const uncertainExit = ([ExitCode.UNAVAILABLE, ExitCode.TEMPFAIL, ExitCode.PROTOCOL, ExitCode.INTERRUPTED] as number[]).includes(error.exitCode);
  if (notSent || refused || !uncertainExit) return error;
  const recognise =
    request.orderId !== undefined
      ? `look for order id "${request.orderId}" in the gateway's dashboard before trying again`
      : `look for a payment of ${request.amount} ${request.currency} created just now before trying again; give --order-id next time so it can be recognised`;
  return new GwError(error.exitCode, `${error.message}; the payment MAY HAVE BEEN CREATED — it was not sent again`, {
    hint: recognise,
    ...(error.status !== undefined && { status: error.status }),
    ...(error.result !== undefined && { result: error.result }),
  });
}

/** expiredAt/createdAt: unix seconds or milliseconds (number or numeric text), or a date string. */
export function parseTimestamp(value: number | string | null): Date | undefined {
  if (value === null) return undefined;
  const text = String(value).trim();
  if (/^\d{9,11}$/.test(text)) return new Date(Number(text) * 1000);
  if (/^\d{12,14}$/.test(text)) return new Date(Number(text));
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

function localTime(date: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

export function describeExpiry(value: number | string | null, now = Date.now()): string | undefined {
  const date = parseTimestamp(value);
  if (date === undefined) return value === null ? undefined : cell(String(value));
  const minutes = Math.round((date.getTime() - now) / 60_000);
  const left = minutes >= 0 ? `${minutes} min left` : `expired ${-minutes} min ago`;
  return `${localTime(date)} local time (${left})`;
}

function humanOutput(ctx: Context, payment: Payment, uri: PaymentUri): string {
  const { chalk } = ctx.io;
  const payLine = `${chalk.bold(payment.payAmount)} ${cell(payment.payCurrency)}`;
  const network = cell(payment.network ?? '');
  const rows: DetailRow[] = [
    { label: 'Pay exactly', value: payLine },
    { label: 'Network', value: uri.networkId && uri.networkName !== network ? `${uri.networkName} (${network})` : network || '(not given)' },
    { label: 'Address', value: chalk.bold(cell(payment.address)) },
  ];
  const expiry = describeExpiry(payment.expiredAt);
  if (expiry !== undefined) rows.push({ label: 'Expires', value: expiry });
  if (payment.amount !== null) rows.push({ label: 'Amount', value: `${payment.amount} ${cell(payment.currency ?? '')}`.trim() });
  if (payment.rate !== null) rows.push({ label: 'Rate', value: payment.rate });
  rows.push({ label: 'Track ID', value: cell(payment.trackId) });
  if (payment.orderId) rows.push({ label: 'Order ID', value: cell(payment.orderId) });
  if (payment.description) rows.push({ label: 'Description', value: cell(payment.description) });
  if (payment.email) rows.push({ label: 'Payer e-mail', value: cell(payment.email) });
  if (payment.callbackUrl) rows.push({ label: 'Callback', value: cell(payment.callbackUrl) });
  rows.push({ label: 'URI', value: cell(uri.uri) });
  return renderDetails(rows);
}

async function runPay(ctx: Context, request: PaymentRequest, flags: PayFlags): Promise<void> {
  const gateway = await ctx.gateway();
  let payment: Payment;
  try {
    payment = await gateway.createPayment(request);
  } catch (error) {
    throw error instanceof GwError ? ambiguousFailure(error, request) : error;
  }

  const { buildPaymentUri } = await import('../payment-uri/index.js');
  let uri: PaymentUri;
  try {
    uri = buildPaymentUri({ network: payment.network ?? '', payCurrency: payment.payCurrency, address: payment.address, payAmount: payment.payAmount });
  } catch (error) {
    if (error instanceof GwError) {
      throw new GwError(error.exitCode, `payment ${cell(payment.trackId)} was created, but ${error.message}; no QR is shown`, {
        hint: 'do not take payment for it; contact the gateway',
      });
    }
    throw error;
  }

  const qrOut = flags.qrOut;
  if (qrOut !== undefined) {
    const { writeQrImage } = await import('../qr/index.js');
    try {
      await writeQrImage(uri.uri, qrOut);
    } catch (error) {
      if (error instanceof GwError) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new GwError(ExitCode.CANTCREAT, `payment ${cell(payment.trackId)} was created, but the QR image could not be written to ${qrOut} (${code})`);
    }
  }

  const wantQr = flags.qr === true || (flags.qr === undefined && ctx.io.stdoutIsTTY && !ctx.io.json);
  if (ctx.io.json) {
    printJson(ctx, { ...payment, uri: uri.uri });
    if (wantQr) ctx.io.err(await renderQr(ctx, uri.uri));
    return;
  }

  const { chalk } = ctx.io;
  let text = ctx.sandbox ? sandboxBanner(ctx) : '';
  text += humanOutput(ctx, payment, uri);
  if (wantQr) text += `\n${await renderQr(ctx, uri.uri)}`;
  if (!uri.amountInUri) {
    text += `\n${chalk.bold.yellow('The QR code holds only the address.')} The payer must enter the amount: ${chalk.bold(`${payment.payAmount} ${cell(payment.payCurrency)}`)}\n`;
  }
  if (qrOut !== undefined) text += `QR image written to ${qrOut}\n`;
  if (ctx.sandbox) text += `${chalk.yellow('SANDBOX payment: testnet-form address, do not send real funds.')}\n`;
  ctx.io.out(text);
}

async function renderQr(ctx: Context, text: string): Promise<string> {
  const { renderTerminalQr, qrWidth } = await import('../qr/index.js');
  const columns = process.stdout.columns;
  const width = qrWidth(text);
  if (ctx.io.stdoutIsTTY && columns !== undefined && columns > 0 && width > columns) {
    ctx.warn(`the QR code needs ${width} columns and the terminal has ${columns}: widen it, or use --qr-out <file.png>`);
    return '';
  }
  return renderTerminalQr(text, { color: ctx.io.color });
}

export function payCommand(action: ActionFactory): Command {
  let request: PaymentRequest | undefined;
  const command = new Command('pay')
    .description('create a white-label payment and show it to the payer with a QR code')
    .argument('<amount>', 'amount to charge, a plain decimal such as 25 or 0.00038127')
    .argument('<currency>', 'currency of the amount: a coin (BTC, USDT) or fiat (USD, EUR)')
    .option('--pay-currency <sym>', 'coin the payer sends (default: <currency>)')
    .option('--network <name>', 'network for a coin on several chains, e.g. "Ethereum Network" (sent only when given)')
    .option('--life-time <minutes>', 'minutes until the payment expires, 15–2880 (gateway default when omitted)')
    .option('--fee-paid-by-payer <0|1>', '1: the payer pays the network fee; 0: the merchant does')
    .option('--under-paid-cover <percent>', 'accept payments short by up to this percentage, 0–60')
    .option('--callback-url <url>', 'URL the gateway notifies on status changes')
    .option('--description <text>', 'free text stored with the payment')
    .option('--order-id <id>', 'your order identifier (recommended: it identifies the payment if anything fails)')
    .option('--email <addr>', "payer's e-mail")
    .option('--qr', 'always draw the QR code (on stderr with --json)')
    .option('--no-qr', 'never draw the QR code')
    .option('--qr-out <file>', 'also write the QR code to a .svg or .png file')
    .action(
      action(
        async (ctx) => {
          if (request !== undefined) await runPay(ctx, request, command.opts<PayFlags>());
        },
        () => {
          const [amount = '', currency = ''] = command.args;
          request = buildPaymentRequest(amount, currency, command.opts<PayFlags>());
        },
      ),
    );
  return withExamples(command, [
    'gw pay 25 USD --pay-currency USDT --order-id 1042',
    'gw pay 0.00038127 BTC --life-time 30',
    'gw pay 25 USDT --sandbox',
    'gw pay 10 EUR --pay-currency BTC --json | jq -r .address',
  ]);
}
