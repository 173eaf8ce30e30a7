// The gateway's versioned API (docs/gateway.md §8), the one its official SDKs speak: paths
// under /v1, the key in a header (`merchant_api_key`, or `general_api_key` for balance and rate),
// JSON bodies and query parameters in snake_case, amounts as JSON numbers, and the versioned
// envelope on every answer, failures included (HTTP 400/401/404/429/500/503). Each answer is
// decoded by ./decode.ts into the same values the interface's endpoints give, so commands print
// the same documents whichever API is configured (`api: v1`).
import { ConfigError, ExitCode, GwError, UsageError } from '../../errors.js';
import { v1StatusName } from '../../domain/payment-status.js';
import type { Decimal } from '../../money/decimal.js';
import type { Untrusted } from '../../output/untrusted.js';
import { decodeEnvelope } from '../envelope.js';
import type {
  Balance,
  CurrenciesEndpoint,
  GatewayClient,
  HttpTransport,
  KeySetting,
  Keys,
  Payment,
  HistoryFilterName,
  PaymentFilter,
  PaymentInfo,
  PaymentPage,
  PaymentRequest,
} from '../gateway.js';
import { jsonNumber, stringifyLossless } from '../json.js';
import { checkHeaderKey, LegacyGateway, missingKeyError } from '../legacy/client.js';
import type { JsonObject } from '../read.js';
import type { TransportRequest } from '../transport.js';
import {
  decodeV1AcceptedCurrencies,
  decodeV1Balances,
  decodeV1Payment,
  decodeV1PaymentInfo,
  decodeV1PaymentPage,
  decodeV1Rate,
  v1Data,
  v1Name,
  type InterfaceName,
} from './decode.js';

/** The versioned API's key kinds: the merchant key for payments, the general key for balance and rate. */
export type V1KeyKind = 'merchant' | 'general';

/** The header each key kind travels in. */
export const KEY_HEADERS: Readonly<Record<V1KeyKind, string>> = {
  merchant: 'merchant_api_key',
  general: 'general_api_key',
};

/** The most payments one history page may hold (the versioned API's bound). */
export const MAX_PAGE_SIZE = 200;

/** Where to set a key that is missing (exit 78, before any request). */
export function missingV1KeyError(kind: V1KeyKind, keys: Keys = {}): ConfigError {
  if (kind === 'merchant') return missingKeyError('merchant');
  const payoutNote = keys.payout === undefined ? '' : '; the payout key is not used by the versioned API';
  return new ConfigError(
    'no general API key is configured: the versioned API (api v1) reads balances and rates with it',
    `set it with --general-key, GATEWAY_GENERAL_KEY, or generalKey in your config file (gw config shows what is set)${payoutNote}`,
  );
}

/** Unix seconds of a date, as a query parameter. */
const unixSeconds = (date: Date): string => String(Math.floor(date.getTime() / 1000));

/** A track id as one path segment: percent-encoded; empty or dot segments are refused (they would change the path). */
export function trackIdSegment(trackId: string): string {
  if (trackId === '' || trackId === '.' || trackId === '..') throw new UsageError(`"${trackId}" is not a track id`);
  return encodeURIComponent(trackId);
}

/**
 * The history filters GET /v1/payment documents (docs.oxapay.com/api-reference/payment/payment-history:
 * track_id, type, status, pay_currency, currency, network, address, from_date, to_date,
 * from_amount, to_amount, sort_by, sort_type, page, size). It has no order id: the caller applies
 * that one itself (src/gateway/history.ts), and nothing else is sent.
 */
export const V1_HISTORY_FILTERS: ReadonlySet<HistoryFilterName> = new Set<HistoryFilterName>([
  'status',
  'trackId',
  'currency',
  'payCurrency',
  'network',
  'from',
  'to',
  'minAmount',
  'maxAmount',
]);

/** The query string of a history request: the documented filters given (V1_HISTORY_FILTERS), under the versioned API's names. */
export function historyQuery(filter: PaymentFilter): string {
  const query = new URLSearchParams();
  const put = (name: InterfaceName, value: string | undefined): void => {
    if (value !== undefined) query.set(v1Name(name), value);
  };
  put('page', filter.page === undefined ? undefined : String(filter.page));
  put('size', filter.size === undefined ? undefined : String(filter.size));
  put('status', filter.status === undefined ? undefined : (v1StatusName(filter.status) ?? filter.status));
  put('trackId', filter.trackId);
  put('currency', filter.currency);
  put('payCurrency', filter.payCurrency);
  put('network', filter.network);
  put('fromDate', filter.from === undefined ? undefined : unixSeconds(filter.from));
  put('toDate', filter.to === undefined ? undefined : unixSeconds(filter.to));
  put('fromAmount', filter.minAmount?.toString());
  put('toAmount', filter.maxAmount?.toString());
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The white-label request body: snake_case, amounts as JSON number literals with exactly the digits given. */
export function whiteLabelBody(req: PaymentRequest): string {
  const body: Record<string, unknown> = {};
  const put = (name: InterfaceName, value: unknown): void => {
    if (value !== undefined) body[v1Name(name)] = value;
  };
  put('amount', jsonNumber(req.amount.toString()));
  put('payCurrency', req.payCurrency);
  put('currency', req.currency);
  put('network', req.network);
  put('lifeTime', req.lifeTime === undefined ? undefined : jsonNumber(String(req.lifeTime)));
  put('feePaidByPayer', req.feePaidByPayer === undefined ? undefined : jsonNumber(String(req.feePaidByPayer)));
  put('underPaidCover', req.underPaidCover === undefined ? undefined : jsonNumber(req.underPaidCover.toString()));
  put('callbackUrl', req.callbackUrl);
  put('email', req.email);
  put('orderId', req.orderId);
  put('description', req.description);
  return stringifyLossless(body);
}

export class V1Gateway implements GatewayClient {
  readonly historyFilters = V1_HISTORY_FILTERS;

  constructor(
    private readonly transport: HttpTransport,
    private readonly keys: Keys,
  ) {}

  private key(kind: V1KeyKind): KeySetting {
    const key = this.keys[kind];
    if (key === undefined || key.value === '') throw missingV1KeyError(kind, this.keys);
    // Every v1 key travels in a header.
    checkHeaderKey(kind, key);
    return key;
  }

  /**
   * Sends one request with `kind`'s key in its header and returns the envelope. A refused key
   * names the key and where it came from; a 404 with an envelope says what it can mean.
   */
  private async call(what: string, kind: V1KeyKind, request: Omit<TransportRequest, 'headers'>): Promise<JsonObject> {
    const key = this.key(kind);
    const headers: Record<string, string> = { [KEY_HEADERS[kind]]: key.value };
    if (request.json === undefined) headers['content-type'] = 'application/json';
    try {
      return decodeEnvelope(await this.transport.send({ ...request, headers }), 'versioned', what);
    } catch (error) {
      if (!(error instanceof GwError) || error.hint !== undefined) throw error;
      if (error.exitCode === ExitCode.NOPERM) throw error.with({ hint: `check the ${kind} key (from ${key.from})` });
      if (error.exitCode === ExitCode.REFUSED && error.status === 404) {
        throw error.with({ hint: 'the gateway has no such endpoint here: check the base URL, and that your account uses the versioned API (api v1)' });
      }
      throw error;
    }
  }

  /** GET /v1/payment/accepted-currencies (merchant key). `legacy`: the interface's POST /merchants/allowedCoins, as asked. */
  async acceptedCurrencies(endpoint: CurrenciesEndpoint = 'default'): Promise<Untrusted[]> {
    if (endpoint === 'legacy') return new LegacyGateway(this.transport, this.keys).acceptedCurrencies('legacy');
    const what = 'the accepted-currencies request';
    const body = await this.call(what, 'merchant', { method: 'GET', path: '/v1/payment/accepted-currencies', idempotent: true });
    return decodeV1AcceptedCurrencies(body, what);
  }

  /** POST /v1/payment/white-label (merchant key), JSON body in snake_case. Never re-sent once it may have arrived. */
  async createPayment(req: PaymentRequest): Promise<Payment> {
    const what = 'the payment request';
    const body = await this.call(what, 'merchant', { method: 'POST', path: '/v1/payment/white-label', json: whiteLabelBody(req), idempotent: false });
    return decodeV1Payment(body, what);
  }

  /** GET /v1/general/account/balance[?currency=] (general key). */
  async balances(currency?: string): Promise<Balance[]> {
    const what = 'the balance request';
    const query = currency === undefined ? '' : `?${new URLSearchParams({ currency }).toString()}`;
    const body = await this.call(what, 'general', { method: 'GET', path: `/v1/general/account/balance${query}`, idempotent: true });
    return decodeV1Balances(body, what);
  }

  /** POST /v1/general/swap/rate (general key), JSON {from_currency, to_currency}. */
  async rate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    const what = 'the rate request';
    const json = JSON.stringify({ [v1Name('fromCurrency')]: fromCurrency, [v1Name('toCurrency')]: toCurrency });
    const body = await this.call(what, 'general', { method: 'POST', path: '/v1/general/swap/rate', json, idempotent: true });
    return decodeV1Rate(body, what);
  }

  /**
   * GET /v1/payment/{track_id} (merchant key). An answer of 404 with an envelope is the request's
   * data being wrong, an unknown track id: exit 65, like the interface's result 116.
   */
  async paymentInfo(trackId: string): Promise<PaymentInfo> {
    const what = 'the payment status request';
    const path = `/v1/payment/${trackIdSegment(trackId)}`;
    let body: JsonObject;
    try {
      body = await this.call(what, 'merchant', { method: 'GET', path, idempotent: true });
    } catch (error) {
      if (error instanceof GwError && error.exitCode === ExitCode.REFUSED && error.status === 404) {
        throw error.with({
          exitCode: ExitCode.DATA,
          hint: 'no payment of this merchant account has that track id: check it (if every track id gets this, check the base URL and api v1)',
        });
      }
      throw error;
    }
    return decodeV1PaymentInfo(v1Data(body, what), what);
  }

  /**
   * GET /v1/payment?… (merchant key): one page of the history, the documented filters as query
   * parameters (V1_HISTORY_FILTERS); an order id is not sent (the history has no such parameter).
   */
  async payments(filter: PaymentFilter): Promise<PaymentPage> {
    const what = 'the payment history request';
    if (filter.size !== undefined && (!Number.isInteger(filter.size) || filter.size < 1 || filter.size > MAX_PAGE_SIZE)) {
      throw new UsageError(`the page size must be a whole number from 1 to ${MAX_PAGE_SIZE} with the versioned API (got ${filter.size})`);
    }
    const body = await this.call(what, 'merchant', { method: 'GET', path: `/v1/payment${historyQuery(filter)}`, idempotent: true });
    return decodeV1PaymentPage(body, what);
  }
}
