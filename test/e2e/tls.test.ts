// TLS and connection stalls seen from outside: the built gw binary against real TLS servers on
// 127.0.0.1 with certificates generated at test time (test/support/certificates.ts). A
// certificate problem is exit 69 in plain words after ONE handshake (verification failures are
// never retried); trusting the test CA through NODE_EXTRA_CA_CERTS makes the same server work;
// a TLS handshake or a TCP connect that never completes ends at --timeout with exit 75, and a
// payment that never left is not reported as possibly created.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { expectCleanFailure } from '../support/failure-output.js';
import { gw, removeDir, tempDir, type GwResult } from '../support/gw.js';
import { json, paymentAnswer, startMisbehavingGateway, TEST_MERCHANT_KEY, TEST_PAYOUT_KEY, type MisbehavingGateway } from '../support/misbehaving-gateway.js';
import { startSilentServer, startStalledListener } from '../support/stalls.js';

const SECRETS = [TEST_MERCHANT_KEY, TEST_PAYOUT_KEY];
const OK_RATE = json({ result: 100, message: 'OK', rate: '64250.12' });
/** --timeout 1 must end well before this (the deadline plus a generous slack for a loaded machine). */
const PROMPT_MS = 1000 + 4000;

let dir: string;
let certs: TestCertificates;
const servers: Record<'valid' | 'otherHost' | 'expired' | 'selfSigned', MisbehavingGateway> = {} as never;

beforeAll(async () => {
  dir = tempDir('gw-tls-');
  certs = await makeCertificates(dir);
  servers.valid = await startMisbehavingGateway([], { tls: certs.loopback });
  servers.otherHost = await startMisbehavingGateway([], { tls: certs.otherHost });
  servers.expired = await startMisbehavingGateway([], { tls: certs.expired });
  servers.selfSigned = await startMisbehavingGateway([], { tls: certs.selfSigned });
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
  removeDir(dir);
});

beforeEach(() => {
  for (const s of Object.values(servers)) s.reset();
});

const run = (args: readonly string[], url: string, env: Record<string, string | undefined> = {}): Promise<GwResult> =>
  gw(args, {
    env: {
      GATEWAY_BASE_URL: url,
      GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
      GATEWAY_PAYOUT_KEY: TEST_PAYOUT_KEY,
      // Only what a test says is trusted: Node's own CAs, plus the test CA where given.
      NODE_EXTRA_CA_CERTS: undefined,
      ...env,
    },
  });

describe('certificate problems: exit 69, plain words, one handshake', () => {
  it('rate: a trusted certificate for another host → names the base URL host and the certificate, one handshake, nothing sent', async () => {
    const server = servers.otherHost;
    server.program([OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10'], server.url, { NODE_EXTRA_CA_CERTS: certs.caFile });
    const stderr = expectCleanFailure(r, 69, SECRETS);
    expect(stderr).toContain(`gw: the gateway's TLS certificate is not valid for 127.0.0.1: it was issued for "other.example"\n`);
    expect(stderr).toMatch(/^hint: check the host in the base URL \(127\.0\.0\.1\)/m);
    expect(server.connections).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it('rate: a self-signed certificate → says so, the hint names NODE_EXTRA_CA_CERTS; one handshake although reads are retried', async () => {
    const server = servers.selfSigned;
    server.program([OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10'], server.url);
    const stderr = expectCleanFailure(r, 69, SECRETS);
    expect(stderr).toContain(`gw: the gateway at 127.0.0.1:${server.port} presents a self-signed TLS certificate, which is not trusted\n`);
    expect(stderr).toMatch(/^hint: .*NODE_EXTRA_CA_CERTS.*127\.0\.0\.1/m);
    expect(server.connections).toBe(1);
  });

  it('balance: an expired certificate → says when it expired; one handshake', async () => {
    const server = servers.expired;
    const r = await run(['balance', '--timeout', '10'], server.url, { NODE_EXTRA_CA_CERTS: certs.caFile });
    const stderr = expectCleanFailure(r, 69, SECRETS);
    expect(stderr).toMatch(/^gw: the gateway's TLS certificate \(at 127\.0\.0\.1:\d+\) expired on \d{4}-\d{2}-\d{2}$/m);
    expect(server.connections).toBe(1);
  });

  it('pay: the same certificate problem on a payment → exit 69, and no "MAY HAVE BEEN CREATED" (nothing was sent)', async () => {
    const server = servers.selfSigned;
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--order-id', 'ORD-TLS', '--timeout', '10'], server.url);
    const stderr = expectCleanFailure(r, 69, SECRETS);
    expect(stderr).not.toMatch(/may have been created/i);
    expect(server.connections).toBe(1);
  });

  it('pay and rate: with NODE_EXTRA_CA_CERTS pointing at the test CA, the same kind of server works → exit 0', async () => {
    const server = servers.valid;
    server.program((req) => (req.path === '/exchange/rate' ? OK_RATE : paymentAnswer({ orderId: 'ORD-OK' })));
    const env = { NODE_EXTRA_CA_CERTS: certs.caFile };
    const [pay, rate] = await Promise.all([
      run(['pay', '25', 'USDT', '--no-qr', '--json', '--order-id', 'ORD-OK'], server.url, env),
      run(['rate', 'BTC', 'USDT'], server.url, env),
    ]);
    expect(pay.stderr).toBe('');
    expect(pay.exitCode).toBe(0);
    expect(JSON.parse(pay.stdout)).toMatchObject({ trackId: 'trk-42', orderId: 'ORD-OK' });
    expect(rate.exitCode).toBe(0);
    expect(rate.stdout).toContain('64250.12');
    expect(server.requests.map((q) => q.path).sort()).toEqual(['/exchange/rate', '/merchants/request/whitelabel']);
  });
});

describe('a connection that never completes ends at --timeout as "not sent"', () => {
  it('pay: the TLS handshake never completes, --timeout 1 → exit 75 promptly, no "MAY HAVE BEEN CREATED"', async () => {
    const silent = await startSilentServer();
    try {
      const r = await run(['pay', '25', 'USDT', '--no-qr', '--order-id', 'ORD-HS', '--timeout', '1'], `https://127.0.0.1:${silent.port}`);
      const stderr = expectCleanFailure(r, 75, SECRETS);
      // The budget left when the request starts: 1 s, or a little less on a loaded machine (the process took its share).
      expect(stderr).toMatch(new RegExp(`gw: the TLS handshake with the gateway at 127\\.0\\.0\\.1:${silent.port} did not complete within (1|0\\.[89]) s\\n`));
      expect(stderr).not.toMatch(/may have been created/i);
      expect(r.ms).toBeLessThan(PROMPT_MS);
      expect(silent.connections).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it('pay and currencies: a TCP connect that never completes, --timeout 1 → exit 75 promptly, the payment not reported as maybe created', async () => {
    const stalled = await startStalledListener();
    try {
      const url = `http://127.0.0.1:${stalled.port}`;
      const [pay, currencies] = await Promise.all([
        run(['pay', '25', 'USDT', '--no-qr', '--order-id', 'ORD-SYN', '--timeout', '1'], url),
        run(['currencies', '--timeout', '1'], url),
      ]);
      for (const r of [pay, currencies]) {
        const stderr = expectCleanFailure(r, 75, SECRETS);
        expect(stderr).toMatch(new RegExp(`gw: could not connect to the gateway at 127\\.0\\.0\\.1:${stalled.port} within (1|0\\.[89]) s\\n`));
        expect(stderr).not.toMatch(/may have been created/i);
        expect(r.ms).toBeLessThan(PROMPT_MS);
      }
    } finally {
      await stalled.close();
    }
  });
});
