// Creating a payment (a white-label one, as the gateway's create call makes): the request's fields
// checked against the gateway's rules (src/domain), the amount priced (prices.ts), a new track id,
// the payment kept (store.ts: memory and journal) and its lifecycle started (live.ts).

import { FEE_PAID_BY_PAYER, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import type { Api } from '../operations/codec.js';
import type { CreatedPayment } from '../operations/create-payment.js';
import { matchNetwork } from '../payment-uri/index.js';
import { deriveSandboxAddress } from './addresses.js';
import { fail, ok, sandboxLink, type Answer } from './envelopes.js';
import { compareToInt, integerValue, isHttpUrl, isPositive, readNumeric, readString, readSymbol, type RequestFields } from './fields.js';
import { DEFAULT_SETTLE_SECONDS, expiresAt, outcomeOf } from './lifecycle.js';
import type { PaymentLifecycles } from './live.js';
import { isKnownCurrency } from './prices.js';
import { offerings, planOf, price, type Offering, type PaymentStore, type SandboxPayment } from './store.js';
import { MAX_AMOUNT_DIGITS } from './track-id.js';

/** What creating a payment needs of the gateway's configuration. */
export interface CreateSettings {
  /** Current time in milliseconds. */
  now: () => number;
  /** Base URL of the running sandbox (no trailing slash), for QR code and payment page links; undefined when it does not listen (no links then). */
  baseUrl: () => string | undefined;
  /** Seconds from creation to a payment's final state; default DEFAULT_SETTLE_SECONDS. */
  settleSeconds?: number;
}

/** The terms a payment and an invoice both take, checked as the gateway checks them (its result codes); its defaults where absent. */
export function readTerms(fields: RequestFields): Answer<{ lifeTime: number; feePaidByPayer: number; underPaidCover: string }> {
  const lifeTimeField = readNumeric(fields, 'lifeTime');
  let lifeTime: number = LIFETIME.default;
  if (lifeTimeField.kind === 'invalid') return fail(101, 'Validation problem: lifeTime must be a number');
  if (lifeTimeField.kind === 'ok') {
    const value = integerValue(lifeTimeField.plain);
    if (value === undefined) return fail(101, 'Validation problem: lifeTime must be a whole number of minutes');
    if (value < BigInt(LIFETIME.min)) return fail(111, `lifeTime is too short (minimum ${LIFETIME.min} minutes)`);
    if (value > BigInt(LIFETIME.max)) return fail(112, `lifeTime is too long (maximum ${LIFETIME.max} minutes)`);
    lifeTime = Number(value);
  }

  const feeField = readNumeric(fields, 'feePaidByPayer');
  let feePaidByPayer = 0;
  if (feeField.kind === 'invalid') return fail(101, 'Validation problem: feePaidByPayer must be a number');
  if (feeField.kind === 'ok') {
    const value = integerValue(feeField.plain);
    if (!FEE_PAID_BY_PAYER.some((allowed) => BigInt(allowed) === value)) return fail(115, 'Invalid feePaidByPayer: it must be 0 or 1');
    feePaidByPayer = Number(value);
  }

  const coverField = readNumeric(fields, 'underPaidCover');
  let underPaidCover = '0';
  if (coverField.kind === 'invalid') return fail(101, 'Validation problem: underPaidCover must be a number');
  if (coverField.kind === 'ok') {
    if (compareToInt(coverField.plain, UNDERPAID_COVER.min) < 0) return fail(113, `underPaidCover must not be below ${UNDERPAID_COVER.min}`);
    if (compareToInt(coverField.plain, UNDERPAID_COVER.max) > 0) {
      return fail(114, `underPaidCover must not be above ${UNDERPAID_COVER.max}`);
    }
    underPaidCover = coverField.plain.replace(/^-/, '');
  }
  return ok({ lifeTime, feePaidByPayer, underPaidCover });
}

/** A white-label payment, created through `api` (its notifications are in that API's style). */
export function createPayment(
  store: PaymentStore,
  lifecycles: PaymentLifecycles,
  settings: CreateSettings,
  fields: RequestFields,
  api: Api = 'legacy',
): Answer<CreatedPayment> {
  const amount = readNumeric(fields, 'amount');
  if (amount.kind === 'absent') return fail(126, 'Amount is required');
  if (amount.kind === 'invalid') return fail(101, 'Validation problem: amount must be a number');
  if (!isPositive(amount.plain)) return fail(127, 'Amount is below the minimum');

  const payCurrency = readSymbol(fields, 'payCurrency');
  if (payCurrency.kind === 'invalid') return fail(101, 'Validation problem: payCurrency must be a string');
  if (payCurrency.kind === 'absent') return fail(120, 'Invalid payCurrency: it is required');
  const candidates = offerings().filter((o) => o.payCurrency === payCurrency.value);
  if (candidates.length === 0) return fail(120, 'Invalid payCurrency');

  const currencyField = readSymbol(fields, 'currency');
  if (currencyField.kind === 'invalid') return fail(101, 'Validation problem: currency must be a string');
  const currency = currencyField.kind === 'ok' ? currencyField.value : payCurrency.value;
  if (!isKnownCurrency(currency)) return fail(105, 'Invalid currency');

  const networkField = readString(fields, 'network');
  if (networkField.kind === 'invalid') return fail(101, 'Validation problem: network must be a string');
  let offering: Offering | undefined = candidates[0];
  if (networkField.kind === 'ok' && networkField.value.trim() !== '') {
    // The same tolerant matching gw uses to read the gateway's network names (case, spacing,
    // "Network", aliases such as TRC20/ERC20/BEP20/BSC).
    const wanted = matchNetwork(networkField.value, payCurrency.value);
    offering = candidates.find((o) => o.networkId === wanted);
  }
  if (offering === undefined) return fail(106, 'Invalid network');

  const terms = readTerms(fields);
  if (!terms.ok) return terms;
  const { lifeTime, feePaidByPayer, underPaidCover } = terms.value;

  const callbackField = readString(fields, 'callbackUrl');
  if (callbackField.kind === 'invalid') return fail(101, 'Validation problem: callbackUrl must be a string');
  if (callbackField.kind === 'ok' && !isHttpUrl(callbackField.value)) return fail(107, 'Invalid callbackUrl');

  const echoed: Record<'description' | 'orderId' | 'email', string> = { description: '', orderId: '', email: '' };
  for (const name of ['description', 'orderId', 'email'] as const) {
    const s = readString(fields, name);
    if (s.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
    if (s.kind === 'ok') echoed[name] = s.value;
  }

  // Pricing. Same currency: the amount is paid as sent, digit for digit.
  const priced = price(amount.plain, currency, offering.payCurrency);
  if (priced === undefined) return fail(131, 'An error occurred');
  const { rate, payAmount } = priced;
  const payAmountLiteral = currency === offering.payCurrency ? amount.literal : payAmount;
  if (!isPositive(payAmount)) return fail(127, 'Amount is below the minimum');
  if (amount.plain.replace('.', '').length > MAX_AMOUNT_DIGITS) return fail(110, `Amount is too high: at most ${MAX_AMOUNT_DIGITS} digits`);

  const createdAt = Math.floor(settings.now() / 1000);
  const settleSeconds = settings.settleSeconds ?? DEFAULT_SETTLE_SECONDS;
  const outcome = outcomeOf(echoed.orderId);
  const trackId = store.newTrackId();
  const payment: SandboxPayment = {
    kind: 'white-label',
    trackId,
    amount: amount.plain,
    currency,
    payAmount,
    payCurrency: offering.payCurrency,
    network: offering.network,
    address: deriveSandboxAddress(offering.networkId, trackId),
    rate,
    lifeTime,
    feePaidByPayer,
    underPaidCover,
    callbackUrl: callbackField.kind === 'ok' ? callbackField.value : '',
    description: echoed.description,
    email: echoed.email,
    orderId: echoed.orderId,
    createdAt,
    expiredAt: 0,
    outcome,
    settleSeconds,
    api,
  };
  payment.expiredAt = expiresAt(planOf(payment));
  store.add(payment);
  lifecycles.start(payment);

  // Amounts echoed with the digits received (same currency: the pay amount too).
  return ok({
    trackId,
    amount: amount.literal,
    currency,
    payAmount: payAmountLiteral,
    payCurrency: payment.payCurrency,
    network: payment.network,
    address: payment.address,
    memo: '',
    callbackUrl: payment.callbackUrl,
    description: payment.description,
    email: payment.email,
    feePaidByPayer,
    lifeTime,
    orderId: payment.orderId,
    underPaidCover,
    rate,
    QRCode: sandboxLink(settings.baseUrl(), `/qr/${trackId}.png`),
    expiredAt: payment.expiredAt,
    createdAt: payment.createdAt,
  });
}
