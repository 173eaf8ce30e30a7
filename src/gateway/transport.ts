// The one HTTP transport (undici) every command goes through. It owns the policy:
// - one deadline per command (--timeout) covering connect, headers, body and every retry;
// - a cap on response size, enforced while streaming (a larger answer is refused, never buffered);
// - retries only where safe: read-only requests retry connection errors, 5xx and 429 with
//   exponential backoff, jitter and Retry-After; a request that may create something (pay) is sent
//   again only when the connection was refused before any byte went out;
// - failures as TransportError, which says whether the request may have reached the gateway.
//
// Start-up cost: undici's index loads every dispatcher, fetch, websockets, caches and mocks
// (~45 ms); gw talks to one origin, so it loads only undici's HTTP/1 Client and its request API.
// undici parses HTTP with llhttp compiled to WebAssembly; V8's optimising tier roughly doubles the
// process's memory for that compile, so the transport asks for the baseline compiler (Liftoff)
// only, which is plenty for parsing one small answer. See README "Performance".
import v8 from 'node:v8';
import type { Dispatcher } from 'undici';
import Client from 'undici/lib/dispatcher/client.js';
import request from 'undici/lib/api/api-request.js';
import { ExitCode, GwError, ProtocolError } from '../errors.js';
import { scrubSecrets } from '../output/sanitize.js';
import type { RawResponse } from './envelope.js';

export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface RetryPolicy {
  /** Further tries after the first. */
  retries: number;
  baseDelayMs: number;
  /** Longest wait between tries, Retry-After included; a longer Retry-After ends the retries. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 300, maxDelayMs: 5000 };

export interface TransportOptions {
  baseUrl: URL;
  timeoutMs: number;
  /** Aborts everything (Ctrl-C). */
  signal?: AbortSignal;
  /** --verbose: one line per request on stderr. */
  log?: (line: string) => void;
  /** Strings that must never appear in a log line (the keys). */
  secrets?: readonly string[];
  maxResponseBytes?: number;
  retry?: RetryPolicy;
  userAgent?: string;
}

export interface TransportRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: string;
  /** Safe to send again after it may have reached the gateway (read-only operations). */
  idempotent: boolean;
}

/** An HTTP answer, with the Retry-After header kept for the retry loop. */
type HttpAnswer = RawResponse & { retryAfter?: string | string[] };

/** Whether the request may have reached the gateway before it failed. */
export type Delivery = 'not-sent' | 'maybe-sent';

export class TransportError extends GwError {
  constructor(
    exitCode: ExitCode,
    message: string,
    readonly delivery: Delivery,
    hint?: string,
  ) {
    super(exitCode, message, hint === undefined ? {} : { hint });
    this.name = 'TransportError';
  }
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if (code === 'UND_ERR_SOCKET' && !(e.cause instanceof Error)) return code;
  }
  return undefined;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Retry-After in milliseconds (delta-seconds or an HTTP date), if present and sane. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (it names a weekday or month); Date.parse would read "1.5" or "-5" as a year.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: attempt 1 → 50–100% of base, attempt 2 → 50–100% of 2×base… */
export function backoffMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class Transport {
  private readonly client: InstanceType<typeof Client>;
  private readonly deadline: number;
  private readonly signal: AbortSignal;
  private readonly timeoutSignal: AbortSignal;
  private readonly maxBytes: number;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: TransportOptions) {
    this.deadline = Date.now() + options.timeoutMs;
    this.timeoutSignal = AbortSignal.timeout(options.timeoutMs);
    this.signal = options.signal ? AbortSignal.any([options.signal, this.timeoutSignal]) : this.timeoutSignal;
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.retry = options.retry ?? DEFAULT_RETRY;
    v8.setFlagsFromString('--liftoff-only');
    this.client = new Client(options.baseUrl.origin, {
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 1000,
    });
  }

  /** Closes sockets so the process can exit as soon as the output is written. */
  async close(): Promise<void> {
    await this.client.destroy().catch(() => undefined);
  }

  /** Replaces every key with ****: in log lines, and in answers that echo a key back. */
  private scrub(text: string): string {
    return scrubSecrets(text, this.options.secrets ?? []);
  }

  private log(line: string): void {
    this.options.log?.(this.scrub(line));
  }

  private url(path: string): URL {
    const base = this.options.baseUrl;
    const url = new URL(base.href);
    url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
    return url;
  }

  async send(req: TransportRequest): Promise<RawResponse> {
    for (let attempt = 1; ; attempt++) {
      let outcome: HttpAnswer | TransportError;
      try {
        outcome = await this.once(req);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        outcome = error;
      }
      const retryable =
        outcome instanceof TransportError
          ? outcome.exitCode !== ExitCode.INTERRUPTED && !this.signal.aborted && (req.idempotent || outcome.delivery === 'not-sent')
          : req.idempotent && (outcome.status >= 500 || outcome.status === 429);
      if (!retryable || attempt > this.retry.retries) return this.settle(outcome);

      const asked = outcome instanceof TransportError ? undefined : retryAfterMs(outcome.retryAfter);
      if (asked !== undefined && asked > this.retry.maxDelayMs) {
        this.log(`gw: not retrying: the gateway asks to wait ${Math.ceil(asked / 1000)} s`);
        return this.settle(outcome);
      }
      const delay = asked ?? backoffMs(attempt, this.retry);
      if (Date.now() + delay >= this.deadline) return this.settle(outcome);
      const why = outcome instanceof TransportError ? outcome.message : `HTTP ${outcome.status}`;
      this.log(`gw: retrying in ${delay} ms (${why})`);
      try {
        await sleep(delay, this.signal);
      } catch {
        throw this.abortError('maybe-sent');
      }
    }
  }

  private settle(outcome: RawResponse | TransportError): RawResponse {
    if (outcome instanceof TransportError) throw outcome;
    return outcome;
  }

  private abortError(delivery: Delivery): TransportError {
    if (this.options.signal?.aborted) return new TransportError(ExitCode.INTERRUPTED, 'interrupted', delivery);
    const seconds = this.options.timeoutMs / 1000;
    return new TransportError(
      ExitCode.TEMPFAIL,
      `no complete answer from the gateway within ${seconds} s`,
      delivery,
      'raise --timeout, or check the gateway and the network',
    );
  }

  private async once(req: TransportRequest): Promise<HttpAnswer> {
    const url = this.url(req.path);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'gw',
      ...req.headers,
    };
    let body: string | undefined;
    if (req.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = req.json;
    }
    const started = Date.now();
    const target = `${req.method} ${url.origin}${url.pathname}`;
    if (this.signal.aborted) throw this.abortError('not-sent');

    let response: Dispatcher.ResponseData;
    try {
      response = await request.call(this.client, {
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        body: body ?? null,
        signal: this.signal,
      });
    } catch (error) {
      if (this.signal.aborted) {
        this.log(`gw: ${target} → aborted after ${Date.now() - started} ms`);
        throw this.abortError('maybe-sent');
      }
      const code = errorCode(error);
      this.log(`gw: ${target} → ${code ?? 'failed'} after ${Date.now() - started} ms`);
      throw this.connectionError(code);
    }

    const { statusCode, headers: resHeaders, body: stream } = response;
    const contentType = typeof resHeaders['content-type'] === 'string' ? resHeaders['content-type'] : undefined;
    const declared = Number(resHeaders['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      stream.destroy();
      this.log(`gw: ${target} → ${statusCode}, refused: ${declared} bytes declared`);
      throw this.tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > this.maxBytes) {
          stream.destroy();
          this.log(`gw: ${target} → ${statusCode}, refused after ${size} bytes`);
          throw this.tooLarge();
        }
        chunks.push(buf);
      }
    } catch (error) {
      if (error instanceof GwError) throw error;
      if (this.signal.aborted) {
        this.log(`gw: ${target} → ${statusCode}, aborted after ${Date.now() - started} ms while reading the body`);
        throw this.abortError('maybe-sent');
      }
      this.log(`gw: ${target} → ${statusCode}, body cut off after ${size} bytes`);
      throw new TransportError(ExitCode.PROTOCOL, `the gateway's answer was cut off after ${size} bytes (HTTP ${statusCode})`, 'maybe-sent');
    }
    this.log(`gw: ${target} → ${statusCode} (${Date.now() - started} ms, ${size} bytes)`);
    const result: HttpAnswer = {
      status: statusCode,
      contentType,
      // Scrubbed before anything cuts or reformats the text, so no part of a key can survive.
      body: this.scrub(new TextDecoder().decode(Buffer.concat(chunks))),
    };
    const retryAfter = resHeaders['retry-after'];
    if (retryAfter !== undefined) result.retryAfter = retryAfter;
    return result;
  }

  private tooLarge(): ProtocolError {
    return new ProtocolError(`the gateway's answer is larger than ${Math.round(this.maxBytes / 1024)} KiB; refused`);
  }

  private connectionError(code: string | undefined): TransportError {
    const host = this.options.baseUrl.host;
    switch (code) {
      case 'ECONNREFUSED':
        return new TransportError(
          ExitCode.UNAVAILABLE,
          `cannot connect to the gateway at ${host}: connection refused`,
          'not-sent',
          'check the base URL and that the gateway is up',
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new TransportError(
          ExitCode.UNAVAILABLE,
          `cannot find the gateway host ${this.options.baseUrl.hostname} (DNS lookup failed)`,
          'not-sent',
          'check the base URL and your network',
        );
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new TransportError(ExitCode.TEMPFAIL, `connecting to the gateway at ${host} timed out`, 'not-sent');
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return this.abortError('maybe-sent');
      default:
        if (code !== undefined && NOT_SENT_CODES.has(code)) {
          return new TransportError(ExitCode.UNAVAILABLE, `cannot connect to the gateway at ${host}: ${code}`, 'not-sent');
        }
        return new TransportError(ExitCode.UNAVAILABLE, `the connection to the gateway at ${host} failed${code ? ` (${code})` : ''}`, 'maybe-sent');
    }
  }
}
