// Every answer the sandbox gives in the gateway's two envelopes, in one place: success and failure
// for the legacy endpoints (`{result, message, ...}`, refusals HTTP 200 like the real service) and
// for the versioned ones (`{data, message, error, status, version}`, the envelope's `status` equal to
// the HTTP status). The operations (gateway.ts) answer in canonical values or with a Failure; the
// routes (routes.ts) put those here into the envelope of the endpoint's API.
import { wireName, type Endpoint, type KeyKind } from '../operations/codec.js';

/** What the sandbox answers: an HTTP status, a body (JSON-able, or bytes) and headers. */
export interface GatewayReply {
  /** HTTP status. Legacy refusals are 200 like the real service; versioned ones carry their own. */
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
}

export const SUCCESS_MESSAGE = 'Operation completed successfully!';
export const API_VERSION = '1.0.0';

/** A refusal, as an operation states it: the legacy result code and message (canonical field names in it). */
export interface Failure {
  result: number;
  message: string;
  /** The versioned error key where it names a field the generic table below does not (the page size). */
  key?: string;
}

/** What an operation answers: its canonical value, or a Failure. */
export type Answer<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export const ok = <T>(value: T): Answer<T> => ({ ok: true, value });

/**
 * A link into the sandbox (its QR images, its payment page): `path` on its base URL, or "" when it
 * has none, as a `--sandbox` run that does not listen (server.ts): no link that can never work.
 */
export function sandboxLink(baseUrl: string | undefined, path: string): string {
  return baseUrl === undefined ? '' : `${baseUrl}${path}`;
}
export const fail = (result: number, message: string, key?: string): Answer<never> => ({
  ok: false,
  failure: { result, message, ...(key !== undefined && { key }) },
});

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

/** The canonical field names in a message, as the endpoint's request table spells them (`payCurrency` → `pay_currency`). */
function wireMessage(endpoint: Endpoint, message: string): string {
  return message.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (word) => wireName(endpoint.request, word));
}

/** A refusal in the endpoint's envelope. */
export function failureReply(endpoint: Endpoint, failure: Failure): GatewayReply {
  if (endpoint.envelope === 'legacy') return legacy(failure.result, wireMessage(endpoint, failure.message));
  const entry = V1_ERRORS[failure.result] ?? { status: 400, type: 'invalid_request_error', key: failure.key ?? 'invalid_request' };
  return versionedError(entry.status, entry.type, entry.key, wireMessage(endpoint, failure.message));
}

/** A success in the endpoint's envelope: the payload at the top level (legacy) or as `data` (versioned). */
export function successReply(endpoint: Endpoint, payload: object): GatewayReply {
  return endpoint.envelope === 'legacy' ? legacy(100, SUCCESS_MESSAGE, payload) : versionedOk(payload);
}

const KIND_WORDS: Readonly<Record<KeyKind, { word: string; result: number }>> = {
  merchant: { word: 'merchant', result: 102 },
  payout: { word: 'payout', result: 103 },
  general: { word: 'general', result: 103 },
};

/** A key missing or wrong where the endpoint takes it: legacy result 102/103, versioned 401. */
export function keyRefusal(endpoint: Endpoint, kind: KeyKind, missing: boolean): GatewayReply {
  const { word, result } = KIND_WORDS[kind];
  if (endpoint.envelope === 'legacy') return legacy(result, `Invalid ${word} API key`);
  const title = `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
  return missing
    ? versionedError(401, 'authentication_error', `missing_${word}_api_key`, `${title} API key is missing`)
    : versionedError(401, 'authentication_error', `invalid_${word}_api_key`, `Invalid ${word} API key`);
}

/** What the not-served envelopes say: "<Operation> is not served by the gw sandbox". */
export function notServedMessage(operation: string): string {
  return `${operation.charAt(0).toUpperCase()}${operation.slice(1)} is not served by the gw sandbox`;
}

/**
 * An operation of the gateway the sandbox does not serve (not-served.ts, or an operation module
 * without a SANDBOX_BEHAVIOURS row): HTTP 501 in the endpoint's envelope, legacy `{result: 501,
 * message}`, versioned `{data: {}, message, error: {type, key: not_served_by_sandbox, message},
 * status: 501, version}`. Never a 404 or 405: the path is the gateway's, the sandbox lacks it.
 */
export function notServedReply(endpoint: Pick<Endpoint, 'envelope'>, operation: string): GatewayReply {
  const message = notServedMessage(operation);
  return endpoint.envelope === 'legacy' ? legacy(501, message, {}, 501) : versionedError(501, 'api_error', 'not_served_by_sandbox', message);
}

/** What can go wrong with a request before any operation sees it. */
export type RequestProblem = 'not-found' | 'method-not-allowed' | 'body-too-large' | 'invalid-body' | 'internal-error';

/**
 * A request the sandbox cannot hand to an operation, in its path's envelope: versioned with the
 * HTTP status in both places; legacy with a result code (HTTP 200 for a body that is not valid,
 * like a refusal; the transport-level status otherwise).
 */
export function problemReply(envelope: 'legacy' | 'versioned', problem: RequestProblem, message: string): GatewayReply {
  const table: Readonly<Record<RequestProblem, { status: number; type: string; key: string; result: number; legacyStatus: number; legacyMessage?: string }>> = {
    'not-found': { status: 404, type: 'invalid_request_error', key: 'not_found', result: 404, legacyStatus: 404, legacyMessage: 'Not found' },
    'method-not-allowed': { status: 405, type: 'invalid_request_error', key: 'method_not_allowed', result: 405, legacyStatus: 405 },
    'body-too-large': { status: 413, type: 'invalid_request_error', key: 'body_too_large', result: 101, legacyStatus: 413 },
    'invalid-body': { status: 400, type: 'invalid_request_error', key: 'invalid_body', result: 101, legacyStatus: 200 },
    'internal-error': { status: 500, type: 'api_error', key: 'internal_error', result: 500, legacyStatus: 500 },
  };
  const entry = table[problem];
  return envelope === 'versioned'
    ? versionedError(entry.status, entry.type, entry.key, message)
    : legacy(entry.result, entry.legacyMessage ?? message, {}, entry.legacyStatus);
}
