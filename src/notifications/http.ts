// One small HTTP client for notifications (node:http/https): the sandbox's deliveries, `gw listen
// --forward-to` and `gw webhook send` post a body with headers to one URL and read a bounded
// answer. Never follows redirects, bounded in time (connect, headers and body together) and in the
// size of the answer it keeps; failures are values the caller reports, never thrown errors.
import { request as httpRequest, type Agent as HttpAgent, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';

/** Largest answer body kept (the rest is read and dropped, up to DRAIN_LIMIT). */
export const ANSWER_LIMIT = 16 * 1024;
const DRAIN_LIMIT = 1024 * 1024;

export interface PostOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  agent?: HttpAgent | HttpsAgent | false;
}

export interface PostAnswer {
  ok: true;
  status: number;
  /** The answer's body (up to ANSWER_LIMIT bytes), UTF-8. */
  body: string;
  truncated: boolean;
  ms: number;
}

export type PostFailureKind = 'refused' | 'timeout' | 'unreachable' | 'reset' | 'aborted' | 'failed';

export interface PostFailure {
  ok: false;
  kind: PostFailureKind;
  /** One line for a person, e.g. "connection refused". */
  message: string;
  ms: number;
}

export type PostResult = PostAnswer | PostFailure;

/** POSTs `body` to `url`. Resolves with the answer or a failure; never rejects. */
export function postBytes(url: URL, body: Uint8Array | string, headers: Readonly<Record<string, string>>, options: PostOptions): Promise<PostResult> {
  const started = Date.now();
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const fail = (kind: PostFailureKind, message: string): void => finish({ ok: false, kind, message, ms: Date.now() - started });
    // node:https (and node:tls under it) loads only for an https:// receiver: a few ms a run saved.
    const send = url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest;
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(bytes.byteLength) },
      ...(options.agent !== undefined && { agent: options.agent }),
    });
    const timer = setTimeout(() => {
      fail('timeout', `no answer within ${formatSeconds(options.timeoutMs)}`);
      req.destroy();
    }, options.timeoutMs);
    const onAbort = (): void => {
      fail('aborted', 'stopped');
      req.destroy();
    };
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const [kind, message] = describeError(error);
      fail(kind, message);
    });
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (kept < ANSWER_LIMIT) {
          const piece = chunk.subarray(0, ANSWER_LIMIT - kept);
          chunks.push(piece);
          kept += piece.length;
        }
        if (total > DRAIN_LIMIT) {
          finish(answer());
          res.destroy();
        }
      });
      const answer = (): PostAnswer => ({
        ok: true,
        status: res.statusCode ?? 0,
        body: Buffer.concat(chunks).toString('utf8'),
        truncated: total > kept,
        ms: Date.now() - started,
      });
      res.on('end', () => finish(answer()));
      res.on('error', () => fail('reset', 'the connection broke while the answer was read'));
      res.on('close', () => {
        if (!res.complete) fail('reset', 'the connection broke while the answer was read');
      });
    });
    req.end(bytes);
  });
}

function describeError(error: NodeJS.ErrnoException): [PostFailureKind, string] {
  switch (error.code) {
    case 'ECONNREFUSED':
      return ['refused', 'connection refused (is the receiver running?)'];
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return ['unreachable', `the host name does not resolve (${error.code})`];
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return ['unreachable', `the host cannot be reached (${error.code})`];
    case 'ECONNRESET':
    case 'EPIPE':
      return ['reset', 'the connection was reset'];
    default:
      return ['failed', `the request failed${error.code === undefined ? '' : ` (${error.code})`}`];
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Whether the URL's host is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === 'localhost.') return true;
  if (host === '::1') return true;
  // IPv4-mapped 127.x.y.z, as the URL parser writes it (::ffff:7f00:1).
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
