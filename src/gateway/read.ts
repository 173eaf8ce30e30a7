// Readers shared by the answer decoders of both APIs: each takes one decoded JSON value and gives
// gw's type for it (Untrusted text, Decimal amounts, scalars), or a ProtocolError (exit 76) that
// names the field. Liberal in what they accept: numbers may come as JSON numbers or numeric text,
// in exponent form too; text may come as a number.
import { ProtocolError } from '../errors.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import type { Scalar } from './gateway.js';
import { isJsonNumber, isJsonObject, type JsonValue } from './json.js';

export type JsonObject = { [key: string]: JsonValue };

export function shapeError(what: string, detail: string): ProtocolError {
  return new ProtocolError(`the gateway's answer to ${what} has an unexpected shape: ${detail}`);
}

/** A decimal sent as a JSON number or numeric text; null when absent, null or "". */
export function readDecimal(value: JsonValue | undefined, field: string, what: string): Decimal | null {
  if (value === undefined || value === null || value === '') return null;
  const literal = isJsonNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  const decimal = literal === undefined ? undefined : Decimal.fromLiteral(literal);
  if (decimal === undefined) throw shapeError(what, `${field} is not a number`);
  return decimal;
}

/** Text (a number is taken as its digits); null when absent or null. */
export function readText(value: JsonValue | undefined, field: string, what: string): Untrusted | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return Untrusted.of(value);
  if (isJsonNumber(value)) return Untrusted.of(value.value);
  throw shapeError(what, `${field} is not text`);
}

/** Text where an empty value means none (a memo: the newer API sends "" for coins without one). */
export function readOptionalText(value: JsonValue | undefined, field: string, what: string): Untrusted | null {
  const text = readText(value, field, what);
  return text === null || text.isBlank ? null : text;
}

/** Text that must be there and not blank. */
export function requiredText(value: JsonValue | undefined, field: string, what: string): Untrusted {
  const text = readText(value, field, what);
  if (text === null || text.isBlank) throw shapeError(what, `no ${field}`);
  return text;
}

/** Integers (timestamps, minutes) as numbers when exactly representable, otherwise as sent. */
export function readScalar(value: JsonValue | undefined): Scalar | null {
  if (value === undefined || value === null) return null;
  if (isJsonNumber(value)) {
    const n = Number(value.value);
    return Number.isSafeInteger(n) && String(n) === value.value ? n : Untrusted.of(value.value);
  }
  return typeof value === 'string' ? Untrusted.of(value) : null;
}

/** A list of currency symbols: strings, or objects with a symbol/currency/code field. */
export function readSymbolList(value: JsonValue | undefined, what: string): Untrusted[] {
  if (!Array.isArray(value)) throw shapeError(what, 'no list of currencies');
  return value.map((item) => {
    if (typeof item === 'string') return Untrusted.of(item);
    if (isJsonObject(item)) {
      const symbol = item.symbol ?? item.currency ?? item.code;
      if (typeof symbol === 'string') return Untrusted.of(symbol);
    }
    throw shapeError(what, 'a currency in the list is not a symbol');
  });
}

/** Fields that hold money: written as exact decimal strings in JSON output, whatever the gateway sent. */
const AMOUNT_FIELDS: ReadonlySet<string> = new Set([
  'amount',
  'payAmount',
  'rate',
  'underPaidCover',
  'value',
  'sentValue',
  'sentAmount',
  'receivedAmount',
  'balance',
]);

/**
 * A decoded JSON value made fit for gw's JSON output: strings Untrusted, numbers in money fields
 * exact decimal strings, other numbers numbers when exactly representable (else their digits),
 * objects and arrays converted throughout.
 */
export type OutputValue = null | boolean | number | Untrusted | Decimal | OutputObject | OutputValue[];
export interface OutputObject {
  [key: string]: OutputValue;
}

export function outputValue(value: JsonValue, key = ''): OutputValue {
  // An amount sent as text is written like one sent as a number: plain digits, never "1.5e-7".
  if (typeof value === 'string') return (AMOUNT_FIELDS.has(key) && Decimal.fromLiteral(value.trim())) || Untrusted.of(value);
  if (isJsonNumber(value)) {
    if (AMOUNT_FIELDS.has(key)) return Decimal.fromLiteral(value.value) ?? Untrusted.of(value.value);
    const scalar = readScalar(value);
    return scalar === null ? null : scalar;
  }
  if (Array.isArray(value)) return value.map((item) => outputValue(item, key));
  if (isJsonObject(value)) return outputObject(value);
  return value;
}

export function outputObject(object: JsonObject, skip: readonly string[] = []): OutputObject {
  const out: OutputObject = Object.create(null) as OutputObject;
  for (const [key, value] of Object.entries(object)) if (!skip.includes(key)) out[key] = outputValue(value, key);
  return out;
}
