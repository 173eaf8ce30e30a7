// The sandbox's HTTP surface as a table: each route is a method, a path pattern, the envelope it
// answers in, and what handles it. The gateway's routes are not written here but generated from
// the operations the sandbox serves (SANDBOX_BEHAVIOURS in gateway.ts) and their codecs
// (src/operations/*): for every endpoint of such an operation, the key is checked where its codec
// puts it, the request's fields are read through its table into canonical names, the behaviour
// answers in canonical values, and the same codec writes the answer (envelopes.ts: success and
// failures in each API's envelope). So the sandbox and the client cannot disagree on a name, a
// type or a key.
import type { IncomingHttpHeaders } from 'node:http';
import { isLosslessNumber } from 'lossless-json';
import { decodeRequestFields, type Api, type Endpoint, type WireFields } from '../operations/codec.js';
import { OPERATIONS, type OperationName } from '../operations/index.js';
import { failureReply, keyRefusal, notServedReply, successReply, type GatewayReply } from './envelopes.js';
import { SANDBOX_BEHAVIOURS, type RequestFields, type SandboxBehaviour, type SandboxGateway } from './gateway.js';
import { NOT_SERVED, unservedAt, unservedPaths } from './not-served.js';

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
  /** Answers every method of its path (the not-served routes: 501 whatever the method), its body unread. */
  anyMethod?: boolean;
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
// The routes of the operations the sandbox serves (SANDBOX_BEHAVIOURS), from their codecs

/** Whether the sandbox serves an operation, by its name ("payment information"). */
export function sandboxServes(operation: string): boolean {
  return SANDBOX_BEHAVIOURS.some((b) => b.operation.name === operation);
}

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
export function serveEndpoint(
  gateway: SandboxGateway,
  behaviour: SandboxBehaviour,
  endpoint: Endpoint,
  wire: WireFields,
  request?: SandboxRequest,
): GatewayReply {
  const place = endpoint.key;
  if (place !== undefined) {
    const key = keyOf(endpoint, wire, request);
    if (key === undefined || key === '' || key !== gateway.keyOf(place.kind)) return keyRefusal(endpoint, place.kind, key === undefined || key === '');
  }
  const answer = behaviour.serve(gateway, decodeRequestFields(endpoint.request, wire), endpoint.api);
  return answer.ok ? successReply(endpoint, behaviour.operation.encodeAnswer(endpoint, answer.value)) : failureReply(endpoint, answer.failure);
}

/** An operation's request as `api`'s endpoint receives it (for tests and callers without HTTP): `wire` its fields, key included. */
export function serveOperation(
  gateway: SandboxGateway,
  operation: OperationName | SandboxBehaviour['operation'],
  api: Api,
  wire: WireFields,
  headers: IncomingHttpHeaders = {},
): GatewayReply {
  const module = typeof operation === 'string' ? OPERATIONS[operation] : operation;
  const endpoint = (module.endpoints as Partial<Record<Api, Endpoint>>)[api];
  if (endpoint === undefined) throw new Error(`${module.name} has no ${api} endpoint`);
  const behaviour = SANDBOX_BEHAVIOURS.find((b) => b.operation === module);
  if (behaviour === undefined) return notServedReply(endpoint, module.name);
  const request: SandboxRequest = { method: endpoint.method, path: endpoint.path, params: {}, query: new URLSearchParams(), headers, fields: wire };
  return serveEndpoint(gateway, behaviour, endpoint, wire, request);
}

/** The request's fields as the endpoint's codec reads them: the body (POST), or query and JSON body (GET), and the path's parameters. */
function wireOf(endpoint: Endpoint, request: SandboxRequest): WireFields {
  const fields: Record<string, unknown> = endpoint.method === 'GET' ? Object.create(null) : { ...request.fields };
  if (endpoint.method === 'GET') for (const [name, value] of getParams(request)) if (!(name in fields)) fields[name] = value;
  return { ...fields, ...request.params };
}

/** Every endpoint of every operation the sandbox serves, as routes. */
export function operationRoutes(): Route[] {
  return SANDBOX_BEHAVIOURS.flatMap((behaviour) =>
    Object.values(behaviour.operation.endpoints as Partial<Record<Api, Endpoint>>).map(
      (endpoint): Route => ({
        method: endpoint.method,
        pattern: endpoint.path,
        style: endpoint.envelope,
        handle: (gateway, request) => serveEndpoint(gateway, behaviour, endpoint, wireOf(endpoint, request), request),
      }),
    ),
  );
}

/**
 * The gateway's paths the sandbox does not serve (not-served.ts): 501 from every method, in the
 * path's envelope, naming the operation. They come before the operations' routes, so a literal
 * path such as /v1/payment/stats is never read as a track id.
 */
export function notServedRoutes(): Route[] {
  return unservedPaths().map((path): Route => {
    const first = unservedAt(path, 'GET') as NonNullable<ReturnType<typeof unservedAt>>;
    const envelope = first.endpoint.api === 'legacy' ? 'legacy' : 'versioned';
    return {
      method: first.endpoint.method,
      anyMethod: true,
      pattern: path,
      style: envelope,
      handle: (_gateway, request) => notServedReply({ envelope }, (unservedAt(path, request.method) ?? first).operation.name),
    };
  });
}

/** Every operation the sandbox does not serve, by name (docs/sandbox.md's table). */
export const NOT_SERVED_NAMES: readonly string[] = NOT_SERVED.map((o) => o.name);
