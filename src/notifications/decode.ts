// Reading a notification body for people and scripts: what it is about (type, track id, status in
// gw's one vocabulary with the gateway's own word, amounts, order id), in either style (legacy
// camelCase or v1 snake_case), liberal about where things are. Everything read is Untrusted text
// or an exact Decimal; the body's bytes themselves are never changed (only they verify).
//
// A body that repeats a key (`{"status":"Waiting",…,"status":"Paid"}`) is still read: the signature
// is over the bytes, and RFC 8259 leaves repeated names to the reader. The last value is the one
// read, as JSON.parse and most JSON libraries do (a merchant's own code most likely reads that
// one too), and the repeated keys are reported so that gw can say so.
import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { normalizeStatus, type PaymentState } from '../domain/payment-status.js';
import { normalizePayoutStatus, type PayoutState } from '../domain/payout-status.js';
import { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';

/** An amount as sent: exact when it is a number, else the text that came. */
export type Amount = Decimal | Untrusted;

export interface NotificationSummary {
  /** `v1` when the body has snake_case ids (track_id), `legacy` when camelCase (trackId). */
  style: 'legacy' | 'v1' | 'unknown';
  type: Untrusted | null;
  trackId: Untrusted | null;
  /** gw's state for the gateway's status word (a payment's; `unknown` for a payout's notification). */
  state: PaymentState;
  /** A payout's notification (type `payout`): its state in the payout vocabulary; null for a payment's. */
  payoutState: PayoutState | null;
  gatewayStatus: Untrusted | null;
  amount: Amount | null;
  currency: Untrusted | null;
  /** Legacy payAmount; v1: what the transactions received. */
  payAmount: Amount | null;
  payCurrency: Untrusted | null;
  /** The body states no pay amount: payAmount is what its transactions received (v1). */
  payAmountFromTxs: boolean;
  orderId: Untrusted | null;
}

export type ReadResult =
  | {
      ok: true;
      summary: NotificationSummary;
      /** The body's fields as parsed (lossless-json values), for what else is read of it (gw listen: what arrived). */
      fields: Readonly<Record<string, unknown>>;
      /** Keys the body repeats, as paths (`status`, `txs[0].status`); the last value of each was read. Usually empty. */
      repeatedKeys: string[];
    }
  | { ok: false; problem: string };

type Fields = Readonly<Record<string, unknown>>;

const decoder = new TextDecoder('utf-8');

/** Parses a notification body; `problem` says why it is not one (not JSON, not an object). */
export function readNotification(body: Uint8Array): ReadResult {
  const decoded = decoder.decode(body);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const value = fastParse(text);
  if (value === undefined) return readSlowly(text);
  return objectRead(value, []);
}

/**
 * The same as readNotification by lossless-json alone (and the repeat-tolerant parser): what
 * readNotification does with the bodies the fast parse does not vouch for. Exported for the test
 * that holds the two to the same results.
 */
export function readSlowly(text: string): ReadResult {
  let value: unknown;
  let repeatedKeys: string[] = [];
  try {
    value = parse(text);
  } catch (error) {
    // lossless-json refuses a key repeated with another value; read it as JSON.parse would.
    if (!(error instanceof Error && /^Duplicate key/.test(error.message))) return { ok: false, problem: 'the body is not JSON' };
    try {
      const parser = new RepeatTolerantParser(text);
      value = parser.parse();
      repeatedKeys = parser.repeated;
    } catch {
      return { ok: false, problem: 'the body is not JSON' };
    }
  }
  return objectRead(value, repeatedKeys);
}

function objectRead(value: unknown, repeatedKeys: string[]): ReadResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    return { ok: false, problem: 'the body is not a JSON object' };
  }
  return { ok: true, summary: summarise(value as Fields), fields: value as Fields, repeatedKeys };
}

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isNumberChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b || c === 0x65 || c === 0x45;

/**
 * What lossless-json's parse gives (numbers as LosslessNumber with their exact digits), through the
 * engine's JSON.parse, several times faster and with far less garbage. One scan of the text finds
 * each number literal outside strings, in order, and counts the keys; JSON.parse reads the same
 * text; a walk of its result in document order puts each literal back where JSON.parse put a
 * number. Undefined when it cannot vouch for the result, and the caller parses the body the slow
 * way, which decides: not JSON (or anything this scan is not sure of), a key written more than
 * once (JSON.parse keeps the last silently; the slow way reports it), a key that starts with a
 * digit (the engine puts integer keys first, out of document order), a `__proto__` key.
 */
export function fastParse(text: string): unknown {
  if (text.includes('__proto__')) return undefined;
  const n = text.length;
  const literals: string[] = [];
  let keys = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote (one not escaped by an odd number of backslashes).
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      const first = text.charCodeAt(i + 1);
      i = end + 1;
      while (isJsonSpace(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) === 0x3a) {
        if ((first >= 0x30 && first <= 0x39) || first === 0x5c) return undefined;
        keys++;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      literals.push(text.slice(i, end));
      i = end;
    } else i++;
  }
  try {
    const walk = { keys: 0, literals, next: 0 };
    const value = restore(JSON.parse(text), walk, 0);
    return walk.keys === keys && walk.next === literals.length ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each number of JSON.parse's result, in document order, replaced by a LosslessNumber of its
 * literal (whose constructor checks it is one), in place; counts the keys (fewer than the text
 * has: one was repeated).
 */
function restore(value: unknown, walk: { keys: number; literals: string[]; next: number }, depth: number): unknown {
  if (typeof value === 'number') {
    const literal = walk.literals[walk.next++];
    if (literal === undefined || Number(literal) !== value) throw new SyntaxError('numbers out of order');
    return new LosslessNumber(literal);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw new RangeError('too deep');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], walk, depth + 1);
    return value;
  }
  const fields = value as Record<string, unknown>;
  const names = Object.keys(fields);
  walk.keys += names.length;
  for (const name of names) {
    // Spelt with escapes inside (`"_\\u005fproto__"`): the slow way, which defines it as a plain field.
    if (name === '__proto__') throw new SyntaxError('__proto__');
    fields[name] = restore(fields[name], walk, depth + 1);
  }
  return value;
}

/** Nesting past which a body is not taken for JSON (a notification has three levels). */
const MAX_DEPTH = 256;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * Strict JSON (RFC 8259) into the values lossless-json gives (numbers as LosslessNumber), except
 * that a repeated key keeps its last value and is recorded in `repeated`. Used only for the rare
 * body lossless-json refuses for that reason.
 */
class RepeatTolerantParser {
  readonly repeated: string[] = [];
  #i = 0;

  constructor(private readonly text: string) {}

  parse(): unknown {
    const value = this.#value('', 0);
    this.#space();
    if (this.#i !== this.text.length) throw new SyntaxError('trailing text');
    return value;
  }

  #space(): void {
    SPACE.lastIndex = this.#i;
    SPACE.exec(this.text);
    this.#i = SPACE.lastIndex;
  }

  #expect(char: string): void {
    if (this.text[this.#i] !== char) throw new SyntaxError(`expected ${char}`);
    this.#i++;
  }

  #value(path: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new SyntaxError('too deep');
    this.#space();
    const c = this.text[this.#i];
    if (c === '{') return this.#object(path, depth);
    if (c === '[') return this.#array(path, depth);
    if (c === '"') return this.#string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.#i)) {
        this.#i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.#i;
    const number = NUMBER.exec(this.text);
    if (number === null) throw new SyntaxError('unexpected character');
    this.#i = NUMBER.lastIndex;
    return new LosslessNumber(number[0]);
  }

  #object(path: string, depth: number): Record<string, unknown> {
    this.#i++;
    const fields: Record<string, unknown> = {};
    this.#space();
    if (this.text[this.#i] === '}') {
      this.#i++;
      return fields;
    }
    for (;;) {
      this.#space();
      const key = this.#string();
      this.#space();
      this.#expect(':');
      const at = path === '' ? key : `${path}.${key}`;
      const value = this.#value(at, depth + 1);
      if (Object.hasOwn(fields, key)) this.repeated.push(at);
      // defineProperty: a key such as __proto__ is a field like any other.
      Object.defineProperty(fields, key, { value, writable: true, enumerable: true, configurable: true });
      this.#space();
      if (this.text[this.#i] === ',') {
        this.#i++;
        continue;
      }
      this.#expect('}');
      return fields;
    }
  }

  #array(path: string, depth: number): unknown[] {
    this.#i++;
    const items: unknown[] = [];
    this.#space();
    if (this.text[this.#i] === ']') {
      this.#i++;
      return items;
    }
    for (;;) {
      items.push(this.#value(`${path}[${items.length}]`, depth + 1));
      this.#space();
      if (this.text[this.#i] === ',') {
        this.#i++;
        continue;
      }
      this.#expect(']');
      return items;
    }
  }

  #string(): string {
    const start = this.#i;
    this.#expect('"');
    for (;;) {
      const code = this.text.charCodeAt(this.#i);
      if (Number.isNaN(code) || code < 0x20) throw new SyntaxError('unterminated string');
      this.#i += code === 0x5c ? 2 : 1;
      if (code === 0x22) break;
    }
    // JSON.parse checks and decodes the escapes.
    return JSON.parse(this.text.slice(start, this.#i)) as string;
  }
}

function get(fields: Fields, ...names: string[]): unknown {
  for (const name of names) if (Object.hasOwn(fields, name)) return fields[name];
  return undefined;
}

function text(value: unknown): Untrusted | null {
  if (typeof value === 'string') return value === '' ? null : Untrusted.of(value);
  if (isLosslessNumber(value)) return Untrusted.of(value.value);
  if (typeof value === 'boolean') return Untrusted.of(String(value));
  return null;
}

function amount(value: unknown): Amount | null {
  const literal = isLosslessNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  if (literal === undefined || literal.trim() === '') return null;
  return Decimal.fromLiteral(literal) ?? Untrusted.of(literal);
}

function summarise(fields: Fields): NotificationSummary {
  const v1 = Object.hasOwn(fields, 'track_id');
  const style = v1 ? 'v1' : Object.hasOwn(fields, 'trackId') ? 'legacy' : 'unknown';
  const gatewayStatus = text(get(fields, 'status'));
  let payAmount = amount(get(fields, 'payAmount', 'pay_amount'));
  let payCurrency = text(get(fields, 'payCurrency', 'pay_currency'));
  const txs = get(fields, 'txs');
  const payAmountFromTxs = payAmount === null && Array.isArray(txs) && txs.length > 0;
  if (payAmountFromTxs) {
    const items = txs.filter((t): t is Fields => typeof t === 'object' && t !== null && !Array.isArray(t) && !isLosslessNumber(t));
    payAmount = sumReceived(items);
    payCurrency ??= text(items[0] === undefined ? undefined : get(items[0], 'currency'));
  }
  const type = text(get(fields, 'type'));
  const payout = type !== null && type.raw().trim().toLowerCase() === 'payout';
  return {
    style,
    type,
    trackId: text(get(fields, 'trackId', 'track_id')),
    state: gatewayStatus === null || payout ? 'unknown' : normalizeStatus(gatewayStatus.raw()),
    payoutState: payout ? normalizePayoutStatus(gatewayStatus?.raw() ?? '') : null,
    gatewayStatus,
    amount: amount(get(fields, 'amount')),
    currency: text(get(fields, 'currency')),
    payAmount,
    payCurrency,
    payAmountFromTxs,
    orderId: text(get(fields, 'orderId', 'order_id')),
  };
}

/** The received amounts of the transactions added up, exactly; the first one's text when they do not add. */
function sumReceived(txs: readonly Fields[]): Amount | null {
  let total: Decimal | undefined;
  for (const tx of txs) {
    const a = amount(get(tx, 'received_amount', 'receivedAmount', 'sent_amount', 'amount'));
    if (!(a instanceof Decimal) || a.isNegative) return amount(get(txs[0] as Fields, 'received_amount', 'receivedAmount', 'sent_amount', 'amount'));
    total = total === undefined ? a : total.plus(a);
  }
  return total ?? null;
}
