// What an operation's codec is: for one API, where the request goes (method, path, which key and
// where it travels, how the body is encoded) and ONE table of its fields (canonical name ↔ wire
// name, value kind). Both ends read the same table:
// - the client (src/gateway/legacy, src/gateway/v1) encodes requests and decodes answers, liberal
//   in what it accepts (numbers as text, text as numbers, a missing field is null);
// - the sandbox (src/sandbox) decodes requests and encodes answers, strict in what it sends (the
//   documented names, amounts as JSON numbers where the API writes numbers, exact digits).
// So the client and the sandbox cannot disagree on a name or a type. Pure: no HTTP here.
import { LosslessNumber, isLosslessNumber } from 'lossless-json';
import { ConfigError, type GwError, UsageError } from '../errors.js';
import { toPlainDecimal, type Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { readDecimal, readOptionalText, readScalar, readText, shapeError, type JsonObject } from './read.js';
import type { Scalar } from './values.js';

/** The two APIs: the interface document's unversioned endpoints, and the versioned API (/v1). */
export type Api = 'legacy' | 'v1';

/** Which key an endpoint takes: the merchant key, the payout key (legacy balance), the general key (v1 balance and rate). */
export type KeyKind = 'merchant' | 'payout' | 'general';

/** Where the key travels: a header (v1), or a field of the body (legacy). */
export type KeyPlace = { kind: KeyKind; header: string } | { kind: KeyKind; field: string };

/** How the request's fields travel: a JSON body, a form body, the query string, or nothing. */
export type BodyEncoding = 'json' | 'form' | 'query' | 'none';

/**
 * How a field's value is written on the wire:
 * - `text`: a JSON string (a number is read as its digits);
 * - `memo`: text where "" means none;
 * - `number`: an amount written as a JSON number, exact digits (read liberally as number or text);
 * - `numeric-text`: an amount the API writes as text ("25"), read liberally too;
 * - `integer`: a whole number (minutes, a 0/1 flag, Unix seconds, a count) as a JSON number;
 * - `id`: a track id: text, or a JSON integer when it is all digits (how the gateway's own client sends it);
 * - `boolean`.
 */
export type Kind = 'text' | 'memo' | 'number' | 'numeric-text' | 'integer' | 'id' | 'boolean';

/** One row of a field table: gw's (canonical, camelCase) name, the API's name, the value's kind. */
export interface Field {
  readonly name: string;
  readonly wire: string;
  readonly kind: Kind;
}

/** A field table: `[canonical, wire, kind]` rows, in the order the API documents them. */
export function fields(rows: ReadonlyArray<readonly [name: string, wire: string, kind: Kind]>): readonly Field[] {
  return rows.map(([name, wire, kind]) => ({ name, wire, kind }));
}

/** Where an endpoint is and how its request travels. */
export interface Endpoint {
  api: Api;
  method: 'GET' | 'POST';
  /** The path, `:name` for a segment taken from the request (`/v1/payment/:track_id`). */
  path: string;
  /** The key and where it travels; none for an endpoint without one (the legacy rate). */
  key?: KeyPlace;
  body: BodyEncoding;
  /** Which envelope its answers come in. */
  envelope: 'legacy' | 'versioned';
  /** The request's fields, and the answer's (the payload's: the envelope aside). */
  request: readonly Field[];
  answer: readonly Field[];
}

/**
 * One gateway operation: its canonical request (`Req`), the answer the client reads (`Ans`), the
 * answer the sandbox gives in canonical values (`Out`), its endpoint in each API that has it, and
 * the three directions of its codec, all from the endpoints' field tables (the fourth, the
 * sandbox reading a request, is decodeRequestFields over the same table).
 */
export interface Operation<Req, Ans, Out = never> {
  /** "payment information": for messages (and the not-served line). */
  readonly name: string;
  /** "the payment status request": how failures name it. */
  readonly what: string;
  /** Safe to send again after it may have reached the gateway (every read; never a creation). */
  readonly idempotent: boolean;
  readonly endpoints: Readonly<Partial<Record<Api, Endpoint>>>;
  /** The client: the request's wire fields (the key aside), in the endpoint's names and kinds. */
  encodeRequest(endpoint: Endpoint, request: Req): Record<string, unknown>;
  /** The client: the answer's envelope object in, the canonical answer out (liberal). */
  decodeAnswer(endpoint: Endpoint, body: JsonObject, what: string): Ans;
  /** The sandbox: the canonical answer in, the payload of the endpoint's envelope out (strict). */
  encodeAnswer(endpoint: Endpoint, answer: Out): object;
  /** What a refusal means for this operation (the versioned information's 404: no such payment). */
  refine?(endpoint: Endpoint, error: GwError): GwError;
}

/** Request fields as a decoded body gives them: strings (form, query) or lossless JSON values. */
export type WireFields = Readonly<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------
// Writing (the client's requests, the sandbox's answers): strict

/** A canonical value as its wire form for `kind`; undefined when there is nothing to write. */
export function wireValue(value: unknown, kind: Kind): unknown {
  if (value === undefined) return undefined;
  if (value === null) return kind === 'memo' ? '' : null;
  const text = value instanceof Untrusted ? value.raw() : String(value);
  switch (kind) {
    case 'text':
    case 'memo':
      return text;
    case 'boolean':
      return typeof value === 'boolean' ? value : text === 'true';
    case 'numeric-text':
      return isLosslessNumber(value) ? value.value : text;
    case 'id':
      return /^[1-9]\d{0,30}$/.test(text) ? new LosslessNumber(text) : text;
    case 'number':
    case 'integer': {
      if (isLosslessNumber(value)) return value;
      // A whole JavaScript number is written as it is (JSON writes it digit for digit).
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      const plain = toPlainDecimal(text.trim());
      // Written with exactly the digits it has ("2.50" stays 2.50); a value that is not a number stays text.
      return plain === undefined || text.trim() === '' ? text : new LosslessNumber(text.trim().replace(/^0+(?=\d)/, ''));
    }
  }
}

/**
 * Writes `canonical` through `table`: each field present (not undefined) under its wire name, in
 * the table's order, as its kind says. Fields the table does not list are not written.
 */
/** A requested page size: a whole number from 1 to `max`, or a usage error (nothing sent). */
export function checkPageSize(size: number | undefined, max: number, note = ''): void {
  if (size !== undefined && (!Number.isInteger(size) || size < 1 || size > max))
    throw new UsageError(`the page size must be a whole number from 1 to ${max}${note} (got ${size})`);
}

export function encodeFields(table: readonly Field[], canonical: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of table) {
    const value = wireValue(canonical[field.name], field.kind);
    if (value !== undefined) out[field.wire] = value;
  }
  return out;
}

/** Wire fields as query-string or form text (every value as its digits or text; nulls left out). */
export function asParams(wire: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(wire)) {
    if (value === null || value === undefined) continue;
    out[name] = isLosslessNumber(value) ? value.value : String(value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading (the sandbox's requests): names only, values as sent

/**
 * The request's fields under their canonical names, values exactly as sent (the operation checks
 * them and says which is wrong). Only the table's wire names count: a field sent under another
 * API's spelling (`payCurrency` to /v1) is not the field.
 */
export function decodeRequestFields(table: readonly Field[], wire: WireFields): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const field of table) if (Object.hasOwn(wire, field.wire) && wire[field.wire] !== undefined) out[field.name] = wire[field.wire];
  return out;
}

/** The wire name of a canonical field in `table` (for messages that name a field), else the name itself. */
export function wireName(table: readonly Field[], name: string): string {
  return table.find((f) => f.name === name)?.wire ?? name;
}

/** A field of an answer by its wire name, or (liberally) by its canonical name when that is all there is. */
export function answerValue(object: Readonly<Record<string, JsonValue>>, field: Field): JsonValue | undefined {
  const value = object[field.wire];
  return value !== undefined ? value : object[field.name];
}

/** One field of an answer read as its kind says (liberal: numbers as text, text as numbers). */
export function readField(object: JsonObject, field: Field, what: string): Untrusted | Decimal | Scalar | null {
  const value = answerValue(object, field);
  switch (field.kind) {
    case 'number':
    case 'numeric-text':
      return readDecimal(value, field.wire, what);
    case 'integer':
      return readScalar(value);
    case 'memo':
      return readOptionalText(value, field.wire, what);
    default:
      return readText(value, field.wire, what);
  }
}

/** Reads every row of `tables` into canonical names; the first row of a name that has a value wins. */
export function readFields(object: JsonObject, tables: ReadonlyArray<readonly Field[]>, what: string): Record<string, Untrusted | Decimal | Scalar | null> {
  const out: Record<string, Untrusted | Decimal | Scalar | null> = {};
  for (const table of tables) {
    for (const field of table) {
      if (out[field.name] !== undefined && out[field.name] !== null) continue;
      out[field.name] = readField(object, field, what);
    }
  }
  return out;
}

/** The payload of an answer: the top level (legacy) or `data` (versioned). */
export function payloadOf(endpoint: Endpoint, body: JsonObject, what: string): JsonObject {
  if (endpoint.envelope === 'legacy') return body;
  if (!isJsonObject(body.data)) throw shapeError(what, 'no data object');
  return body.data;
}

/** The row of `table` named `name` (a programming error when it has none). */
export function row(table: readonly Field[], name: string): Field {
  const found = table.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no field ${name} in the table`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Operations nobody serves

/**
 * An operation that cannot be served where it was asked (the sandbox does not serve it yet, or
 * neither API has it): one line that says so, exit 78, and nothing sent.
 */
export class NotServedError extends ConfigError {
  constructor(operation: string, where: 'the sandbox' | 'either API') {
    super(
      `${operation} is not served by ${where}: nothing was sent`,
      where === 'the sandbox' ? 'run it without --sandbox, against the gateway (gw config shows its base URL)' : undefined,
    );
  }
}

/**
 * The endpoint an operation is sent to: the configured API's where the operation has both, else
 * the one API that has it, whatever `api` says. NotServedError when it has none.
 */
export function chooseEndpoint<T extends Partial<Record<Api, Endpoint>>>(operation: string, endpoints: T, api: Api): NonNullable<T[Api]> {
  const chosen = endpoints[api] ?? endpoints[api === 'v1' ? 'legacy' : 'v1'];
  if (chosen === undefined) throw new NotServedError(operation, 'either API');
  return chosen as NonNullable<T[Api]>;
}
