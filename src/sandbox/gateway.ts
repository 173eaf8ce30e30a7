// The sandbox gateway's operations, without HTTP and without either API's spelling: each takes the
// request's fields under their canonical names (values as sent: the operation checks them) and
// answers in canonical values (src/operations/*: amounts as exact digits, times as Unix seconds) or
// with a Failure (a result code and message). Keys, field names, JSON types and envelopes are the
// operations' codecs' business (routes.ts, envelopes.ts): the same tables the client reads with.
//
// Payments have a lifecycle (lifecycle.ts: the one module with the rules) and a numeric track id
// (9 digits, as the gateway's); with a journal (`--sandbox` runs) each payment's record is written
// there, so a payment created by an earlier process is answered for by this one. Ids of before,
// `sbx…`, carry the record themselves (track-id.ts) and are still answered for. Every change of a
// payment created here is emitted on `events` (events.ts) when it happens: a timer (unref'd,
// cleared by close()) is set for each payment's next transition, and every inquiry or list brings
// the emitted state up to date first, so listeners hear each transition once and in order even
// when a timer is late.

import { randomInt } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { isLosslessNumber } from 'lossless-json';
import { asciiUpperCase } from '../util/ascii.js';
import { FEE_PAID_BY_PAYER, isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { normalizeStatus } from '../domain/payment-status.js';
import { compareDecimals, multiplyRounded, toPlainDecimal } from '../money/decimal.js';
import type { NotificationTx } from '../notifications/payload.js';
import { ACCEPTED_CURRENCIES, type AcceptedCurrenciesAnswer } from '../operations/accepted-currencies.js';
import { BALANCE, type BalanceAnswer } from '../operations/balance.js';
import type { Api, KeyKind, Operation } from '../operations/codec.js';
import { CREATE_PAYMENT, type CreatedPayment } from '../operations/create-payment.js';
import { PAYMENT_HISTORY, type PaymentHistoryAnswer } from '../operations/payment-history.js';
import { PAYMENT_INFO, type PaymentKind, type PaymentRecord } from '../operations/payment-info.js';
import { MERCHANT_RATE } from '../operations/merchant-rate.js';
import { RATE, type RateAnswer } from '../operations/rate.js';
import {
  FIATS,
  PRICES,
  SUPPORTED_CURRENCIES,
  SUPPORTED_NETWORKS,
  SYSTEM_STATUS,
  type CurrenciesAnswer,
  type FiatsAnswer,
  type NetworksAnswer,
  type PricesAnswer,
  type SystemStatusAnswer,
} from '../operations/reference-data.js';
import { matchNetwork } from '../payment-uri/index.js';
import { deriveSandboxAddress } from './addresses.js';
import { SandboxEvents, type PaymentSnapshot } from './events.js';
import { fail, ok, type Answer, type GatewayReply } from './envelopes.js';
import type { JournalEntry, JournalRecord, SandboxJournal } from './journal.js';
import {
  OUTCOMES,
  creditedAt,
  DEFAULT_SETTLE_SECONDS,
  expiresAt,
  forcedStep,
  nextStep,
  outcomeOf,
  parseSandboxStatus,
  partOf,
  receivedOf,
  stateAt,
  stepsBetween,
  type LifecyclePlan,
  type Outcome,
  type PlannedTx,
  type SandboxStatus,
  type Step,
  type TriggerState,
} from './lifecycle.js';
import { SANDBOX_OFFERINGS } from './offerings.js';
import { displayDecimals, exchangeRate, isKnownCurrency, sandboxBalances, sandboxFiats, usdPrices } from './prices.js';
import { decodeTrackId, MAX_AMOUNT_DIGITS } from './track-id.js';

/** Request fields under their canonical names: strings (form encoding, query) or lossless-json values (JSON). */
export type RequestFields = Readonly<Record<string, unknown>>;

export type { GatewayReply } from './envelopes.js';

export interface GatewayConfig {
  merchantKey: string;
  payoutKey: string;
  /** The versioned API's general key (balance, rate); without one, those endpoints refuse every key. */
  generalKey?: string;
  /** Current time in milliseconds. */
  now: () => number;
  /** Base URL of the running sandbox (no trailing slash), used for QR code links. */
  baseUrl: () => string;
  /** Seconds from creation to a payment's final state; default DEFAULT_SETTLE_SECONDS. */
  settleSeconds?: number;
  /** Where payments are recorded for later processes (`--sandbox` runs); none by default. */
  journal?: SandboxJournal;
  /** Runs `fn` after `ms` and returns a cancel function; default an unref'd setTimeout. */
  schedule?: (ms: number, fn: () => void) => () => void;
}

const defaultSchedule = (ms: number, fn: () => void): (() => void) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

type Offering = (typeof SANDBOX_OFFERINGS)[number];

/**
 * A payment the sandbox keeps: canonical values only. `kind` says what sort of payment it is; the
 * sandbox creates white-label ones, but nothing here assumes that (a payment link has its coin
 * chosen later, a static address receives many payments, a payout goes out).
 */
export interface SandboxPayment {
  kind: PaymentKind;
  trackId: string;
  amount: string;
  currency: string;
  payAmount: string;
  payCurrency: string;
  network: string;
  address: string;
  rate: string;
  lifeTime: number;
  feePaidByPayer: number;
  underPaidCover: string;
  callbackUrl: string;
  description: string;
  email: string;
  orderId: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds: createdAt + lifeTime × 60 (the settle time for a payment that is to expire). */
  expiredAt: number;
  /** The final state its order id chose (lifecycle.ts). */
  outcome: Outcome;
  settleSeconds: number;
  /** The API it was created through: its notifications are in that API's style. */
  api: Api;
}

/** The lifecycle's view of a payment. */
function planOf(payment: SandboxPayment): LifecyclePlan {
  return { createdAt: payment.createdAt, lifeTime: payment.lifeTime, settleSeconds: payment.settleSeconds, outcome: payment.outcome };
}

/** A made-up transaction hash, fixed per payment and transaction (hex, 64 digits; the first as it always was). */
function sandboxTxId(trackId: string, n = 0): string {
  return bytesToHex(sha256(utf8ToBytes(n === 0 ? `gw-sandbox-tx\u0000${trackId}` : `gw-sandbox-tx\u0000${trackId}\u0000${n}`)));
}

/** Confirmations a transaction shows: one while confirming, then a dozen (none for a failed one). */
const CONFIRMATIONS: Readonly<Record<PlannedTx['state'], number>> = { confirming: 1, confirmed: 12, failed: 0 };

/** The coins' names, for the supported-currencies answer. */
const COIN_NAMES: Readonly<Record<string, string>> = {
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  USDT: 'Tether',
  USDC: 'USD Coin',
  LTC: 'Litecoin',
  DOGE: 'Dogecoin',
  TRX: 'Tron',
  BNB: 'BNB',
  POL: 'Polygon',
  SOL: 'Solana',
  TON: 'Toncoin',
  XMR: 'Monero',
  BCH: 'Bitcoin Cash',
  DASH: 'Dash',
};

/** The coin a mixed payment's second transaction is in: BTC, or ETH when the payment is in BTC. */
function secondOffering(payCurrency: string): Offering {
  return SANDBOX_OFFERINGS.find((o) => o.payCurrency === (payCurrency === 'BTC' ? 'ETH' : 'BTC')) as Offering;
}

/** Pricing of an amount: the rate and the pay amount, or undefined when there is no rate. */
function price(amount: string, currency: string, payCurrency: string): { rate: string; payAmount: string } | undefined {
  if (currency === payCurrency) return { rate: '1', payAmount: amount };
  const rate = exchangeRate(currency, payCurrency);
  if (rate === undefined) return undefined;
  return { rate, payAmount: multiplyRounded(amount, rate, displayDecimals(payCurrency)) };
}

/** How far out of creation order processes may append to the journal (see #newestPage). */
const JOURNAL_SKEW_SECONDS = 2;

/** Payments a history page holds at most (docs/gateway.md §6: size 1–200). */
export const LIST_SIZE = { min: 1, max: 200, default: 20 } as const;

/** The versioned history's page size when `size` is absent (docs/gateway.md §12: default 10). */
export const V1_LIST_SIZE_DEFAULT = 10;

/** The versioned history's `sort_by` values (§12; `create_date` the default) and `type` values (§12), with the payment kind each names. */
const SORT_BY = ['create_date', 'pay_date', 'amount'] as const;
const SORT_TYPE = ['desc', 'asc'] as const;
const TYPE_KINDS: Readonly<Record<string, PaymentKind>> = { invoice: 'invoice', white_label: 'white-label', static_address: 'static-address' };

// ---------------------------------------------------------------------------------------------
// Field readers (liberal in what they accept)

function field(fields: RequestFields, name: string): unknown {
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

type StringField = { kind: 'absent' } | { kind: 'invalid' } | { kind: 'ok'; value: string };

/** A string field; absent when missing, null or "". Any non-string JSON value is invalid. */
function readString(fields: RequestFields, name: string): StringField {
  const v = field(fields, name);
  if (v === undefined || v === null || v === '') return { kind: 'absent' };
  return typeof v === 'string' ? { kind: 'ok', value: v } : { kind: 'invalid' };
}

/** A currency symbol: trimmed and upper-cased (the sandbox is case-insensitive about symbols). */
function readSymbol(fields: RequestFields, name: string): StringField {
  const s = readString(fields, name);
  if (s.kind !== 'ok') return s;
  const value = asciiUpperCase(s.value.trim());
  return value === '' ? { kind: 'absent' } : { kind: 'ok', value };
}

type NumericField =
  | { kind: 'absent' }
  | { kind: 'invalid' }
  /** plain: signed plain decimal (`-5`, `0.25`); literal: a valid JSON number literal for echoing. */
  | { kind: 'ok'; plain: string; literal: string };

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Strips redundant leading zeros of a signed plain decimal so it is a valid JSON number. */
function normalizePlain(plain: string): string {
  const negative = plain.startsWith('-');
  const body = negative ? plain.slice(1) : plain;
  const [int = '0', frac] = body.split('.');
  const intOut = int.replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${intOut}${frac === undefined ? '' : `.${frac}`}`;
}

/**
 * A numeric field: a JSON number (kept as its exact literal) or, liberally, a numeric string
 * (what form encoding always sends). Absent when missing, null or blank.
 */
function readNumeric(fields: RequestFields, name: string): NumericField {
  const v = field(fields, name);
  if (v === undefined || v === null) return { kind: 'absent' };
  let text: string;
  if (isLosslessNumber(v)) text = v.value;
  else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
  else if (typeof v === 'string') {
    text = v.trim();
    if (text === '') return { kind: 'absent' };
  } else return { kind: 'invalid' };
  const plain = toPlainDecimal(text);
  if (plain === undefined) return { kind: 'invalid' };
  const literal = JSON_NUMBER.test(text) ? text : normalizePlain(plain);
  return { kind: 'ok', plain: normalizePlain(plain), literal };
}

function isNegative(plain: string): boolean {
  return plain.startsWith('-') && /[1-9]/.test(plain);
}

function isPositive(plain: string): boolean {
  return !plain.startsWith('-') && /[1-9]/.test(plain);
}

/** Integer value of a signed plain decimal, or undefined when it has a fractional part. */
function integerValue(plain: string): bigint | undefined {
  const [int = '0', frac = ''] = plain.replace(/^-/, '').split('.');
  if (/[1-9]/.test(frac)) return undefined;
  const n = BigInt(int);
  return plain.startsWith('-') ? -n : n;
}

/** Compares a signed plain decimal with a small integer. */
function compareToInt(plain: string, bound: number): -1 | 0 | 1 {
  const negative = isNegative(plain);
  const [int = '0', frac = ''] = plain.replace(/^-/, '').split('.');
  const scale = frac.length;
  let units = BigInt(int + frac);
  if (negative) units = -units;
  const b = BigInt(bound) * 10n ** BigInt(scale);
  return units < b ? -1 : units > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// The gateway

interface LiveLifecycle {
  /** The last state emitted, and when the payment entered it (Unix ms). */
  last: SandboxStatus;
  lastAt: number;
  /** Cancels the timer set for the next transition. */
  cancel: (() => void) | undefined;
}

export class SandboxGateway {
  /** Every change of a payment created here, creation included (events.ts). */
  readonly events = new SandboxEvents();
  private readonly payments = new Map<string, SandboxPayment>();
  /** Lifecycles of the payments created here, for emitting their changes. */
  private readonly live = new Map<string, LiveLifecycle>();
  /** Payments created here whose journal entry could not be written (the journal said so). */
  private readonly unjournaled = new Set<string>();
  /** States forced by setState(), by track id. */
  private readonly forced = new Map<string, Step>();
  private offeringsCache: readonly Offering[] | undefined;

  constructor(private readonly config: GatewayConfig) {}

  /** Offerings whose pay currency has a sandbox price (all of them, unless the tables drift). */
  private offerings(): readonly Offering[] {
    this.offeringsCache ??= SANDBOX_OFFERINGS.filter((o) => isKnownCurrency(o.payCurrency) && !isFiat(o.payCurrency));
    return this.offeringsCache;
  }

  /** The key of `kind` this sandbox accepts (the general key: none unless configured). */
  keyOf(kind: KeyKind): string | undefined {
    return kind === 'merchant' ? this.config.merchantKey : kind === 'payout' ? this.config.payoutKey : this.config.generalKey;
  }

  /** The accepted pay currencies, each once, in offering order. */
  acceptedList(): string[] {
    return [...new Set(this.offerings().map((o) => o.payCurrency))];
  }

  /** A stored white-label payment, for tests and later operations. */
  payment(trackId: string): SandboxPayment | undefined {
    return this.payments.get(trackId);
  }

  /**
   * GET /qr/<trackId>.png — the image behind a payment's QRCode link: the QR of its payment URI
   * (or of the address alone where the network has no URI scheme), as gw pay --qr-out draws it.
   */
  async qrImage(file: string): Promise<GatewayReply> {
    const payment = file.endsWith('.png') ? this.resolve(file.slice(0, -'.png'.length)) : undefined;
    if (payment === undefined) return { status: 404, body: { message: 'no such QR code' } };
    const [{ buildPaymentUri }, { qrPng }] = await Promise.all([import('../payment-uri/index.js'), import('../qr/image.js')]);
    const { uri } = buildPaymentUri({ network: payment.network, payCurrency: payment.payCurrency, address: payment.address, payAmount: payment.payAmount });
    return { status: 200, body: qrPng(uri), headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } };
  }

  /** The accepted currencies (both APIs; the route checked the merchant key). */
  acceptedCurrencies(): Answer<AcceptedCurrenciesAnswer> {
    return ok({ list: this.acceptedList() });
  }

  /** The balances, or one currency's (`currency`); the route checked the payout or general key. */
  balance(fields: RequestFields): Answer<BalanceAnswer> {
    const balances = sandboxBalances();
    const currency = readSymbol(fields, 'currency');
    if (currency.kind === 'invalid') return fail(101, 'Validation problem: currency must be a string');
    if (currency.kind === 'absent') return ok({ balances });
    const amount = Object.hasOwn(balances, currency.value) ? balances[currency.value] : undefined;
    if (amount === undefined) return fail(105, 'Invalid currency');
    // The interface document calls `data` an "array of objects" keyed by symbol; the gateway's own
    // client reads an object map. The sandbox answers with the object map {"BTC":"0.1",...}.
    return ok({ balances: { [currency.value]: amount } });
  }

  /** The USD price of every coin the sandbox knows (fixed: prices.ts), fiat left out. No key. */
  prices(): Answer<PricesAnswer> {
    return ok({ prices: usdPrices(isFiat) });
  }

  /**
   * Every coin the sandbox offers with its networks (offerings.ts). The sandbox moves no money:
   * its fees and minimums are 0, and a transaction is confirmed at 12 confirmations (what its
   * transactions show once confirmed).
   */
  supportedCurrencies(): Answer<CurrenciesAnswer> {
    const symbols = this.acceptedList();
    return ok({
      currencies: symbols.map((symbol) => ({
        symbol,
        name: COIN_NAMES[symbol] ?? symbol,
        status: true,
        networks: this.offerings()
          .filter((o) => o.payCurrency === symbol)
          .map((o) => ({
            network: o.network,
            name: o.network,
            requiredConfirmations: CONFIRMATIONS.confirmed,
            withdrawFee: '0',
            withdrawMin: '0',
            depositMin: '0',
            staticFixedFee: '0',
          })),
      })),
    });
  }

  /** The networks the sandbox's coins are on, each once, in offering order. No key. */
  supportedNetworks(): Answer<NetworksAnswer> {
    return ok({ list: [...new Set(this.offerings().map((o) => o.network))] });
  }

  /** The fiat currencies the sandbox prices (prices.ts), each with its USD price. No key. */
  fiats(): Answer<FiatsAnswer> {
    return ok({ fiats: sandboxFiats(isFiat) });
  }

  /** The sandbox is up whenever it answers. No key. */
  systemStatus(): Answer<SystemStatusAnswer> {
    return ok({ status: true });
  }

  /** How many `toCurrency` one `fromCurrency` is worth (the legacy endpoint takes no key). */
  rate(fields: RequestFields): Answer<RateAnswer> {
    const from = readSymbol(fields, 'fromCurrency');
    const to = readSymbol(fields, 'toCurrency');
    if (from.kind === 'absent') return fail(101, 'Validation problem: fromCurrency is required');
    if (from.kind === 'invalid') return fail(101, 'Validation problem: fromCurrency must be a string');
    if (to.kind === 'absent') return fail(101, 'Validation problem: toCurrency is required');
    if (to.kind === 'invalid') return fail(101, 'Validation problem: toCurrency must be a string');
    if (!isKnownCurrency(from.value)) return fail(121, 'Invalid fromCurrency');
    if (!isKnownCurrency(to.value)) return fail(122, 'Invalid toCurrency');
    if (from.value === to.value) return fail(123, 'fromCurrency and toCurrency are the same');
    const rate = exchangeRate(from.value, to.value);
    if (rate === undefined) return fail(131, 'An error occurred');
    return ok({ rate });
  }

  /** A white-label payment, created through `api` (its notifications are in that API's style). */
  createPayment(fields: RequestFields, api: Api = 'legacy'): Answer<CreatedPayment> {
    const amount = readNumeric(fields, 'amount');
    if (amount.kind === 'absent') return fail(126, 'Amount is required');
    if (amount.kind === 'invalid') return fail(101, 'Validation problem: amount must be a number');
    if (!isPositive(amount.plain)) return fail(127, 'Amount is below the minimum');

    const payCurrency = readSymbol(fields, 'payCurrency');
    if (payCurrency.kind === 'invalid') return fail(101, 'Validation problem: payCurrency must be a string');
    if (payCurrency.kind === 'absent') return fail(120, 'Invalid payCurrency: it is required');
    const candidates = this.offerings().filter((o) => o.payCurrency === payCurrency.value);
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

    const createdAt = Math.floor(this.config.now() / 1000);
    const settleSeconds = this.config.settleSeconds ?? DEFAULT_SETTLE_SECONDS;
    const outcome = outcomeOf(echoed.orderId);
    const trackId = this.newTrackId();
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
    this.payments.set(trackId, payment);
    if (this.config.journal !== undefined && !this.config.journal.append({ trackId, orderId: payment.orderId, record: recordOf(payment) })) {
      this.unjournaled.add(trackId);
    }
    this.#startLifecycle(payment);

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
      QRCode: `${this.config.baseUrl()}/qr/${trackId}.png`,
      expiredAt: payment.expiredAt,
      createdAt: payment.createdAt,
    });
  }

  /** One payment by `trackId` (text, or a JSON integer as the gateway's own client sends it). */
  paymentInfo(fields: RequestFields): Answer<PaymentRecord> {
    const trackId = readId(fields, 'trackId');
    if (trackId.kind === 'absent') return fail(101, 'Validation problem: trackId is required');
    if (trackId.kind === 'invalid') return fail(116, 'Invalid trackId');
    const payment = this.resolve(trackId.value);
    if (payment === undefined) return fail(116, 'Invalid trackId');
    return ok(this.#record(payment, this.#current(payment)));
  }

  /** One page of the history, newest first, with the filters given (docs/gateway.md §6). */
  paymentHistory(fields: RequestFields, api: Api = 'legacy'): Answer<PaymentHistoryAnswer> {
    const size = readInteger(fields, 'size', api === 'v1' ? V1_LIST_SIZE_DEFAULT : LIST_SIZE.default);
    if (size === undefined || size < LIST_SIZE.min || size > LIST_SIZE.max)
      return fail(101, `Validation problem: size must be a whole number from ${LIST_SIZE.min} to ${LIST_SIZE.max}`, 'size');
    const page = readInteger(fields, 'page', 1);
    if (page === undefined || page < 1) return fail(101, 'Validation problem: page must be a whole number from 1');
    const fromDate = readInteger(fields, 'fromDate', undefined);
    const toDate = readInteger(fields, 'toDate', undefined);
    if (fromDate === undefined && field(fields, 'fromDate') !== undefined) return fail(101, 'Validation problem: fromDate must be Unix seconds');
    if (toDate === undefined && field(fields, 'toDate') !== undefined) return fail(101, 'Validation problem: toDate must be Unix seconds');
    if (fromDate !== undefined && toDate !== undefined && toDate < fromDate) return fail(119, 'toDate cannot be earlier than fromDate');
    const fromAmount = readNumeric(fields, 'fromAmount');
    const toAmount = readNumeric(fields, 'toAmount');
    if (fromAmount.kind === 'invalid' || (fromAmount.kind === 'ok' && isNegative(fromAmount.plain)))
      return fail(101, 'Validation problem: fromAmount must be a number');
    if (toAmount.kind === 'invalid' || (toAmount.kind === 'ok' && isNegative(toAmount.plain)))
      return fail(101, 'Validation problem: toAmount must be a number');
    if (fromAmount.kind === 'ok' && toAmount.kind === 'ok' && compareDecimals(toAmount.plain, fromAmount.plain) < 0)
      return fail(118, 'toAmount cannot be smaller than fromAmount');
    const statusField = readString(fields, 'status');
    if (statusField.kind === 'invalid') return fail(101, 'Validation problem: status must be a string');
    const status = statusField.kind === 'ok' ? parseSandboxStatus(statusField.value) : undefined;
    if (statusField.kind === 'ok' && status === undefined) return fail(101, 'Validation problem: unknown status');
    const text: Partial<Record<'currency' | 'payCurrency' | 'network' | 'orderId' | 'address', string>> = {};
    for (const name of ['currency', 'payCurrency', 'network', 'orderId', 'address'] as const) {
      const value = name === 'currency' || name === 'payCurrency' ? readSymbol(fields, name) : readString(fields, name);
      if (value.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
      if (value.kind === 'ok') text[name] = value.value;
    }
    const trackId = readId(fields, 'trackId');
    if (trackId.kind === 'invalid') return fail(116, 'Invalid trackId');
    // Sorting (both APIs: v1 sort_by/sort_type, legacy sortBy/orderBy, the same values) and the payment type (v1's codec alone reads it).
    const sortByField = readString(fields, 'sortBy');
    const sortBy = sortByField.kind === 'ok' ? SORT_BY.find((v) => v === sortByField.value) : 'create_date';
    if (sortByField.kind === 'invalid' || sortBy === undefined) return fail(101, `Validation problem: sortBy must be one of ${SORT_BY.join(', ')}`, 'sort_by');
    const sortTypeField = readString(fields, 'sortType');
    const sortType = sortTypeField.kind === 'ok' ? SORT_TYPE.find((v) => v === sortTypeField.value) : 'desc';
    if (sortTypeField.kind === 'invalid' || sortType === undefined)
      return fail(101, `Validation problem: sortType must be one of ${SORT_TYPE.join(', ')}`, 'sort_type');
    const typeField = readString(fields, 'type');
    const kind = typeField.kind === 'ok' ? (Object.hasOwn(TYPE_KINDS, typeField.value) ? TYPE_KINDS[typeField.value] : undefined) : null;
    if (typeField.kind === 'invalid' || kind === undefined)
      return fail(101, `Validation problem: type must be one of ${Object.keys(TYPE_KINDS).join(', ')}`, 'type');

    const journal = this.config.journal;
    const onlyPaging =
      status === undefined &&
      trackId.kind === 'absent' &&
      Object.keys(text).length === 0 &&
      fromDate === undefined &&
      toDate === undefined &&
      fromAmount.kind === 'absent' &&
      toAmount.kind === 'absent' &&
      kind === null &&
      sortBy === 'create_date' &&
      sortType === 'desc';
    if (journal !== undefined && onlyPaging) return ok(this.#newestPage(journal, page, size));
    // A track id or an order id names a few payments: only those are read. Other filters read them all.
    const pool =
      trackId.kind === 'ok'
        ? [this.resolve(trackId.value)].filter((p): p is SandboxPayment => p !== undefined)
        : text.orderId !== undefined
          ? this.#withOrderId(text.orderId)
          : this.#known();
    const matches: Array<{ payment: SandboxPayment; step: Step }> = [];
    for (const payment of pool) {
      const step = this.#current(payment);
      // The versioned API has no failed: a failed payment is expired there (its transaction failed).
      if (status !== undefined && step.status !== status && !(api === 'v1' && status === 'expired' && step.status === 'failed')) continue;
      if (kind !== null && payment.kind !== kind) continue;
      if (trackId.kind === 'ok' && payment.trackId !== trackId.value) continue;
      if (text.orderId !== undefined && payment.orderId !== text.orderId) continue;
      if (text.address !== undefined && payment.address !== text.address) continue;
      if (text.currency !== undefined && payment.currency !== text.currency) continue;
      if (text.payCurrency !== undefined && payment.payCurrency !== text.payCurrency) continue;
      if (text.network !== undefined) {
        const offering = this.offerings().find((o) => o.payCurrency === payment.payCurrency && o.network === payment.network);
        if (offering === undefined || matchNetwork(text.network, payment.payCurrency) !== offering.networkId) continue;
      }
      if (fromDate !== undefined && payment.createdAt < fromDate) continue;
      if (toDate !== undefined && payment.createdAt > toDate) continue;
      if (fromAmount.kind === 'ok' && compareDecimals(payment.amount, fromAmount.plain.replace(/^-/, '')) < 0) continue;
      if (toAmount.kind === 'ok' && compareDecimals(payment.amount, toAmount.plain.replace(/^-/, '')) > 0) continue;
      matches.push({ payment, step });
    }
    // Newest first unless asked otherwise; ties in creation order, then by track id.
    const direction = sortType === 'asc' ? 1 : -1;
    const paidAt = (m: { payment: SandboxPayment; step: Step }): number => creditedAt(planOf(m.payment), m.step) ?? 0;
    const byKey = (a: { payment: SandboxPayment; step: Step }, b: { payment: SandboxPayment; step: Step }): number =>
      sortBy === 'amount' ? compareDecimals(a.payment.amount, b.payment.amount) : sortBy === 'pay_date' ? paidAt(a) - paidAt(b) : 0;
    matches.sort(
      (a, b) => direction * byKey(a, b) || direction * (a.payment.createdAt - b.payment.createdAt) || (a.payment.trackId < b.payment.trackId ? -1 : 1),
    );
    const total = matches.length;
    const lastPage = Math.max(1, Math.ceil(total / size));
    const payments = matches.slice((page - 1) * size, page * size).map((m) => this.#record(m.payment, m.step));
    return ok({ payments, page, pages: lastPage, total, size });
  }

  /**
   * Forces a payment into `state` now (for `gw sandbox trigger`): the change is emitted, and the
   * payment stays in that state, its planned lifecycle ended, until forced again. Undefined when
   * no payment has that track id.
   */
  setState(trackId: string, state: TriggerState): PaymentSnapshot | undefined {
    const payment = this.resolve(trackId);
    if (payment === undefined) return undefined;
    const previous = this.#current(payment).status;
    const now = this.config.now();
    const step = forcedStep(planOf(payment), state, now);
    this.forced.set(trackId, step);
    const live = this.live.get(trackId);
    if (live !== undefined) {
      live.cancel?.();
      live.cancel = undefined;
      live.last = step.status;
      live.lastAt = now;
    }
    const snapshot = this.snapshot(payment, step);
    this.events.emit({ payment: snapshot, previous, at: now });
    return snapshot;
  }

  /** A payment's snapshot as it stands now (undefined for an unknown track id). */
  snapshotOf(trackId: string): PaymentSnapshot | undefined {
    const payment = this.resolve(trackId);
    return payment === undefined ? undefined : this.snapshot(payment, this.#current(payment));
  }

  /**
   * One page of the whole history, newest first, from the journal read backwards: as many entries
   * as the page needs, plus those created within JOURNAL_SKEW_SECONDS of its oldest (processes
   * append in creation order give or take that), so the cost follows the page, not the journal.
   * The total is the journal's line count.
   */
  #newestPage(journal: SandboxJournal, page: number, size: number): PaymentHistoryAnswer {
    const need = page * size;
    const taken: SandboxPayment[] = [...this.unjournaled].flatMap((id) => this.payments.get(id) ?? []);
    const seen = new Set(taken.map((p) => p.trackId));
    let floor: number | undefined;
    for (const entry of journal.newest()) {
      if (seen.has(entry.trackId)) continue;
      seen.add(entry.trackId);
      const payment = this.payments.get(entry.trackId) ?? this.#fromEntry(entry);
      if (payment === undefined) continue;
      if (floor === undefined && taken.length >= need) {
        const newest = taken.map((p) => p.createdAt).sort((a, b) => b - a);
        floor = (newest[need - 1] as number) - JOURNAL_SKEW_SECONDS;
      }
      if (floor !== undefined && payment.createdAt < floor) break;
      taken.push(payment);
    }
    taken.sort((a, b) => b.createdAt - a.createdAt || (a.trackId < b.trackId ? -1 : 1));
    const total = journal.count() + this.unjournaled.size;
    const lastPage = Math.max(1, Math.ceil(total / size));
    const payments = taken.slice((page - 1) * size, page * size).map((p) => this.#record(p, this.#current(p)));
    return { payments, page, pages: lastPage, total, size };
  }

  /** Payments created here or in the journal with this order id, each once. */
  #withOrderId(orderId: string): SandboxPayment[] {
    const found = [...this.payments.values()].filter((p) => p.orderId === orderId);
    const seen = new Set(found.map((p) => p.trackId));
    for (const entry of this.config.journal?.withOrderId(orderId) ?? []) {
      if (seen.has(entry.trackId)) continue;
      seen.add(entry.trackId);
      const payment = this.#fromEntry(entry);
      if (payment !== undefined) found.push(payment);
    }
    return found;
  }

  /** Stops every lifecycle timer; no change is emitted after this. */
  close(): void {
    for (const live of this.live.values()) live.cancel?.();
    this.live.clear();
  }

  /**
   * A payment by track id: one created here, else one the journal records (created by an earlier
   * process), else one an `sbx…` id of before describes, with its order id from the journal when
   * it is there.
   */
  resolve(trackId: string): SandboxPayment | undefined {
    const known = this.payments.get(trackId);
    if (known !== undefined) return known;
    if (trackId.startsWith('sbx')) {
      if (decodeTrackId(trackId) === undefined) return undefined;
      const orderId = this.config.journal?.find(trackId)?.orderId ?? '';
      return this.#fromTrackId(trackId, orderId);
    }
    const entry = /^[1-9]\d{0,14}$/.test(trackId) ? this.config.journal?.find(trackId) : undefined;
    return entry === undefined ? undefined : this.#fromEntry(entry);
  }

  /** A journal entry's payment: from its record, or from its `sbx…` id. */
  #fromEntry(entry: JournalEntry): SandboxPayment | undefined {
    const r = entry.record;
    if (r === undefined) return this.#fromTrackId(entry.trackId, entry.orderId);
    const offering = SANDBOX_OFFERINGS.find((o) => o.payCurrency === r.payCurrency && o.network === r.network);
    const outcome = OUTCOMES.find((o) => o === r.outcome);
    if (offering === undefined || outcome === undefined || r.lifeTime === 0 || r.settleSeconds === 0) return undefined;
    const priced = price(r.amount, r.currency, offering.payCurrency);
    if (priced === undefined) return undefined;
    const payment: SandboxPayment = {
      kind: 'white-label',
      trackId: entry.trackId,
      amount: r.amount,
      currency: r.currency,
      payAmount: priced.payAmount,
      payCurrency: offering.payCurrency,
      network: offering.network,
      address: deriveSandboxAddress(offering.networkId, entry.trackId),
      rate: priced.rate,
      lifeTime: r.lifeTime,
      feePaidByPayer: 0,
      underPaidCover: '0',
      callbackUrl: '',
      description: '',
      email: '',
      orderId: entry.orderId,
      createdAt: r.createdAt,
      expiredAt: 0,
      outcome,
      settleSeconds: r.settleSeconds,
      // Read from the journal: the API it was made through is not recorded there.
      api: 'legacy',
    };
    payment.expiredAt = expiresAt(planOf(payment));
    return payment;
  }

  /** What the id carries, priced and addressed as when it was created; undefined if it carries no payment. */
  #fromTrackId(trackId: string, orderId: string): SandboxPayment | undefined {
    const fields = decodeTrackId(trackId);
    if (fields === undefined) return undefined;
    const offering = SANDBOX_OFFERINGS[fields.offering];
    if (offering === undefined) return undefined;
    const priced = price(fields.amount, fields.currency, offering.payCurrency);
    if (priced === undefined) return undefined;
    const payment: SandboxPayment = {
      kind: 'white-label',
      trackId,
      amount: fields.amount,
      currency: fields.currency,
      payAmount: priced.payAmount,
      payCurrency: offering.payCurrency,
      network: offering.network,
      address: deriveSandboxAddress(offering.networkId, trackId),
      rate: priced.rate,
      lifeTime: fields.lifeTime,
      feePaidByPayer: 0,
      underPaidCover: '0',
      callbackUrl: '',
      description: '',
      email: '',
      // The outcome the id carries wins over a journal that disagrees.
      orderId: outcomeOf(orderId) === fields.outcome ? orderId : '',
      createdAt: fields.createdAt,
      expiredAt: 0,
      outcome: fields.outcome,
      settleSeconds: fields.settleSeconds,
      // Decoded from its track id: the API it was made through is not recorded there.
      api: 'legacy',
    };
    payment.expiredAt = expiresAt(planOf(payment));
    return payment;
  }

  /** Payments created here and those in the journal, each once. */
  *#known(): Iterable<SandboxPayment> {
    const seen = new Set<string>();
    for (const payment of this.payments.values()) {
      seen.add(payment.trackId);
      yield payment;
    }
    for (const entry of this.config.journal?.newest() ?? []) {
      if (seen.has(entry.trackId)) continue;
      seen.add(entry.trackId);
      const payment = this.#fromEntry(entry);
      if (payment !== undefined) yield payment;
    }
  }

  /** The payment's state now; emits the changes a late timer has not emitted yet. */
  #current(payment: SandboxPayment): Step {
    this.#advance(payment);
    return this.forced.get(payment.trackId) ?? stateAt(planOf(payment), this.config.now());
  }

  #startLifecycle(payment: SandboxPayment): void {
    const now = this.config.now();
    const first = stateAt(planOf(payment), now);
    this.live.set(payment.trackId, { last: first.status, lastAt: first.at, cancel: undefined });
    this.events.emit({ payment: this.snapshot(payment, first), previous: undefined, at: now });
    this.#advance(payment);
  }

  /** Emits every transition due by now, in order, then sets a timer for the next one. */
  #advance(payment: SandboxPayment): void {
    const live = this.live.get(payment.trackId);
    if (live === undefined || this.forced.has(payment.trackId)) return;
    const plan = planOf(payment);
    const now = this.config.now();
    for (const step of stepsBetween(plan, live.lastAt, now)) {
      const previous = live.last;
      live.last = step.status;
      live.lastAt = step.at;
      this.events.emit({ payment: this.snapshot(payment, step), previous, at: step.at });
    }
    live.cancel?.();
    live.cancel = undefined;
    const next = nextStep(plan, now);
    if (next !== undefined) {
      const schedule = this.config.schedule ?? defaultSchedule;
      live.cancel = schedule(Math.max(1, next.at - now), () => {
        live.cancel = undefined;
        if (this.live.get(payment.trackId) === live) this.#advance(payment);
      });
    }
  }

  /** The payment in `step`, as notifications carry it. */
  private snapshot(payment: SandboxPayment, step: Step): PaymentSnapshot {
    const plan = planOf(payment);
    const decimals = displayDecimals(payment.payCurrency);
    const txs = step.txs.map((t) => this.#transaction(payment, t));
    const credited = creditedAt(plan, step);
    return {
      trackId: payment.trackId,
      status: normalizeStatus(step.status),
      gatewayStatus: step.status,
      amount: payment.amount,
      currency: payment.currency,
      payAmount: payment.payAmount,
      payCurrency: payment.payCurrency,
      network: payment.network,
      address: payment.address,
      receivedAmount: receivedOf(step.txs, payment.payAmount, decimals),
      txID: txs.at(-1)?.txHash ?? '',
      txs,
      mixedPayment: new Set(txs.map((t) => t.currency)).size > 1,
      callbackUrl: payment.callbackUrl,
      description: payment.description,
      email: payment.email,
      orderId: payment.orderId,
      feePaidByPayer: payment.feePaidByPayer,
      underPaidCover: payment.underPaidCover,
      lifeTime: payment.lifeTime,
      createdAt: payment.createdAt,
      expiredAt: payment.expiredAt,
      payDate: credited === undefined ? 0 : Math.floor(credited / 1000),
      api: payment.api,
    };
  }

  /** One transaction of the payment: its amount in its own coin, on its network, to its address. */
  #transaction(payment: SandboxPayment, t: PlannedTx): NotificationTx {
    const inPay = partOf(t.part, payment.payAmount, displayDecimals(payment.payCurrency));
    let coin = { currency: payment.payCurrency, network: payment.network, address: payment.address, amount: inPay };
    if (t.coin === 'second') {
      const second = secondOffering(payment.payCurrency);
      const rate = exchangeRate(payment.payCurrency, second.payCurrency) ?? '0';
      coin = {
        currency: second.payCurrency,
        network: second.network,
        address: deriveSandboxAddress(second.networkId, `${payment.trackId}/second`),
        amount: multiplyRounded(inPay, rate, displayDecimals(second.payCurrency)),
      };
    }
    return {
      txHash: sandboxTxId(payment.trackId, t.n),
      ...coin,
      confirmations: CONFIRMATIONS[t.state],
      status: t.state,
      date: Math.floor(t.seenAt / 1000),
    };
  }

  /**
   * The payment in `step` as an answer describes it, in canonical names: every transaction
   * (`txs`), the latest one's hash (`txID`, what the legacy inquiry names) and what arrived in the
   * pay currency (`receivedAmount`). Each API's codec writes what its answer has of it.
   */
  #record(payment: SandboxPayment, step: Step): PaymentRecord {
    const s = this.snapshot(payment, step);
    return {
      trackId: s.trackId,
      kind: payment.kind,
      status: s.status,
      amount: s.amount,
      currency: s.currency,
      payAmount: s.payAmount,
      payCurrency: s.payCurrency,
      network: s.network,
      address: s.address,
      txID: s.txID,
      email: s.email,
      orderId: s.orderId,
      description: s.description,
      callbackUrl: s.callbackUrl,
      feePaidByPayer: s.feePaidByPayer,
      underPaidCover: s.underPaidCover,
      lifeTime: s.lifeTime,
      date: s.createdAt,
      payDate: s.payDate,
      expiredAt: s.expiredAt,
      receivedAmount: s.receivedAmount,
      mixedPayment: s.mixedPayment,
      txs: (s.txs ?? []).map((t) => ({
        txID: t.txHash,
        amount: t.amount,
        currency: t.currency,
        network: t.network,
        address: t.address,
        status: t.status,
        confirmations: t.confirmations,
        date: t.date,
      })),
    };
  }

  /**
   * A new track id: 9 digits, as the gateway's (a JSON integer, and an int32, keeps it exactly),
   * drawn at random and drawn again if this sandbox or the journal has it already.
   */
  private newTrackId(): string {
    for (;;) {
      const id = String(randomInt(100_000_000, 1_000_000_000));
      if (!this.payments.has(id) && !this.#journaled(id)) return id;
    }
  }

  /** Whether the journal has a payment with this id (a journal that cannot be read has none: the append will say why). */
  #journaled(trackId: string): boolean {
    try {
      return this.config.journal?.find(trackId) !== undefined;
    } catch {
      return false;
    }
  }
}

/** What the journal records of a payment created here: what a later process needs to answer for it. */
function recordOf(p: SandboxPayment): JournalRecord {
  return {
    createdAt: p.createdAt,
    lifeTime: p.lifeTime,
    payCurrency: p.payCurrency,
    network: p.network,
    outcome: p.outcome,
    settleSeconds: p.settleSeconds,
    currency: p.currency,
    amount: p.amount,
  };
}

type IdField = { kind: 'absent' } | { kind: 'invalid' } | { kind: 'ok'; value: string };

/** A track id: text, or a JSON integer (how the gateway's own client sends numeric ids). */
function readId(fields: RequestFields, name: string): IdField {
  const v = field(fields, name);
  if (v === undefined || v === null || v === '') return { kind: 'absent' };
  if (typeof v === 'string') return v.length <= 200 ? { kind: 'ok', value: v.trim() } : { kind: 'invalid' };
  if (isLosslessNumber(v) && /^\d+$/.test(v.value)) return { kind: 'ok', value: v.value };
  return { kind: 'invalid' };
}

/** A whole number (JSON number or numeric text); `fallback` when absent, undefined when not a whole number. */
function readInteger<T extends number | undefined>(fields: RequestFields, name: string, fallback: T): number | T | undefined {
  const n = readNumeric(fields, name);
  if (n.kind === 'absent') return fallback;
  if (n.kind === 'invalid') return undefined;
  const value = integerValue(n.plain);
  return value === undefined || value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// What the sandbox serves

/** One operation the sandbox serves: the operation's module, and what the sandbox does for it (canonical fields in). */
export interface SandboxBehaviour {
  // biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every request and answer type.
  operation: Operation<any, unknown, any>;
  serve(gateway: SandboxGateway, fields: RequestFields, api: Api): Answer<unknown>;
}

/**
 * The operations the sandbox serves, each with its behaviour: its routes are generated from these
 * rows and the operations' codecs (routes.ts). An operation not listed is not served: gw says so
 * before sending anything (the factory asks sandboxServes()).
 */
export const SANDBOX_BEHAVIOURS: readonly SandboxBehaviour[] = [
  { operation: ACCEPTED_CURRENCIES, serve: (g) => g.acceptedCurrencies() },
  { operation: CREATE_PAYMENT, serve: (g, fields, api) => g.createPayment(fields, api) },
  { operation: PAYMENT_INFO, serve: (g, fields) => g.paymentInfo(fields) },
  { operation: PAYMENT_HISTORY, serve: (g, fields, api) => g.paymentHistory(fields, api) },
  { operation: BALANCE, serve: (g, fields) => g.balance(fields) },
  { operation: RATE, serve: (g, fields) => g.rate(fields) },
  // The official Node library's exchangeRate (legacy only, merchant key), and the keyless reference data.
  { operation: MERCHANT_RATE, serve: (g, fields) => g.rate(fields) },
  { operation: PRICES, serve: (g) => g.prices() },
  { operation: SUPPORTED_CURRENCIES, serve: (g) => g.supportedCurrencies() },
  { operation: SUPPORTED_NETWORKS, serve: (g) => g.supportedNetworks() },
  { operation: SYSTEM_STATUS, serve: (g) => g.systemStatus() },
  { operation: FIATS, serve: (g) => g.fiats() },
];
