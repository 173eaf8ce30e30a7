// One POST to a URL of the user's (a notification receiver: `gw webhook send`, `gw listen
// --forward-to`, the sandbox's deliveries; `gw sandbox trigger|resend` to a running sandbox) through
// the one Transport every request of gw takes: the proxy chosen as curl chooses it (proxy.ts, the
// caller resolves it), TLS verified by the connector with the same advice on a failure, `--verbose`
// lines (method, URL, status, time, size; never headers or bodies), one deadline for every phase.
//
// A POST is tried exactly once: never retried as a read is, whatever happens (a 5xx, a reset, a
// connection refused); whoever sends again (the sandbox's schedule, the gateway) decides that.
// Never follows redirects. The answer's first ANSWER_LIMIT bytes are kept, the rest read and
// dropped up to DRAIN_LIMIT, where reading stops. Failures are values the caller reports, never
// thrown errors.
import { ExitCode, GwError } from '../errors.js';
import type { ConnectFailure } from './connect-stage.js';
import type { ProxyConfig } from './proxy.js';
import { describeTlsFailure, type TlsPeer } from './tls-errors.js';
import { Transport, TransportError } from './transport.js';

/** Largest answer body kept (the rest is read and dropped, up to DRAIN_LIMIT). */
export const ANSWER_LIMIT = 16 * 1024;
const DRAIN_LIMIT = 1024 * 1024;

export interface PostOptions {
  /** The budget of the POST: connecting (proxy, tunnel, TLS included), headers and body. */
  timeoutMs: number;
  /** Ends the POST (Ctrl-C, a receiver closing): an 'aborted' failure. */
  signal?: AbortSignal;
  /** The proxy to go through (proxyFor in proxy.ts, for this URL); none: connect directly. */
  proxy?: ProxyConfig;
  /** --verbose: one line per request (and the proxy used). */
  log?: (line: string) => void;
  /** Strings never to appear in a log line or in the answer kept (the keys). */
  secrets?: readonly string[];
  /** Who answers, in messages about TLS; default: the receiver (its URL). */
  peer?: TlsPeer;
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
  /** What to do about it, when there is something to say (a certificate this computer does not trust). */
  hint?: string;
  ms: number;
}

export type PostResult = PostAnswer | PostFailure;

const RECEIVER: TlsPeer = { who: 'the receiver', url: 'the URL' };
/** Exactly one attempt. */
const NO_RETRY = { retries: 0, baseDelayMs: 0, maxDelayMs: 0 };

/** POSTs `body` to `url`. Resolves with the answer or a failure; never rejects. */
export async function postBytes(url: URL, body: Uint8Array | string, headers: Readonly<Record<string, string>>, options: PostOptions): Promise<PostResult> {
  const started = Date.now();
  const sent: Record<string, string> = { ...headers };
  // Credentials in the URL go to the receiver as Basic authentication, as node:http sends them.
  if ((url.username !== '' || url.password !== '') && !Object.keys(sent).some((name) => name.toLowerCase() === 'authorization')) {
    sent.authorization = `Basic ${Buffer.from(`${decode(url.username)}:${decode(url.password)}`, 'utf8').toString('base64')}`;
  }
  let transport: Transport | undefined;
  try {
    transport = new Transport({
      baseUrl: new URL(url.origin),
      timeoutMs: options.timeoutMs,
      retry: NO_RETRY,
      maxResponseBytes: DRAIN_LIMIT,
      answerLimit: ANSWER_LIMIT,
      ...(options.signal && { signal: options.signal }),
      ...(options.proxy && { proxy: options.proxy }),
      ...(options.log && { log: options.log }),
      ...(options.secrets && { secrets: options.secrets }),
      ...(headers['user-agent'] !== undefined && { userAgent: headers['user-agent'] }),
    });
    const answer = await transport.send({ method: 'POST', path: `${url.pathname}${url.search}`, headers: sent, body, idempotent: false });
    return { ok: true, status: answer.status, body: answer.body, truncated: answer.truncated === true, ms: Date.now() - started };
  } catch (error) {
    return { ok: false, ...describeFailure(error, url, options), ms: Date.now() - started };
  } finally {
    void transport?.close();
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

type Described = Pick<PostFailure, 'kind' | 'message' | 'hint'>;

/** A failed POST as the callers report it: its kind, one line, and a hint when there is one. */
function describeFailure(error: unknown, url: URL, options: PostOptions): Described {
  if (options.signal?.aborted === true) return { kind: 'aborted', message: 'stopped' };
  if (!(error instanceof GwError)) return { kind: 'failed', message: 'the request could not be made' };
  const cause = error.cause;
  const withHint = (described: Described): Described => (error.hint === undefined ? described : { ...described, hint: error.hint });
  if (cause instanceof Error && cause.name === 'ConnectFailure') {
    const { stage, reason, details } = cause as ConnectFailure;
    if (stage === 'tls') {
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      const tls = describeTlsFailure(reason === 'closed' ? '' : reason, url.host, hostname, details.cert, options.peer ?? RECEIVER);
      return { kind: 'failed', message: tls.message, hint: tls.hint };
    }
    // The proxy (or its tunnel) failed: the Transport's words, which name the proxy and its variable.
    if (stage === 'proxy' || stage === 'tunnel') return withHint({ kind: kindOf(reason) ?? 'failed', message: error.message });
    return byCode(reason);
  }
  if (error instanceof TransportError && error.exitCode === ExitCode.TEMPFAIL) {
    return { kind: 'timeout', message: `no answer within ${formatSeconds(options.timeoutMs)}` };
  }
  const code = codeOf(cause);
  if (code === 'GW_BODY_CUT_OFF' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error.exitCode === ExitCode.PROTOCOL && kindOf(code) === 'reset')) {
    return { kind: 'reset', message: 'the connection broke while the answer was read' };
  }
  if (error.exitCode === ExitCode.PROTOCOL) return { kind: 'failed', message: 'the answer is not valid HTTP/1.1' };
  // A proxy asking for credentials (407), a header value HTTP cannot carry: as the Transport says it.
  if (error.exitCode === ExitCode.CONFIG) return withHint({ kind: 'failed', message: error.message });
  return code === undefined ? { kind: 'failed', message: 'the request failed' } : byCode(code);
}

/** The first errno-like code along an error's causes. */
function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function kindOf(code: string | undefined): PostFailureKind | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return 'unreachable';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'closed':
      return 'reset';
    default:
      return undefined;
  }
}

function byCode(code: string): Described {
  switch (code) {
    case 'ECONNREFUSED':
      return { kind: 'refused', message: 'connection refused (is the receiver running?)' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { kind: 'unreachable', message: `the host name does not resolve (${code})` };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return { kind: 'unreachable', message: `the host cannot be reached (${code})` };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'closed':
      return { kind: 'reset', message: 'the connection was reset' };
    default:
      return { kind: 'failed', message: `the request failed (${code})` };
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
