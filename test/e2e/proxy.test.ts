// Proxies seen from outside: the built gw binary with proxy variables, a real proxy on 127.0.0.1
// (test/support/proxy.ts: CONNECT tunnels and absolute-form forwarding, recording what it saw),
// and the TLS test gateway behind it. The variables are read as curl reads them; credentials in
// the proxy URL are used and never printed; a proxy that refuses maps to an exit code like any
// other network failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { expectCleanFailure, expectNoCrashText } from '../support/failure-output.js';
import { gw, removeDir, tempDir, type GwResult } from '../support/gw.js';
import {
  json,
  paymentAnswer,
  refusedPort,
  startMisbehavingGateway,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
  type MisbehavingGateway,
} from '../support/misbehaving-gateway.js';
import { startTestProxy, type TestProxy } from '../support/proxy.js';

const PROXY_USER = 'proxy-user';
const PROXY_PASSWORD = 'Pr0xy-s3cret-pw';
const SECRETS = [TEST_MERCHANT_KEY, TEST_PAYOUT_KEY, PROXY_PASSWORD, encodeURIComponent(PROXY_PASSWORD)];
const OK_RATE = json({ result: 100, message: 'OK', rate: '64250.12' });

let dir: string;
let certs: TestCertificates;
let tlsGateway: MisbehavingGateway;
let httpGateway: MisbehavingGateway;
let proxy: TestProxy;
let deadPort: number;

beforeAll(async () => {
  dir = tempDir('gw-proxy-');
  certs = await makeCertificates(dir);
  tlsGateway = await startMisbehavingGateway([], { tls: certs.loopback });
  httpGateway = await startMisbehavingGateway();
  proxy = await startTestProxy();
  deadPort = await refusedPort();
});

afterAll(async () => {
  await Promise.all([tlsGateway.close(), httpGateway.close(), proxy.close()]);
  removeDir(dir);
});

beforeEach(() => {
  tlsGateway.reset();
  httpGateway.reset();
  tlsGateway.program((req) => (req.path === '/exchange/rate' ? OK_RATE : paymentAnswer()));
  httpGateway.program([OK_RATE]);
  proxy.behave({});
});

const withCredentials = (url: string): string => url.replace('http://', `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@`);

/** gw against the TLS gateway (trusting the test CA), with these proxy variables. */
const run = (args: readonly string[], env: Record<string, string | undefined>, gateway = tlsGateway): Promise<GwResult> =>
  gw(args, {
    env: {
      GATEWAY_BASE_URL: gateway.url,
      GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
      GATEWAY_PAYOUT_KEY: TEST_PAYOUT_KEY,
      NODE_EXTRA_CA_CERTS: certs.caFile,
      ...env,
    },
  });

describe('which proxy is used', () => {
  it('HTTPS_PROXY: the request goes through a CONNECT tunnel to the gateway; --verbose names the proxy, never its password', async () => {
    proxy.behave({ credentials: `${PROXY_USER}:${PROXY_PASSWORD}` });
    const r = await run(['rate', 'BTC', 'USDT', '--verbose'], { HTTPS_PROXY: withCredentials(proxy.url) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('64250.12');
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['CONNECT', `127.0.0.1:${tlsGateway.port}`]]);
    expect(proxy.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`);
    expect(tlsGateway.requests).toHaveLength(1);
    expect(r.stderr).toContain(`gw: proxy ${proxy.url} (from HTTPS_PROXY), CONNECT tunnel\n`);
    expect(r.stderr).not.toContain(PROXY_USER);
    expectNoCrashText(r, SECRETS);
  });

  it('pay through the tunnel works too, and the proxy never sees the request body (it is inside TLS)', async () => {
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--json', '--order-id', 'ORD-PX'], { https_proxy: proxy.url });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ trackId: 'trk-42' });
    expect(proxy.seen).toHaveLength(1);
    expect(JSON.stringify(proxy.seen)).not.toContain(TEST_MERCHANT_KEY);
    expect(JSON.parse(tlsGateway.requests[0]!.body)).toMatchObject({ orderId: 'ORD-PX' });
  });

  it('lower case wins: https_proxy (working) over HTTPS_PROXY (dead)', async () => {
    const r = await run(['rate', 'BTC', 'USDT'], { https_proxy: proxy.url, HTTPS_PROXY: `http://127.0.0.1:${deadPort}` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen).toHaveLength(1);
  });

  it('NO_PROXY naming the gateway host bypasses the proxy (the dead proxy is never tried)', async () => {
    const r = await run(['rate', 'BTC', 'USDT'], { HTTPS_PROXY: `http://127.0.0.1:${deadPort}`, NO_PROXY: 'example.com, 127.0.0.1' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(tlsGateway.requests).toHaveLength(1);
  });

  it('an http:// loopback gateway goes through http_proxy in absolute form, as curl does (no implicit loopback bypass)', async () => {
    const r = await run(['rate', 'BTC', 'USDT', '--verbose'], { http_proxy: proxy.url }, httpGateway);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['POST', `${httpGateway.url}/exchange/rate`]]);
    expect(httpGateway.requests).toHaveLength(1);
    expect(r.stderr).toContain(`gw: proxy ${proxy.url} (from http_proxy)\n`);
  });
});

describe('a proxy that refuses or is missing', () => {
  it('CONNECT answered 407 → exit 78 with a hint about the proxy credentials; one CONNECT; the password appears nowhere', async () => {
    proxy.behave({ credentials: `${PROXY_USER}:something-else` });
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10'], { HTTPS_PROXY: withCredentials(proxy.url) });
    const stderr = expectCleanFailure(r, 78, SECRETS);
    expect(stderr).toContain(`gw: the proxy at ${proxy.url} (from HTTPS_PROXY) refused the user name and password given in HTTPS_PROXY (HTTP 407)\n`);
    expect(stderr).toMatch(/^hint: check the proxy credentials in HTTPS_PROXY/m);
    expect(proxy.seen).toHaveLength(1);
    expect(tlsGateway.connections).toBe(0);
  });

  it('pay: CONNECT answered 407 without credentials → exit 78, no "MAY HAVE BEEN CREATED"; --json carries the hint', async () => {
    proxy.behave({ credentials: `${PROXY_USER}:${PROXY_PASSWORD}` });
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--json', '--order-id', 'ORD-407'], { HTTPS_PROXY: proxy.url });
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr) as { error: { message: string; exitCode: number; hint: string } };
    expect(error.error.exitCode).toBe(78);
    expect(error.error.message).toMatch(/asks for a user name and password \(HTTP 407\)/);
    expect(error.error.message).not.toMatch(/may have been created/i);
    expect(error.error.hint).toMatch(/http:\/\/user:password@host:port/);
  });

  it('CONNECT refused with 403 → exit 69', async () => {
    proxy.behave({ refuseWith: 403 });
    const r = await run(['balance', '--timeout', '10'], { HTTPS_PROXY: proxy.url });
    const stderr = expectCleanFailure(r, 69, SECRETS);
    expect(stderr).toMatch(/refused to open a connection to 127\.0\.0\.1:\d+ \(HTTP 403/);
    expect(proxy.seen).toHaveLength(1);
  });

  it('pay: the proxy is down → exit 69 naming the proxy, no "MAY HAVE BEEN CREATED", the password appears nowhere', async () => {
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--order-id', 'ORD-DOWN', '--timeout', '5', '--verbose'], {
      HTTPS_PROXY: withCredentials(`http://127.0.0.1:${deadPort}`),
    });
    expect(r.exitCode).toBe(69);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('gw: ') && !/^gw: (gateway|proxy|POST|retrying)/.test(l));
    expect(lines).toEqual([`gw: cannot connect to the proxy at http://127.0.0.1:${deadPort} (from HTTPS_PROXY): connection refused`]);
    expect(r.stderr).not.toMatch(/may have been created/i);
    expectNoCrashText(r, SECRETS);
  });

  it('a SOCKS proxy → exit 78 before any connection, naming the variable', async () => {
    const r = await run(['rate', 'BTC', 'USDT'], { ALL_PROXY: `socks5h://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${deadPort}` });
    const stderr = expectCleanFailure(r, 78, SECRETS);
    expect(stderr).toMatch(/^gw: ALL_PROXY names a SOCKS proxy \(socks5h:\/\/\); gw supports http:\/\/ proxies only$/m);
    expect(tlsGateway.connections).toBe(0);
  });
});
