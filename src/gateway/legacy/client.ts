// The gateway's operations as the interface document gives them: each request sent exactly as it
// says (path, method, body encoding, key placement), each answer decoded by ./decode.ts.
import { ConfigError, ExitCode, GwError } from '../../errors.js';
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { decodeEnvelope, type EnvelopeStyle } from '../envelope.js';
import { legacyStatusName } from '../../domain/payment-status.js';
import type {
  Balance,
  CurrenciesEndpoint,
  GatewayClient,
  HttpTransport,
  KeySetting,
  Keys,
  Payment,
  PaymentFilter,
  PaymentInfo,
  PaymentPage,
  PaymentRequest,
} from '../gateway.js';
import type { LosslessNumber } from 'lossless-json';
import { jsonNumber, stringifyLossless } from '../json.js';
import type { JsonObject } from '../read.js';
import { unsendableHeaderValue } from '../header-value.js';
import type { TransportRequest } from '../transport.js';
import { decodeAcceptedCurrencies, decodeAllowedCoins, decodeBalances, decodePayment, decodePaymentInfo, decodePaymentPage, decodeRate } from './decode.js';

/** A track id as the gateway's own client sends it: a JSON integer when it is all digits, else text. */
export function trackIdValue(trackId: string): unknown {
  return /^[1-9]\d{0,30}$/.test(trackId) ? jsonNumber(trackId) : trackId;
}

/** Unix seconds of a date. */
const unixSeconds = (date: Date): LosslessNumber => jsonNumber(String(Math.floor(date.getTime() / 1000)));

export type KeyKind = 'merchant' | 'payout';

const KEY_SETTINGS: Record<KeyKind, { flag: string; env: string; file: string }> = {
  merchant: { flag: '--merchant-key', env: 'GATEWAY_MERCHANT_KEY', file: 'merchantKey' },
  payout: { flag: '--payout-key', env: 'GATEWAY_PAYOUT_KEY', file: 'payoutKey' },
};

/** Where to set a key that is missing. */
export function missingKeyError(kind: KeyKind): ConfigError {
  const s = KEY_SETTINGS[kind];
  return new ConfigError(`no ${kind} API key is configured`, `set it with ${s.flag}, ${s.env}, or ${s.file} in your config file (gw config shows what is set)`);
}

/** The config setting each key is written as, for hints. */
const KEY_FILE_NAMES: Record<string, string> = { merchant: 'merchantKey', payout: 'payoutKey', general: 'generalKey' };

/**
 * A key that travels in a header must be one HTTP can carry: one that cannot is a configuration
 * error (exit 78) naming the key and where it came from, before anything is sent; the key itself is
 * never printed.
 */
export function checkHeaderKey(kind: string, key: KeySetting): void {
  const problem = unsendableHeaderValue(key.value);
  if (problem === undefined) return;
  throw new ConfigError(
    `the ${kind} API key (from ${key.from}) contains ${problem}: it cannot be sent in an HTTP header; nothing was sent`,
    `set the key again as the gateway shows it (gw config set ${KEY_FILE_NAMES[kind] ?? 'merchantKey'}), without spaces or line breaks inside`,
  );
}

/** A key refusal names the key and where it came from, unless the refusal already says what to do. */
export function withKeyHint(error: unknown, kind: KeyKind, key: KeySetting): unknown {
  if (error instanceof GwError && error.exitCode === ExitCode.NOPERM && error.hint === undefined) {
    return error.with({ hint: `check the ${kind} key (from ${key.from})` });
  }
  return error;
}

export class LegacyGateway implements GatewayClient {
  constructor(
    private readonly transport: HttpTransport,
    private readonly keys: Keys,
  ) {}

  private key(kind: KeyKind): KeySetting {
    const key = this.keys[kind];
    if (key === undefined || key.value === '') throw missingKeyError(kind);
    return key;
  }

  private async call(what: string, style: EnvelopeStyle, request: TransportRequest, kind?: KeyKind): Promise<JsonObject> {
    try {
      return decodeEnvelope(await this.transport.send(request), style, what);
    } catch (error) {
      const key = kind === undefined ? undefined : this.keys[kind];
      throw kind !== undefined && key !== undefined ? withKeyHint(error, kind, key) : error;
    }
  }

  async acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    const key = this.key('merchant').value;
    if (endpoint === 'legacy') {
      // POST /merchants/allowedCoins, form field merchant.
      const what = 'the allowed-coins request';
      const body = await this.call(what, 'legacy', { method: 'POST', path: '/merchants/allowedCoins', form: { merchant: key }, idempotent: true }, 'merchant');
      return decodeAllowedCoins(body, what);
    }
    // GET /v1/payment/accepted-currencies, key in the merchant_api_key header.
    checkHeaderKey('merchant', this.key('merchant'));
    const what = 'the accepted-currencies request';
    const body = await this.call(
      what,
      'versioned',
      { method: 'GET', path: '/v1/payment/accepted-currencies', headers: { merchant_api_key: key, 'content-type': 'application/json' }, idempotent: true },
      'merchant',
    );
    return decodeAcceptedCurrencies(body, what);
  }

  /** POST /merchants/request/whitelabel, JSON body with the key in field merchant. Never re-sent once it may have arrived. */
  async createPayment(req: PaymentRequest): Promise<Payment> {
    const what = 'the payment request';
    const payload: Record<string, unknown> = {
      merchant: this.key('merchant').value,
      amount: jsonNumber(req.amount.toString()),
      currency: req.currency,
      payCurrency: req.payCurrency,
    };
    if (req.lifeTime !== undefined) payload.lifeTime = jsonNumber(String(req.lifeTime));
    if (req.feePaidByPayer !== undefined) payload.feePaidByPayer = jsonNumber(String(req.feePaidByPayer));
    if (req.underPaidCover !== undefined) payload.underPaidCover = jsonNumber(req.underPaidCover.toString());
    if (req.callbackUrl !== undefined) payload.callbackUrl = req.callbackUrl;
    if (req.description !== undefined) payload.description = req.description;
    if (req.orderId !== undefined) payload.orderId = req.orderId;
    if (req.email !== undefined) payload.email = req.email;
    if (req.network !== undefined) payload.network = req.network;
    const body = await this.call(
      what,
      'legacy',
      { method: 'POST', path: '/merchants/request/whitelabel', json: stringifyLossless(payload), idempotent: false },
      'merchant',
    );
    return decodePayment(body, what);
  }

  /** POST /api/balance, form field key (payout key), optional currency. */
  async balances(currency?: string): Promise<Balance[]> {
    const what = 'the balance request';
    const form: Record<string, string> = { key: this.key('payout').value };
    if (currency !== undefined) form.currency = currency;
    const body = await this.call(what, 'legacy', { method: 'POST', path: '/api/balance', form, idempotent: true }, 'payout');
    return decodeBalances(body.data, what);
  }

  /** POST /exchange/rate, JSON fromCurrency/toCurrency, no key. */
  async rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    const what = 'the rate request';
    const body = await this.call(what, 'legacy', {
      method: 'POST',
      path: '/exchange/rate',
      json: JSON.stringify({ fromCurrency, toCurrency }),
      idempotent: true,
    });
    return decodeRate(body, what);
  }

  /** POST /merchants/inquiry, JSON {merchant, trackId}. */
  async paymentInfo(trackId: string): Promise<PaymentInfo> {
    const what = 'the payment status request';
    const payload = { merchant: this.key('merchant').value, trackId: trackIdValue(trackId) };
    const body = await this.call(
      what,
      'legacy',
      { method: 'POST', path: '/merchants/inquiry', json: stringifyLossless(payload), idempotent: true },
      'merchant',
    );
    return decodePaymentInfo(body, what);
  }

  /**
   * POST /merchants/list, JSON with the merchant key and the filters given: every one of gw's
   * filters is a documented field of this list (docs/gateway.md §6), so `historyFilters` is left
   * at its default, all. The rows that come back are still checked (src/gateway/history.ts).
   */
  async payments(filter: PaymentFilter): Promise<PaymentPage> {
    const what = 'the payment history request';
    const payload: Record<string, unknown> = { merchant: this.key('merchant').value };
    if (filter.trackId !== undefined) payload.trackId = trackIdValue(filter.trackId);
    if (filter.orderId !== undefined) payload.orderId = filter.orderId;
    if (filter.status !== undefined) payload.status = legacyStatusName(filter.status) ?? filter.status;
    if (filter.currency !== undefined) payload.currency = filter.currency;
    if (filter.payCurrency !== undefined) payload.payCurrency = filter.payCurrency;
    if (filter.network !== undefined) payload.network = filter.network;
    if (filter.from !== undefined) payload.fromDate = unixSeconds(filter.from);
    if (filter.to !== undefined) payload.toDate = unixSeconds(filter.to);
    if (filter.minAmount !== undefined) payload.fromAmount = jsonNumber(filter.minAmount.toString());
    if (filter.maxAmount !== undefined) payload.toAmount = jsonNumber(filter.maxAmount.toString());
    if (filter.size !== undefined) payload.size = jsonNumber(String(filter.size));
    if (filter.page !== undefined) payload.page = jsonNumber(String(filter.page));
    const body = await this.call(what, 'legacy', { method: 'POST', path: '/merchants/list', json: stringifyLossless(payload), idempotent: true }, 'merchant');
    return decodePaymentPage(body, what);
  }
}
