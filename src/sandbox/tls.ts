// `gw sandbox --tls`: a certificate made at start, for clients that speak only HTTPS. Two
// certificates, both EC P-256 signed with ECDSA-SHA256: a certificate authority made for this one
// run (its PEM written to a file for the client to trust, e.g. NODE_EXTRA_CA_CERTS), and the
// server's, signed by it, for 127.0.0.1, ::1 and localhost only (serverAuth, not a CA). The keys
// stay in memory: when the sandbox stops, nothing that a trusted CA could sign with is left behind.
//
// Made with node:crypto alone (key pairs, signatures) and the few DER structures of X.509 written
// out here (RFC 5280 §4.1), so no certificate library is bundled into gw or loaded by any other
// command; this module is imported only for --tls. The result is checked with node:crypto's
// X509Certificate before it is used.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';

/** How long the certificates are valid (they are made afresh at every start). */
const VALID_DAYS = 30;
const DAY_MS = 86_400_000;

export interface SandboxCertificates {
  /** The server's private key and certificate, PEM (the CA's is not sent: a client has it or fails). */
  key: string;
  cert: string;
  /** The CA's certificate, PEM: what a client trusts. */
  ca: string;
}

// --- DER (X.690), only what X.509 needs here ----------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...content: Buffer[]): Buffer => tlv(0x30, ...content);

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes: number[] = [40 * (arcs[0] as number) + (arcs[1] as number)];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      base128.unshift((v % 128) | (base128.length === 0 ? 0 : 0x80));
      if (v < 128) break;
    }
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A positive INTEGER from big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, (trimmed[0] as number) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

const bitString = (bytes: Buffer, unusedBits = 0): Buffer => tlv(0x03, Buffer.from([unusedBits]), bytes);
const octetString = (bytes: Buffer): Buffer => tlv(0x04, bytes);
const TRUE = tlv(0x01, Buffer.from([0xff]));

/** UTCTime up to 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

/** A Name with one common name. */
const name = (cn: string): Buffer => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));

const extension = (id: string, critical: boolean, value: Buffer): Buffer => seq(oid(id), ...(critical ? [TRUE] : []), octetString(value));

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

// --- The certificates ----------------------------------------------------------------------------

interface Issued {
  der: Buffer;
  keyId: Buffer;
}

/** The key identifier of a public key: SHA-1 of its point (RFC 5280 §4.2.1.2, method 1). */
function keyIdOf(spki: Buffer): Buffer {
  // An EC P-256 SubjectPublicKeyInfo ends with the BIT STRING's content: the 65-byte point.
  return createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
}

function certificate(options: {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signer: KeyObject;
  authorityKeyId: Buffer | undefined;
  extensions: Buffer[];
  now: number;
}): Issued {
  const spki = options.publicKey.export({ type: 'spki', format: 'der' });
  const keyId = keyIdOf(spki);
  const serial = randomBytes(16);
  serial[0] = ((serial[0] as number) & 0x7f) | 0x40; // positive, 16 bytes
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))), // v3
    integer(serial),
    ECDSA_SHA256,
    name(options.issuer),
    seq(time(new Date(options.now - DAY_MS)), time(new Date(options.now + VALID_DAYS * DAY_MS))),
    name(options.subject),
    spki,
    tlv(
      0xa3,
      seq(
        ...options.extensions,
        extension('2.5.29.14', false, octetString(keyId)),
        ...(options.authorityKeyId === undefined ? [] : [extension('2.5.29.35', false, seq(tlv(0x80, options.authorityKeyId)))]),
      ),
    ),
  );
  const signature = sign('sha256', tbs, options.signer); // DER ECDSA-Sig-Value
  return { der: seq(tbs, ECDSA_SHA256, bitString(signature)), keyId };
}

function pem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** A CA made for this run and a server certificate it signed, for 127.0.0.1, ::1 and localhost. */
export function makeSandboxCertificates(now = Date.now()): SandboxCertificates {
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const server = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const stamp = new Date(now).toISOString().slice(0, 19).replace('T', ' ');
  const caName = `gw sandbox CA (this run only, ${stamp} UTC)`;
  const caCert = certificate({
    subject: caName,
    issuer: caName,
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    authorityKeyId: undefined,
    now,
    extensions: [
      extension('2.5.29.19', true, seq(TRUE)), // basicConstraints: cA
      extension('2.5.29.15', true, bitString(Buffer.from([0x06]), 1)), // keyUsage: keyCertSign, cRLSign
    ],
  });
  const serverCert = certificate({
    subject: 'gw sandbox (127.0.0.1, ::1, localhost)',
    issuer: caName,
    publicKey: server.publicKey,
    signer: ca.privateKey,
    authorityKeyId: caCert.keyId,
    now,
    extensions: [
      extension('2.5.29.19', true, seq()), // basicConstraints: not a CA
      extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // keyUsage: digitalSignature
      extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
      extension(
        '2.5.29.17',
        false,
        seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x87, Buffer.from([...Array<number>(15).fill(0), 1])), tlv(0x82, Buffer.from('localhost'))),
      ),
    ],
  });
  const caPem = pem(caCert.der);
  const serverPem = pem(serverCert.der);
  // What was written is what a client will read: parsed, and the signature checked, before use.
  const parsedCa = new X509Certificate(caPem);
  const parsedServer = new X509Certificate(serverPem);
  if (!parsedCa.verify(parsedCa.publicKey) || !parsedServer.verify(parsedCa.publicKey) || parsedServer.checkIP('127.0.0.1') === undefined) {
    throw new Error('the sandbox could not make its TLS certificate');
  }
  return { key: server.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: serverPem, ca: caPem };
}
