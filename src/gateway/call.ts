// One gateway operation sent over one endpoint (src/operations/*): the key taken from the
// configuration and placed where the endpoint's codec says (a header or a body field), the fields
// encoded as the codec says (JSON, form, query string, path), the answer's envelope decoded. Both
// clients (legacy/client.ts, v1/client.ts) send every operation through here; what is left to them
// is which endpoint, and what a refusal means for the operation.
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import { asParams, chooseEndpoint, NotServedError, type Api, type Endpoint, type KeyKind, type Operation } from '../operations/codec.js';
import { decodeEnvelope } from './envelope.js';
import type { HttpTransport, KeySetting, Keys } from './gateway.js';
import { unsendableHeaderValue } from './header-value.js';
import { stringifyLossless } from '../util/json.js';
import type { JsonObject } from '../operations/read.js';
import type { TransportRequest } from './transport.js';

const KEY_SETTINGS: Record<KeyKind, { flag: string; env: string; file: string }> = {
  merchant: { flag: '--merchant-key', env: 'GATEWAY_MERCHANT_KEY', file: 'merchantKey' },
  payout: { flag: '--payout-key', env: 'GATEWAY_PAYOUT_KEY', file: 'payoutKey' },
  general: { flag: '--general-key', env: 'GATEWAY_GENERAL_KEY', file: 'generalKey' },
};

/** Where to set a key that is missing (exit 78, before any request). */
export function missingKeyError(kind: KeyKind, keys: Keys = {}): ConfigError {
  if (kind === 'general') {
    const payoutNote = keys.payout === undefined ? '' : '; the payout key is not used by the versioned API';
    return new ConfigError(
      'no general API key is configured: the versioned API (api v1) reads balances and rates with it',
      `set it with --general-key, GATEWAY_GENERAL_KEY, or generalKey in your config file; gw config shows what is set${payoutNote}`,
    );
  }
  const s = KEY_SETTINGS[kind];
  return new ConfigError(`no ${kind} API key is configured`, `set it with ${s.flag}, ${s.env}, or ${s.file} in your config file; gw config shows what is set`);
}

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
    `set the key again as the gateway shows it (gw config set ${KEY_SETTINGS[kind as KeyKind]?.file ?? 'merchantKey'}), without spaces or line breaks inside`,
  );
}

/** A key refusal names the key and where it came from, unless the refusal already says what to do. */
export function withKeyHint(error: unknown, kind: KeyKind, key: KeySetting): unknown {
  if (error instanceof GwError && error.exitCode === ExitCode.NOPERM && error.hint === undefined) {
    return error.with({ hint: `check the ${kind} key (from ${key.from})` });
  }
  return error;
}

/** A track id as one path segment: percent-encoded; empty or dot segments are refused (they would change the path). */
export function trackIdSegment(trackId: string): string {
  if (trackId === '' || trackId === '.' || trackId === '..') throw new UsageError(`"${trackId}" is not a track id`);
  return encodeURIComponent(trackId);
}

/** The configured key of `kind`, or the error that says where to set it. */
export function keyOf(keys: Keys, kind: KeyKind): KeySetting {
  const key = keys[kind];
  if (key === undefined || key.value === '') throw missingKeyError(kind, keys);
  return key;
}

/** The transport request for `fields` (already in wire names and kinds) over `endpoint`, with the key where it goes. */
export function buildRequest(endpoint: Endpoint, fields: Record<string, unknown>, key: KeySetting | undefined, idempotent: boolean): TransportRequest {
  const rest: Record<string, unknown> = { ...fields };
  // Path segments (`/v1/payment/:track_id`) come out of the fields.
  const path = endpoint.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return trackIdSegment(value === undefined || value === null ? '' : String(value));
  });
  const headers: Record<string, string> = {};
  const place = endpoint.key;
  if (place !== undefined && key !== undefined) {
    if ('header' in place) headers[place.header] = key.value;
    else rest[place.field] = key.value;
  }
  // The key field first, as the interface document shows it.
  const ordered = place !== undefined && 'field' in place ? { [place.field]: rest[place.field], ...rest } : rest;
  const request: TransportRequest = { method: endpoint.method, path, idempotent };
  switch (endpoint.body) {
    case 'json':
      request.json = stringifyLossless(ordered);
      break;
    case 'form':
      request.form = asParams(ordered);
      break;
    case 'query': {
      const query = new URLSearchParams(asParams(rest)).toString();
      if (query !== '') request.path = `${path}?${query}`;
      break;
    }
    case 'none':
      break;
  }
  if (Object.keys(headers).length > 0) {
    if (request.json === undefined) headers['content-type'] = 'application/json';
    request.headers = headers;
  }
  return request;
}

/** What a client is told about where it sends (the factory's): which operations are served there. */
export interface ClientOptions {
  /** Whether the gateway behind the transport serves an operation (by its name); absent: every one. The embedded sandbox's. */
  served?: (operation: string) => boolean;
}

export interface CallOptions extends ClientOptions {
  /** The operation's name ("payment information"), for the not-served line. */
  operation: string;
  transport: HttpTransport;
  keys: Keys;
  endpoint: Endpoint;
  /** "the payment request": how failures name it. */
  what: string;
  /** Safe to send again (everything but a payment's creation). */
  idempotent: boolean;
  /** The request's fields in wire names and kinds (the operation's codec encoded them). */
  fields: Record<string, unknown>;
}

/**
 * Sends one operation and returns the answer's envelope (decoded in the endpoint's style, either
 * understood). A key that is missing or cannot travel in a header stops before anything is sent; a
 * refused key names the key and where it came from.
 */
export async function call(options: CallOptions): Promise<JsonObject> {
  const { endpoint, keys } = options;
  // Nothing is sent for an operation the other end does not serve (the sandbox, not yet).
  if (options.served !== undefined && !options.served(options.operation)) throw new NotServedError(options.operation, 'the sandbox');
  const place = endpoint.key;
  const key = place === undefined ? undefined : keyOf(keys, place.kind);
  if (place !== undefined && key !== undefined && 'header' in place) checkHeaderKey(place.kind, key);
  const request = buildRequest(endpoint, options.fields, key, options.idempotent);
  try {
    return decodeEnvelope(await options.transport.send(request), endpoint.envelope, options.what);
  } catch (error) {
    if (place !== undefined && key !== undefined) {
      const hinted = withKeyHint(error, place.kind, key);
      if (hinted !== error) throw hinted;
    }
    throw error;
  }
}

/** What a client brings to perform(): the transport, the keys, what it was told, and which API it speaks. */
export interface Speaker extends ClientOptions {
  transport: HttpTransport;
  keys: Keys;
  api: Api;
  /** The hint for an enveloped 404 without one (the versioned client). */
  notFoundHint?: string;
}

/**
 * One operation, whole: its endpoint chosen (the speaker's API where the operation has both, else
 * the one that has it; NotServedError where none), its request encoded by its codec, sent, its
 * refusals refined by the operation, its answer decoded by the same codec.
 */
export async function perform<Req, Ans>(speaker: Speaker, operation: Operation<Req, Ans, never>, request: Req, endpoint?: Endpoint): Promise<Ans> {
  const chosen = endpoint ?? chooseEndpoint(operation.name, operation.endpoints, speaker.api);
  let body: JsonObject;
  try {
    body = await call({
      ...(speaker.served !== undefined && { served: speaker.served }),
      operation: operation.name,
      transport: speaker.transport,
      keys: speaker.keys,
      endpoint: chosen,
      what: operation.what,
      idempotent: operation.idempotent,
      fields: operation.encodeRequest(chosen, request),
    });
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    const refined = operation.refine?.(chosen, error) ?? error;
    if (refined === error && speaker.notFoundHint !== undefined && chosen.api === speaker.api) {
      if (error.hint === undefined && error.exitCode === ExitCode.REFUSED && error.status === 404) throw error.with({ hint: speaker.notFoundHint });
    }
    throw refined;
  }
  return operation.decodeAnswer(chosen, body, operation.what);
}
