// The payment request gw pay and gw counter send, checked before anything is sent (a usage error
// costs nothing, a bad payment does), and what a creation that failed after the request may have
// reached the gateway means: the payment may exist (ambiguousFailure). gw invoice takes its
// amount and terms from here too (parseAmountArg, parseTermFlags).
import { type GwError, UsageError } from '../errors.js';
import { checkFeePaidByPayer, checkLifeTime, checkUnderPaidCover, isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import type { PaymentRequest } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { shellQuote } from '../output/sanitize.js';
import { maxAssetDecimals } from '../payment-uri/decimals.js';
import { mayHaveBeenCreated } from './ambiguous-creation.js';
import { parseHttpUrl, parseOrderId, parseSymbol, parseText } from './args.js';

/** The options of a payment request, as given on a command line (gw pay's flags, gw counter's). */
export interface PaymentRequestFlags {
  payCurrency?: string;
  network?: string;
  lifeTime?: string;
  feePaidByPayer?: string;
  underPaidCover?: string;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
}

/** <amount> as typed (gw pay, gw counter, gw invoice): a plain positive decimal, kept exactly. */
export function parseAmountArg(amountText: string): Decimal {
  const amount = Decimal.parseAmount(amountText);
  if (amount === undefined) {
    throw new UsageError(
      `<amount> must be a plain positive decimal such as 25 or 0.00038127 (got "${amountText.slice(0, 40)}")`,
      'no signs, exponents, thousands separators or commas',
    );
  }
  return amount;
}

/** The terms a payment and an invoice both take (--life-time, --fee-paid-by-payer, --under-paid-cover), checked. */
export function parseTermFlags(
  flags: Pick<PaymentRequestFlags, 'lifeTime' | 'feePaidByPayer' | 'underPaidCover'>,
): Pick<PaymentRequest, 'lifeTime' | 'feePaidByPayer' | 'underPaidCover'> {
  const request: Pick<PaymentRequest, 'lifeTime' | 'feePaidByPayer' | 'underPaidCover'> = {};
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
  return request;
}

/** Validates everything before any request is made: a usage error costs nothing, a bad payment does. */
export function buildPaymentRequest(amountText: string, currencyText: string, flags: PaymentRequestFlags): PaymentRequest {
  const amount = parseAmountArg(amountText);
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
  const request: PaymentRequest = { amount, currency, payCurrency, ...parseTermFlags(flags) };
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
 * After the request may have reached the gateway, a failure without a clear refusal is ambiguous
 * (mayHaveBeenCreated, the rule gw invoice's creation follows too): the payment may exist. Say so,
 * and how to recognise it (gw pay's --reuse-if-exists); never send it again automatically.
 */
export function ambiguousFailure(error: GwError, request: PaymentRequest, sandbox = false): GwError {
  if (!mayHaveBeenCreated(error)) return error;
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
