// Opens the connection the transport sends requests on (node:http, http1.ts), in stages, each ended by the caller's
// signal (the send's deadline, or Ctrl-C) and none with a fixed timeout of its own:
//   direct:         TCP to the gateway ('tcp'), then TLS for https:// ('tls');
//   through a proxy, https:// gateway: TCP to the proxy ('proxy'), CONNECT host:port ('tunnel'),
//                   then TLS with the gateway inside the tunnel ('tls');
//   through a proxy, http:// gateway (loopback only): TCP to the proxy ('proxy'); requests then go
//                   to the proxy in absolute form, as curl sends them.
// The request is written only after this succeeds, so any failure here proves it was
// never sent. Failures are ConnectFailure, naming the stage and why.
//
// TLS is verified as Node verifies it (the chain against Node's CAs plus NODE_EXTRA_CA_CERTS,
// then the host name), with one difference: Node is asked not to destroy the socket itself
// (rejectUnauthorized: false) so that the certificate can still be read for the message; the
// socket is handed on only when `authorized` is exactly true, else destroyed. The verdict is the
// same; NODE_TLS_REJECT_UNAUTHORIZED=0 does not weaken it.
import net, { type Socket } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { ProxyConfig } from './proxy.js';
import { codeOf, ConnectFailure, type ConnectStage, type ConnectTarget, runStage } from './connect-stage.js';
import { certificateDate, certificateNames, type PeerCertificateInfo } from './tls-errors.js';

export interface ConnectPlan {
  target: ConnectTarget;
  proxy?: ProxyConfig;
  userAgent: string;
}

const noop = (): void => undefined;

function tcpConnect(hostname: string, port: number, name: ConnectStage, signal: AbortSignal): Promise<Socket> {
  const socket = net.connect({ host: hostname, port });
  // Errors after the hand-over reach node:http's own listener; this one only keeps an error emitted
  // in between from becoming an uncaught exception.
  socket.on('error', noop);
  return runStage<Socket>(socket, name, signal, (resolve) => {
    const onConnect = (): void => {
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 60_000);
      resolve(socket);
    };
    socket.once('connect', onConnect);
    return () => socket.off('connect', onConnect);
  });
}

function certificateInfo(cert: PeerCertificate | undefined): PeerCertificateInfo | undefined {
  if (!cert || Object.keys(cert).length === 0) return undefined;
  const validFrom = certificateDate(cert.valid_from);
  const validTo = certificateDate(cert.valid_to);
  return {
    names: certificateNames(cert.subjectaltname, typeof cert.subject?.CN === 'string' ? cert.subject.CN : undefined),
    ...(validFrom !== undefined && { validFrom }),
    ...(validTo !== undefined && { validTo }),
  };
}

async function tlsHandshake(raw: Socket, target: ConnectTarget, signal: AbortSignal): Promise<TLSSocket> {
  // Loaded only for https:// gateways (the sandbox and loopback tests never pay for it).
  const tls = await import('node:tls');
  if (signal.aborted) {
    raw.destroy();
    throw new ConnectFailure('tls', 'aborted');
  }
  const socket = tls.connect({
    socket: raw,
    host: target.hostname,
    // SNI carries names only (RFC 6066); Node warns when given an IP address.
    ...(net.isIP(target.hostname) === 0 && { servername: target.hostname }),
    ALPNProtocols: ['http/1.1'],
    rejectUnauthorized: false,
  });
  socket.on('error', noop);
  return runStage<TLSSocket>(socket, 'tls', signal, (resolve, fail) => {
    const onSecure = (): void => {
      if (socket.authorized === true) return resolve(socket);
      const reason = socket.authorizationError as unknown;
      const code = typeof reason === 'string' ? reason : codeOf(reason);
      const cert = certificateInfo(socket.getPeerCertificate());
      fail(new ConnectFailure('tls', code === 'failed' ? 'CERT_UNTRUSTED' : code, cert === undefined ? {} : { cert }));
    };
    socket.once('secureConnect', onSecure);
    return () => socket.off('secureConnect', onSecure);
  }).catch((error: unknown) => {
    raw.destroy();
    throw error;
  });
}

/** The connection to send requests on, per the plan; rejects with ConnectFailure. */
export async function openConnection(plan: ConnectPlan, signal: AbortSignal, onStage: (stage: ConnectStage) => void): Promise<Socket> {
  const { target, proxy } = plan;
  onStage(proxy ? 'proxy' : 'tcp');
  let socket: Socket = proxy ? await tcpConnect(proxy.hostname, proxy.port, 'proxy', signal) : await tcpConnect(target.hostname, target.port, 'tcp', signal);
  if (proxy && target.protocol === 'https:') {
    onStage('tunnel');
    try {
      const { openTunnel } = await import('./tunnel.js');
      await openTunnel(socket, target, proxy, plan.userAgent, signal);
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }
  if (target.protocol === 'https:') {
    onStage('tls');
    socket = await tlsHandshake(socket, target, signal);
  }
  return socket;
}
