// The versioned API (docs/gateway.md §8) on top of the sandbox's operations: a v1 request
// is translated into the interface's fields (snake_case in → camelCase, the key from its header),
// the existing operation decides (validation, pricing, storage: the rules stay in gateway.ts), and
// its legacy answer is translated back: the versioned envelope, snake_case `data`, amounts as JSON
// numbers (lossless-json writes them digit for digit), refusals as HTTP 400/401/404/429/500 with
// the error object.
import { LosslessNumber, isLosslessNumber } from 'lossless-json';
import { toPlainDecimal } from '../money/decimal.js';
import { versionedError, versionedOk, type GatewayReply, type RequestFields, type SandboxGateway } from './gateway.js';

/** The keys the versioned routes check themselves (the merchant key is the operations' own). */
export interface V1SandboxKeys {
  /** Accepted in the `general_api_key` header (balance, swap rate). */
  generalKey: string;
  /** The same account's payout key, which the interface's balance operation checks. */
  payoutKey: string;
}

export type V1KeyKind = 'merchant' | 'general';

/** 401 for a missing key header, undefined when there is one. */
export function missingKeyReply(kind: V1KeyKind, headerKey: string | undefined): GatewayReply | undefined {
  if (headerKey !== undefined && headerKey !== '') return undefined;
  return versionedError(401, 'authentication_error', `missing_${kind}_api_key`, `${kind === 'merchant' ? 'Merchant' : 'General'} API key is missing`);
}

function invalidKeyReply(kind: V1KeyKind): GatewayReply {
  return versionedError(401, 'authentication_error', `invalid_${kind}_api_key`, `Invalid ${kind} API key`);
}

// ---------------------------------------------------------------------------------------------
// Names

/** The interface's field names in the operations' messages, as the versioned API spells them. */
const MESSAGE_NAMES: Readonly<Record<string, string>> = {
  payCurrency: 'pay_currency',
  lifeTime: 'lifetime',
  feePaidByPayer: 'fee_paid_by_payer',
  underPaidCover: 'under_paid_coverage',
  callbackUrl: 'callback_url',
  orderId: 'order_id',
  trackId: 'track_id',
  fromCurrency: 'from_currency',
  toCurrency: 'to_currency',
  fromDate: 'from_date',
  toDate: 'to_date',
  fromAmount: 'from_amount',
  toAmount: 'to_amount',
};

function v1Message(message: string): string {
  return message.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (word) => MESSAGE_NAMES[word] ?? word);
}

/**
 * A legacy result code as a versioned failure: HTTP status, error type and key (the field it is
 * about, in the versioned spelling, where there is one).
 */
const V1_ERRORS: Readonly<Record<number, { status: number; type: string; key: string }>> = {
  102: { status: 401, type: 'authentication_error', key: 'invalid_merchant_api_key' },
  103: { status: 401, type: 'authentication_error', key: 'invalid_general_api_key' },
  105: { status: 400, type: 'invalid_request_error', key: 'currency' },
  106: { status: 400, type: 'invalid_request_error', key: 'network' },
  107: { status: 400, type: 'invalid_request_error', key: 'callback_url' },
  109: { status: 400, type: 'invalid_request_error', key: 'amount' },
  110: { status: 400, type: 'invalid_request_error', key: 'amount' },
  111: { status: 400, type: 'invalid_request_error', key: 'lifetime' },
  112: { status: 400, type: 'invalid_request_error', key: 'lifetime' },
  113: { status: 400, type: 'invalid_request_error', key: 'under_paid_coverage' },
  114: { status: 400, type: 'invalid_request_error', key: 'under_paid_coverage' },
  115: { status: 400, type: 'invalid_request_error', key: 'fee_paid_by_payer' },
  116: { status: 404, type: 'invalid_request_error', key: 'track_id' },
  118: { status: 400, type: 'invalid_request_error', key: 'to_amount' },
  119: { status: 400, type: 'invalid_request_error', key: 'to_date' },
  120: { status: 400, type: 'invalid_request_error', key: 'pay_currency' },
  121: { status: 400, type: 'invalid_request_error', key: 'from_currency' },
  122: { status: 400, type: 'invalid_request_error', key: 'to_currency' },
  123: { status: 400, type: 'invalid_request_error', key: 'to_currency' },
  124: { status: 429, type: 'rate_limit_error', key: 'too_many_requests' },
  126: { status: 400, type: 'invalid_request_error', key: 'amount' },
  127: { status: 400, type: 'invalid_request_error', key: 'amount' },
  131: { status: 500, type: 'api_error', key: 'internal_error' },
  500: { status: 500, type: 'api_error', key: 'internal_error' },
};

/** The versioned refusal for a legacy answer that is not result 100. */
export function v1Failure(body: Record<string, unknown>): GatewayReply {
  const result = typeof body.result === 'number' ? body.result : 500;
  const message = v1Message(typeof body.message === 'string' ? body.message : 'An error occurred');
  const entry = V1_ERRORS[result] ?? { status: 400, type: 'invalid_request_error', key: 'invalid_request' };
  return versionedError(entry.status, entry.type, entry.key, message);
}

/**
 * Runs a legacy operation's answer through `translate` on success (result 100), or turns its
 * refusal into the versioned one.
 */
export function fromLegacy(reply: GatewayReply, translate: (body: Record<string, unknown>) => object): GatewayReply {
  const body = (typeof reply.body === 'object' && reply.body !== null ? reply.body : {}) as Record<string, unknown>;
  return body.result === 100 ? versionedOk(translate(body)) : v1Failure(body);
}

/** A value as a JSON number when it is one or is numeric text; otherwise as it is. */
export function asNumber(value: unknown): unknown {
  if (isLosslessNumber(value) || typeof value === 'number') return value;
  if (typeof value === 'string') {
    const plain = toPlainDecimal(value.trim());
    if (plain !== undefined && value.trim() !== '') return new LosslessNumber(plain);
  }
  return value;
}

/** Copies `pairs` [from, to] of `source` that are present into a new object, in the pairs' order. */
export function rename(source: Readonly<Record<string, unknown>>, pairs: ReadonlyArray<readonly [string, string]>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [from, to] of pairs) if (Object.hasOwn(source, from) && source[from] !== undefined) out[to] = source[from];
  return out;
}

// ---------------------------------------------------------------------------------------------
// POST /v1/payment/white-label

/** White-label request fields: versioned name → the interface's (§8 → the interface document). Others are ignored. */
const WHITE_LABEL_REQUEST: ReadonlyArray<readonly [string, string]> = [
  ['amount', 'amount'],
  ['pay_currency', 'payCurrency'],
  ['currency', 'currency'],
  ['network', 'network'],
  ['lifetime', 'lifeTime'],
  ['fee_paid_by_payer', 'feePaidByPayer'],
  ['under_paid_coverage', 'underPaidCover'],
  ['callback_url', 'callbackUrl'],
  ['email', 'email'],
  ['order_id', 'orderId'],
  ['description', 'description'],
];

/** White-label answer fields: the interface's name → versioned name, in the order §8 lists them. */
const WHITE_LABEL_ANSWER: ReadonlyArray<readonly [string, string]> = [
  ['trackId', 'track_id'],
  ['amount', 'amount'],
  ['currency', 'currency'],
  ['payAmount', 'pay_amount'],
  ['payCurrency', 'pay_currency'],
  ['network', 'network'],
  ['address', 'address'],
  ['memo', 'memo'],
  ['callbackUrl', 'callback_url'],
  ['description', 'description'],
  ['email', 'email'],
  ['feePaidByPayer', 'fee_paid_by_payer'],
  ['lifeTime', 'lifetime'],
  ['orderId', 'order_id'],
  ['underPaidCover', 'under_paid_coverage'],
  ['rate', 'rate'],
  ['QRCode', 'qr_code'],
  ['expiredAt', 'expired_at'],
  ['createdAt', 'date'],
];

/** Amount-like answer fields, written as JSON numbers. */
const NUMBER_FIELDS = new Set(['amount', 'pay_amount', 'fee_paid_by_payer', 'lifetime', 'under_paid_coverage', 'rate', 'expired_at', 'date']);

export function whiteLabelV1(g: SandboxGateway, headerKey: string | undefined, fields: RequestFields): GatewayReply {
  const missing = missingKeyReply('merchant', headerKey);
  if (missing) return missing;
  // The key only from its header: a `merchant` field in the body is not the versioned API's.
  const legacyFields = { ...rename(fields, WHITE_LABEL_REQUEST), merchant: headerKey };
  return fromLegacy(g.createWhiteLabel(legacyFields, 'v1'), (body) => {
    const data = rename({ memo: '', ...body }, WHITE_LABEL_ANSWER);
    for (const name of NUMBER_FIELDS) if (name in data) data[name] = asNumber(data[name]);
    return data;
  });
}

// ---------------------------------------------------------------------------------------------
// GET /v1/general/account/balance[?currency=], POST /v1/general/swap/rate

function generalKeyReply(keys: V1SandboxKeys, headerKey: string | undefined): GatewayReply | undefined {
  return missingKeyReply('general', headerKey) ?? (headerKey === keys.generalKey ? undefined : invalidKeyReply('general'));
}

export function balanceV1(g: SandboxGateway, keys: V1SandboxKeys, headerKey: string | undefined, query: URLSearchParams): GatewayReply {
  const refused = generalKeyReply(keys, headerKey);
  if (refused) return refused;
  const currency = query.get('currency');
  // The interface's balance operation, on behalf of the account whose general key was given.
  const reply = g.balance({ key: keys.payoutKey, ...(currency !== null && { currency }) });
  return fromLegacy(reply, (body) => {
    const balances = (typeof body.data === 'object' && body.data !== null ? body.data : {}) as Record<string, unknown>;
    const data = Object.create(null) as Record<string, unknown>;
    for (const [symbol, amount] of Object.entries(balances)) data[symbol] = asNumber(amount);
    return data;
  });
}

export function swapRateV1(g: SandboxGateway, keys: V1SandboxKeys, headerKey: string | undefined, fields: RequestFields): GatewayReply {
  const refused = generalKeyReply(keys, headerKey);
  if (refused) return refused;
  const legacyFields = rename(fields, [
    ['from_currency', 'fromCurrency'],
    ['to_currency', 'toCurrency'],
  ]);
  return fromLegacy(g.exchangeRate(legacyFields), (body) => ({ rate: asNumber(body.rate) }));
}
