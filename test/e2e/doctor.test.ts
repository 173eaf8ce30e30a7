// gw doctor as a process, against TLS servers on 127.0.0.1 with certificates made at test time:
// a certificate the machine trusts (the test CA through NODE_EXTRA_CA_CERTS, read by Node at start,
// hence a process) shows ✓ TLS with the name it is valid for and until when; a trusted
// certificate for another host is ✗ TLS naming both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { gw, removeDir, tempDir } from '../support/gw.js';
import { json, startMisbehavingGateway, type MisbehavingGateway } from '../support/misbehaving-gateway.js';

const CURRENCIES = json({ data: { list: ['BTC', 'USDT'] }, message: 'OK', error: {}, status: 200, version: '1' });

let dir: string;
let certs: TestCertificates;
let valid: MisbehavingGateway;
let otherHost: MisbehavingGateway;

beforeAll(async () => {
  dir = tempDir('gw-doctor-tls-');
  certs = await makeCertificates(dir);
  valid = await startMisbehavingGateway([CURRENCIES], { tls: certs.loopback });
  otherHost = await startMisbehavingGateway([CURRENCIES], { tls: certs.otherHost });
});
afterAll(async () => {
  await Promise.all([valid.close(), otherHost.close()]);
  removeDir(dir);
});

describe('gw doctor and TLS', () => {
  it('a trusted certificate: ✓ TLS, valid for the base URL host, with its names and end date', async () => {
    const r = await gw(['doctor', '--timeout', '10'], {
      env: { GATEWAY_BASE_URL: valid.url, GATEWAY_MERCHANT_KEY: 'mk_test_12345678', NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /✓ TLS\s+certificate valid for 127\.0\.0\.1 \(certificate for 127\.0\.0\.1, localhost, issued by gw test CA \(not trusted anywhere\), valid until \d{4}-\d\d-\d\d, TLSv1\.[23]\)/,
    );
    expect(r.stdout).toMatch(/✓ merchant key\s+accepted: 2 currencies \(key from env GATEWAY_MERCHANT_KEY\)/);
  });

  it('a trusted certificate for another host: ✗ TLS naming the host and the certificate, exit 69', async () => {
    const r = await gw(['doctor', '--json', '--timeout', '10'], {
      env: { GATEWAY_BASE_URL: otherHost.url, GATEWAY_MERCHANT_KEY: 'mk_test_12345678', NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.exitCode).toBe(69);
    const doc = JSON.parse(r.stdout) as { checks: Array<{ name: string; status: string; detail: string }> };
    expect(doc.checks.find((c) => c.name === 'tls')).toMatchObject({
      status: 'fail',
      detail: `the gateway's TLS certificate is not valid for 127.0.0.1: it was issued for "other.example"`,
    });
  });
});
