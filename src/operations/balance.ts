// Wallet balances: every currency, or one (docs/gateway.md §1, §8). Legacy POST /api/balance (form,
// the payout key in field `key`), versioned GET /v1/general/account/balance[?currency=] (general key).
import type { Decimal } from '../money/decimal.js';
import { Untrusted } from '../output/untrusted.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { readDecimal, shapeError, type JsonObject } from './read.js';
import { encodeFields, fields, wireValue, type Endpoint, type Operation } from './codec.js';

/** One line of the balance answer. A symbol may appear more than once; nothing is dropped. */
export interface Balance {
  currency: Untrusted;
  /** null: the gateway sent null, "" or nothing for it: unknown, never taken as 0. */
  amount: Decimal | null;
}

export interface BalanceRequest {
  currency?: string;
}

/** The sandbox's answer: symbol → exact digits. */
export interface BalanceAnswer {
  balances: Readonly<Record<string, string>>;
}

export const BALANCE = {
  name: 'balances',
  what: 'the balance request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: BalanceRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Balance[] => decodeBalanceAnswer(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: BalanceAnswer): object => encodeBalances(endpoint, answer),
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/api/balance',
      key: { kind: 'payout', field: 'key' },
      body: 'form',
      envelope: 'legacy',
      request: fields([['currency', 'currency', 'text']]),
      // `data`: symbol → amount as text (the interface document).
      answer: fields([['balances', 'data', 'numeric-text']]),
    },
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/general/account/balance',
      key: { kind: 'general', header: 'general_api_key' },
      body: 'query',
      envelope: 'versioned',
      request: fields([['currency', 'currency', 'text']]),
      // `data`: symbol → amount as a JSON number.
      answer: fields([['balances', 'data', 'number']]),
    },
  },
} as const satisfies Operation<BalanceRequest, Balance[], BalanceAnswer> & { endpoints: Record<'v1' | 'legacy', Endpoint> };

/**
 * The balance `data`. The interface calls it an array of objects mapping symbol → amount string;
 * the gateway's own client reads a plain object. Both are accepted, as is an array of
 * {currency, balance} records. Every entry is kept, a repeated symbol included; an amount the
 * gateway sent as null (or "", or not at all) is null: unknown.
 */
export function decodeBalances(data: JsonValue | undefined, what: string): Balance[] {
  const entries: Balance[] = [];
  const add = (symbol: string, value: JsonValue | undefined): void => {
    const amount = readDecimal(value ?? null, `the balance of ${Untrusted.of(symbol).line(20)}`, what);
    if (amount?.isNegative) throw shapeError(what, `the balance of ${Untrusted.of(symbol).line(20)} is negative`);
    // null, "" or nothing: unknown (null), never 0.
    entries.push({ currency: Untrusted.of(symbol), amount });
  };
  if (isJsonObject(data)) {
    for (const [symbol, value] of Object.entries(data)) add(symbol, value);
  } else if (Array.isArray(data)) {
    for (const item of data) {
      if (!isJsonObject(item)) throw shapeError(what, 'a balance entry is not an object');
      const symbol = item.currency ?? item.symbol;
      if (typeof symbol === 'string' && ('balance' in item || 'amount' in item)) add(symbol, item.balance ?? item.amount);
      else for (const [key, value] of Object.entries(item)) add(key, value);
    }
  } else {
    throw shapeError(what, 'no balance data');
  }
  return entries;
}

/**
 * The versioned balance answer: `data` maps each symbol to its amount. One of the gateway's own
 * clients reads `{symbol: {available, pending}}` instead: then the balance is what is available.
 */
export function decodeV1Balances(body: JsonObject, what: string): Balance[] {
  const data = body.data;
  if (!isJsonObject(data)) return decodeBalances(data, what);
  const amounts = Object.create(null) as JsonObject;
  // The first of available, balance, amount the object has, null included (unknown, never 0).
  const pick = (value: JsonObject): JsonValue => {
    const name = ['available', 'balance', 'amount'].find((field) => Object.hasOwn(value, field));
    return name === undefined ? value : (value[name] ?? null);
  };
  for (const [symbol, value] of Object.entries(data)) amounts[symbol] = isJsonObject(value) ? pick(value) : value;
  return decodeBalances(amounts, what);
}

/** The balances of an answer in either envelope. */
export function decodeBalanceAnswer(endpoint: Endpoint, body: JsonObject, what: string): Balance[] {
  return endpoint.envelope === 'versioned' ? decodeV1Balances(body, what) : decodeBalances(body.data, what);
}

/** The payload of the sandbox's answer: `data`, each amount in the API's kind. */
export function encodeBalances(endpoint: Endpoint, answer: BalanceAnswer): object {
  const field = endpoint.answer[0] ?? { wire: 'data', kind: 'number' as const };
  const data = Object.create(null) as Record<string, unknown>;
  for (const [symbol, amount] of Object.entries(answer.balances)) data[symbol] = wireValue(amount, field.kind);
  return endpoint.envelope === 'versioned' ? data : { [field.wire]: data };
}
