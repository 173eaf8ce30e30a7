// The transport policy seen from outside, in process: gw against a misbehaving gateway on 127.0.0.1.
// Reads retry 429/5xx (honouring Retry-After) and succeed; a payment is never sent twice once it
// may have arrived, and its ambiguous failures say so; one deadline bounds everything; plain http
// to a non-loopback host is refused before connecting; what gw sends is exactly what the interface
// says (and the rate request carries no key). Interim 1xx answers and malformed HTTP framing through
// the built binary: test/e2e/transport-policy.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, runGw as gw, type CliResult as GwResult } from '../support/cli.js';
import {
  drip,
  hang,
  hangBody,
  html502,
  json,
  raw,
  refusedPort,
  reset,
  startMisbehavingGateway,
  tooMany,
  truncated,
  unavailable,
  type Behaviour,
  type MisbehavingGateway,
  paymentAnswer,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
} from '../support/misbehaving-gateway.js';
import { expectCleanFailure } from '../support/failure-output.js';

const MERCHANT_KEY = TEST_MERCHANT_KEY;
const PAYOUT_KEY = TEST_PAYOUT_KEY;

const envFor = (url: string): Record<string, string> => ({
  GATEWAY_BASE_URL: url,
  GATEWAY_MERCHANT_KEY: MERCHANT_KEY,
  GATEWAY_PAYOUT_KEY: PAYOUT_KEY,
});

const OK_RATE: Behaviour = json({ result: 100, message: 'OK', rate: '64250.12' });
const OK_BALANCE: Behaviour = json({ result: 100, message: 'OK', data: { BTC: '0.00120000', USDT: '25.5' } });
const OK_CURRENCIES: Behaviour = json({ data: { list: ['BTC', 'USDT'] }, message: 'OK', error: {}, status: 200, version: '1.0.0' });
const okPayment = (extra: Record<string, unknown> = {}): Behaviour => paymentAnswer({ trackId: 'trk-151515', currency: 'USDT', ...extra });

const READS = [
  { name: 'rate', args: ['rate', 'BTC', 'USDT'], ok: OK_RATE, path: '/exchange/rate', expect: '64250.12' },
  { name: 'balance', args: ['balance'], ok: OK_BALANCE, path: '/api/balance', expect: '25.5' },
  { name: 'currencies', args: ['currencies'], ok: OK_CURRENCIES, path: '/v1/payment/accepted-currencies', expect: 'USDT' },
] as const;

let server: MisbehavingGateway;
let other: MisbehavingGateway;

beforeAll(async () => {
  server = await startMisbehavingGateway();
  other = await startMisbehavingGateway();
});

afterAll(async () => {
  await server.close();
  await other.close();
});

beforeEach(() => {
  server.reset();
  other.reset();
});

/** The clock of the last run: retries wait on it, so a test reads the waits instead of sleeping. */
let clock = new ManualClock(Date.now());
const run = (args: readonly string[], extraEnv: Record<string, string> = {}): Promise<GwResult> => {
  // Starts at the real time: the server's answers carry real timestamps (a payment's expiry).
  clock = new ManualClock(Date.now());
  return gw(args, { env: { ...envFor(server.url), ...extraEnv }, clock });
};

describe('read-only requests retry what is temporary', () => {
  for (const read of READS) {
    it(`${read.name}: 429, then 503, then success → exit 0 after exactly 3 requests`, async () => {
      server.program([tooMany(), unavailable(), read.ok]);
      const r = await run([...read.args, '--timeout', '10']);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(read.expect);
      expect(server.requests.map((q) => q.path)).toEqual([read.path, read.path, read.path]);
    });
  }

  it('rate: honours Retry-After: 1 (waits 1 s before the second request)', async () => {
    server.program([tooMany('1'), OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('rate: backs off between tries with jitter (300 ms, then 600 ms, each 50–100 %)', async () => {
    server.program([unavailable(), unavailable(), OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT']);
    expect(r.exitCode).toBe(0);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(150);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(300);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(300);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(600);
  });

  it('rate: a Retry-After longer than the retry policy allows is not waited for → exit 75, one request', async () => {
    server.program([tooMany('3600'), OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expect(expectCleanFailure(r, 75)).toMatch(/429|rate.?limit/i);
    expect(server.requests).toHaveLength(1);
    expect(r.ms).toBeLessThan(3000);
  });

  it('balance: 503 every time → exit 69 after 1 + 2 retries, no more', async () => {
    server.program([unavailable()]);
    const r = await run(['balance', '--timeout', '10']);
    expect(expectCleanFailure(r, 69)).toMatch(/503/);
    expect(server.requests).toHaveLength(3);
  });

  it('rate: the deadline covers the retries (Retry-After: 3 with --timeout 1 → gives up at once, one request)', async () => {
    server.program([tooMany('3'), OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '0.3']);
    expectCleanFailure(r, 75);
    expect(server.requests).toHaveLength(1);
    expect(r.ms).toBeLessThan(3000);
  });

  it('rate: connection reset every time → exit 69 after 3 tries', async () => {
    server.program([reset()]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expectCleanFailure(r, 69);
    expect(server.requests).toHaveLength(3);
  });

  it('rate: a reset, then success → exit 0 after 2 requests', async () => {
    server.program([reset(), OK_RATE]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('64250.12');
    expect(server.requests).toHaveLength(2);
  });
});

describe('one deadline for the whole command', () => {
  it('rate: a gateway that never answers, --timeout 0.3 → exit 75 within a few seconds, one request', async () => {
    server.program([hang()]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '0.3']);
    expect(expectCleanFailure(r, 75)).toMatch(/0\.3 s/);
    expect(r.ms).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('balance: headers sent, body never comes, --timeout 0.3 → exit 75, one request', async () => {
    server.program([hangBody()]);
    const r = await run(['balance', '--timeout', '0.3']);
    expectCleanFailure(r, 75);
    expect(r.ms).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('currencies: a body that drips one byte every 100 ms (never idle long) is still cut at --timeout 0.3 → exit 75', async () => {
    server.program([drip(100)]);
    const r = await run(['currencies', '--timeout', '0.3']);
    expectCleanFailure(r, 75);
    expect(r.ms).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a payment is never sent twice once it may have arrived', () => {
  const PAY = ['pay', '25', 'USDT', '--no-qr', '--timeout', '10'];

  it('pay: HTTP 500 → exit 69, exactly one request, says it MAY have been created and names the order id', async () => {
    server.program([json({ error: 'boom' }, 500), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-7741']);
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-7741');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: HTTP 500 without --order-id → still one request, and suggests --order-id', async () => {
    server.program([html502(), okPayment()]);
    const r = await run(PAY);
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('--order-id');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: 503 then success programmed → still exactly one request (no retry of a payment)', async () => {
    server.program([unavailable(), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-2']);
    expectCleanFailure(r, 69);
    expect(server.requests).toHaveLength(1);
  });

  it('pay: 429 with Retry-After: 1 → exit 75, exactly one request', async () => {
    server.program([tooMany('1'), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-3']);
    expectCleanFailure(r, 75);
    expect(server.requests).toHaveLength(1);
  });

  it('pay: the gateway never answers, --timeout 0.3 → exit 75, one request, MAY-have-been-created warning with the order id', async () => {
    server.program([hang()]);
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--timeout', '0.3', '--order-id', 'ORD-TIMEOUT-1']);
    const stderr = expectCleanFailure(r, 75);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-TIMEOUT-1');
    expect(r.ms).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('pay: connection reset after the request arrived → exit 69, one request, MAY-have-been-created warning', async () => {
    server.program([reset(), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-RST']);
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-RST');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: truncated answer → exit 76, one request, MAY-have-been-created warning', async () => {
    server.program([truncated('{"result":100,"message":"OK","trackId":"trk-9","payAm'), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-CUT']);
    const stderr = expectCleanFailure(r, 76);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-CUT');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: legacy result 500 with HTTP 200 → exit 69, one request, MAY-have-been-created warning', async () => {
    server.program([json({ result: 500, message: 'Internal error' }), okPayment()]);
    const r = await run([...PAY, '--order-id', 'ORD-R500']);
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-R500');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: HTTP 500 whose body is a versioned error object (type/key) → MAY-have-been-created warning too', async () => {
    // A 5xx says the gateway failed, not that it refused: whether the payment exists is unknown,
    // exactly as for legacy result 500. The presence of error.type does not make it a refusal.
    server.program([
      json(
        { status: 500, message: 'error', error: { type: 'server_error', key: 'internal', message: 'Internal server error' }, data: {}, version: '1.0.0' },
        500,
      ),
    ]);
    const r = await run([...PAY, '--order-id', 'ORD-V500']);
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/may have been created/i);
    expect(stderr).toContain('ORD-V500');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: legacy 102 (key refused) with HTTP 200 → exit 77, one request, no MAY-have-been-created warning', async () => {
    server.program([json({ result: 102, message: 'Invalid merchant API key' })]);
    const r = await run([...PAY, '--order-id', 'ORD-KEY']);
    const stderr = expectCleanFailure(r, 77);
    expect(stderr).not.toMatch(/may have been created/i);
    expect(server.requests).toHaveLength(1);
  });

  it('pay: against a refused port → exit 69, nothing arrived anywhere, no MAY-have-been-created warning', async () => {
    const port = await refusedPort();
    const r = await gw(['pay', '25', 'USDT', '--no-qr', '--timeout', '5', '--order-id', 'ORD-X'], { env: envFor(`http://127.0.0.1:${port}`) });
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/refused/);
    expect(stderr).not.toMatch(/may have been created/i);
  });

  it('pay: the request carries the merchant key in the JSON body, the amount as an exact JSON number', async () => {
    server.program([okPayment()]);
    const r = await run(['pay', '0.00038127', 'BTC', '--pay-currency', 'USDT', '--no-qr', '--order-id', 'A-1', '--json']);
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/merchants/request/whitelabel');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body).toContain('"amount":0.00038127');
    expect(JSON.parse(req.body)).toMatchObject({ merchant: MERCHANT_KEY, currency: 'BTC', payCurrency: 'USDT', orderId: 'A-1' });
  });
});

describe('connection failures', () => {
  it('rate: against a refused port → exit 69', async () => {
    const port = await refusedPort();
    const r = await gw(['rate', 'BTC', 'USDT', '--timeout', '5'], { env: envFor(`http://127.0.0.1:${port}`) });
    expect(expectCleanFailure(r, 69)).toMatch(/connection refused/);
  });

  for (const args of [['rate', 'BTC', 'USDT'], ['pay', '25', 'USDT', '--no-qr'], ['balance']]) {
    it(`${args[0]}: plain http:// to a non-loopback host → exit 78 before any connection`, async () => {
      // Should the refusal ever break, the request would go to this local server as the proxy
      // (gw takes http_proxy for http:// gateways), never to that host.
      const r = await gw([...args, '--timeout', '2'], { env: { ...envFor('http://example.com'), http_proxy: server.url } });
      expect(expectCleanFailure(r, 78)).toMatch(/plain http|https/i);
      expect(r.ms).toBeLessThan(3000);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('balance: a redirect is not followed (the payout key never goes to the other host) → exit 76', async () => {
    server.program([raw('', 302, { location: `${other.url}/api/balance` })]);
    other.program([OK_BALANCE]);
    const r = await run(['balance', '--timeout', '5']);
    expectCleanFailure(r, 76);
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });
});

describe('what gw sends', () => {
  it('rate: POST /exchange/rate with JSON fromCurrency/toCurrency and no key anywhere', async () => {
    server.program([OK_RATE]);
    const r = await run(['rate', 'btc', 'usdt']);
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/exchange/rate');
    expect(JSON.parse(req.body)).toEqual({ fromCurrency: 'BTC', toCurrency: 'USDT' });
    const wire = JSON.stringify(req.headers) + req.body;
    expect(wire).not.toContain(MERCHANT_KEY);
    expect(wire).not.toContain(PAYOUT_KEY);
  });

  it('balance: POST /api/balance, form-encoded key=<payout key> (and currency), merchant key absent', async () => {
    server.program([OK_BALANCE]);
    const r = await run(['balance', 'btc']);
    expect(r.exitCode).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/balance');
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ key: PAYOUT_KEY, currency: 'BTC' });
    expect(JSON.stringify(req.headers)).not.toContain(MERCHANT_KEY);
  });

  it('currencies: GET /v1/payment/accepted-currencies with the merchant_api_key header and no body', async () => {
    server.program([OK_CURRENCIES]);
    const r = await run(['currencies']);
    expect(r.exitCode).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/v1/payment/accepted-currencies');
    expect(req.headers.merchant_api_key).toBe(MERCHANT_KEY);
    expect(req.body).toBe('');
  });

  it('currencies --legacy: POST /merchants/allowedCoins, form-encoded merchant=<merchant key>', async () => {
    server.program([json({ result: 100, message: 'OK', allowed: ['BTC'] })]);
    const r = await run(['currencies', '--legacy']);
    expect(r.exitCode).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/merchants/allowedCoins');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ merchant: MERCHANT_KEY });
  });
});
