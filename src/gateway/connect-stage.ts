// One stage of opening a connection (TCP to the gateway or the proxy, the proxy's tunnel, TLS):
// its name, the failure that ends it, and how it runs under the caller's signal. Shared by the
// connector and the CONNECT exchange (tunnel.ts), which is loaded only when a proxy applies.
import type { Socket } from 'node:net';
import type { PeerCertificateInfo } from './tls-errors.js';

export type ConnectStage = 'proxy' | 'tunnel' | 'tcp' | 'tls';

export interface ConnectFailureDetails {
  /** The proxy's answer to CONNECT, when it refused. */
  status?: number;
  statusText?: string;
  cert?: PeerCertificateInfo;
  cause?: unknown;
}

export class ConnectFailure extends Error {
  /** Deliberately none of Node's codes: the transport reads the stage and reason, never a code. */
  readonly code = 'GW_CONNECT_FAILED';

  constructor(
    readonly stage: ConnectStage,
    /** An errno or TLS code (ECONNREFUSED, CERT_HAS_EXPIRED…), or: aborted, closed, status, bad-answer. */
    readonly reason: string,
    readonly details: ConnectFailureDetails = {},
  ) {
    super(`${stage}: ${reason}${details.status === undefined ? '' : ` ${details.status}`}`);
    this.name = 'ConnectFailure';
  }
}

export interface ConnectTarget {
  protocol: 'http:' | 'https:';
  /** Host name or IP address (IPv6 without brackets). */
  hostname: string;
  port: number;
}

/** The errno or TLS code of a socket's error, or 'failed'. */
export function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'failed';
}

/**
 * Runs `start` until it settles, the signal aborts, or the socket fails; always removes its
 * listeners, and destroys the socket on failure.
 */
export function runStage<T>(
  socket: Socket,
  name: ConnectStage,
  signal: AbortSignal,
  start: (resolve: (value: T) => void, fail: (failure: ConnectFailure) => void) => (() => void) | void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let cleanup: (() => void) | void;
    let settled = false;
    const finish = (): void => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('close', onClose);
      cleanup?.();
    };
    const fail = (failure: ConnectFailure): void => {
      if (settled) return;
      finish();
      socket.destroy();
      reject(failure);
    };
    const onAbort = (): void => fail(new ConnectFailure(name, 'aborted'));
    const onError = (error: Error): void => fail(new ConnectFailure(name, codeOf(error), { cause: error }));
    const onClose = (): void => fail(new ConnectFailure(name, 'closed'));
    if (signal.aborted) return fail(new ConnectFailure(name, 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', onError);
    socket.on('close', onClose);
    cleanup = start((value) => {
      if (settled) return;
      finish();
      resolve(value);
    }, fail);
  });
}
