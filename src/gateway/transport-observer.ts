// What a Transport tells an observer (gw doctor, the tests): the connection it opened (TLS facts
// for an https:// gateway), a connection it could not open, and each answer's head. Observing
// never changes a request.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { certificateDate, certificateNames } from './tls-errors.js';

/** What a connection to the gateway turned out to be. */
export interface ConnectionInfo {
  /** The TLS session, for an https:// gateway. */
  tls?: TlsInfo;
}

export interface TlsInfo {
  /** The name the certificate was checked against (the base URL's host). */
  hostname: string;
  /** TLSv1.3, TLSv1.2… */
  protocol?: string;
  /** The certificate's subject common name, and the names it covers. */
  subject?: string;
  names: string[];
  issuer?: string;
  /** Dates as YYYY-MM-DD. */
  validFrom?: string;
  validTo?: string;
}

/** An answer's facts, before its body is read. */
export interface ResponseInfo {
  status: number;
  /** The Date header as sent, if any. */
  date?: string;
  /** When the headers arrived (epoch ms, this machine's clock). */
  receivedAt: number;
}

export interface TransportObserver {
  onConnect?(info: ConnectionInfo): void;
  /** A connection could not be opened: at which stage (tcp, proxy, tunnel, tls) and why. */
  onConnectFailed?(info: { stage: string; reason: string }): void;
  onResponse?(info: ResponseInfo): void;
}

/** The TLS facts of a connection (nothing for plain TCP). */
export function describeConnection(socket: Socket, hostname: string): ConnectionInfo {
  const tlsSocket = socket as Partial<TLSSocket>;
  if (typeof tlsSocket.getPeerCertificate !== 'function') return {};
  const cert = tlsSocket.getPeerCertificate();
  const subject = typeof cert.subject?.CN === 'string' ? cert.subject.CN : undefined;
  const issuer = typeof cert.issuer?.O === 'string' ? cert.issuer.O : typeof cert.issuer?.CN === 'string' ? cert.issuer.CN : undefined;
  const protocol = tlsSocket.getProtocol?.() ?? undefined;
  const validFrom = certificateDate(cert.valid_from);
  const validTo = certificateDate(cert.valid_to);
  return {
    tls: {
      hostname,
      ...(protocol !== undefined && protocol !== null && { protocol }),
      ...(subject !== undefined && { subject }),
      names: certificateNames(cert.subjectaltname, subject),
      ...(issuer !== undefined && { issuer }),
      ...(validFrom !== undefined && { validFrom }),
      ...(validTo !== undefined && { validTo }),
    },
  };
}
