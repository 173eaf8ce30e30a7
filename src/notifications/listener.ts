// The receiver behind `gw listen`: an HTTP server that takes the gateway's notifications, verifies
// each over its raw bytes, answers as the gateway requires (HTTP 200 `ok` only for a verified
// notification; a clear 4xx otherwise), optionally relays it to the merchant's application, and
// reports one record per request to its caller, which prints it.
//
// Hostile input is expected: any bytes, bodies of any size, clients that never finish (slowloris),
// escape codes in every field. The server caps the body, times out slow requests, limits
// connections, answers every problem with a status and a short plain-text reason, and never
// throws. The per-request path is lean: the keys are KeyObjects made once, one HMAC per
// notification (a second only when it fails), one lossless JSON parse.
import { Agent as HttpAgent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readRequestBody } from '../util/request-body.js';
import { readNotification, type NotificationSummary } from './decode.js';
import { postBytes, type PostResult } from './http.js';
import { SIGNATURE_HEADER, SIGNATURE_HEADER_NAME, verifyNotification, type KeyKind, type NotificationKeys, type RefusalCode } from './signature.js';

/** Largest notification body read; real ones are a few hundred bytes. */
export const LISTEN_BODY_LIMIT = 64 * 1024;
/** Time for a client to send its headers, and its whole request. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 15_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const MAX_CONNECTIONS = 512;
/** How long close() lets requests in flight finish before cutting their connections. */
const CLOSE_GRACE_MS = 200;

/** The header that marks a relayed notification that did not verify (its value: the refusal code). */
export const UNVERIFIED_HEADER = 'X-Gw-Unverified';

export type ReceiptCode = RefusalCode | 'ok' | 'not-found' | 'method-not-allowed' | 'too-large' | 'not-json' | 'forward-failed' | 'forward-refused';

export interface ForwardOutcome {
  /** Whether it was sent to the application (a refused notification is not, without --forward-unverified). */
  sent: boolean;
  /** Marked with X-Gw-Unverified. */
  unverified: boolean;
  result?: PostResult;
}

/** One request to the receiver, as the caller prints it. */
export interface Receipt {
  /** Unix milliseconds. */
  at: number;
  method: string;
  /** The request target's path (exact text the client sent, for display only through Untrusted). */
  path: string;
  /** What the receiver answered. */
  httpStatus: number;
  code: ReceiptCode;
  verified: boolean;
  /** Why it was refused; undefined when verified. */
  reason: string | undefined;
  keyKind: KeyKind | undefined;
  /** The raw body (undefined when it was not read: wrong path or method, too large). */
  body: Buffer | undefined;
  summary: NotificationSummary | undefined;
  forward: ForwardOutcome | undefined;
}

export interface ForwardOptions {
  url: URL;
  /** Relay refused notifications too, marked with X-Gw-Unverified. */
  unverified: boolean;
  timeoutMs: number;
}

export interface ListenerOptions {
  host: string;
  port: number;
  /** The only path notifications are taken on, e.g. `/` or `/hooks/gateway`. */
  path: string;
  keys: NotificationKeys;
  forward?: ForwardOptions;
  bodyLimit?: number;
  now?: () => number;
  onReceipt: (receipt: Receipt) => void;
}

export interface RunningListener {
  /** e.g. http://127.0.0.1:8787/hooks */
  url: string;
  close(): Promise<void>;
}

/** `/a/b/` → `/a/b`; `` → `/`. */
export function normalisePath(path: string): string {
  const p = (path.split(/[?#]/, 1)[0] ?? '/').replace(/\/+$/, '');
  return p.startsWith('/') ? p || '/' : `/${p}`;
}

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const path = normalisePath(options.path);
  const limit = options.bodyLimit ?? LISTEN_BODY_LIMIT;
  const now = options.now ?? Date.now;
  const stop = new AbortController();
  const forward = options.forward;
  const agent =
    forward === undefined
      ? undefined
      : forward.url.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets: 64 })
        : new HttpAgent({ keepAlive: true, maxSockets: 64 });

  const server = createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000, maxHeaderSize: 16 * 1024 },
    (req, res) => {
      handle(req, res).catch(() => {
        // handle() answers every problem itself; this is the last line of defence.
        if (!res.headersSent) answer(res, 500, 'internal error', true);
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  const emit = (receipt: Receipt): void => {
    try {
      options.onReceipt(receipt);
    } catch {
      // Printing is the caller's business; the receiver keeps answering.
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = now();
    const method = req.method ?? '';
    const target = req.url ?? '/';
    const base = { at, method, path: target, verified: false, keyKind: undefined, body: undefined, summary: undefined, forward: undefined };
    if (normalisePath(target) !== path) {
      answer(res, 404, `not found: notifications are taken on ${path}`, true);
      return emit({ ...base, httpStatus: 404, code: 'not-found', reason: `wrong path (this receiver takes ${path})` });
    }
    if (method !== 'POST') {
      res.setHeader('allow', 'POST');
      answer(res, 405, 'method not allowed: notifications are POSTed', true);
      return emit({ ...base, httpStatus: 405, code: 'method-not-allowed', reason: `${method.slice(0, 16)} instead of POST` });
    }
    const body = await readRequestBody(req, { limit });
    if (body === 'aborted') return;
    if (body === 'too-large') {
      answer(res, 413, `body too large: the limit is ${limit} bytes`, true);
      return emit({ ...base, httpStatus: 413, code: 'too-large', reason: `body larger than ${limit} bytes` });
    }
    const signature = headerValue(req, SIGNATURE_HEADER);
    const read = readNotification(body);
    if (!read.ok) {
      const refusal = { ...base, body, httpStatus: 400, code: 'not-json' as const, reason: read.problem };
      answer(res, 400, read.problem, false);
      return emit(refusal);
    }
    const summary = read.summary;
    const verdict = verifyNotification(body, signature, summary.type?.raw(), options.keys);
    const receipt: Receipt = verdict.verified
      ? { ...base, body, summary, httpStatus: 200, code: 'ok', verified: true, reason: undefined, keyKind: verdict.keyKind }
      : { ...base, body, summary, httpStatus: verdict.httpStatus, code: verdict.code, reason: verdict.message, keyKind: verdict.keyKind };

    if (forward !== undefined && (receipt.verified || forward.unverified)) {
      const headers: Record<string, string> = { 'content-type': headerValue(req, 'content-type') ?? 'application/json' };
      if (signature !== undefined) headers[SIGNATURE_HEADER_NAME] = signature;
      const userAgent = headerValue(req, 'user-agent');
      if (userAgent !== undefined) headers['user-agent'] = userAgent;
      if (!receipt.verified) headers[UNVERIFIED_HEADER] = receipt.code;
      const result = await relay(forward, body, headers, stop.signal, agent);
      receipt.forward = { sent: true, unverified: !receipt.verified, result };
      if (receipt.verified) {
        // The gateway hears `ok` only when the application took it, so its retries still work.
        if (!result.ok) {
          receipt.httpStatus = result.kind === 'timeout' ? 504 : 502;
          receipt.code = 'forward-failed';
          receipt.reason = `the application did not answer: ${result.message}`;
        } else if (result.status < 200 || result.status > 299) {
          receipt.httpStatus = 502;
          receipt.code = 'forward-refused';
          receipt.reason = `the application answered HTTP ${result.status}`;
        }
      }
    } else if (forward !== undefined) {
      receipt.forward = { sent: false, unverified: true };
    }
    if (receipt.httpStatus === 200) answer(res, 200, 'ok', false);
    else answer(res, receipt.httpStatus, receipt.reason ?? 'refused', false);
    emit(receipt);
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // Errors after listening (EMFILE on accept…) must not end the process.
  server.on('error', () => undefined);

  const address = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${address.port}${path === '/' ? '/' : path}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      stop.abort();
      const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        agent?.destroy();
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return { url, close };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.trim();
}

/** A short plain-text answer. `close`: the request's body was not read, so the connection cannot be reused. */
function answer(res: ServerResponse, status: number, text: string, close: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const body = `${text}`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(close && { connection: 'close' }),
  });
  res.end(body);
}

async function relay(
  forward: ForwardOptions,
  body: Buffer,
  headers: Record<string, string>,
  signal: AbortSignal,
  agent: HttpAgent | HttpsAgent | undefined,
): Promise<PostResult> {
  try {
    return await postBytes(forward.url, body, headers, { timeoutMs: forward.timeoutMs, signal, ...(agent !== undefined && { agent }) });
  } catch {
    // A header value Node refuses (it cannot come from here: values are checked) or a bad agent.
    return { ok: false, kind: 'failed', message: 'the request could not be made', ms: 0 };
  }
}
