// The gateway's reference data, no key (docs/gateway.md §8, §12 "Reference data"): prices,
// supported currencies, supported networks, system status. Legacy POST /api/prices,
// /api/currencies, /api/networks, /monitor (what the official Node library's General class calls,
// with an empty JSON body); versioned GET /v1/common/prices, /currencies, /networks, /monitor.
// Four small operations of one family, so one module: each is an Operation like the others.
//
// Shapes. Versioned `data` as §12 describes it: prices symbol → USD price (JSON numbers);
// currencies symbol → {symbol, name, status, networks: {<network name> → {network, name,
// required_confirmations, withdraw_fee, withdraw_min, deposit_min, static_fixed_fee}}}; networks
// {list}; monitor {status: true}; fiats code → {symbol, name, price (USD per unit, a JSON number),
// display_precision (text, "0.01")}. The legacy answers' payload is not published: the sandbox puts
// the same payload under `data` beside `result` and `message` (as the legacy balance has it), and
// the client reads either place.
import { LosslessNumber } from 'lossless-json';
import { isJsonObject } from '../util/json.js';
import { shapeError, type JsonObject } from './read.js';
import type { Endpoint, Operation } from './codec.js';

/** Prices: symbol → USD price as exact digits. */
export interface PricesAnswer {
  prices: Readonly<Record<string, string>>;
}

/** One network a coin is on, in canonical names (amounts as digits). */
export interface CurrencyNetwork {
  network: string;
  name: string;
  requiredConfirmations: number;
  withdrawFee: string;
  withdrawMin: string;
  depositMin: string;
  staticFixedFee: string;
}

export interface CurrenciesAnswer {
  currencies: ReadonlyArray<{ symbol: string; name: string; status: boolean; networks: readonly CurrencyNetwork[] }>;
}

export interface NetworksAnswer {
  list: readonly string[];
}

/** Fiat currencies (v1 only): code, name, USD price of one unit (digits), display precision ("0.01"). */
export interface FiatsAnswer {
  fiats: ReadonlyArray<{ symbol: string; name: string; price: string; displayPrecision: string }>;
}

export interface SystemStatusAnswer {
  status: boolean;
}

function endpoints(legacyPath: string, v1Path: string): { legacy: Endpoint; v1: Endpoint } {
  return {
    legacy: { api: 'legacy', method: 'POST', path: legacyPath, body: 'json', envelope: 'legacy', request: [], answer: [] },
    v1: { api: 'v1', method: 'GET', path: v1Path, body: 'none', envelope: 'versioned', request: [], answer: [] },
  };
}

/** The payload: `data` (both APIs; legacy liberally the top level when there is no `data`). */
export function decodeReferenceData(endpoint: Endpoint, body: JsonObject, what: string): JsonObject {
  if (isJsonObject(body.data)) return body.data;
  if (endpoint.envelope === 'legacy') return body;
  throw shapeError(what, 'no data object');
}

/** The payload of the sandbox's answer: `data` in both envelopes (legacy: beside result and message). */
function payload(endpoint: Endpoint, data: object): object {
  return endpoint.envelope === 'legacy' ? { data } : data;
}

const num = (digits: string): LosslessNumber => new LosslessNumber(digits);

export const PRICES = {
  name: 'prices',
  what: 'the prices request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: decodeReferenceData,
  encodeAnswer: (endpoint: Endpoint, answer: PricesAnswer): object =>
    payload(endpoint, Object.fromEntries(Object.entries(answer.prices).map(([symbol, price]) => [symbol, num(price)]))),
  endpoints: endpoints('/api/prices', '/v1/common/prices'),
} as const satisfies Operation<Record<string, never>, JsonObject, PricesAnswer>;

export const SUPPORTED_CURRENCIES = {
  name: 'supported currencies',
  what: 'the supported-currencies request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: decodeReferenceData,
  encodeAnswer: (endpoint: Endpoint, answer: CurrenciesAnswer): object =>
    payload(
      endpoint,
      Object.fromEntries(
        answer.currencies.map((c) => [
          c.symbol,
          {
            symbol: c.symbol,
            name: c.name,
            status: c.status,
            networks: Object.fromEntries(
              c.networks.map((n) => [
                n.name,
                {
                  network: n.network,
                  name: n.name,
                  required_confirmations: n.requiredConfirmations,
                  withdraw_fee: num(n.withdrawFee),
                  withdraw_min: num(n.withdrawMin),
                  deposit_min: num(n.depositMin),
                  static_fixed_fee: num(n.staticFixedFee),
                },
              ]),
            ),
          },
        ]),
      ),
    ),
  endpoints: endpoints('/api/currencies', '/v1/common/currencies'),
} as const satisfies Operation<Record<string, never>, JsonObject, CurrenciesAnswer>;

export const SUPPORTED_NETWORKS = {
  name: 'supported networks',
  what: 'the supported-networks request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: decodeReferenceData,
  encodeAnswer: (endpoint: Endpoint, answer: NetworksAnswer): object => payload(endpoint, { list: [...answer.list] }),
  endpoints: endpoints('/api/networks', '/v1/common/networks'),
} as const satisfies Operation<Record<string, never>, JsonObject, NetworksAnswer>;

export const SYSTEM_STATUS = {
  name: 'the system status',
  what: 'the system-status request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: decodeReferenceData,
  encodeAnswer: (endpoint: Endpoint, answer: SystemStatusAnswer): object => payload(endpoint, { status: answer.status }),
  endpoints: endpoints('/monitor', '/v1/common/monitor'),
} as const satisfies Operation<Record<string, never>, JsonObject, SystemStatusAnswer>;

export const FIATS = {
  name: 'fiat currencies',
  what: 'the fiat-currencies request',
  idempotent: true,
  encodeRequest: () => ({}),
  decodeAnswer: decodeReferenceData,
  encodeAnswer: (endpoint: Endpoint, answer: FiatsAnswer): object =>
    payload(
      endpoint,
      Object.fromEntries(answer.fiats.map((f) => [f.symbol, { symbol: f.symbol, name: f.name, price: num(f.price), display_precision: f.displayPrecision }])),
    ),
  endpoints: { v1: endpoints('', '/v1/common/fiats').v1 },
} as const satisfies Operation<Record<string, never>, JsonObject, FiatsAnswer>;
