// Transport failures as the user sees them: one plain line, a hint, an exit code, and whether the
// request may have reached the gateway (`delivery`), which decides whether it may be sent again
// and whether `gw pay` warns that the payment may exist. Pure: an error and where it happened in,
// a TransportError out.
//
// - Anything that failed before the connection was ready (TCP, TLS, proxy, tunnel) is 'not-sent':
//   the request is written only afterwards. Everything later is 'maybe-sent'.
// - `final` failures are never retried: a certificate that failed verification, a proxy that
//   wants credentials or refused the tunnel with a 4xx, an answer that is not HTTP.
import { ExitCode, GwError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import type { ConnectFailure, ConnectStage } from './connect-stage.js';
import { proxyLabel, type ProxyConfig } from './proxy.js';
import { describeTlsFailure } from './tls-errors.js';

/** Whether the request may have reached the gateway before it failed. */
export type Delivery = 'not-sent' | 'maybe-sent';

export class TransportError extends GwError {
  /** Retrying cannot help: fail at once, even for a read. */
  readonly final: boolean;

  constructor(
    exitCode: ExitCode,
    message: string,
    readonly delivery: Delivery,
    hint?: string,
    options: { final?: boolean } = {},
  ) {
    super(exitCode, message, hint === undefined ? {} : { hint });
    this.name = 'TransportError';
    this.final = options.final ?? false;
  }
}

/** Where a request stood when it failed: a connection stage, or 'connected' (it may have been written). */
export type Progress = 'queued' | ConnectStage | 'connected';

export interface FailureContext {
  /** host[:port] of the base URL. */
  host: string;
  /** The base URL's host name, IPv6 without brackets. */
  hostname: string;
  proxy?: ProxyConfig;
}

const NO_PROXY_HINT = (ctx: FailureContext): string => `list ${ctx.hostname} in NO_PROXY to connect directly`;

/** "1", "0.4", "15": the budget of a send in seconds, for messages. */
export function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function proxyName(proxy: ProxyConfig): string {
  return `the proxy at ${proxyLabel(proxy)} (from ${proxy.variable})`;
}

function unreachable(what: string, code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `cannot connect to ${what}: connection refused`;
    case 'ETIMEDOUT':
      return `cannot connect to ${what}: the connection timed out`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `cannot connect to ${what}: no route to the host (${code})`;
    default:
      return `cannot connect to ${what}: ${code}`;
  }
}

/** A failure while opening the connection: nothing was sent. */
export function connectFailureError(failure: ConnectFailure, ctx: FailureContext): TransportError {
  const { stage, reason } = failure;
  const notSent = (exit: ExitCode, message: string, hint?: string, final = false): TransportError =>
    new TransportError(exit, message, 'not-sent', hint, { final });

  if (stage === 'tls') {
    const tls = describeTlsFailure(reason === 'closed' ? '' : reason, ctx.host, ctx.hostname, failure.details.cert);
    return notSent(ExitCode.UNAVAILABLE, tls.message, tls.hint, tls.final);
  }
  if (stage === 'proxy' && ctx.proxy) {
    const proxy = ctx.proxy;
    const hint = `check ${proxy.variable}, or ${NO_PROXY_HINT(ctx)}`;
    if (reason === 'ENOTFOUND' || reason === 'EAI_AGAIN') {
      return notSent(ExitCode.UNAVAILABLE, `cannot find the proxy host ${proxy.hostname} (from ${proxy.variable}; DNS lookup failed)`, hint);
    }
    return notSent(ExitCode.UNAVAILABLE, unreachable(proxyName(proxy), reason), hint);
  }
  if (stage === 'tunnel' && ctx.proxy) {
    const proxy = ctx.proxy;
    const who = proxyName(proxy);
    const status = failure.details.status;
    if (reason === 'status' && status === 407) return proxyAuthError(proxy);
    if (reason === 'status' && status !== undefined) {
      const text = oneLine(failure.details.statusText ?? '', 60);
      return notSent(
        ExitCode.UNAVAILABLE,
        `${who} refused to open a connection to ${ctx.host} (HTTP ${status}${text ? ` ${text}` : ''})`,
        `check that the proxy lets you reach ${ctx.host}, or ${NO_PROXY_HINT(ctx)}`,
        status < 500,
      );
    }
    if (reason === 'bad-answer') {
      return notSent(
        ExitCode.UNAVAILABLE,
        `${who} answered the CONNECT request with something that is not HTTP`,
        `check ${proxy.variable}: it must name an HTTP proxy`,
        true,
      );
    }
    if (reason === 'closed') {
      return notSent(ExitCode.UNAVAILABLE, `${who} closed the connection instead of opening one to ${ctx.host}`, `check the proxy, or ${NO_PROXY_HINT(ctx)}`);
    }
    return notSent(ExitCode.UNAVAILABLE, `the connection to ${who} failed (${reason})`, `check the proxy, or ${NO_PROXY_HINT(ctx)}`);
  }
  // Direct TCP to the gateway.
  switch (reason) {
    case 'ECONNREFUSED':
      return notSent(ExitCode.UNAVAILABLE, `cannot connect to the gateway at ${ctx.host}: connection refused`, 'check the base URL and that the gateway is up');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return notSent(ExitCode.UNAVAILABLE, `cannot find the gateway host ${ctx.hostname} (DNS lookup failed)`, 'check the base URL and your network');
    default:
      return notSent(ExitCode.UNAVAILABLE, unreachable(`the gateway at ${ctx.host}`, reason), 'check the base URL and your network');
  }
}

/** The deadline (or Ctrl-C) ended the request at `progress`. */
/**
 * A send ended by its deadline, or by the caller's signal: `interruption` is that signal's reason
 * when it fired (Ctrl-C: exit 130, SIGTERM: 143, as the reason's GwError says).
 */
export function abortedError(progress: Progress, budgetMs: number, ctx: FailureContext, interruption?: unknown): TransportError {
  const delivery: Delivery = progress === 'connected' ? 'maybe-sent' : 'not-sent';
  if (interruption !== undefined) {
    const reason = interruption instanceof GwError ? interruption : undefined;
    return new TransportError(reason?.exitCode ?? ExitCode.INTERRUPTED, reason?.message ?? 'interrupted', delivery);
  }
  const s = seconds(budgetMs);
  const proxy = ctx.proxy;
  switch (progress) {
    case 'connected':
      return new TransportError(
        ExitCode.TEMPFAIL,
        `no complete answer from the gateway within ${s} s`,
        delivery,
        'raise --timeout, or check the gateway and the network',
      );
    case 'tls':
      return new TransportError(
        ExitCode.TEMPFAIL,
        `the TLS handshake with the gateway at ${ctx.host} did not complete within ${s} s`,
        delivery,
        'check the base URL (is the port right?) and the network, or raise --timeout',
      );
    case 'proxy':
      if (proxy)
        return new TransportError(
          ExitCode.TEMPFAIL,
          `could not connect to ${proxyName(proxy)} within ${s} s`,
          delivery,
          `check ${proxy.variable} and the network, or raise --timeout`,
        );
      break;
    case 'tunnel':
      if (proxy)
        return new TransportError(
          ExitCode.TEMPFAIL,
          `${proxyName(proxy)} did not open a connection to ${ctx.host} within ${s} s`,
          delivery,
          `check the proxy, or ${NO_PROXY_HINT(ctx)}, or raise --timeout`,
        );
      break;
    default:
      break;
  }
  return new TransportError(
    ExitCode.TEMPFAIL,
    `could not connect to the gateway at ${ctx.host} within ${s} s`,
    delivery,
    'check the base URL, the network and any firewall, or raise --timeout',
  );
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The code of the failure http1.ts reports for a 101 answer no request asked for (with a `reason`, as the parser's errors). */
export const UNREQUESTED_UPGRADE = 'GW_UNREQUESTED_UPGRADE';

/** Node's HTTP parser refused the answer (its codes are llhttp's, HPE_…), or it was a 101 nobody asked for. */
function isParseError(code: string | undefined): boolean {
  return code?.startsWith('HPE_') === true || code === UNREQUESTED_UPGRADE;
}

/** The code logged for a failure (--verbose). */
export function failureCode(error: unknown): string {
  if (error instanceof Error && error.name === 'ConnectFailure') {
    const f = error as ConnectFailure;
    return f.reason === 'status' ? `${f.stage}: HTTP ${f.details.status}` : `${f.stage}: ${f.reason}`;
  }
  const code = errorCode(error);
  if (isParseError(code)) return `not HTTP/1.1 (${parserReason(error)})`;
  return code ?? 'failed';
}

/** The reason the parser gives: Node's error carries it as `reason` ("Invalid header value char"). */
function parserReason(error: unknown): string {
  const reason = (error as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? oneLine(reason, 80) : '';
}

/**
 * A failure once the connection was ready (the request may have been written), as node:http
 * reported it. Timeouts are not handled here: see abortedError.
 */
export function requestFailureError(error: unknown, ctx: FailureContext, forwardProxy: boolean): TransportError {
  const code = errorCode(error);
  const understood = 'check that the base URL points at the gateway';
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new TransportError(ExitCode.PROTOCOL, "the gateway's answer could not be understood: its headers are too large", 'maybe-sent', understood, {
      final: true,
    });
  }
  if (isParseError(code)) {
    const reason = parserReason(error);
    return new TransportError(
      ExitCode.PROTOCOL,
      `the gateway's answer could not be understood: it is not valid HTTP/1.1${reason ? ` (${reason})` : ''}`,
      'maybe-sent',
      understood,
      { final: true },
    );
  }
  const where = forwardProxy && ctx.proxy ? `${proxyName(ctx.proxy)} to the gateway at ${ctx.host}` : `the gateway at ${ctx.host}`;
  return new TransportError(ExitCode.UNAVAILABLE, `the connection to ${where} failed${code ? ` (${code})` : ''}`, 'maybe-sent');
}

/** The proxy wants credentials, or refused the ones given (HTTP 407): nothing went further. */
export function proxyAuthError(proxy: ProxyConfig): TransportError {
  const who = proxyName(proxy);
  return proxy.authorization === undefined
    ? new TransportError(
        ExitCode.CONFIG,
        `${who} asks for a user name and password (HTTP 407)`,
        'not-sent',
        `put them in ${proxy.variable}: http://user:password@host:port (percent-encode special characters)`,
        { final: true },
      )
    : new TransportError(
        ExitCode.CONFIG,
        `${who} refused the user name and password given in ${proxy.variable} (HTTP 407)`,
        'not-sent',
        `check the proxy credentials in ${proxy.variable} (percent-encode special characters)`,
        { final: true },
      );
}

/** True for a ConnectFailure (without importing the class: it lives in connect-stage.ts, with the connector). */
export function isConnectFailure(error: unknown): error is ConnectFailure {
  return error instanceof Error && error.name === 'ConnectFailure';
}
