// The one HTTP transport every command goes through (node:http, see http1.ts). It owns the policy:
// - one deadline per send() (min(now + timeoutMs, notAfter)) covering every phase: TCP connect,
//   proxy CONNECT, TLS handshake, headers, body, and every retry with its backoff. The deadline
//   belongs to the send, not to the Transport, so one Transport can serve many sends (polling).
//   It is a timer of our own that keeps the process alive and settles the send even if the
//   exchange never does; connecting has no fixed timeout of its own (see connector.ts);
// - a cap on response size, enforced while streaming (a larger answer is refused, never buffered);
// - retries only where safe: read-only requests retry connection errors, 5xx and 429 with
//   exponential backoff and jitter, or as long as Retry-After asks when that fits before the
//   deadline; a request that may create something (pay) is sent
//   again only when it provably never left (no connection, no TLS, no tunnel); failures that cannot
//   change (a certificate that fails verification, a proxy asking for credentials) are never retried;
// - proxies: an optional ProxyConfig (proxy.ts resolves it from the environment as curl does);
//   https:// gateways through a CONNECT tunnel, http:// (loopback) ones in absolute form;
// - failures as TransportError (failures.ts), which says whether the request may have reached the
//   gateway.
import type { Socket } from 'node:net';
import { abortable } from '../util/abortable.js';
import { ConfigError, ExitCode, GwError, ProtocolError } from '../errors.js';
import { scrubSecrets } from '../output/sanitize.js';
import { openConnection, type ConnectPlan } from './connector.js';
import { ConnectionPool, type AnswerHead, type Exchanger } from './http1.js';
import { unsendableHeaderValue } from './header-value.js';
import { readBody } from './answer-body.js';
import { describeConnection, type TransportObserver } from './transport-observer.js';
import { retryAfterMs } from './retry-after.js';
import type { RawResponse } from './envelope.js';
import {
  abortedError,
  connectFailureError,
  failureCode,
  isConnectFailure,
  proxyAuthError,
  requestFailureError,
  TransportError,
  type FailureContext,
  type Progress,
} from './failures.js';
import { proxyLabel, type ProxyConfig } from './proxy.js';
import { systemClock, type Clock } from '../util/clock.js';

export { TransportError, type Delivery } from './failures.js';
export { retryAfterMs } from './retry-after.js';

export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface RetryPolicy {
  /** Further tries after the first. */
  retries: number;
  baseDelayMs: number;
  /** Longest backoff between tries. A Retry-After is waited as asked when it fits before the deadline, else it ends the retries. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 300, maxDelayMs: 5000 };

export interface TransportOptions {
  baseUrl: URL;
  /** The budget of each send(), retries included. */
  timeoutMs: number;
  /** An absolute cap (epoch milliseconds) on every send's deadline, read at each send (the command's deadline). */
  notAfter?: () => number;
  /** The proxy to go through (see proxyFor in proxy.ts); none: connect directly. */
  proxy?: ProxyConfig;
  /**
   * Serves the requests instead of connections of our own: the sandbox this process embeds
   * answers in memory (src/sandbox/in-memory.ts). Everything else about a send is the same.
   */
  exchanger?: Exchanger;
  /** Waits between retries (the factory's clock; tests make it instant). Default: real time. */
  sleep?: Clock['sleep'];
  /** Aborts everything (Ctrl-C). */
  signal?: AbortSignal;
  /** --verbose: one line per request on stderr. */
  log?: (line: string) => void;
  /** Strings that must never appear in a log line (the keys). */
  secrets?: readonly string[];
  maxResponseBytes?: number;
  /**
   * Keep at most this many bytes of an answer and read the rest without keeping it, up to
   * maxResponseBytes, where reading stops: such an answer is `truncated`, never refused (a
   * notification receiver's answer, where only its first bytes matter). Default: refuse answers
   * larger than maxResponseBytes.
   */
  answerLimit?: number;
  retry?: RetryPolicy;
  userAgent?: string;
  /** Told about each connection and each answer (gw doctor); it never changes what the transport does. */
  observer?: TransportObserver;
}

export interface TransportRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: string;
  /** A body sent as it is, its content type in `headers` (a notification's exact bytes). */
  body?: Uint8Array | string;
  /** Safe to send again after it may have reached the gateway (read-only operations). */
  idempotent: boolean;
}

/** An HTTP answer (its Retry-After header kept, for the retry loop and the failure's hint). */
type HttpAnswer = RawResponse;

/** Exponential backoff with jitter: attempt 1 → 50–100% of base, attempt 2 → 50–100% of 2×base… */
export function backoffMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const noop = (): void => undefined;

/**
 * Whether a try's outcome may be tried again: a failure that is not final, not the user's stop,
 * before the deadline, and either idempotent or certainly not sent; an idempotent request's 5xx or
 * 429 answer.
 */
function retryable(outcome: HttpAnswer | TransportError, req: TransportRequest, signal: AbortSignal): boolean {
  if (!(outcome instanceof TransportError)) return req.idempotent && ((outcome.status >= 500 && outcome.status <= 599) || outcome.status === 429);
  return (
    !outcome.final &&
    outcome.exitCode !== ExitCode.INTERRUPTED &&
    outcome.exitCode !== ExitCode.TERMINATED &&
    !signal.aborted &&
    (req.idempotent || outcome.delivery === 'not-sent')
  );
}

/** One send(): its deadline and the signal that ends it (the deadline, or the caller's abort). */
interface SendScope {
  /** Milliseconds from the start of the send to its deadline. */
  budgetMs: number;
  deadline: number;
  signal: AbortSignal;
}

/** One try of a send: how far it got, which decides whether it may have been sent. */
interface Attempt {
  progress: Progress;
}

/** A request as written: what the exchange is given, and "POST https://host/path" for log lines. */
interface Outgoing {
  path: string;
  method: TransportRequest['method'];
  headers: Record<string, string>;
  body: Uint8Array | string | null;
  target: string;
}

export class Transport {
  /** The connections of our own, created on first use and again after a failure dropped them. */
  private pool: ConnectionPool | undefined;
  private readonly maxBytes: number;
  private readonly retry: RetryPolicy;
  private readonly plan: ConnectPlan;
  private readonly ctx: FailureContext;
  /** http:// gateway through a proxy: requests go to the proxy in absolute form. */
  private readonly forward: boolean;
  /** Ends connections being opened when the Transport is closed. */
  private readonly closing = new AbortController();
  /** Connections being opened now (the closing signal has something to end only then). */
  private opening = 0;
  private closed = false;
  /** The try in flight, which the connector reports its progress to. */
  private current: { attempt: Attempt; signal: AbortSignal } | undefined;

  constructor(private readonly options: TransportOptions) {
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.retry = options.retry ?? DEFAULT_RETRY;
    const base = options.baseUrl;
    const https = base.protocol !== 'http:';
    const hostname = base.hostname.startsWith('[') ? base.hostname.slice(1, -1) : base.hostname;
    const proxy = options.proxy;
    this.plan = {
      target: { protocol: https ? 'https:' : 'http:', hostname, port: base.port === '' ? (https ? 443 : 80) : Number(base.port) },
      ...(proxy && { proxy }),
      userAgent: options.userAgent ?? 'gw',
    };
    this.forward = proxy !== undefined && !https;
    this.ctx = { host: base.host, hostname, ...(proxy && { proxy }) };
    if (proxy) this.log(`gw: proxy ${proxyLabel(proxy)} (from ${proxy.variable})${this.forward ? '' : ', CONNECT tunnel'}`);
  }

  /**
   * Lets the process exit as soon as the output is written: connections being opened end now, open
   * ones stop holding the process (unref) and are destroyed on the next turn of the event loop. A
   * finished command does not wait for that turn (src/main.ts): the system closes them as the
   * process exits. (Destroying a socket at once would also make Node create process.stderr, for a
   * debug check.)
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.opening > 0) this.closing.abort();
    this.pool?.close();
    this.pool = undefined;
    return Promise.resolve();
  }

  /** Replaces every key (and any proxy password) with ****: in log lines, and in answers that echo one back. */
  private scrub(text: string): string {
    return scrubSecrets(text, [...(this.options.secrets ?? []), ...(this.options.proxy?.secrets ?? [])]);
  }

  private log(line: string): void {
    this.options.log?.(this.scrub(line));
  }

  /** Tells the observer, if any; whatever it does cannot change the request. */
  private observe(tell: (observer: TransportObserver) => void): void {
    const observer = this.options.observer;
    if (observer === undefined) return;
    try {
      tell(observer);
    } catch {
      // An observer's failure is its own business.
    }
  }

  /** The base URL's path joined with the request's; a query in the request's path stays a query. */
  private url(path: string): URL {
    const base = this.options.baseUrl;
    const url = new URL(base.href);
    const query = path.indexOf('?');
    url.pathname = `${base.pathname.replace(/\/+$/, '')}${query === -1 ? path : path.slice(0, query)}`;
    if (query !== -1) url.search = path.slice(query);
    return url;
  }

  /** What this try goes through: the in-memory sandbox, or connections of our own. */
  private exchanger(): Exchanger {
    if (this.options.exchanger !== undefined) return this.options.exchanger;
    this.pool ??= new ConnectionPool((callback) => this.connect(callback));
    return this.pool;
  }

  /** Drops the connections after a failure: none of them is used again. */
  private discardConnections(): void {
    this.pool?.discard();
    this.pool = undefined;
  }

  private connect(callback: (error: Error | null, socket?: Socket) => void): void {
    const current = this.current;
    const attempt = current?.attempt;
    // A connection asked for after close() ends at once.
    if (this.closed) this.closing.abort();
    const signal = AbortSignal.any([current?.signal ?? AbortSignal.timeout(this.options.timeoutMs), this.closing.signal]);
    this.opening++;
    openConnection(this.plan, signal, (stage) => {
      if (attempt) attempt.progress = stage;
    })
      .finally(() => this.opening--)
      .then(
        (socket) => {
          if (attempt) attempt.progress = 'connected';
          this.observe((o) => o.onConnect?.(describeConnection(socket, this.plan.target.hostname)));
          callback(null, socket);
        },
        (error: Error) => {
          const { stage, reason } = error as Partial<{ stage: string; reason: string }>;
          if (stage !== undefined && reason !== undefined && reason !== 'aborted') this.observe((o) => o.onConnectFailed?.({ stage, reason }));
          callback(error);
        },
      );
  }

  async send(req: TransportRequest): Promise<RawResponse> {
    // Before anything is sent: a header value HTTP cannot carry is the configuration's fault, not the network's.
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      const problem = unsendableHeaderValue(value);
      if (problem !== undefined) {
        throw new ConfigError(`the value for the ${name} header contains ${problem}: it cannot be sent in an HTTP header; nothing was sent`);
      }
    }
    const started = Date.now();
    const deadline = Math.min(started + this.options.timeoutMs, this.options.notAfter?.() ?? Number.POSITIVE_INFINITY);
    const budgetMs = Math.max(0, deadline - started);
    if (budgetMs === 0) {
      throw new TransportError(ExitCode.TEMPFAIL, 'no time was left to send the request to the gateway', 'not-sent', 'raise --timeout');
    }
    // Our own timer, not AbortSignal.timeout(): it keeps the event loop alive, so a send that
    // never settles still ends here, at the deadline, instead of the process exiting early.
    const expiry = new AbortController();
    const timer = setTimeout(() => expiry.abort(new Error('deadline')), budgetMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, expiry.signal]) : expiry.signal;
    try {
      return await this.sendWithin(req, { budgetMs, deadline, signal });
    } finally {
      clearTimeout(timer);
    }
  }

  private async sendWithin(req: TransportRequest, scope: SendScope): Promise<RawResponse> {
    let maybeSent = false;
    for (let attempt = 1; ; attempt++) {
      let outcome: HttpAnswer | TransportError;
      try {
        outcome = await this.once(req, scope);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        outcome = error;
      }
      maybeSent ||= !(outcome instanceof TransportError) || outcome.delivery === 'maybe-sent';
      if (!retryable(outcome, req, scope.signal) || attempt > this.retry.retries) return this.settle(outcome, maybeSent);

      // Retry-After is honoured whenever the wait fits before the deadline (the user gave gw that
      // long); one that does not fit ends the retries, and the failure says how long to wait.
      const asked = outcome instanceof TransportError ? undefined : retryAfterMs(outcome.retryAfter);
      if (asked !== undefined && Date.now() + asked >= scope.deadline) {
        this.log(`gw: not retrying: the gateway asks to wait ${Math.ceil(asked / 1000)} s, past the deadline`);
        return this.settle(outcome, maybeSent);
      }
      const delay = asked ?? backoffMs(attempt, this.retry);
      if (Date.now() + delay >= scope.deadline) return this.settle(outcome, maybeSent);
      const why = outcome instanceof TransportError ? outcome.message : `HTTP ${outcome.status}`;
      this.log(`gw: retrying in ${delay} ms (${why})`);
      try {
        await (this.options.sleep ?? systemClock.sleep)(delay, scope.signal);
      } catch {
        throw this.aborted(maybeSent ? 'connected' : 'queued', scope);
      }
    }
  }

  /** The last outcome; a failure says maybe-sent if any earlier try may have reached the gateway. */
  private settle(outcome: RawResponse | TransportError, maybeSent: boolean): RawResponse {
    if (!(outcome instanceof TransportError)) return outcome;
    if (maybeSent && outcome.delivery === 'not-sent') {
      throw new TransportError(outcome.exitCode, outcome.message, 'maybe-sent', outcome.hint, { final: outcome.final });
    }
    throw outcome;
  }

  private aborted(progress: Progress, scope: SendScope): TransportError {
    const signal = this.options.signal;
    return abortedError(progress, scope.budgetMs, this.ctx, signal?.aborted === true ? (signal.reason ?? 'interrupted') : undefined);
  }

  /** One try: the request sent, its answer read. */
  private async once(req: TransportRequest, scope: SendScope): Promise<HttpAnswer> {
    const out = this.outgoing(req);
    const started = Date.now();
    if (scope.signal.aborted) throw this.aborted('queued', scope);
    const response = await this.dispatch(out, scope, started);
    return this.readAnswer(response, out.target, started, scope);
  }

  /** The request as it goes on the wire: path (absolute through a proxy for http://), method, headers, body. */
  private outgoing(req: TransportRequest): Outgoing {
    const url = this.url(req.path);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'gw',
      ...req.headers,
    };
    let body: Uint8Array | string | undefined;
    if (req.body !== undefined) {
      body = req.body;
    } else if (req.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = req.json;
    }
    let path = `${url.pathname}${url.search}`;
    headers.host = url.host;
    if (this.forward) {
      // As curl sends a request for an http:// URL to a proxy: the absolute URL, the origin's Host.
      path = `${url.origin}${path}`;
      if (this.plan.proxy?.authorization !== undefined) headers['proxy-authorization'] = this.plan.proxy.authorization;
    }
    return { path, method: req.method, headers, body: body ?? null, target: `${req.method} ${url.origin}${url.pathname}` };
  }

  /**
   * One try's request and the head of its answer. The connector reports to this try how far it
   * got, which decides whether a failure may have reached the gateway; every failure drops the
   * connections and is said as a TransportError (gw's own from the in-memory sandbox as it is).
   */
  private async dispatch(out: Outgoing, scope: SendScope, started: number): Promise<AnswerHead> {
    const inMemory = this.options.exchanger !== undefined;
    const attempt: Attempt = { progress: inMemory || this.pool?.connected === true ? 'connected' : 'queued' };
    if (inMemory) this.observe((o) => o.onConnect?.({}));
    this.current = { attempt, signal: scope.signal };
    try {
      const pending = this.exchanger().exchange({ path: out.path, method: out.method, headers: out.headers, body: out.body }, scope.signal);
      // If the deadline wins the race below, the request's own rejection comes later: not unhandled.
      pending.catch(noop);
      return await abortable(pending, scope.signal);
    } catch (error) {
      this.discardConnections();
      // gw's own failure from the in-memory sandbox (its journal): as it is.
      if (error instanceof GwError) throw error;
      if (scope.signal.aborted) {
        this.log(`gw: ${out.target} → aborted after ${Date.now() - started} ms (${describeProgress(attempt.progress)})`);
        throw this.aborted(attempt.progress, scope);
      }
      this.log(`gw: ${out.target} → ${failureCode(error)} after ${Date.now() - started} ms`);
      // The original error stays the cause: what a notification's delivery reports is read from it.
      if (isConnectFailure(error)) throw withCause(connectFailureError(error, this.ctx), error);
      throw withCause(requestFailureError(error, this.ctx, this.forward), error);
    } finally {
      if (this.current?.attempt === attempt) this.current = undefined;
    }
  }

  /** The answer: its body read within the size limit and the deadline, scrubbed of every key. */
  private async readAnswer(response: AnswerHead, target: string, started: number, scope: SendScope): Promise<HttpAnswer> {
    const { statusCode, headers: resHeaders, body: stream } = response;
    const date = resHeaders.date;
    this.observe((o) => o.onResponse?.({ status: statusCode, ...(typeof date === 'string' && { date }), receivedAt: Date.now() }));
    // A body stream destroyed with an error emits it: always give it a listener.
    stream.on('error', noop);
    if (this.forward && statusCode === 407 && this.plan.proxy) {
      stream.destroy();
      this.discardConnections();
      this.log(`gw: ${target} → 407 from the proxy`);
      throw proxyAuthError(this.plan.proxy);
    }
    const contentType = typeof resHeaders['content-type'] === 'string' ? resHeaders['content-type'] : undefined;
    const declared = Number(resHeaders['content-length']);
    const keep = this.options.answerLimit;
    if (keep === undefined && Number.isFinite(declared) && declared > this.maxBytes) {
      stream.destroy();
      this.discardConnections();
      this.log(`gw: ${target} → ${statusCode}, refused: ${declared} bytes declared`);
      throw this.tooLarge();
    }
    const read: { size: number; kept?: Buffer[] } = { size: 0 };
    let chunks: Buffer[];
    let truncated = false;
    // This makes sure the reading below cannot outlive the deadline.
    const onAbort = (): void => void stream.destroy(new Error('aborted'));
    scope.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const body = await readBody(stream, this.maxBytes, read, keep);
      if (body === 'too-large' || body.truncated) {
        if (keep === undefined) {
          this.log(`gw: ${target} → ${statusCode}, refused after ${read.size} bytes`);
          throw this.tooLarge();
        }
        truncated = true;
        // Reading stopped before the end: the connection cannot carry another request.
        if (body === 'too-large') this.discardConnections();
      }
      chunks = body === 'too-large' ? (read.kept ?? []) : body.chunks;
    } catch (error) {
      this.discardConnections();
      if (error instanceof GwError) throw error;
      if (scope.signal.aborted) {
        this.log(`gw: ${target} → ${statusCode}, aborted after ${Date.now() - started} ms while reading the body`);
        throw this.aborted('connected', scope);
      }
      const failure = withCause(requestFailureError(error, this.ctx, this.forward), error);
      if (failure.exitCode === ExitCode.PROTOCOL) {
        this.log(`gw: ${target} → ${statusCode}, ${failureCode(error)} after ${read.size} bytes`);
        throw failure;
      }
      this.log(`gw: ${target} → ${statusCode}, body cut off after ${read.size} bytes`);
      throw withCause(
        new TransportError(ExitCode.PROTOCOL, `the gateway's answer was cut off after ${read.size} bytes (HTTP ${statusCode})`, 'maybe-sent'),
        Object.assign(new Error('cut off'), { code: 'GW_BODY_CUT_OFF' }),
      );
    } finally {
      scope.signal.removeEventListener('abort', onAbort);
    }
    this.log(`gw: ${target} → ${statusCode} (${Date.now() - started} ms, ${read.size} bytes${truncated ? ', cut' : ''})`);
    const result: HttpAnswer = {
      status: statusCode,
      contentType,
      // Scrubbed before anything cuts or reformats the text, so no part of a key can survive.
      body: this.scrub(new TextDecoder().decode(Buffer.concat(chunks))),
    };
    const retryAfter = resHeaders['retry-after'];
    if (retryAfter !== undefined) result.retryAfter = retryAfter;
    if (truncated) result.truncated = true;
    return result;
  }

  private tooLarge(): ProtocolError {
    return new ProtocolError(`the gateway's answer is larger than ${Math.round(this.maxBytes / 1024)} KiB; refused`);
  }
}

/** A TransportError with the error it was made from as its cause. */
function withCause<E extends Error>(failure: E, cause: unknown): E {
  failure.cause = cause;
  return failure;
}

function describeProgress(progress: Progress): string {
  switch (progress) {
    case 'queued':
    case 'tcp':
      return 'while connecting';
    case 'proxy':
      return 'while connecting to the proxy';
    case 'tunnel':
      return 'while the proxy opened the tunnel';
    case 'tls':
      return 'during the TLS handshake';
    case 'connected':
      return 'waiting for the answer';
  }
}
