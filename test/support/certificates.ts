// TLS certificates made at test time with `selfsigned` (WebCrypto; no openssl binary needed):
// a test certificate authority, and server certificates signed by it or by themselves, for
// 127.0.0.1 or for another host, valid or expired. EC P-256 keys, so generating all of them
// takes well under a second. The CA is also written to a PEM file for NODE_EXTRA_CA_CERTS.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface KeyAndCert {
  key: string;
  cert: string;
}

export interface TestCertificates {
  /** The test certificate authority (nobody else trusts it). */
  ca: KeyAndCert;
  /** The CA certificate as a PEM file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Signed by the CA for 127.0.0.1 and localhost: valid once the CA is trusted. */
  loopback: KeyAndCert;
  /** Signed by the CA, but for other.example only. */
  otherHost: KeyAndCert;
  /** Signed by the CA for 127.0.0.1, expired yesterday. */
  expired: KeyAndCert;
  /** Self-signed for 127.0.0.1. */
  selfSigned: KeyAndCert;
}

const DAY = 86_400_000;

type Names = Array<{ type: 2; value: string } | { type: 7; ip: string }>;

async function server(names: Names, options: { ca?: KeyAndCert; notBefore?: Date; notAfter?: Date } = {}): Promise<KeyAndCert> {
  const first = names[0]!;
  const pems = await generate([{ name: 'commonName', value: 'value' in first ? first.value : first.ip }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: options.notBefore ?? new Date(Date.now() - DAY),
    notAfterDate: options.notAfter ?? new Date(Date.now() + 30 * DAY),
    ...(options.ca && { ca: { key: options.ca.key, cert: options.ca.cert } }),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * Every certificate the TLS tests need; `dir` receives the CA file. The certificates are made once
 * per test worker (files in a worker share modules) and shared by the files that ask.
 */
export async function makeCertificates(dir: string): Promise<TestCertificates> {
  made ??= generateAll();
  const certificates = await made;
  const caFile = path.join(dir, 'test-ca.pem');
  writeFileSync(caFile, certificates.ca.cert);
  return { ...certificates, caFile };
}

let made: Promise<Omit<TestCertificates, 'caFile'>> | undefined;

async function generateAll(): Promise<Omit<TestCertificates, 'caFile'>> {
  const caPems = await generate([{ name: 'commonName', value: 'gw test CA (not trusted anywhere)' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 2 * DAY),
    notAfterDate: new Date(Date.now() + 60 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const ca = { key: caPems.private, cert: caPems.cert };
  const loopbackNames: Names = [
    { type: 7, ip: '127.0.0.1' },
    { type: 2, value: 'localhost' },
  ];
  const [loopback, otherHost, expired, selfSigned] = await Promise.all([
    server(loopbackNames, { ca }),
    server([{ type: 2, value: 'other.example' }], { ca }),
    server(loopbackNames, { ca, notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) }),
    server(loopbackNames),
  ]);
  return { ca, loopback, otherHost, expired, selfSigned };
}
