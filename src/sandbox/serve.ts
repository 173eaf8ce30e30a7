// The sandbox's request handling, whatever carries the request: matching it against the route
// table (the operations' routes, generated from their codecs in routes.ts; the QR images; the
// control routes of control-routes.ts), reading and decoding its
// body, and turning the reply into the bytes of an answer. Two carriers use it: the HTTP server
// (server.ts) for every client, and the in-memory dispatcher (in-memory.ts) for gw's own requests
// to the sandbox it embeds (`--sandbox`).
//
// Status and envelope choices:
// - Versioned paths (/v1, /v1/...) always answer with the versioned envelope; its `status` equals
//   the HTTP status (401 bad or missing key, 404 unknown /v1 path, 405 wrong method, 500 bug).
// - Legacy paths answer refusals with HTTP 200 and result ≠ 100, like the real service. Only
//   transport-level problems get another HTTP status, still with a legacy body:
//   413 + result 101 (body over 64 KiB), 405 + result 405 (wrong method),
//   404 + result 404 (any path that is neither versioned nor a known legacy path),
//   500 + result 500 (a bug in the sandbox).
// - Malformed JSON, or a JSON body that is not an object, is a validation problem: HTTP 200, result 101.

import type { IncomingHttpHeaders } from 'node:http';
import { parse, stringify } from 'lossless-json';
import { CONTROL_PREFIX, CONTROL_ROUTES, controlError } from './control-routes.js';
import { problemReply, type GatewayReply, type RequestProblem } from './envelopes.js';
import type { RequestFields, SandboxGateway } from './gateway.js';
import { PAYMENT_PAGE_ROUTES } from './payment-page.js';
import { matchPattern, notServedRoutes, operationRoutes, type Route, type RouteStyle } from './routes.js';

/** Largest request body the sandbox reads. */
export const BODY_LIMIT = 64 * 1024;

/** A request as its carrier hands it over. */
export interface IncomingRequest {
  method: string;
  /** The request target as sent: origin-form (`/path?query`) or absolute-form. */
  target: string;
  /** Header names in lower case, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** The body within BODY_LIMIT; 'too-large' past it, 'aborted' when the client went away. Read at most once. */
  body(): Promise<Buffer | 'too-large' | 'aborted'>;
}

/** An answer as bytes: what a carrier sends. */
export interface EncodedReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The image a white-label answer's QRCode field links to (no key: a link to hand to the payer). */
const QR_ROUTE: Route = { method: 'GET', pattern: '/qr/:file', style: 'legacy', handle: (g, r) => g.qrImage(r.params.file ?? '') };

/**
 * Every route the sandbox serves: the gateway's paths it does not serve (501, first: a literal path
 * wins over a pattern), every operation's endpoints (keys checked as their codecs say), the QR
 * images, the payment links' pages (payment-page.ts), the control routes.
 */
export function sandboxRoutes(): readonly Route[] {
  return [...notServedRoutes(), ...operationRoutes(), QR_ROUTE, ...PAYMENT_PAGE_ROUTES, ...CONTROL_ROUTES];
}

/** Versioned paths get versioned answers, whatever goes wrong; control paths plain JSON. */
function styleOf(path: string): RouteStyle {
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return 'control';
  return path === '/v1' || path.startsWith('/v1/') ? 'versioned' : 'legacy';
}

/** A problem with the request itself, in the envelope its route (or path) speaks (envelopes.ts; control routes: plain JSON). */
function problem(style: RouteStyle, kind: RequestProblem, status: number, message: string): GatewayReply {
  return style === 'control' ? controlError(status, message) : problemReply(style, kind, message);
}

function notFound(style: RouteStyle, path: string): GatewayReply {
  return problem(style, 'not-found', 404, `No such endpoint: ${path}`);
}

function methodNotAllowed(style: RouteStyle, method: string, allow: string): GatewayReply {
  const reply = problem(style, 'method-not-allowed', 405, `Method ${method} is not allowed`);
  return { ...reply, headers: { ...reply.headers, allow } };
}

/** The reply to one request; 'aborted' when the client went away while its body was read. */
export async function serve(gateway: SandboxGateway, routes: readonly Route[], request: IncomingRequest): Promise<GatewayReply | 'aborted'> {
  const path = requestPath(request.target);
  const method = request.method;
  const matching = routes.flatMap((route) => {
    const params = matchPattern(route.pattern, path);
    return params === undefined ? [] : [{ route, params }];
  });
  if (matching.length === 0) return notFound(styleOf(path), path);
  // A literal path wins over a pattern (GET /v1/payment/static-address is not the payment "static-address").
  const takes = (m: (typeof matching)[number]): boolean => m.route.method === method || m.route.anyMethod === true;
  const found = matching.find((m) => takes(m) && !m.route.pattern.includes('/:')) ?? matching.find(takes);
  if (found === undefined) {
    const first = matching[0];
    return methodNotAllowed(first?.route.style ?? styleOf(path), method, [...new Set(matching.map((m) => m.route.method))].join(', '));
  }

  let fields: RequestFields = Object.create(null) as Record<string, unknown>;
  const query = new URL(request.target, 'http://sandbox.invalid').searchParams;
  if (found.route.anyMethod === true) {
    // Not served whatever the body says: it is read (so the connection stays usable) and ignored.
    if (method === 'POST' || hasBody(request.headers)) if ((await request.body()) === 'aborted') return 'aborted';
    return found.route.handle(gateway, { method, path, params: found.params, query, headers: request.headers, fields });
  }
  // A GET may carry a JSON body too: the gateway's own Node client sends its filters that way.
  if (method === 'POST' || hasBody(request.headers)) {
    const body = await request.body();
    if (body === 'aborted') return 'aborted';
    if (body === 'too-large') {
      return problem(found.route.style, 'body-too-large', 413, `Request body is larger than ${BODY_LIMIT} bytes`);
    }
    const decoded = decodeFields(body, request.headers['content-type']);
    if (typeof decoded === 'string') {
      return problem(found.route.style, 'invalid-body', 400, `Validation problem: ${decoded}`);
    }
    fields = decoded;
  }
  return found.route.handle(gateway, { method, path, params: found.params, query, headers: request.headers, fields });
}

/** The answer to a request that made the sandbox fail (a bug, or its journal): 500, in the envelope its path speaks. */
export function internalErrorReply(target: string, message = 'Internal error'): GatewayReply {
  const path = requestPath(target);
  return problemReply(path === '/v1' || path.startsWith('/v1/') ? 'versioned' : 'legacy', 'internal-error', message);
}

/**
 * A reply as bytes: a JSON body (numbers written as they were read) or the reply's own bytes, with
 * a Date header as every HTTP server sends (gw doctor compares it with the local clock).
 */
export function encodeReply(reply: GatewayReply): EncodedReply {
  const date = new Date().toUTCString();
  if (Buffer.isBuffer(reply.body)) {
    return { status: reply.status, headers: { date, ...reply.headers, 'content-length': String(reply.body.length) }, body: reply.body };
  }
  const body = Buffer.from(stringify(reply.body) ?? '{}');
  return {
    status: reply.status,
    headers: { date, ...reply.headers, 'content-type': 'application/json', 'content-length': String(body.length) },
    body,
  };
}

/** The path of a request target (origin-form or absolute-form), without query or trailing slashes. */
function requestPath(target: string): string {
  let path = target;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = '/';
    }
  }
  path = path.split(/[?#]/, 1)[0] ?? '/';
  path = path.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

/** Whether a request says it has a body (a GET usually has none). */
function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

/**
 * Decodes a legacy request body into fields. JSON when the Content-Type says JSON, form encoding
 * when it says so; otherwise (absent or anything else) JSON if the body starts with `{` or `[`,
 * form encoding if not. An empty body is no fields. Returns a problem description on bad JSON.
 */
function decodeFields(body: Buffer, contentType: string | undefined): RequestFields | string {
  const text = new TextDecoder('utf-8').decode(body).replace(/^\uFEFF/, '');
  if (text.trim() === '') return Object.create(null) as Record<string, unknown>;
  const mediaType = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  let asJson: boolean;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) asJson = true;
  else if (mediaType === 'application/x-www-form-urlencoded') asJson = false;
  else asJson = /^\s*[{[]/.test(text);

  if (!asJson) {
    const fields = Object.create(null) as Record<string, unknown>;
    for (const [name, value] of new URLSearchParams(text)) {
      if (!(name in fields)) fields[name] = value;
    }
    return fields;
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return 'the body is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'the body must be a JSON object';
  }
  return value as RequestFields;
}
