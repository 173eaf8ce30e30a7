// The sandbox gateway's operations, without HTTP: each takes the request's fields (already decoded
// from JSON or form encoding) and returns the HTTP status and body to send. Number literals that the
// gateway echoes (amount, payAmount, rate…) are LosslessNumber values so they are written with
// exactly the digits computed or received; the server serialises bodies with lossless-json.

import { randomBytes } from 'node:crypto';
import { LosslessNumber, isLosslessNumber } from 'lossless-json';
import { FEE_PAID_BY_PAYER, isFiat, LIFETIME, UNDERPAID_COVER } from '../domain/payment-rules.js';
import { multiplyRounded, toPlainDecimal } from '../money/decimal.js';
import { matchNetwork } from '../payment-uri/index.js';
import { deriveSandboxAddress } from './addresses.js';
import { SandboxEvents } from './events.js';
import { SANDBOX_OFFERINGS } from './offerings.js';
import { displayDecimals, exchangeRate, isKnownCurrency, sandboxBalances } from './prices.js';
import { snapshotOf } from './snapshot.js';

/** Request fields: strings (form encoding) or lossless-json values (JSON encoding). */
export type RequestFields = Readonly<Record<string, unknown>>;

export interface GatewayReply {
  /** HTTP status. Legacy refusals are 200 like the real service; versioned ones carry their own. */
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
}

export interface GatewayConfig {
  merchantKey: string;
  payoutKey: string;
  /** Current time in milliseconds. */
  now: () => number;
  /** Base URL of the running sandbox (no trailing slash), used for QR code links. */
  baseUrl: () => string;
}

type Offering = (typeof SANDBOX_OFFERINGS)[number];

export interface SandboxPayment {
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
  /** Unix seconds: createdAt + lifeTime × 60. */
  expiredAt: number;
}

export const SUCCESS_MESSAGE = 'Operation completed successfully!';
export const API_VERSION = '1.0.0';

// ---------------------------------------------------------------------------------------------
// Envelopes

/** A legacy envelope: `{result, message, ...payload}`, HTTP 200 unless told otherwise. */
export function legacy(result: number, message: string, payload: object = {}, status = 200): GatewayReply {
  return { status, body: { result, message, ...payload } };
}

/** A versioned success envelope. */
export function versionedOk(data: object): GatewayReply {
  return {
    status: 200,
    body: { data, message: SUCCESS_MESSAGE, error: {}, status: 200, version: API_VERSION },
  };
}

/** A versioned error envelope; the envelope's `status` equals the HTTP status. */
export function versionedError(status: number, type: string, key: string, message: string, headers?: Readonly<Record<string, string>>): GatewayReply {
  const reply: GatewayReply = {
    status,
    body: { data: {}, message, error: { type, key, message }, status, version: API_VERSION },
  };
  return headers === undefined ? reply : { ...reply, headers };
}

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
  const value = s.value.trim().toUpperCase();
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

const TRACK_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export class SandboxGateway {
  /** Every change of a payment, creation included (notification delivery listens). */
  readonly events = new SandboxEvents();
  private readonly payments = new Map<string, SandboxPayment>();
  private offeringsCache: readonly Offering[] | undefined;

  constructor(private readonly config: GatewayConfig) {}

  /** Offerings whose pay currency has a sandbox price (all of them, unless the tables drift). */
  private offerings(): readonly Offering[] {
    this.offeringsCache ??= SANDBOX_OFFERINGS.filter((o) => isKnownCurrency(o.payCurrency) && !isFiat(o.payCurrency));
    return this.offeringsCache;
  }

  /** The accepted pay currencies, each once, in offering order. */
  acceptedList(): string[] {
    return [...new Set(this.offerings().map((o) => o.payCurrency))];
  }

  /** A stored white-label payment, for tests and later operations. */
  payment(trackId: string): SandboxPayment | undefined {
    return this.payments.get(trackId);
  }

  // GET /v1/payment/accepted-currencies — key in the `merchant_api_key` header only.
  acceptedCurrenciesV1(headerKey: string | undefined): GatewayReply {
    if (headerKey === undefined || headerKey === '') {
      return versionedError(401, 'authentication_error', 'missing_merchant_api_key', 'Merchant API key is missing');
    }
    if (headerKey !== this.config.merchantKey) {
      return versionedError(401, 'authentication_error', 'invalid_merchant_api_key', 'Invalid merchant API key');
    }
    return versionedOk({ list: this.acceptedList() });
  }

  // POST /merchants/allowedCoins — key in the body field `merchant` only.
  allowedCoins(fields: RequestFields): GatewayReply {
    if (!this.merchantKeyOk(fields)) return legacy(102, 'Invalid merchant API key');
    return legacy(100, SUCCESS_MESSAGE, { allowed: this.acceptedList() });
  }

  // POST /api/balance — payout key in the body field `key` only; optional `currency`.
  balance(fields: RequestFields): GatewayReply {
    const key = field(fields, 'key');
    if (typeof key !== 'string' || key === '' || key !== this.config.payoutKey) {
      return legacy(103, 'Invalid payout API key');
    }
    const balances = sandboxBalances();
    const currency = readSymbol(fields, 'currency');
    if (currency.kind === 'invalid') return legacy(101, 'Validation problem: currency must be a string');
    if (currency.kind === 'absent') return legacy(100, SUCCESS_MESSAGE, { data: balances });
    const amount = Object.hasOwn(balances, currency.value) ? balances[currency.value] : undefined;
    if (amount === undefined) return legacy(105, 'Invalid currency');
    // The interface document calls `data` an "array of objects" keyed by symbol; the gateway's own
    // client reads an object map. The sandbox answers with the object map {"BTC":"0.1",...}.
    return legacy(100, SUCCESS_MESSAGE, { data: { [currency.value]: amount } });
  }

  // POST /exchange/rate — no key.
  exchangeRate(fields: RequestFields): GatewayReply {
    const from = readSymbol(fields, 'fromCurrency');
    const to = readSymbol(fields, 'toCurrency');
    if (from.kind === 'absent') return legacy(101, 'Validation problem: fromCurrency is required');
    if (from.kind === 'invalid') return legacy(101, 'Validation problem: fromCurrency must be a string');
    if (to.kind === 'absent') return legacy(101, 'Validation problem: toCurrency is required');
    if (to.kind === 'invalid') return legacy(101, 'Validation problem: toCurrency must be a string');
    if (!isKnownCurrency(from.value)) return legacy(121, 'Invalid fromCurrency');
    if (!isKnownCurrency(to.value)) return legacy(122, 'Invalid toCurrency');
    if (from.value === to.value) return legacy(123, 'fromCurrency and toCurrency are the same');
    const rate = exchangeRate(from.value, to.value);
    if (rate === undefined) return legacy(131, 'An error occurred');
    return legacy(100, SUCCESS_MESSAGE, { rate });
  }

  // POST /merchants/request/whitelabel — key in the body field `merchant` only.
  createWhiteLabel(fields: RequestFields): GatewayReply {
    if (!this.merchantKeyOk(fields)) return legacy(102, 'Invalid merchant API key');

    const amount = readNumeric(fields, 'amount');
    if (amount.kind === 'absent') return legacy(126, 'Amount is required');
    if (amount.kind === 'invalid') return legacy(101, 'Validation problem: amount must be a number');
    if (!isPositive(amount.plain)) return legacy(127, 'Amount is below the minimum');

    const payCurrency = readSymbol(fields, 'payCurrency');
    if (payCurrency.kind === 'invalid') return legacy(101, 'Validation problem: payCurrency must be a string');
    if (payCurrency.kind === 'absent') return legacy(120, 'Invalid payCurrency: it is required');
    const candidates = this.offerings().filter((o) => o.payCurrency === payCurrency.value);
    if (candidates.length === 0) return legacy(120, 'Invalid payCurrency');

    const currencyField = readSymbol(fields, 'currency');
    if (currencyField.kind === 'invalid') return legacy(101, 'Validation problem: currency must be a string');
    const currency = currencyField.kind === 'ok' ? currencyField.value : payCurrency.value;
    if (!isKnownCurrency(currency)) return legacy(105, 'Invalid currency');

    const networkField = readString(fields, 'network');
    if (networkField.kind === 'invalid') return legacy(101, 'Validation problem: network must be a string');
    let offering: Offering | undefined = candidates[0];
    if (networkField.kind === 'ok' && networkField.value.trim() !== '') {
      // The same tolerant matching gw uses to read the gateway's network names (case, spacing,
      // "Network", aliases such as TRC20/ERC20/BEP20/BSC).
      const wanted = matchNetwork(networkField.value, payCurrency.value);
      offering = candidates.find((o) => o.networkId === wanted);
    }
    if (offering === undefined) return legacy(106, 'Invalid network');

    const lifeTimeField = readNumeric(fields, 'lifeTime');
    let lifeTime: number = LIFETIME.default;
    if (lifeTimeField.kind === 'invalid') return legacy(101, 'Validation problem: lifeTime must be a number');
    if (lifeTimeField.kind === 'ok') {
      const value = integerValue(lifeTimeField.plain);
      if (value === undefined) return legacy(101, 'Validation problem: lifeTime must be a whole number of minutes');
      if (value < BigInt(LIFETIME.min)) return legacy(111, `lifeTime is too short (minimum ${LIFETIME.min} minutes)`);
      if (value > BigInt(LIFETIME.max)) return legacy(112, `lifeTime is too long (maximum ${LIFETIME.max} minutes)`);
      lifeTime = Number(value);
    }

    const feeField = readNumeric(fields, 'feePaidByPayer');
    let feePaidByPayer = 0;
    if (feeField.kind === 'invalid') return legacy(101, 'Validation problem: feePaidByPayer must be a number');
    if (feeField.kind === 'ok') {
      const value = integerValue(feeField.plain);
      if (!FEE_PAID_BY_PAYER.some((allowed) => BigInt(allowed) === value)) return legacy(115, 'Invalid feePaidByPayer: it must be 0 or 1');
      feePaidByPayer = Number(value);
    }

    const coverField = readNumeric(fields, 'underPaidCover');
    let underPaidCover = '0';
    if (coverField.kind === 'invalid') return legacy(101, 'Validation problem: underPaidCover must be a number');
    if (coverField.kind === 'ok') {
      if (compareToInt(coverField.plain, UNDERPAID_COVER.min) < 0) return legacy(113, `underPaidCover must not be below ${UNDERPAID_COVER.min}`);
      if (compareToInt(coverField.plain, UNDERPAID_COVER.max) > 0) {
        return legacy(114, `underPaidCover must not be above ${UNDERPAID_COVER.max}`);
      }
      underPaidCover = coverField.plain.replace(/^-/, '');
    }

    const callbackField = readString(fields, 'callbackUrl');
    if (callbackField.kind === 'invalid') return legacy(101, 'Validation problem: callbackUrl must be a string');
    if (callbackField.kind === 'ok' && !isHttpUrl(callbackField.value)) return legacy(107, 'Invalid callbackUrl');

    const echoed: Record<'description' | 'orderId' | 'email', string> = { description: '', orderId: '', email: '' };
    for (const name of ['description', 'orderId', 'email'] as const) {
      const s = readString(fields, name);
      if (s.kind === 'invalid') return legacy(101, `Validation problem: ${name} must be a string`);
      if (s.kind === 'ok') echoed[name] = s.value;
    }

    // Pricing. Same currency: the amount is paid as sent, digit for digit.
    let rate: string;
    let payAmount: string;
    let payAmountLiteral: string;
    if (currency === offering.payCurrency) {
      rate = '1';
      payAmount = amount.plain;
      payAmountLiteral = amount.literal;
    } else {
      const r = exchangeRate(currency, offering.payCurrency);
      if (r === undefined) return legacy(131, 'An error occurred');
      rate = r;
      payAmount = multiplyRounded(amount.plain, rate, displayDecimals(offering.payCurrency));
      payAmountLiteral = payAmount;
      if (!isPositive(payAmount)) return legacy(127, 'Amount is below the minimum');
    }

    const trackId = this.newTrackId();
    const createdAt = Math.floor(this.config.now() / 1000);
    const payment: SandboxPayment = {
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
      expiredAt: createdAt + lifeTime * 60,
    };
    this.payments.set(trackId, payment);
    this.events.emit({ payment: snapshotOf(payment, 'waiting'), previous: undefined, at: this.config.now() });

    return legacy(100, SUCCESS_MESSAGE, {
      trackId,
      amount: new LosslessNumber(amount.literal),
      currency,
      payAmount: new LosslessNumber(payAmountLiteral),
      payCurrency: payment.payCurrency,
      network: payment.network,
      address: payment.address,
      callbackUrl: payment.callbackUrl,
      description: payment.description,
      email: payment.email,
      feePaidByPayer,
      lifeTime,
      orderId: payment.orderId,
      underPaidCover: new LosslessNumber(underPaidCover),
      rate: new LosslessNumber(rate),
      expiredAt: payment.expiredAt,
      createdAt: payment.createdAt,
      QRCode: `${this.config.baseUrl()}/qr/${trackId}.png`,
    });
  }

  private merchantKeyOk(fields: RequestFields): boolean {
    const key = field(fields, 'merchant');
    return typeof key === 'string' && key !== '' && key === this.config.merchantKey;
  }

  /** "sbx" + 10 random lower-case letters and digits, never reused within this sandbox. */
  private newTrackId(): string {
    for (;;) {
      const bytes = randomBytes(10);
      let id = 'sbx';
      for (const b of bytes) id += TRACK_ID_ALPHABET[b % TRACK_ID_ALPHABET.length] ?? '0';
      if (!this.payments.has(id)) return id;
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
