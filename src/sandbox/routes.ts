// The sandbox's HTTP surface as a table: each route is a method, a path pattern, the envelope it
// answers in, and what handles it. The gateway's routes are not written here but generated from
// the operations' codecs (src/operations/index.ts): for every endpoint of every operation, the
// key is checked where its codec puts it, the request's fields are read through its table into
// canonical names, the sandbox's behaviour for the operation (SANDBOX_BEHAVIOURS) answers in
// canonical values, and the same codec writes the answer (envelopes.ts: success and failures in
// each API's envelope). So the sandbox and the client cannot disagree on a name, a type or a key.
import type { IncomingHttpHeaders } from 'node:http';
import { isLosslessNumber } from 'lossless-json';
import { encodeAcceptedCurrencies } from '../operations/accepted-currencies.js';
import { encodeBalances } from '../operations/balance.js';
import { decodeRequestFields, type Api, type Endpoint, type WireFields } from '../operations/codec.js';
import { encodeCreatedPayment } from '../operations/create-payment.js';
import { allEndpoints, OPERATIONS, type OperationName } from '../operations/index.js';
import { encodePaymentPage, PAYMENT_HISTORY } from '../operations/payment-history.js';
import { encodePaymentInfo } from '../operations/payment-info.js';
import { encodeRate } from '../operations/rate.js';
import { failureReply, keyRefusal, notServedReply, successReply, type Answer, type GatewayReply } from './envelopes.js';
import type { RequestFields, SandboxGateway } from './gateway.js';

/** Which envelope the route answers in, also for 404/405 and failures under its prefix. */
export type RouteStyle = 'legacy' | 'versioned' | 'control';

export interface SandboxRequest {
  method: string;
  /** Path without query or trailing slashes. */
  path: string;
  /** Values of the pattern's `:name` segments, percent-decoded. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The decoded body (JSON or form encoding); empty for GET. */
  fields: RequestFields;
}

export interface Route {
  method: 'GET' | 'POST';
  /** e.g. `/merchants/inquiry` or `/v1/payment/:track_id`. */
  pattern: string;
  style: RouteStyle;
  handle(gateway: SandboxGateway, request: SandboxRequest): GatewayReply | Promise<GatewayReply>;
}

/** The params of `path` if it matches `pattern`, else undefined. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** The header value as one string (the first when repeated). */
export function header(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A GET's parameters: its query string, and the fields of a JSON body where the query does not
 * name them (the gateway's own Node client sends GET filters as a JSON body).
 */
export function getParams(request: SandboxRequest): URLSearchParams {
  const params = new URLSearchParams(request.query);
  for (const [name, value] of Object.entries(request.fields)) {
    if (params.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || isLosslessNumber(value)) params.set(name, String(value));
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// The sandbox's behaviour per operation, and its answer's encoder

/** What the sandbox does for each operation: canonical fields in, a canonical answer or a Failure out. */
type Behaviour = (gateway: SandboxGateway, fields: RequestFields, api: Api) => Answer<unknown>;

/** The sandbox's behaviour for each operation it serves; an operation missing here is answered as not served. */
export const SANDBOX_BEHAVIOURS: Readonly<Partial<Record<OperationName, Behaviour>>> = {
  acceptedCurrencies: (g) => g.acceptedCurrencies(),
  createPayment: (g, fields, api) => g.createPayment(fields, api),
  paymentInfo: (g, fields) => g.paymentInfo(fields),
  paymentHistory: (g, fields) => g.paymentHistory(fields),
  balance: (g, fields) => g.balance(fields),
  rate: (g, fields) => g.rate(fields),
};

/** Whether the sandbox serves an operation, by its name ("payment information"). */
export function sandboxServes(operation: string): boolean {
  return (Object.keys(OPERATIONS) as OperationName[]).some((name) => OPERATIONS[name].name === operation && SANDBOX_BEHAVIOURS[name] !== undefined);
}

/** Each operation's answer writer (its codec's), by operation. */
const ENCODERS: Readonly<Record<OperationName, (endpoint: Endpoint, answer: never) => object>> = {
  acceptedCurrencies: encodeAcceptedCurrencies,
  createPayment: encodeCreatedPayment,
  paymentInfo: encodePaymentInfo,
  paymentHistory: (endpoint, answer) => encodePaymentPage(PAYMENT_HISTORY.endpoints[endpoint.api], answer),
  balance: encodeBalances,
  rate: encodeRate,
};

/** The key the request carries where the endpoint takes it. */
function keyOf(endpoint: Endpoint, wire: WireFields, request: SandboxRequest | undefined): string | undefined {
  const place = endpoint.key;
  if (place === undefined) return undefined;
  if ('header' in place) return request === undefined ? undefined : header(request, place.header);
  const value = Object.hasOwn(wire, place.field) ? wire[place.field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * One operation's request over one endpoint, served: the key checked where the endpoint takes it,
 * the fields read through its table, the behaviour's answer written through the same codec.
 * `wire`: the request's fields as sent (its body, or for a GET its query and path parameters).
 */
export function serveEndpoint(gateway: SandboxGateway, operation: OperationName, endpoint: Endpoint, wire: WireFields, request?: SandboxRequest): GatewayReply {
  const place = endpoint.key;
  if (place !== undefined) {
    const key = keyOf(endpoint, wire, request);
    const expected = gateway.keyOf(place.kind);
    if (key === undefined || key === '' || key !== expected) return keyRefusal(endpoint, place.kind, key === undefined || key === '');
  }
  const behaviour = SANDBOX_BEHAVIOURS[operation];
  if (behaviour === undefined) return notServedReply(endpoint, OPERATIONS[operation].name);
  const answer = behaviour(gateway, decodeRequestFields(endpoint.request, wire), endpoint.api);
  return answer.ok ? successReply(endpoint, ENCODERS[operation](endpoint, answer.value as never)) : failureReply(endpoint, answer.failure);
}

/** An operation's request as `api`'s endpoint receives it (for tests and callers without HTTP): `wire` its fields, key included. */
export function serveOperation(gateway: SandboxGateway, operation: OperationName, api: Api, wire: WireFields, headers: IncomingHttpHeaders = {}): GatewayReply {
  const endpoint = (OPERATIONS[operation].endpoints as Partial<Record<Api, Endpoint>>)[api];
  if (endpoint === undefined) throw new Error(`${operation} has no ${api} endpoint`);
  const request: SandboxRequest = { method: endpoint.method, path: endpoint.path, params: {}, query: new URLSearchParams(), headers, fields: wire };
  return serveEndpoint(gateway, operation, endpoint, wire, request);
}

/** The request's fields as the endpoint's codec reads them: the body (POST), or query and JSON body (GET), and the path's parameters. */
function wireOf(endpoint: Endpoint, request: SandboxRequest): WireFields {
  const fields: Record<string, unknown> = endpoint.method === 'GET' ? Object.create(null) : { ...request.fields };
  if (endpoint.method === 'GET') for (const [name, value] of getParams(request)) if (!(name in fields)) fields[name] = value;
  return { ...fields, ...request.params };
}

/** Every endpoint of every operation, as routes. */
export function operationRoutes(): Route[] {
  return allEndpoints().map(({ operation, endpoint }) => ({
    method: endpoint.method,
    pattern: endpoint.path,
    style: endpoint.envelope,
    handle: (gateway, request) => serveEndpoint(gateway, operation, endpoint, wireOf(endpoint, request), request),
  }));
}
