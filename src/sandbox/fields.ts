// The request's fields as the sandbox reads them: under their canonical names, values as sent
// (strings from form encoding and queries, lossless-json values from JSON bodies), read liberally.
// Each operation (create.ts, history.ts, reference.ts, gateway.ts) checks what it gets with these.

import { isLosslessNumber } from 'lossless-json';
import { toPlainDecimal } from '../money/decimal.js';
import { asciiUpperCase } from '../util/ascii.js';

/** Request fields under their canonical names: strings (form encoding, query) or lossless-json values (JSON). */
export type RequestFields = Readonly<Record<string, unknown>>;

export function field(fields: RequestFields, name: string): unknown {
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

export type StringField = { kind: 'absent' } | { kind: 'invalid' } | { kind: 'ok'; value: string };

/** A string field; absent when missing, null or "". Any non-string JSON value is invalid. */
export function readString(fields: RequestFields, name: string): StringField {
  const v = field(fields, name);
  if (v === undefined || v === null || v === '') return { kind: 'absent' };
  return typeof v === 'string' ? { kind: 'ok', value: v } : { kind: 'invalid' };
}

/** A currency symbol: trimmed and upper-cased (the sandbox is case-insensitive about symbols). */
export function readSymbol(fields: RequestFields, name: string): StringField {
  const s = readString(fields, name);
  if (s.kind !== 'ok') return s;
  const value = asciiUpperCase(s.value.trim());
  return value === '' ? { kind: 'absent' } : { kind: 'ok', value };
}

export type NumericField =
  | { kind: 'absent' }
  | { kind: 'invalid' }
  /** plain: signed plain decimal (`-5`, `0.25`); literal: a valid JSON number literal for echoing. */
  | { kind: 'ok'; plain: string; literal: string };

export const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Strips redundant leading zeros of a signed plain decimal so it is a valid JSON number. */
export function normalizePlain(plain: string): string {
  const negative = plain.startsWith('-');
  const body = negative ? plain.slice(1) : plain;
  const [int = '0', frac] = body.split('.');
  const intOut = int.replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${intOut}${frac === undefined ? '' : `.${frac}`}`;
}

/**
 * A numeric field: a JSON number (kept as its exact literal) or, liberally, a numeric string
 * (what form encoding always sends). Absent when missing, null or blank.
 */
export function readNumeric(fields: RequestFields, name: string): NumericField {
  const v = field(fields, name);
  if (v === undefined || v === null) return { kind: 'absent' };
  let text: string;
  if (isLosslessNumber(v)) text = v.value;
  else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
  else if (typeof v === 'string') {
    text = v.trim();
    if (text === '') return { kind: 'absent' };
  } else return { kind: 'invalid' };
  const plain = toPlainDecimal(text);
  if (plain === undefined) return { kind: 'invalid' };
  const literal = JSON_NUMBER.test(text) ? text : normalizePlain(plain);
  return { kind: 'ok', plain: normalizePlain(plain), literal };
}

export function isNegative(plain: string): boolean {
  return plain.startsWith('-') && /[1-9]/.test(plain);
}

export function isPositive(plain: string): boolean {
  return !plain.startsWith('-') && /[1-9]/.test(plain);
}

/** Integer value of a signed plain decimal, or undefined when it has a fractional part. */
export function integerValue(plain: string): bigint | undefined {
  const [int = '0', frac = ''] = plain.replace(/^-/, '').split('.');
  if (/[1-9]/.test(frac)) return undefined;
  const n = BigInt(int);
  return plain.startsWith('-') ? -n : n;
}

/** Compares a signed plain decimal with a small integer. */
export function compareToInt(plain: string, bound: number): -1 | 0 | 1 {
  const negative = isNegative(plain);
  const [int = '0', frac = ''] = plain.replace(/^-/, '').split('.');
  const scale = frac.length;
  let units = BigInt(int + frac);
  if (negative) units = -units;
  const b = BigInt(bound) * 10n ** BigInt(scale);
  return units < b ? -1 : units > b ? 1 : 0;
}

export type IdField = { kind: 'absent' } | { kind: 'invalid' } | { kind: 'ok'; value: string };

/** A track id: text, or a JSON integer (how the gateway's own client sends numeric ids). */
export function readId(fields: RequestFields, name: string): IdField {
  const v = field(fields, name);
  if (v === undefined || v === null || v === '') return { kind: 'absent' };
  if (typeof v === 'string') return v.length <= 200 ? { kind: 'ok', value: v.trim() } : { kind: 'invalid' };
  if (isLosslessNumber(v) && /^\d+$/.test(v.value)) return { kind: 'ok', value: v.value };
  return { kind: 'invalid' };
}

/** A whole number (JSON number or numeric text); `fallback` when absent, undefined when not a whole number. */
export function readInteger<T extends number | undefined>(fields: RequestFields, name: string, fallback: T): number | T | undefined {
  const n = readNumeric(fields, name);
  if (n.kind === 'absent') return fallback;
  if (n.kind === 'invalid') return undefined;
  const value = integerValue(n.plain);
  return value === undefined || value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(value);
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
