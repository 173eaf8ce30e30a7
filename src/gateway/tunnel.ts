// The HTTP CONNECT exchange with a proxy (RFC 9110 §9.3.6), on a TCP connection to it that is
// already open: ask for a tunnel to the gateway's host:port, with Proxy-Authorization when the
// proxy URL carried credentials, and read the proxy's answer head. A 2xx opens the tunnel (TLS
// with the gateway follows inside it); anything else is a ConnectFailure of stage 'tunnel'.
// Loaded only when a proxy applies to an https:// gateway.
import type { Socket } from 'node:net';
import { ConnectFailure, runStage, type ConnectTarget } from './connect-stage.js';
import type { ProxyConfig } from './proxy.js';

/** The longest CONNECT answer head read before giving up on the proxy. */
export const MAX_CONNECT_HEAD_BYTES = 16 * 1024;

export interface ConnectAnswer {
  status: number;
  statusText: string;
}

/** Parses the head of a proxy's answer to CONNECT (up to, not including, the blank line). */
export function parseConnectHead(head: string): ConnectAnswer | undefined {
  const statusLine = head.split('\r\n', 1)[0] ?? '';
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (!m) return undefined;
  return { status: Number(m[1]), statusText: (m[2] ?? '').trim() };
}

/** The CONNECT request, as bytes to write. */
export function connectRequest(target: ConnectTarget, proxy: ProxyConfig, userAgent: string): string {
  const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
  const authority = `${host}:${target.port}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, `User-Agent: ${userAgent}`, 'Proxy-Connection: Keep-Alive'];
  if (proxy.authorization !== undefined) lines.push(`Proxy-Authorization: ${proxy.authorization}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function openTunnel(socket: Socket, target: ConnectTarget, proxy: ProxyConfig, userAgent: string, signal: AbortSignal): Promise<void> {
  return runStage<void>(socket, 'tunnel', signal, (resolve, fail) => {
    let head = Buffer.alloc(0);
    const onReadable = (): void => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          if (head.length > MAX_CONNECT_HEAD_BYTES) return fail(new ConnectFailure('tunnel', 'bad-answer'));
          continue;
        }
        const answer = parseConnectHead(head.subarray(0, end).toString('latin1'));
        if (answer === undefined) return fail(new ConnectFailure('tunnel', 'bad-answer'));
        if (answer.status < 200 || answer.status > 299) {
          return fail(new ConnectFailure('tunnel', 'status', { status: answer.status, statusText: answer.statusText }));
        }
        // Nothing may follow a 2xx before the TLS handshake starts (the gateway speaks second).
        if (head.length > end + 4) return fail(new ConnectFailure('tunnel', 'bad-answer'));
        return resolve();
      }
    };
    const onEnd = (): void => fail(new ConnectFailure('tunnel', 'closed'));
    socket.on('readable', onReadable);
    socket.on('end', onEnd);
    socket.write(connectRequest(target, proxy, userAgent));
    return () => {
      socket.off('readable', onReadable);
      socket.off('end', onEnd);
    };
  });
}
