// Lossless JSON (the gateway's bodies, and any other): numbers keep the exact digits of their
// literal (a `0.123456789012345678` never becomes a float), read with lossless-json.
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

export type JsonValue = string | boolean | null | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };

/** Throws on malformed JSON (the caller turns that into "response not understood"). */
export function parseLossless(text: string): JsonValue {
  return parse(text) as JsonValue;
}

/** Serialises a request body; amounts given as LosslessNumber go out with exactly their digits. */
export function stringifyLossless(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be serialised');
  return text;
}

export function jsonNumber(digits: string): LosslessNumber {
  return new LosslessNumber(digits);
}

export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
