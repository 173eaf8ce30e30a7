// The gateway's five operations, each sent exactly as the interface says (path, method, body
// encoding, key placement) and each answer read into a typed value with amounts as exact decimal
// strings. Commands call this; they never build requests themselves.
import { ConfigError, ExitCode, GwError, ProtocolError } from '../errors.js';
import { toPlainDecimal } from '../money/decimal.js';
import { decodeEnvelope, type JsonObject } from './envelope.js';
import { isJsonNumber, isJsonObject, jsonNumber, stringifyLossless, type JsonValue } from './json.js';
import type { Transport } from './transport.js';

export interface Keys {
  merchantKey?: string;
  payoutKey?: string;
}

export interface PaymentRequest {
  /** Plain positive decimal, exactly as typed. */
  amount: string;
  currency: string;
  payCurrency: string;
  /** Minutes. */
  lifeTime?: string;
  feePaidByPayer?: '0' | '1';
  underPaidCover?: string;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
  /** Not in the interface document; sent only when the user names a network. */
  network?: string;
}

/** Every field of the white-label response, under its own name; amounts as decimal strings. */
export interface Payment {
  trackId: string;
  amount: string | null;
  currency: string | null;
  payAmount: string;
  payCurrency: string;
  network: string | null;
  address: string;
  callbackUrl: string | null;
  description: string | null;
  email: string | null;
  feePaidByPayer: string | null;
  lifeTime: number | string | null;
  orderId: string | null;
  underPaidCover: string | null;
  rate: string | null;
  expiredAt: number | string | null;
  createdAt: number | string | null;
  QRCode: string | null;
}

export const KEY_HINTS = {
  merchant: 'set the merchant key with --merchant-key, GATEWAY_MERCHANT_KEY, or merchantKey in .gatewayrc',
  payout: 'set the payout key with --payout-key, GATEWAY_PAYOUT_KEY, or payoutKey in .gatewayrc',
} as const;

function shapeError(what: string, detail: string): ProtocolError {
  return new ProtocolError(`the gateway's answer to ${what} has an unexpected shape: ${detail}`);
}

/** A decimal amount sent as a JSON number or a numeric string, as exact plain decimal digits. */
export function readDecimal(value: JsonValue | undefined, field: string, what: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const literal = isJsonNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  const plain = literal === undefined ? undefined : toPlainDecimal(literal);
  if (plain === undefined) throw shapeError(what, `${field} is not a number`);
  return plain;
}

function readString(value: JsonValue | undefined, field: string, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (isJsonNumber(value)) return value.value;
  throw shapeError(what, `${field} is not text`);
}

/** Integers (timestamps, minutes) as numbers when exactly representable, otherwise as sent. */
function readScalar(value: JsonValue | undefined): number | string | null {
  if (value === undefined || value === null) return null;
  if (isJsonNumber(value)) {
    const n = Number(value.value);
    return Number.isSafeInteger(n) && String(n) === value.value ? n : value.value;
  }
  return typeof value === 'string' ? value : null;
}

function readSymbolList(value: JsonValue | undefined, what: string): string[] {
  if (!Array.isArray(value)) throw shapeError(what, 'no list of currencies');
  return value.map((item) => {
    if (typeof item === 'string') return item;
    if (isJsonObject(item)) {
      const symbol = item.symbol ?? item.currency ?? item.code;
      if (typeof symbol === 'string') return symbol;
    }
    throw shapeError(what, 'a currency in the list is not a symbol');
  });
}

export class GatewayClient {
  constructor(
    private readonly transport: Transport,
    private readonly keys: Keys,
  ) {}

  private merchantKey(): string {
    if (!this.keys.merchantKey) throw new ConfigError('no merchant API key is configured', KEY_HINTS.merchant);
    return this.keys.merchantKey;
  }

  private payoutKey(): string {
    if (!this.keys.payoutKey) throw new ConfigError('no payout API key is configured', KEY_HINTS.payout);
    return this.keys.payoutKey;
  }

  /** Adds the right "which key" hint to a key refusal. */
  private async call(what: string, keyHint: string | undefined, run: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof GwError && error.exitCode === ExitCode.NOPERM && keyHint !== undefined && error.hint === undefined) {
        throw new GwError(error.exitCode, error.message, {
          hint: `check the key: ${keyHint.replace(/^set /, '')}`,
          ...(error.result !== undefined && { result: error.result }),
          ...(error.status !== undefined && { status: error.status }),
          ...(error.type !== undefined && { type: error.type }),
          ...(error.key !== undefined && { key: error.key }),
        });
      }
      throw error;
    }
  }

  /** GET /v1/payment/accepted-currencies, key in the merchant_api_key header. */
  async acceptedCurrencies(): Promise<string[]> {
    const what = 'the accepted-currencies request';
    const key = this.merchantKey();
    const body = await this.call(what, KEY_HINTS.merchant, async () =>
      decodeEnvelope(
        await this.transport.send({
          method: 'GET',
          path: '/v1/payment/accepted-currencies',
          headers: { merchant_api_key: key, 'content-type': 'application/json' },
          idempotent: true,
        }),
        'versioned',
        what,
      ),
    );
    const data = body.data;
    if (!isJsonObject(data)) throw shapeError(what, 'no data object');
    return readSymbolList(data.list, what);
  }

  /** POST /merchants/allowedCoins, form field merchant. */
  async allowedCoins(): Promise<string[]> {
    const what = 'the allowed-coins request';
    const key = this.merchantKey();
    const body = await this.call(what, KEY_HINTS.merchant, async () =>
      decodeEnvelope(
        await this.transport.send({ method: 'POST', path: '/merchants/allowedCoins', form: { merchant: key }, idempotent: true }),
        'legacy',
        what,
      ),
    );
    return readSymbolList(body.allowed, what);
  }

  /** POST /merchants/request/whitelabel, JSON body with the key in field merchant. Never re-sent once it may have arrived. */
  async createPayment(req: PaymentRequest): Promise<Payment> {
    const what = 'the payment request';
    const payload: Record<string, unknown> = {
      merchant: this.merchantKey(),
      amount: jsonNumber(req.amount),
      currency: req.currency,
      payCurrency: req.payCurrency,
    };
    if (req.lifeTime !== undefined) payload.lifeTime = jsonNumber(req.lifeTime);
    if (req.feePaidByPayer !== undefined) payload.feePaidByPayer = jsonNumber(req.feePaidByPayer);
    if (req.underPaidCover !== undefined) payload.underPaidCover = jsonNumber(req.underPaidCover);
    if (req.callbackUrl !== undefined) payload.callbackUrl = req.callbackUrl;
    if (req.description !== undefined) payload.description = req.description;
    if (req.orderId !== undefined) payload.orderId = req.orderId;
    if (req.email !== undefined) payload.email = req.email;
    if (req.network !== undefined) payload.network = req.network;
    const body = await this.call(what, KEY_HINTS.merchant, async () =>
      decodeEnvelope(
        await this.transport.send({
          method: 'POST',
          path: '/merchants/request/whitelabel',
          json: stringifyLossless(payload),
          idempotent: false,
        }),
        'legacy',
        what,
      ),
    );
    return readPayment(body, what);
  }

  /** POST /api/balance, form field key (payout key), optional currency. */
  async balances(currency?: string): Promise<Array<[string, string]>> {
    const what = 'the balance request';
    const form: Record<string, string> = { key: this.payoutKey() };
    if (currency !== undefined) form.currency = currency;
    const body = await this.call(what, KEY_HINTS.payout, async () =>
      decodeEnvelope(await this.transport.send({ method: 'POST', path: '/api/balance', form, idempotent: true }), 'legacy', what),
    );
    return readBalances(body.data, what);
  }

  /** POST /exchange/rate, JSON fromCurrency/toCurrency, no key. */
  async rate(fromCurrency: string, toCurrency: string): Promise<string> {
    const what = 'the rate request';
    const body = decodeEnvelope(
      await this.transport.send({
        method: 'POST',
        path: '/exchange/rate',
        json: JSON.stringify({ fromCurrency, toCurrency }),
        idempotent: true,
      }),
      'legacy',
      what,
    );
    const rate = readDecimal(body.rate, 'rate', what);
    if (rate === null) throw shapeError(what, 'no rate');
    if (rate.startsWith('-')) throw shapeError(what, 'the rate is negative');
    return rate;
  }
}

export function readPayment(body: JsonObject, what: string): Payment {
  const str = (field: string): string | null => readString(body[field], field, what);
  const dec = (field: string): string | null => readDecimal(body[field], field, what);
  const required = (field: string, value: string | null): string => {
    if (value === null || value.trim() === '') throw shapeError(what, `no ${field}`);
    return value;
  };
  const payAmount = required('payAmount', dec('payAmount'));
  if (payAmount.startsWith('-')) throw shapeError(what, 'payAmount is negative');
  return {
    trackId: required('trackId', str('trackId')),
    amount: dec('amount'),
    currency: str('currency'),
    payAmount,
    payCurrency: required('payCurrency', str('payCurrency')),
    network: str('network'),
    address: required('address', str('address')),
    callbackUrl: str('callbackUrl'),
    description: str('description'),
    email: str('email'),
    feePaidByPayer: dec('feePaidByPayer'),
    lifeTime: readScalar(body.lifeTime),
    orderId: str('orderId'),
    underPaidCover: dec('underPaidCover'),
    rate: dec('rate'),
    expiredAt: readScalar(body.expiredAt),
    createdAt: readScalar(body.createdAt),
    QRCode: str('QRCode'),
  };
}

/**
 * The interface calls `data` an array of objects mapping symbol → amount string; the gateway's own
 * client shows a plain object. Both are accepted, as is an array of {currency, balance} records.
 */
export function readBalances(data: JsonValue | undefined, what: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const add = (symbol: string, value: JsonValue | undefined): void => {
    const amount = readDecimal(value ?? null, `the balance of ${symbol}`, what);
    entries.push([symbol, amount ?? '0']);
  };
  if (isJsonObject(data)) {
    for (const [symbol, value] of Object.entries(data)) add(symbol, value);
  } else if (Array.isArray(data)) {
    for (const item of data) {
      if (!isJsonObject(item)) throw shapeError(what, 'a balance entry is not an object');
      const symbol = item.currency ?? item.symbol;
      if (typeof symbol === 'string' && ('balance' in item || 'amount' in item)) {
        add(symbol, item.balance ?? item.amount);
      } else {
        for (const [key, value] of Object.entries(item)) add(key, value);
      }
    }
  } else {
    throw shapeError(what, 'no balance data');
  }
  return entries;
}
