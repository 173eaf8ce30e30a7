// One HTTP stack (issue 22): what gw POSTs to a merchant's own URLs — `gw webhook send`, `gw listen
// --forward-to`, the sandbox's deliveries — goes the way its gateway requests go: through the proxy
// the environment names (curl's rules, NO_PROXY included), with the same TLS advice, `--verbose`
// lines, and exactly one attempt per POST. In process, against a real proxy and receivers on
// 127.0.0.1 only.
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyDir, runGw as gw, type CliResult } from '../support/cli.js';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { closeServer, freePort, hmacOf, send, startReceiver, type Receiver } from '../support/notifications.js';
import { startTestProxy, type TestProxy } from '../support/proxy.js';
import { NotificationDelivery, type DeliveryLogEntry } from '../../src/sandbox/notify.js';
import type { PaymentSnapshot } from '../../src/sandbox/events.js';

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const KEYS = { GATEWAY_MERCHANT_KEY: MERCHANT, GATEWAY_PAYOUT_KEY: PAYOUT };

let proxy: TestProxy;
let app: Receiver;
let certs: TestCertificates;

beforeAll(async () => {
  proxy = await startTestProxy();
  app = await startReceiver('/hooks');
  certs = await makeCertificates(emptyDir('gw-notify-tls-'));
});
afterAll(async () => {
  await proxy.close();
  await app.close();
});
beforeEach(() => {
  proxy.behave({});
  app.requests.length = 0;
  app.answer = { status: 200, body: 'ok' };
});

const send_ = (url: string, env: Record<string, string> = {}, extra: string[] = []): Promise<CliResult> =>
  gw([...extra, 'webhook', 'send', url, '--order-id', 'o-22'], { env: { ...KEYS, ...env } });

/** A TLS receiver on 127.0.0.1 with the given certificate; counts the requests it gets. */
async function tlsReceiver(cert: { key: string; cert: string }): Promise<{ url: string; requests: number; connections: number; close(): Promise<void> }> {
  const state = { requests: 0, connections: 0 };
  const server: HttpsServer = createHttpsServer({ key: cert.key, cert: cert.cert }, (_req, res) => {
    state.requests++;
    res.end('ok');
  });
  server.on('connection', () => state.connections++);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('gw webhook send goes through the proxy, as gateway requests do', () => {
  it('http_proxy: the POST reaches the receiver through the proxy (absolute form), signed, once', async () => {
    const r = await send_(app.url, { http_proxy: proxy.url });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['POST', app.url]]);
    expect(app.requests).toHaveLength(1);
    const got = app.requests[0]!;
    expect(got.headers.hmac).toBe(hmacOf(MERCHANT, got.body));
  });

  it('NO_PROXY naming 127.0.0.1 bypasses the proxy: the receiver gets it directly', async () => {
    const r = await send_(app.url, { http_proxy: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    expect(r.exitCode).toBe(0);
    expect(proxy.seen).toHaveLength(0);
    expect(app.requests).toHaveLength(1);
  });

  it('HTTP_PROXY (upper case) is ignored for http:// as curl ignores it; ALL_PROXY is used', async () => {
    expect((await send_(app.url, { HTTP_PROXY: proxy.url })).exitCode).toBe(0);
    expect(proxy.seen).toHaveLength(0);
    expect((await send_(app.url, { ALL_PROXY: proxy.url })).exitCode).toBe(0);
    expect(proxy.seen.map((s) => s.method)).toEqual(['POST']);
    expect(app.requests).toHaveLength(2);
  });

  it('a proxy that is down: exit 69 naming the proxy and its variable; nothing reaches the receiver', async () => {
    const dead = await freePort();
    const r = await send_(app.url, { http_proxy: `http://127.0.0.1:${dead}` });
    expect(r.exitCode).toBe(69);
    expect(r.stderr).toContain(`the proxy at http://127.0.0.1:${dead} (from http_proxy)`);
    expect(app.requests).toHaveLength(0);
  });

  it('a SOCKS proxy: exit 78 before anything is sent', async () => {
    const r = await send_(app.url, { http_proxy: 'socks5://127.0.0.1:1080' });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/http_proxy names a SOCKS proxy/);
    expect(app.requests).toHaveLength(0);
  });

  it('--verbose: one line for the POST (method, URL, status, time, size) and the proxy; never the HMAC, the key or the body', async () => {
    const r = await send_(`${app.url}?secret=q`, { http_proxy: proxy.url }, ['--verbose']);
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toContain(`gw: proxy ${proxy.url} (from http_proxy)`);
    expect(lines.some((l) => new RegExp(`^gw: POST ${app.url.replace(/[.?]/g, '\\$&')} → 200 \\(\\d+ ms, 2 bytes\\)$`).test(l))).toBe(true);
    const hmac = String(app.requests[0]?.headers.hmac);
    for (const secret of [hmac, MERCHANT, 'secret=q', 'trackId']) expect(r.stderr).not.toContain(secret);
  });
});

describe('a delivery is a POST: one attempt, whatever the answer', () => {
  it('HTTP 503: exactly one request, exit 1 (not acknowledged)', async () => {
    app.answer = { status: 503, body: 'busy' };
    const r = await send_(app.url, { http_proxy: proxy.url });
    expect(r.exitCode).toBe(1);
    expect(app.requests).toHaveLength(1);
    expect(proxy.seen).toHaveLength(1);
  });

  it('the connection reset after the request arrived: exactly one request, exit 69, "reset"', async () => {
    let count = 0;
    const server: Server = createServer((req) => {
      count++;
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const r = await send_(url);
      expect(r.exitCode).toBe(69);
      expect(r.stderr).toMatch(/^gw: the notification was not delivered to .*: the connection was reset/);
      expect(count).toBe(1);
      const proxied = await send_(url, { http_proxy: proxy.url });
      expect(proxied.exitCode).toBe(69);
      expect(count).toBe(2);
    } finally {
      await closeServer(server);
    }
  });
});

describe('deadlines', () => {
  it('webhook send through the proxy ends at the command deadline (--timeout 0.3) when the receiver never answers: exit 75, one request', async () => {
    app.answer = { status: 200, body: 'ok', delayMs: 5000 };
    const r = await send_(app.url, { http_proxy: proxy.url }, ['--timeout', '0.3']);
    expect(r.exitCode).toBe(75);
    expect(r.ms).toBeLessThan(3000);
    expect(app.requests).toHaveLength(1);
  });
});

describe('TLS receivers: the same advice as for the gateway', () => {
  it('an untrusted certificate through https_proxy: CONNECT to the receiver, then the advice line (NODE_EXTRA_CA_CERTS), one handshake, nothing sent', async () => {
    const receiver = await tlsReceiver(certs.loopback);
    try {
      const r = await send_(receiver.url, { https_proxy: proxy.url });
      expect(r.exitCode).toBe(69);
      const port = new URL(receiver.url).port;
      expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['CONNECT', `127.0.0.1:${port}`]]);
      expect(receiver.connections).toBe(1);
      expect(receiver.requests).toBe(0);
      const [first, hint] = r.stderr.trimEnd().split('\n');
      expect(first).toBe(
        `gw: the notification was not delivered to ${receiver.url}: the receiver's TLS certificate (at 127.0.0.1:${port}) is issued by a certificate authority this computer does not trust`,
      );
      // The gateway's advice for the same server, word for word but for whom it names.
      const asGateway = await gw(['rate', 'BTC', 'USDT'], { env: { GATEWAY_BASE_URL: `https://127.0.0.1:${port}` } });
      expect(asGateway.exitCode).toBe(69);
      const gatewayHint = asGateway.stderr.split('\n').find((l) => l.startsWith('hint: '));
      expect(gatewayHint).toContain('set NODE_EXTRA_CA_CERTS to');
      expect(hint).toBe(gatewayHint?.replace('if the gateway', 'if the receiver').replace('in the base URL', 'in the URL'));
    } finally {
      await receiver.close();
    }
  });

  it('a self-signed receiver directly: the same advice', async () => {
    const receiver = await tlsReceiver(certs.selfSigned);
    try {
      const r = await send_(receiver.url);
      expect(r.exitCode).toBe(69);
      expect(r.stderr).toMatch(
        /presents a self-signed TLS certificate, which is not trusted\nhint: .*set NODE_EXTRA_CA_CERTS to that authority's certificate file/,
      );
      expect(receiver.requests).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('gw listen --forward-to goes through the proxy', () => {
  async function relayOnce(
    env: Record<string, string>,
    forwardTo: string,
    extra: string[] = [],
    headers: Record<string, string> = {},
  ): Promise<{ answer: number; result: CliResult }> {
    const port = await freePort();
    const interrupt = new AbortController();
    const done = gw([...extra, 'listen', '--port', String(port), '--path', '/in', '--forward-to', forwardTo], {
      env: { ...KEYS, ...env },
      interrupt: interrupt.signal,
    });
    const body = JSON.stringify({ type: 'payment', track_id: '123456789', status: 'Paid', amount: 25, currency: 'USDT', order_id: 'o-22' });
    let answer = 0;
    await expect
      .poll(async () => {
        try {
          answer = (await send(`http://127.0.0.1:${port}/in`, body, { 'content-type': 'application/json', hmac: hmacOf(MERCHANT, body), ...headers })).status;
          return true;
        } catch {
          return false;
        }
      })
      .toBe(true);
    interrupt.abort(Object.assign(new Error('interrupted'), { exitCode: 130 }));
    return { answer, result: await done };
  }

  it('http_proxy: the relay reaches the application through the proxy; the receiver answers 200 ok', async () => {
    const { answer, result } = await relayOnce({ http_proxy: proxy.url }, app.url);
    expect(answer).toBe(200);
    expect(result.exitCode).toBe(0);
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['POST', app.url]]);
    expect(app.requests).toHaveLength(1);
  });

  it('a proxy variable gw cannot use: exit 78 at start, nothing listens', async () => {
    const r = await gw(['listen', '--port', '0', '--forward-to', app.url], { env: { ...KEYS, http_proxy: 'socks5://127.0.0.1:1080' } });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/^gw: http_proxy names a SOCKS proxy/);
  });

  it("a User-Agent outside ASCII is not relayed (the relay still goes out, with gw's own)", async () => {
    const { answer } = await relayOnce({}, app.url, [], { 'user-agent': 'caf\u00e9-client' });
    expect(answer).toBe(200);
    expect(app.requests).toHaveLength(1);
    expect(app.requests[0]!.headers['user-agent']).toBe('gw');
  });

  it('no_proxy naming the application host bypasses the proxy', async () => {
    const { answer } = await relayOnce({ http_proxy: proxy.url, no_proxy: '127.0.0.1' }, app.url);
    expect(answer).toBe(200);
    expect(proxy.seen).toHaveLength(0);
    expect(app.requests).toHaveLength(1);
  });

  it('the application answers 500: one relay, the receiver answers 502; --verbose shows the POST line', async () => {
    app.answer = { status: 500, body: 'down' };
    const { answer, result } = await relayOnce({ http_proxy: proxy.url }, app.url, ['--verbose']);
    expect(answer).toBe(502);
    expect(app.requests).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^gw: POST ${app.url.replace(/\./g, '\\.')} → 500 \\(\\d+ ms, 4 bytes\\)$`, 'm'));
    expect(result.stderr).not.toContain(MERCHANT);
  });

  it('an untrusted TLS application: 502, and the advice line once', async () => {
    const receiver = await tlsReceiver(certs.loopback);
    try {
      const { answer, result } = await relayOnce({}, receiver.url);
      expect(answer).toBe(502);
      expect(result.stderr).toMatch(/^hint: if the receiver \(or a proxy that inspects TLS\) .*set NODE_EXTRA_CA_CERTS/m);
      expect(receiver.requests).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

describe("the sandbox's deliveries go through the proxy", () => {
  const snapshot = (callbackUrl: string): PaymentSnapshot => ({
    trackId: 'sbxproxy00001',
    status: 'waiting',
    gatewayStatus: 'waiting',
    mixedPayment: false,
    amount: '25',
    currency: 'USDT',
    payAmount: '25',
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
    receivedAmount: '0',
    txID: '',
    callbackUrl,
    description: '',
    email: '',
    orderId: 'ORD-22',
    feePaidByPayer: 0,
    underPaidCover: '0',
    lifeTime: 60,
    createdAt: 1_750_000_000,
    expiredAt: 1_750_003_600,
    payDate: 0,
  });

  async function deliverOnce(env: Record<string, string>): Promise<{ log: DeliveryLogEntry[]; lines: string[] }> {
    const log: DeliveryLogEntry[] = [];
    const lines: string[] = [];
    const delivery = new NotificationDelivery('sandbox-merchant-key', {
      retryDelaysMs: [],
      proxyEnv: env,
      httpLog: (line) => lines.push(line),
      log: (e) => log.push(e),
    });
    delivery.onChange({ payment: snapshot(app.url), previous: undefined, at: 0 });
    await expect.poll(() => log.length).toBe(1);
    await delivery.close(100);
    return { log, lines };
  }

  it('http_proxy: the delivery reaches the receiver through the proxy, once, with a --verbose line', async () => {
    const { log, lines } = await deliverOnce({ http_proxy: proxy.url });
    expect(log[0]).toMatchObject({ result: 'acknowledged', httpStatus: 200 });
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['POST', app.url]]);
    expect(app.requests).toHaveLength(1);
    expect(lines.some((l) => /^gw: POST http:\/\/127\.0\.0\.1:\d+\/hooks → 200 \(\d+ ms, 2 bytes\)$/.test(l))).toBe(true);
  });

  it('gw pay --sandbox: the embedded sandbox delivers the creation notification through http_proxy', async () => {
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--callback-url', app.url, '--no-qr', '--json'], { env: { http_proxy: proxy.url } });
    expect(r.exitCode).toBe(0);
    await expect.poll(() => app.requests.length).toBe(1);
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['POST', app.url]]);
  });

  it('NO_PROXY=127.0.0.1: directly', async () => {
    const { log } = await deliverOnce({ http_proxy: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(log[0]).toMatchObject({ result: 'acknowledged' });
    expect(proxy.seen).toHaveLength(0);
    expect(app.requests).toHaveLength(1);
  });

  it('a 5xx is one attempt (the sandbox schedule, here with no retries, is the only one)', async () => {
    app.answer = { status: 503, body: 'busy' };
    const { log } = await deliverOnce({ http_proxy: proxy.url });
    expect(log.map((e) => [e.attempt, e.result, e.httpStatus])).toEqual([[1, 'not-acknowledged', 503]]);
    expect(app.requests).toHaveLength(1);
  });
});
