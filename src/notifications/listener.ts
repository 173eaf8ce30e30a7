// The receiver behind `gw listen`: an HTTP server that takes the gateway's notifications, verifies
// each over its raw bytes, optionally relays it to the merchant's application, hands one record per
// request to its caller, which prints it, and answers as the gateway requires: HTTP 200 `ok` only
// for a verified notification that every output took (the application answered 2xx, the record
// was written), so an acknowledged notification is never lost; a clear 4xx for one that does not
// verify; 502/504/503 (the gateway sends it again) when an output could not take it.
//
// Hostile input is expected: any bytes, bodies of any size, clients that never finish (slowloris),
// escape codes in every field. The server caps the body, bounds the time for headers and body and
// idle keep-alive connections, sheds the oldest connections that are not being answered when too
// many are open (so idle or slow clients cannot starve the gateway's next request), answers every
// problem with a status and a short plain-text reason, and never throws. The per-request path is
// lean: the keys are KeyObjects made once, one HMAC per notification (a second only when it
// fails), one lossless JSON parse.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ProxyConfig } from '../gateway/proxy.js';
import { closeServer } from '../util/close-server.js';
import { readRequestBody } from '../util/request-body.js';
import { readNotification, type NotificationSummary } from './decode.js';
import type { PostResult } from '../gateway/post.js';
import { ACK_BODY } from './acknowledge.js';
import { SIGNATURE_HEADER, SIGNATURE_HEADER_NAME, verifyNotification, type KeyKind, type NotificationKeys, type RefusalCode } from './signature.js';

/** Largest notification body read: real ones are a few KB (a v1 body with its transactions). */
export const LISTEN_BODY_LIMIT = 1024 * 1024;

/** How long clients may take, and how many connections are kept. */
export interface ListenerLimits {
  /** Time for a client to send its request's headers (from the connection, or the previous answer). */
  headersTimeoutMs: number;
  /** Time for the whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
  /** Open connections past which the oldest one not being answered is closed for each new one. */
  connections: number;
  /** Open connections past which new ones are refused (every one is being answered). */
  maxConnections: number;
  /** How often the time limits are checked. */
  checkIntervalMs: number;
}

export const LISTENER_LIMITS: ListenerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  connections: 256,
  maxConnections: 1024,
  checkIntervalMs: 1_000,
};
/** How long close() lets requests in flight finish before cutting their connections. */
const CLOSE_GRACE_MS = 200;

/** The header that marks a relayed notification that did not verify (its value: the refusal code). */
export const UNVERIFIED_HEADER = 'X-Gw-Unverified';
/** The header a relayed notification carries: this receiver's id, so one that comes back is refused (508). */
export const RELAY_HEADER = 'X-Gw-Relayed-By';

export type ReceiptCode =
  | RefusalCode
  | 'ok'
  | 'not-found'
  | 'method-not-allowed'
  | 'too-large'
  | 'not-json'
  | 'forward-failed'
  | 'forward-refused'
  | 'not-recorded'
  | 'loop';

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
  /**
   * The body's fields as parsed for the summary, so that what else is read of it needs no second
   * parse; undefined when it was not read, or repeats a key.
   */
  fields: Readonly<Record<string, unknown>> | undefined;
  forward: ForwardOutcome | undefined;
  /** Keys the body repeats (the last value of each was read), e.g. `status`; usually none. */
  repeatedKeys: readonly string[];
}

export interface ForwardOptions {
  url: URL;
  /** Relay refused notifications too, marked with X-Gw-Unverified. */
  unverified: boolean;
  timeoutMs: number;
  /** The proxy to relay through (chosen for `url` as for every request of gw); none: directly. */
  proxy?: ProxyConfig;
  /** --verbose: one line per relayed request. */
  log?: (line: string) => void;
  /** Never in a log line (the keys). */
  secrets?: readonly string[];
}

export interface ListenerOptions {
  host: string;
  port: number;
  /** The only path notifications are taken on, e.g. `/` or `/hooks/gateway`. */
  path: string;
  keys: NotificationKeys;
  forward?: ForwardOptions;
  bodyLimit?: number;
  limits?: Partial<ListenerLimits>;
  now?: () => number;
  /**
   * Records one request (prints it). For a notification about to be acknowledged, the answer waits
   * for the returned promise: 200 `ok` when it resolves, 503 when it rejects (the record could not
   * be kept; its message says why). Other requests are answered without waiting.
   */
  onReceipt: (receipt: Receipt) => Promise<void> | void;
}

export interface RunningListener {
  /** e.g. http://127.0.0.1:8787/hooks */
  url: string;
  close(): Promise<void>;
}

/** No repeated keys. */
const NONE: readonly string[] = Object.freeze([]);
/** The acknowledgement (docs/gateway.md §7), its headers written once for all. */
const ACK_HEADERS: string[] = ['content-type', 'text/plain; charset=utf-8', 'content-length', String(Buffer.byteLength(ACK_BODY))];

/** `/a/b/` → `/a/b`; `` → `/`. */
export function normalisePath(path: string): string {
  const p = (path.split(/[?#]/, 1)[0] ?? '/').replace(/\/+$/, '');
  return p.startsWith('/') ? p || '/' : `/${p}`;
}

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const path = normalisePath(options.path);
  const limit = options.bodyLimit ?? LISTEN_BODY_LIMIT;
  const limits: ListenerLimits = { ...LISTENER_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const stop = new AbortController();
  // One abort listener per relay in flight: many at once is normal, not a leak to warn about.
  setMaxListeners(0, stop.signal);
  const relayId = randomBytes(9).toString('base64url');
  const forward = options.forward;

  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: limits.checkIntervalMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      handle(req, res).catch(() => {
        // handle() answers every problem itself; this is the last line of defence.
        if (!res.headersSent) answer(res, 500, 'internal error', true);
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;

  // Open connections, oldest first, and the ones whose request is being answered (body read).
  const open = new Set<Socket>();
  // Each connection's latest request whose body was read: it is being answered until its answer is written.
  const answering = new WeakMap<Socket, ServerResponse>();
  const beingAnswered = (socket: Socket): boolean => {
    const res = answering.get(socket);
    return res !== undefined && !res.writableFinished && !res.destroyed;
  };
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    if (open.size <= limits.connections) return;
    // Too many: the oldest connection that is idle, or still sending its headers or body, makes
    // room. A notification arrives whole and at once; what lingers is idle or hostile.
    for (const old of open) {
      if (old === socket || beingAnswered(old)) continue;
      old.destroy();
      open.delete(old);
      break;
    }
  });
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
      // Printing is the caller's business; the receiver keeps answering (a refusal was answered already).
      void Promise.resolve(options.onReceipt(receipt)).catch(() => undefined);
    } catch {
      // As above.
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = now();
    const method = req.method ?? '';
    const target = req.url ?? '/';
    // What every refusal before the body is read has in common (made only for those).
    const base = (): Omit<Receipt, 'httpStatus' | 'code' | 'reason'> => ({
      at,
      method,
      path: target,
      verified: false,
      keyKind: undefined,
      body: undefined,
      summary: undefined,
      fields: undefined,
      forward: undefined,
      repeatedKeys: NONE,
    });
    if (target !== path && normalisePath(target) !== path) {
      answer(res, 404, `not found: notifications are taken on ${path}`, true);
      return emit({ ...base(), httpStatus: 404, code: 'not-found', reason: `wrong path (this receiver takes ${path})` });
    }
    if (method !== 'POST') {
      res.setHeader('allow', 'POST');
      answer(res, 405, 'method not allowed: notifications are POSTed', true);
      return emit({ ...base(), httpStatus: 405, code: 'method-not-allowed', reason: `${method.slice(0, 16)} instead of POST` });
    }
    if (headerValue(req, RELAY_HEADER.toLowerCase()) === relayId) {
      answer(res, 508, 'loop detected: this notification was relayed here by this receiver', true);
      return emit({ ...base(), httpStatus: 508, code: 'loop', reason: '--forward-to sent it back to this receiver (a loop): not relayed again' });
    }
    const body = await readRequestBody(req, { limit });
    if (body === 'aborted') return;
    if (body === 'too-large') {
      answer(res, 413, `body too large: the limit is ${limit} bytes`, true);
      return emit({ ...base(), httpStatus: 413, code: 'too-large', reason: `body larger than ${limit} bytes` });
    }
    // The request is whole: from now on its connection is being answered, not to be shed.
    answering.set(req.socket, res);
    const signature = headerValue(req, SIGNATURE_HEADER);
    const read = readNotification(body);
    if (!read.ok) {
      const refusal = { ...base(), body, httpStatus: 400, code: 'not-json' as const, reason: read.problem };
      answer(res, 400, read.problem, false);
      return emit(refusal);
    }
    const summary = read.summary;
    const verdict = verifyNotification(body, signature, summary.type?.raw(), options.keys);
    const repeatedKeys = read.repeatedKeys;
    // Written out rather than spread from `base`: this is the path every notification takes.
    const receipt: Receipt = {
      at,
      method,
      path: target,
      body,
      summary,
      fields: repeatedKeys.length === 0 ? read.fields : undefined,
      forward: undefined,
      repeatedKeys,
      verified: verdict.verified,
      httpStatus: verdict.verified ? 200 : verdict.httpStatus,
      code: verdict.verified ? 'ok' : verdict.code,
      reason: verdict.verified ? undefined : verdict.message,
      keyKind: verdict.keyKind,
    };

    if (forward !== undefined && (receipt.verified || forward.unverified)) {
      // Header values are relayed only as plain ASCII, which gw's HTTP stack sends as written (it refuses the rest).
      const ascii = (value: string | undefined): string | undefined => (value !== undefined && /^[\x20-\x7e\t]*$/.test(value) ? value : undefined);
      const headers: Record<string, string> = { 'content-type': ascii(headerValue(req, 'content-type')) ?? 'application/json' };
      const relayedSignature = ascii(signature);
      if (relayedSignature !== undefined) headers[SIGNATURE_HEADER_NAME] = relayedSignature;
      const userAgent = ascii(headerValue(req, 'user-agent'));
      if (userAgent !== undefined) headers['user-agent'] = userAgent;
      if (!receipt.verified) headers[UNVERIFIED_HEADER] = receipt.code;
      headers[RELAY_HEADER] = relayId;
      const result = await relay(forward, body, headers, stop.signal);
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
    if (receipt.httpStatus !== 200) {
      answer(res, receipt.httpStatus, receipt.reason ?? 'refused', false);
      emit(receipt);
      return;
    }
    // Acknowledged only once recorded: a record that cannot be kept means the gateway must send it again.
    try {
      await options.onReceipt(receipt);
    } catch (error) {
      const why = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
      answer(res, 503, `not recorded: the receiver's output failed (${why}); send it again later`, false);
      return;
    }
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, ACK_HEADERS);
    res.end(ACK_BODY);
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
    if (closing === undefined) {
      stop.abort();
      closing = closeServer(server, CLOSE_GRACE_MS);
    }
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

/** One POST to the application, through gw's one HTTP stack (src/gateway/post.ts): tried once. */
async function relay(forward: ForwardOptions, body: Buffer, headers: Record<string, string>, signal: AbortSignal): Promise<PostResult> {
  // Loaded with the first notification to relay: a receiver that relays nothing never loads the HTTP client.
  const { postBytes } = await import('../gateway/post.js');
  return postBytes(forward.url, body, headers, {
    timeoutMs: forward.timeoutMs,
    signal,
    ...(forward.proxy && { proxy: forward.proxy }),
    ...(forward.log && { log: forward.log }),
    ...(forward.secrets && { secrets: forward.secrets }),
  });
}
