// The sandbox's HTTP layer (node:http): matching requests against the route tables (routes.ts,
// legacy-routes.ts, v1-routes.ts, control-routes.ts), body reading and decoding, JSON responses.
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

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, stringify } from 'lossless-json';
import { readRequestBody } from '../util/request-body.js';
import { SandboxGateway, legacy, versionedError, type GatewayReply, type RequestFields } from './gateway.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, controlError } from './control-routes.js';
import { SandboxJournal } from './journal.js';
import { LEGACY_ROUTES } from './legacy-routes.js';
import { attachNotifications, NotificationDelivery } from './notify.js';
import { matchPattern, type Route, type RouteStyle } from './routes.js';
import { v1Routes } from './v1-routes.js';
import { SANDBOX_GENERAL_KEY, SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, type RunningSandbox, type SandboxOptions } from './options.js';

/** Largest request body the sandbox reads. */
export const BODY_LIMIT = 64 * 1024;
/** Past this many bytes the sandbox stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT = 16 * 1024 * 1024;
/** How long close() lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 250;

export async function startSandboxServer(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const merchantKey = options.merchantKey ?? SANDBOX_MERCHANT_KEY;
  const payoutKey = options.payoutKey ?? SANDBOX_PAYOUT_KEY;
  const generalKey = options.generalKey ?? SANDBOX_GENERAL_KEY;
  // Every route the sandbox serves; the versioned ones check the general key themselves.
  const routes: readonly Route[] = [...LEGACY_ROUTES, ...v1Routes({ generalKey, payoutKey }), ...CONTROL_ROUTES];
  let url = '';
  const gateway = new SandboxGateway({
    merchantKey,
    payoutKey,
    now: options.now ?? Date.now,
    baseUrl: () => url,
    ...(options.settleSeconds !== undefined && { settleSeconds: options.settleSeconds }),
    ...(options.journal !== undefined && { journal: new SandboxJournal(options.journal) }),
  });

  // Notifications: delivered on every payment change (the lifecycle emits them); the control
  // routes reach delivery and the lifecycle's setState through the gateway object.
  const delivery = new NotificationDelivery(merchantKey, options.notifications);
  delivery.listen(gateway.events);
  attachNotifications(gateway, { delivery, control: gateway, merchantKey });

  const server = createServer((req, res) => {
    handle(gateway, routes, req, res).catch((error: unknown) => internalError(req, res, error));
  });
  // A malformed request line or headers: answer 400 when the socket still can, never throw.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // Errors after listening (e.g. EMFILE on accept) must not crash the process.
  server.on('error', () => {});

  const address = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  url = `http://${urlHost}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    gateway.close();
    closing ??= Promise.all([
      // Deliveries on the wire get the same grace as requests in flight.
      delivery.close(CLOSE_GRACE_MS),
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
    ]).then(() => undefined);
    return closing;
  };

  return { url, merchantKey, payoutKey, generalKey, gateway, close };
}

/** Versioned paths get versioned answers, whatever goes wrong; control paths plain JSON. */
function styleOf(path: string): RouteStyle {
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return 'control';
  return path === '/v1' || path.startsWith('/v1/') ? 'versioned' : 'legacy';
}

function notFound(style: RouteStyle, path: string): GatewayReply {
  if (style === 'control') return controlError(404, `No such endpoint: ${path}`);
  return style === 'versioned' ? versionedError(404, 'invalid_request_error', 'not_found', `No such endpoint: ${path}`) : legacy(404, 'Not found', {}, 404);
}

function methodNotAllowed(style: RouteStyle, method: string, allow: string): GatewayReply {
  const reply =
    style === 'control'
      ? controlError(405, `Method ${method} is not allowed`)
      : style === 'versioned'
        ? versionedError(405, 'invalid_request_error', 'method_not_allowed', `Method ${method} is not allowed`)
        : legacy(405, `Method ${method} is not allowed`, {}, 405);
  return { ...reply, headers: { ...reply.headers, allow } };
}

async function handle(gateway: SandboxGateway, routes: readonly Route[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = req.url ?? '/';
  const path = requestPath(target);
  const method = req.method ?? 'GET';
  const matching = routes.flatMap((route) => {
    const params = matchPattern(route.pattern, path);
    return params === undefined ? [] : [{ route, params }];
  });
  if (matching.length === 0) {
    send(res, notFound(styleOf(path), path));
    return;
  }
  const found = matching.find((m) => m.route.method === method);
  if (found === undefined) {
    const first = matching[0];
    send(res, methodNotAllowed(first?.route.style ?? styleOf(path), method, [...new Set(matching.map((m) => m.route.method))].join(', ')));
    return;
  }

  let fields: RequestFields = Object.create(null) as Record<string, unknown>;
  // A GET may carry a JSON body too: the gateway's own Node client sends its filters that way.
  if (method === 'POST' || hasBody(req)) {
    const body = await readRequestBody(req, { limit: BODY_LIMIT, drainLimit: DRAIN_LIMIT });
    if (body === 'aborted') return;
    if (body === 'too-large') {
      send(
        res,
        found.route.style === 'control'
          ? controlError(413, `Request body is larger than ${BODY_LIMIT} bytes`)
          : found.route.style === 'versioned'
            ? versionedError(413, 'invalid_request_error', 'body_too_large', `Request body is larger than ${BODY_LIMIT} bytes`)
            : legacy(101, `Request body is larger than ${BODY_LIMIT} bytes`, {}, 413),
      );
      return;
    }
    const decoded = decodeFields(body, req.headers['content-type']);
    if (typeof decoded === 'string') {
      send(
        res,
        found.route.style === 'control'
          ? controlError(400, `Validation problem: ${decoded}`)
          : found.route.style === 'versioned'
            ? versionedError(400, 'invalid_request_error', 'invalid_body', `Validation problem: ${decoded}`)
            : legacy(101, `Validation problem: ${decoded}`),
      );
      return;
    }
    fields = decoded;
  }
  const query = new URL(target, 'http://sandbox.invalid').searchParams;
  send(res, await found.route.handle(gateway, { method, path, params: found.params, query, headers: req.headers, fields }));
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
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
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

function send(res: ServerResponse, reply: GatewayReply): void {
  if (res.headersSent || res.destroyed) return;
  if (Buffer.isBuffer(reply.body)) {
    res.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.length });
    res.end(reply.body);
    return;
  }
  const text = stringify(reply.body) ?? '{}';
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function internalError(req: IncomingMessage, res: ServerResponse, _error: unknown): void {
  try {
    const path = requestPath(req.url ?? '/');
    const versioned = path === '/v1' || path.startsWith('/v1/');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    send(res, versioned ? versionedError(500, 'api_error', 'internal_error', 'Internal error') : legacy(500, 'Internal error', {}, 500));
  } catch {
    res.destroy();
  }
}
