// Decodes a gateway answer whatever its HTTP status: the interface does not show failure statuses,
// so a refusal may come as HTTP 200 with result ≠ 100 (legacy) or status ≠ 200 (versioned), or as
// an HTTP error carrying the same envelope. The HTTP status is the fallback when there is no
// envelope. Pure: RawResponse in, payload object or GwError out. What a legacy result code means,
// its exit code and its hint come from the one table in result-codes.ts.
import { ExitCode, GwError, ProtocolError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonNumber, isJsonObject, parseLossless, type JsonValue } from '../util/json.js';
import { exitCodeForResult, exitCodeForStatus, resultCode } from './result-codes.js';
import { tryAgain } from './retry-after.js';

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  body: string;
  /** The Retry-After header, when the answer had one ("try again in 30 s"). */
  retryAfter?: string | string[];
  /** Only the answer's first bytes were kept (TransportOptions.answerLimit). */
  truncated?: boolean;
}

/** The hint for an answer that looks like another API's: the base URL, or the `api` setting, is wrong. */
export const WRONG_API_HINT = 'check the base URL and the api setting (legacy or v1; gw config shows both)';

/** The gateway failing (5xx) or rate-limiting (429): never the user's fault, worth trying again. */
function laterHint(raw: RawResponse, what: 'failing' | 'busy'): string {
  const again = tryAgain(raw.retryAfter);
  return what === 'failing'
    ? `the gateway failed, not your request: ${again}; if it persists, check the base URL`
    : `the gateway is rate-limiting requests: ${again}`;
}

export type JsonObject = { [key: string]: JsonValue };
export type EnvelopeStyle = 'legacy' | 'versioned';

/** A gateway string for a message: Untrusted's one-line form, bounded; undefined when absent or blank. */
function gatewayText(value: JsonValue | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = Untrusted.of(value).line(201);
  return text === '' ? undefined : text;
}

/** An integer code sent as a JSON number or a numeric string. */
export function integerCode(value: JsonValue | undefined): number | undefined {
  const text = isJsonNumber(value) ? value.value : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined || !/^-?\d{1,9}$/.test(text)) return undefined;
  return Number(text);
}

function describeHttp(raw: RawResponse, what: string): GwError {
  const status = raw.status;
  const kind = raw.body.trim() === '' ? 'an empty body' : `${terminalSafe(raw.contentType?.split(';')[0] ?? 'an unknown type')} instead of JSON`;
  if (status >= 500) {
    return new GwError(ExitCode.UNAVAILABLE, `the gateway is failing: HTTP ${status} with ${kind}`, { status, hint: laterHint(raw, 'failing') });
  }
  if (status === 429) return new GwError(ExitCode.TEMPFAIL, `the gateway is rate-limiting requests (HTTP 429)`, { status, hint: laterHint(raw, 'busy') });
  return new ProtocolError(`the gateway's answer to ${what} could not be understood: HTTP ${status} with ${kind}`, {
    status,
    // A 404 page (or any page) where an endpoint should be: most often the other API's base URL.
    hint: WRONG_API_HINT,
  });
}

function looksLikeJson(raw: RawResponse): boolean {
  const type = raw.contentType?.toLowerCase() ?? '';
  const start = raw.body.trimStart()[0];
  return type.includes('json') || start === '{' || start === '[';
}

function legacyFailure(raw: RawResponse, body: JsonObject, result: number): GwError {
  const httpStatus = raw.status;
  const entry = resultCode(result);
  const meaning = entry?.meaning;
  const message = gatewayText(body.message) ?? meaning ?? 'no message';
  const label = meaning !== undefined && meaning.toLowerCase() !== message.toLowerCase() ? `result ${result}: ${meaning}` : `result ${result}`;
  const prefix =
    entry === undefined ? 'the gateway refused with an unknown result code' : entry.kind === 'generic-failure' ? 'the gateway failed' : 'the gateway refused';
  const exitCode = exitCodeForResult(result);
  // Rate-limited or failing (124, 131, 500): "try again later", or after the wait the gateway asked for.
  const hint = entry?.hint?.replace('try again later', tryAgain(raw.retryAfter));
  return new GwError(exitCode, `${prefix}: ${message} (${label})`, {
    result,
    ...(httpStatus >= 400 && { status: httpStatus }),
    ...(hint !== undefined && { hint }),
  });
}

/**
 * A versioned envelope that is not a success. `status` is what the envelope says, or undefined
 * when it has an error object but no status; `raw.status` is the HTTP status that was sent.
 * Nothing is invented: without an envelope status the HTTP status decides (when it is an error).
 */
function versionedFailure(raw: RawResponse, body: JsonObject, status: number | undefined): GwError {
  const error = isJsonObject(body.error) ? body.error : {};
  const type = gatewayText(error.type);
  const key = gatewayText(error.key);
  const message = gatewayText(error.message) ?? gatewayText(body.message) ?? key ?? 'no message';
  const effective = status ?? (raw.status >= 400 ? raw.status : undefined);
  const details = { ...(effective !== undefined && { status: effective }), ...(type !== undefined && { type }), ...(key !== undefined && { key }) };
  const label = [effective === undefined ? undefined : `status ${effective}`, key].filter(Boolean).join(', ');
  const labelled = `${message}${label === '' ? '' : ` (${label})`}`;
  if (effective !== undefined && effective >= 500) {
    return new GwError(ExitCode.UNAVAILABLE, `the gateway is failing: ${labelled}`, { ...details, hint: laterHint(raw, 'failing') });
  }
  if (effective === 429)
    return new GwError(ExitCode.TEMPFAIL, `the gateway is rate-limiting requests: ${labelled}`, { ...details, hint: laterHint(raw, 'busy') });
  const exitCode = effective === undefined ? ExitCode.REFUSED : exitCodeForStatus(effective);
  // An enveloped 404 gets its hint from the client, which knows what the path was (a track id, an endpoint).
  return new GwError(exitCode, `the gateway refused: ${labelled}`, details);
}

/**
 * A success envelope (result 100, status 200) that also carries an error, or comes with an HTTP
 * error status: the answer contradicts itself. Neither the success nor a refusal can be trusted
 * (a payment may or may not exist): exit 76, with what was sent and nothing invented.
 */
function contradiction(raw: RawResponse, what: string, success: string, error: string | undefined): ProtocolError {
  const said = error === undefined ? `HTTP ${raw.status}` : `an error: ${error}`;
  return new ProtocolError(`the gateway's answer to ${what} contradicts itself: ${success} (success) with ${said}`, {
    hint: 'gw did not take it as a success; check the result with the gateway (gw payments, the merchant panel) before trying again',
  });
}

/** The error a success envelope carries, as text: a non-blank error string or message, or a non-empty error object. */
function carriedError(body: JsonObject): string | undefined {
  const error = body.error;
  if (typeof error === 'string') return gatewayText(error);
  if (!isJsonObject(error) || Object.keys(error).length === 0) return undefined;
  const key = gatewayText(error.key);
  const message = gatewayText(error.message) ?? key ?? gatewayText(error.type) ?? 'no message';
  return key === undefined || key === message ? message : `${message} (${key})`;
}

function hasVersionedError(body: JsonObject): boolean {
  return isJsonObject(body.error) && Object.keys(body.error).length > 0;
}

/**
 * Returns the envelope object on success. Either style is understood whatever endpoint it came
 * from (be liberal in what you accept); `style` only decides which is looked at first.
 */
export function decodeEnvelope(raw: RawResponse, style: EnvelopeStyle, what: string): JsonObject {
  if (raw.body.trim() === '' || !looksLikeJson(raw)) throw describeHttp(raw, what);
  let body: JsonValue;
  try {
    body = parseLossless(raw.body);
  } catch {
    if (raw.status >= 500 || raw.status === 429) throw describeHttp(raw, what);
    throw new ProtocolError(`the gateway's answer to ${what} is not valid JSON (HTTP ${raw.status})`, { status: raw.status });
  }
  if (!isJsonObject(body)) {
    if (raw.status >= 400) throw describeHttp(raw, what);
    throw new ProtocolError(`the gateway's answer to ${what} is not a JSON object`);
  }

  const result = integerCode(body.result);
  const status = integerCode(body.status);
  const tryLegacy = (): JsonObject | GwError | undefined => {
    if (result === undefined) return undefined;
    if (result !== 100) return legacyFailure(raw, body, result);
    const error = carriedError(body);
    if (error !== undefined || raw.status >= 400) return contradiction(raw, what, 'result 100', error);
    return body;
  };
  const tryVersioned = (): JsonObject | GwError | undefined => {
    if (status === undefined && !hasVersionedError(body)) return undefined;
    if (status === 200) {
      const error = carriedError(body);
      if (error !== undefined || raw.status >= 400) return contradiction(raw, what, 'status 200', error);
      return body;
    }
    return versionedFailure(raw, body, status);
  };
  const legacyFirst = style === 'legacy';
  const first = legacyFirst ? tryLegacy() : tryVersioned();
  const outcome = first ?? (legacyFirst ? tryVersioned() : tryLegacy());
  // A failure in the other API's envelope: most often the base URL or the api setting is the other API's.
  if (outcome instanceof GwError && first === undefined && !(outcome instanceof ProtocolError)) {
    const other = legacyFirst ? "the versioned API's envelope" : "the legacy interface's envelope";
    throw outcome.with({ hint: `${outcome.hint === undefined ? '' : `${outcome.hint}; `}the answer came in ${other}: ${WRONG_API_HINT}` });
  }
  if (outcome instanceof GwError) throw outcome;
  if (outcome !== undefined) return outcome;
  if (raw.status >= 400) {
    const message = gatewayText(body.message);
    const error = describeHttp(raw, what);
    if (message === undefined) throw error;
    if (raw.status >= 500 || raw.status === 429) throw error.with({ message: `${error.message.replace(/ with .*$/, '')}: ${message}` });
    throw new GwError(
      error.exitCode === ExitCode.PROTOCOL ? exitCodeForStatus(raw.status) : error.exitCode,
      `the gateway refused: ${message} (HTTP ${raw.status})`,
      { status: raw.status, ...(raw.status === 404 && { hint: WRONG_API_HINT }) },
    );
  }
  throw new ProtocolError(`the gateway's answer to ${what} has no ${style === 'legacy' ? 'result code' : 'status'}: not the gateway's envelope`, {
    hint: WRONG_API_HINT,
  });
}
