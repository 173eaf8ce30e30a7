// Readers shared by the answer decoders of both APIs: each takes one decoded JSON value and gives
// gw's type for it (Untrusted text, Decimal amounts, scalars), or a ProtocolError (exit 76) that
// names the field. Liberal in what they accept: numbers may come as JSON numbers or numeric text,
// in exponent form too; text may come as a number.
import { ProtocolError } from '../errors.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonNumber, isJsonObject, type JsonValue } from '../util/json.js';
import type { OutputObject, OutputValue, Scalar } from './values.js';

export type { OutputObject, OutputValue } from './values.js';

export type JsonObject = { [key: string]: JsonValue };

export function shapeError(what: string, detail: string): ProtocolError {
  return new ProtocolError(`the gateway's answer to ${what} has an unexpected shape: ${detail}`);
}

/**
 * The most digits an amount gw reads may have, written out in plain notation. The largest amount a
 * chain can hold (a 256-bit count of base units) has 78 digits, 18 of them decimals; 100 leaves
 * room. An answer with a longer one is refused (exit 76): written out, a few exponents such as
 * 1e1000 or a few 250 000-digit numbers made one answer of the 1 MiB cap grow past what Node can
 * hold in a string (aligned in a table, every row as wide as the widest), and gw ended with an
 * internal error instead.
 */
export const MAX_AMOUNT_DIGITS = 100;

/** A literal's value as a Decimal; 'too-long' past MAX_AMOUNT_DIGITS; undefined when it is not a number. */
function boundedDecimal(literal: string): Decimal | 'too-long' | undefined {
  const text = literal.trim();
  // Checked on the literal first, so a long one is never expanded: digits, a sign, a point, an exponent.
  if (
    text
      .replace(/^-|[.]/g, '')
      .replace(/[eE][+-]?\d+$/, '')
      .replace(/^0+(?=\d)/, '').length >
    MAX_AMOUNT_DIGITS + 1
  )
    return 'too-long';
  const decimal = Decimal.fromLiteral(text);
  if (decimal === undefined) return undefined;
  return decimal.toString().replace(/^-|[.]/g, '').length > MAX_AMOUNT_DIGITS ? 'too-long' : decimal;
}

/** A decimal sent as a JSON number or numeric text; null when absent, null or "". */
export function readDecimal(value: JsonValue | undefined, field: string, what: string): Decimal | null {
  if (value === undefined || value === null || value === '') return null;
  const literal = isJsonNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  const decimal = literal === undefined ? undefined : boundedDecimal(literal);
  if (decimal === 'too-long') throw shapeError(what, `${field} has more than ${MAX_AMOUNT_DIGITS} digits`);
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

export function outputValue(value: JsonValue, key = ''): OutputValue {
  // An amount sent as text is written like one sent as a number: plain digits, never "1.5e-7";
  // one longer than MAX_AMOUNT_DIGITS stays as it was sent (written out, it could be huge).
  const amount = (literal: string): Decimal | undefined => {
    const decimal = boundedDecimal(literal);
    return decimal === 'too-long' ? undefined : decimal;
  };
  if (typeof value === 'string') return (AMOUNT_FIELDS.has(key) && amount(value)) || Untrusted.of(value);
  if (isJsonNumber(value)) {
    if (AMOUNT_FIELDS.has(key)) return amount(value.value) ?? Untrusted.of(value.value);
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
