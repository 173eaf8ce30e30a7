// Decodes a gateway answer whatever its HTTP status: the interface does not show failure statuses,
// so a refusal may come as HTTP 200 with result ≠ 100 (legacy) or status ≠ 200 (versioned), or as
// an HTTP error carrying the same envelope. The HTTP status is the fallback when there is no
// envelope. Pure: RawResponse in, payload object or GwError out. What a legacy result code means,
// its exit code and its hint come from the one table in result-codes.ts.
import { ExitCode, GwError, ProtocolError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonNumber, isJsonObject, parseLossless, type JsonValue } from './json.js';
import { exitCodeForResult, exitCodeForStatus, resultCode } from './result-codes.js';

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  body: string;
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
    return new GwError(ExitCode.UNAVAILABLE, `the gateway is failing: HTTP ${status} with ${kind}`, {
      status,
      hint: 'try again later; if it persists, check the base URL',
    });
  }
  if (status === 429)
    return new GwError(ExitCode.TEMPFAIL, `the gateway is rate-limiting requests (HTTP 429)`, { status, hint: 'wait a moment and try again' });
  return new ProtocolError(`the gateway's answer to ${what} could not be understood: HTTP ${status} with ${kind}`, {
    status,
    hint: 'check that the base URL points at the gateway',
  });
}

function looksLikeJson(raw: RawResponse): boolean {
  const type = raw.contentType?.toLowerCase() ?? '';
  const start = raw.body.trimStart()[0];
  return type.includes('json') || start === '{' || start === '[';
}

function legacyFailure(body: JsonObject, result: number, httpStatus: number): GwError {
  const entry = resultCode(result);
  const meaning = entry?.meaning;
  const message = gatewayText(body.message) ?? meaning ?? 'no message';
  const label = meaning !== undefined && meaning.toLowerCase() !== message.toLowerCase() ? `result ${result}: ${meaning}` : `result ${result}`;
  const prefix =
    entry === undefined ? 'the gateway refused with an unknown result code' : entry.kind === 'generic-failure' ? 'the gateway failed' : 'the gateway refused';
  return new GwError(exitCodeForResult(result), `${prefix}: ${message} (${label})`, {
    result,
    ...(httpStatus >= 400 && { status: httpStatus }),
    ...(entry?.hint !== undefined && { hint: entry.hint }),
  });
}

function versionedFailure(body: JsonObject, status: number): GwError {
  const error = isJsonObject(body.error) ? body.error : {};
  const type = gatewayText(error.type);
  const key = gatewayText(error.key);
  const message = gatewayText(error.message) ?? gatewayText(body.message) ?? key ?? 'no message';
  const exitCode = exitCodeForStatus(status);
  const label = [`status ${status}`, key].filter(Boolean).join(', ');
  return new GwError(exitCode, `the gateway refused: ${message} (${label})`, {
    status,
    ...(type !== undefined && { type }),
    ...(key !== undefined && { key }),
  });
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
    return result === 100 ? body : legacyFailure(body, result, raw.status);
  };
  const tryVersioned = (): JsonObject | GwError | undefined => {
    if (status === undefined && !hasVersionedError(body)) return undefined;
    if (status === 200 && !hasVersionedError(body)) return body;
    const effective = status !== undefined && status !== 200 ? status : Math.max(raw.status, 400);
    return versionedFailure(body, effective);
  };
  const outcome = style === 'legacy' ? (tryLegacy() ?? tryVersioned()) : (tryVersioned() ?? tryLegacy());
  if (outcome instanceof GwError) throw outcome;
  if (outcome !== undefined) return outcome;
  if (raw.status >= 400) {
    const message = gatewayText(body.message);
    const error = describeHttp(raw, what);
    if (message === undefined) throw error;
    throw new GwError(
      error.exitCode === ExitCode.PROTOCOL ? exitCodeForStatus(raw.status) : error.exitCode,
      `the gateway refused: ${message} (HTTP ${raw.status})`,
      { status: raw.status },
    );
  }
  throw new ProtocolError(`the gateway's answer to ${what} has no ${style === 'legacy' ? 'result code' : 'status'}: not the gateway's envelope`);
}
