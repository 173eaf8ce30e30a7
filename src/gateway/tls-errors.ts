// What a failed TLS handshake with the gateway means, in plain words, and what to do about it.
// Pure: an error code (Node's names for OpenSSL's verification results, or ERR_TLS_*/ERR_SSL_*)
// and what is known about the certificate in, a message and a hint out.
//
// A certificate that fails verification fails the same way every time: such failures are never
// retried, and nothing was sent (the request is written only after the handshake succeeded).

export interface PeerCertificateInfo {
  /** DNS names and IP addresses the certificate covers (subjectAltName, else the common name). */
  names: string[];
  /** Dates as YYYY-MM-DD. */
  validFrom?: string;
  validTo?: string;
}

export interface TlsFailure {
  message: string;
  hint: string;
  /** Retrying cannot help (a verification result, or a peer that does not speak TLS). */
  final: boolean;
}

const WRONG_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_FORMAT']);
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT']);
const UNKNOWN_CA = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

/** Node's codes for a certificate that failed verification (OpenSSL X509_V_ERR_* names, plus hostname checks). */
export const TLS_VERIFY_CODES: ReadonlySet<string> = new Set([
  ...WRONG_HOST,
  ...SELF_SIGNED,
  ...UNKNOWN_CA,
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_REJECTED',
  'UNABLE_TO_GET_CRL',
  'CRL_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_SIGNATURE_FAILURE',
]);

export const EXTRA_CA_HINT = 'NODE_EXTRA_CA_CERTS';

/** Certificate names as shown: at most three, quoted, the rest counted. */
function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 3).map((n) => `"${n}"`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** Names from a peer certificate's subjectaltname ("DNS:a, IP Address:1.2.3.4") or its CN. */
export function certificateNames(subjectAltName: string | undefined, commonName: string | undefined): string[] {
  const names: string[] = [];
  for (const entry of (subjectAltName ?? '').split(/,\s*/)) {
    const m = /^(DNS|IP Address):(.+)$/.exec(entry.trim());
    if (m) names.push(m[2]!.trim());
  }
  if (names.length === 0 && commonName) names.push(commonName);
  return names;
}

/** "Nov 22 02:56:03 2027 GMT" → "2027-11-22"; undefined when unreadable. */
export function certificateDate(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

/** Who is at the other end, in messages: the gateway (its base URL), or a notification receiver (its URL). */
export interface TlsPeer {
  /** "the gateway", "the receiver". */
  who: string;
  /** "the base URL", "the URL". */
  url: string;
}

export const GATEWAY_PEER: TlsPeer = { who: 'the gateway', url: 'the base URL' };

/**
 * A failed TLS handshake with the gateway (or another `peer`) at `host` (host[:port] of its URL;
 * `hostname` without the port), described for the user.
 */
export function describeTlsFailure(code: string, host: string, hostname: string, cert?: PeerCertificateInfo, peer: TlsPeer = GATEWAY_PEER): TlsFailure {
  const { who, url } = peer;
  const trustHint = `if ${who} (or a proxy that inspects TLS) uses your company's own certificate authority, set ${EXTRA_CA_HINT} to that authority's certificate file (PEM); otherwise check the host in ${url} (${hostname})`;
  if (WRONG_HOST.has(code)) {
    const issued = cert && cert.names.length > 0 ? `: it was issued for ${listNames(cert.names)}` : ' (it was issued for another host)';
    return {
      message: `${who}'s TLS certificate is not valid for ${hostname}${issued}`,
      hint: `check the host in ${url} (${hostname}): it must be a name the certificate covers`,
      final: true,
    };
  }
  if (SELF_SIGNED.has(code)) {
    return { message: `${who} at ${host} presents a self-signed TLS certificate, which is not trusted`, hint: trustHint, final: true };
  }
  if (UNKNOWN_CA.has(code)) {
    return {
      message: `${who}'s TLS certificate (at ${host}) is issued by a certificate authority this computer does not trust`,
      hint: trustHint,
      final: true,
    };
  }
  if (code === 'CERT_HAS_EXPIRED') {
    const when = cert?.validTo ? ` on ${cert.validTo}` : '';
    return {
      message: `${who}'s TLS certificate (at ${host}) expired${when}`,
      hint: `${who}'s operator must renew it; if the date looks wrong, check this computer's clock`,
      final: true,
    };
  }
  if (code === 'CERT_NOT_YET_VALID') {
    const when = cert?.validFrom ? ` until ${cert.validFrom}` : ' yet';
    return { message: `${who}'s TLS certificate (at ${host}) is not valid${when}`, hint: "check this computer's clock", final: true };
  }
  if (TLS_VERIFY_CODES.has(code)) {
    return { message: `${who}'s TLS certificate (at ${host}) could not be verified (${code})`, hint: trustHint, final: true };
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' || code === 'ERR_SSL_HTTP_REQUEST') {
    return {
      message: `the TLS handshake with ${who} at ${host} failed: it does not answer in TLS on that port`,
      hint: `check ${url}: https:// and the port (is it a plain http:// server?)`,
      final: true,
    };
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return {
      message: `the TLS handshake with ${who} at ${host} failed (${code})`,
      hint: `check ${url}, and that ${who} supports TLS 1.2 or later`,
      final: true,
    };
  }
  return {
    message: `the connection to ${who} at ${host} broke during the TLS handshake${code ? ` (${code})` : ''}`,
    hint: `check ${url} and your network`,
    final: false,
  };
}
