// The whole CLI in process speaking the gateway's versioned API (`--api v1`, GATEWAY_API=v1):
// against the embedded sandbox, every command gives the same documents as over the interface's
// endpoints; against a strict recording server, what gw sends for each command is exactly the
// versioned API's request (method, path and query, key header, snake_case body, amounts as the
// typed digits), and each versioned refusal gets the documented exit code.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, runGw as gw, type CliResult } from '../support/cli.js';
import {
  json,
  startMisbehavingGateway,
  type Behaviour,
  type MisbehavingGateway,
  type RecordedRequest,
  TEST_MERCHANT_KEY,
  TRON_ADDRESS,
} from '../support/misbehaving-gateway.js';
import { removeDir, tempDir, writeFile } from '../support/gw.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';

const GENERAL_KEY = 'gk_live_SECRET_7a6b5c4d3e2f';

/** Each operation of the versioned API once, in both output modes. */
const COMMANDS: ReadonlyArray<readonly string[]> = [['currencies'], ['balance'], ['balance', 'BTC'], ['rate', 'BTC', 'USDT']];

function parse(r: CliResult): Record<string, unknown> {
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** The shape of a JSON document: its keys and the type of each value, nested. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value === null ? 'null' : typeof value;
}

describe('--sandbox --api v1: the same documents as the interface endpoints', () => {
  it.each(COMMANDS)('%s … --json gives exactly the legacy document', async (...args) => {
    const legacy = parse(await gw([...args, '--sandbox', '--json']));
    const v1 = parse(await gw([...args, '--sandbox', '--api', 'v1', '--json']));
    expect(v1).toEqual(legacy);
  });

  it.each(COMMANDS)('%s … prints the same human output', async (...args) => {
    const legacy = await gw([...args, '--sandbox']);
    const v1 = await gw([...args, '--sandbox', '--api', 'v1']);
    expect(v1.exitCode).toBe(0);
    expect(v1.stdout).toBe(legacy.stdout);
    expect(v1.stderr).toBe(legacy.stderr);
  });

  it("pay --json: the same document, amounts with every digit; the versioned API's empty memo is no memo (null), as on the legacy API", async () => {
    const args = ['pay', '0.123456789012345678', 'ETH', '--order-id', 'A-1', '--life-time', '30', '--under-paid-cover', '2.50', '--fee-paid-by-payer', '1'];
    const legacy = parse(await gw([...args, '--sandbox', '--json']));
    const v1 = parse(await gw([...args, '--sandbox', '--api', 'v1', '--json']));
    expect(Object.keys(v1)).toEqual(Object.keys(legacy));
    expect(shape(v1)).toEqual(shape(legacy));
    expect(v1.memo).toBeNull();
    expect(legacy.memo).toBeNull();
    for (const field of ['amount', 'payAmount', 'currency', 'payCurrency', 'network', 'rate', 'lifeTime', 'orderId', 'feePaidByPayer', 'underPaidCover']) {
      expect(v1[field]).toEqual(legacy[field]);
    }
    expect(v1.amount).toBe('0.123456789012345678');
    expect(v1.underPaidCover).toBe('2.50');
    expect(v1.trackId).toMatch(/^[1-9]\d{8}$/);
    expect(v1.uri).toBe(`ethereum:${String(v1.address)}@1?value=123456789012345678`);
    expect((v1.expiredAt as number) - (v1.createdAt as number)).toBe(30 * 60);
  });

  it('pay, human: the same lines', async () => {
    const lines = (r: CliResult): string[] => r.stdout.split('\n').map((line) => line.split(/\s{2,}/)[0] ?? '');
    const legacy = await gw(['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr', '--sandbox']);
    const v1 = await gw(['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr', '--sandbox', '--api', 'v1']);
    expect(v1.exitCode).toBe(0);
    expect(lines(v1)).toEqual(lines(legacy));
    expect(v1.stdout).toContain('Pay exactly  25 USDT');
  });

  it('GATEWAY_API=v1 chooses it too; a refusal has the same exit code and JSON error fields', async () => {
    const r = await gw(['pay', '25', 'USD', '--pay-currency', 'NOPE', '--sandbox', '--json'], { env: { GATEWAY_API: 'v1' } });
    expect(r.exitCode).toBe(65);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        message: 'the gateway refused: Invalid pay_currency (status 400, pay_currency)',
        exitCode: 65,
        status: 400,
        type: 'invalid_request_error',
        key: 'pay_currency',
      },
    });
  });
});

describe('gw against a sandbox served on its own (gw sandbox), GATEWAY_API=v1', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await withSandbox();
    env = { ...sandboxEnv(sandbox), GATEWAY_API: 'v1', GATEWAY_GENERAL_KEY: sandbox.generalKey };
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('balance and rate need the general key, not the payout key', async () => {
    expect(parse(await gw(['balance', 'ETH', '--json'], { env }))).toEqual({ balances: { ETH: '1.234567890123456789' } });
    expect(parse(await gw(['rate', 'BTC', 'USDT', '--json'], { env }))).toEqual({ from: 'BTC', to: 'USDT', rate: '65573.55' });
  });

  it.each([['balance'], ['rate', 'BTC', 'USDT']])('%s without a general key: exit 78 before any request, naming where to set it', async (...args) => {
    const { GATEWAY_GENERAL_KEY: _dropped, ...rest } = env;
    const r = await gw(args, { env: rest });
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'gw: no general API key is configured: the versioned API (api v1) reads balances and rates with it\n' +
        'hint: set it with --general-key, GATEWAY_GENERAL_KEY, or generalKey in your config file; gw config shows what is set; the payout key is not used by the versioned API\n',
    );
  });

  it('a refused general key: exit 77, the hint names where the key came from, the key never shown', async () => {
    const r = await gw(['balance', '--json'], { env: { ...env, GATEWAY_GENERAL_KEY: GENERAL_KEY } });
    expect(r.exitCode).toBe(77);
    const error = (JSON.parse(r.stderr) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ exitCode: 77, status: 401, key: 'invalid_general_api_key', hint: 'check the general key (from env GATEWAY_GENERAL_KEY)' });
    expect(r.stderr).not.toContain(GENERAL_KEY);
  });

  it('a refused merchant key on pay: exit 77 and no "may have been created"', async () => {
    const r = await gw(['pay', '25', 'USDT'], { env: { ...env, GATEWAY_MERCHANT_KEY: 'wrong-merchant-key' } });
    expect(r.exitCode).toBe(77);
    expect(r.stderr).toBe(
      'gw: the gateway refused: Invalid merchant API key (status 401, invalid_merchant_api_key)\nhint: check the merchant key (from env GATEWAY_MERCHANT_KEY)\n',
    );
  });

  it('--general-key on the command line', async () => {
    const { GATEWAY_GENERAL_KEY: _dropped, ...rest } = env;
    expect((await gw(['balance', '--general-key', sandbox.generalKey], { env: rest })).exitCode).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// What gw sends: a strict recording server that answers only the versioned API's requests

const ENVELOPE = (data: unknown): Behaviour => json({ data, message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });
const REFUSE = (status: number, key: string, message: string): Behaviour =>
  json(
    { data: {}, message, error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', key, message }, status, version: '1.0.0' },
    status,
  );

/**
 * The versioned API and nothing else: the path, the method, the key in its header (and nowhere
 * else), JSON bodies in snake_case. Anything else is a versioned 404/405/401/400.
 */
function strictV1(req: RecordedRequest): Behaviour {
  const url = new URL(req.path, 'http://gateway.invalid');
  const merchantOk = req.headers.merchant_api_key === TEST_MERCHANT_KEY;
  const generalOk = req.headers.general_api_key === GENERAL_KEY;
  const route = `${req.method} ${url.pathname}`;
  if (route === 'GET /v1/payment/accepted-currencies')
    return merchantOk ? ENVELOPE({ list: ['BTC', 'USDT'] }) : REFUSE(401, 'invalid_merchant_api_key', 'bad key');
  if (route === 'POST /v1/payment/white-label') {
    if (!merchantOk) return REFUSE(401, 'invalid_merchant_api_key', 'bad key');
    if (req.headers['content-type'] !== 'application/json') return REFUSE(400, 'content_type', 'JSON only');
    const body = JSON.parse(req.body) as Record<string, unknown>;
    if (body.amount === undefined || body.pay_currency === undefined) return REFUSE(400, 'amount', 'amount and pay_currency are required');
    return json(
      '{"data":{"track_id":"184747701","amount":25.50,"currency":"USD","pay_amount":25.500001,"pay_currency":"USDT",' +
        `"network":"Tron Network","address":"${TRON_ADDRESS}","memo":"","callback_url":"","description":"","email":"",` +
        '"fee_paid_by_payer":0,"lifetime":60,"order_id":"ORD-7","under_paid_coverage":0,"rate":1,"qr_code":"",' +
        `"expired_at":${Math.floor(Date.now() / 1000) + 3600},"date":${Math.floor(Date.now() / 1000)}},` +
        '"message":"ok","error":{},"status":200,"version":"1.0.0"}',
    );
  }
  if (route === 'GET /v1/general/account/balance') {
    if (!generalOk) return REFUSE(401, 'invalid_general_api_key', 'bad key');
    const currency = url.searchParams.get('currency');
    const all = '{"BTC":0.00012345,"ETH":1.234567890123456789,"USDC":0,"TRX":9.28e-8}';
    return json(`{"data":${currency === null ? all : `{"${currency}":1.10}`},"message":"ok","error":{},"status":200,"version":"1.0.0"}`);
  }
  if (route === 'POST /v1/general/swap/rate') {
    if (!generalOk) return REFUSE(401, 'invalid_general_api_key', 'bad key');
    const body = JSON.parse(req.body) as Record<string, unknown>;
    if (typeof body.from_currency !== 'string' || typeof body.to_currency !== 'string') return REFUSE(400, 'from_currency', 'required');
    return json('{"data":{"rate":65573.550000000001},"message":"ok","error":{},"status":200,"version":"1.0.0"}');
  }
  return REFUSE(404, 'not_found', `No such endpoint: ${route}`);
}

describe('what gw sends over the versioned API (a strict recording server)', () => {
  let server: MisbehavingGateway;
  const env = (): Record<string, string> => ({
    GATEWAY_BASE_URL: server.url,
    GATEWAY_API: 'v1',
    GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
    GATEWAY_GENERAL_KEY: GENERAL_KEY,
  });
  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => {
    server.reset();
    server.program(strictV1);
  });
  afterAll(async () => {
    await server.close();
  });

  /** The one request of a run: method, path, the key headers, body. */
  const sent = (): { method: string; path: string; merchant: unknown; general: unknown; body: string } => {
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0] as RecordedRequest;
    return { method: req.method, path: req.path, merchant: req.headers.merchant_api_key, general: req.headers.general_api_key, body: req.body };
  };

  it.each([
    [
      'currencies',
      ['currencies'],
      { currencies: ['BTC', 'USDT'] },
      { method: 'GET', path: '/v1/payment/accepted-currencies', merchant: TEST_MERCHANT_KEY, general: undefined, body: '' },
    ],
    [
      'balance',
      ['balance'],
      { balances: { BTC: '0.00012345', ETH: '1.234567890123456789', USDC: '0', TRX: '0.0000000928' } },
      { method: 'GET', path: '/v1/general/account/balance', merchant: undefined, general: GENERAL_KEY, body: '' },
    ],
    [
      'balance BTC',
      ['balance', 'btc'],
      { balances: { BTC: '1.10' } },
      { method: 'GET', path: '/v1/general/account/balance?currency=BTC', merchant: undefined, general: GENERAL_KEY, body: '' },
    ],
    [
      'rate',
      ['rate', 'btc', 'usdt'],
      { from: 'BTC', to: 'USDT', rate: '65573.550000000001' },
      { method: 'POST', path: '/v1/general/swap/rate', merchant: undefined, general: GENERAL_KEY, body: '{"from_currency":"BTC","to_currency":"USDT"}' },
    ],
  ] as const)('%s', async (_name, args, document, request) => {
    const r = await gw([...args, '--json'], { env: env() });
    expect(parse(r)).toEqual(document);
    expect(sent()).toEqual(request);
    const human = await gw(args, { env: env() });
    expect(human.exitCode).toBe(0);
  });

  it('pay: POST /v1/payment/white-label, merchant key in its header only, snake_case JSON with the amount and cover as the typed digits', async () => {
    const r = await gw(
      [
        'pay',
        '25.50',
        'usd',
        '--pay-currency',
        'usdt',
        '--network',
        'Tron Network',
        '--life-time',
        '30',
        '--fee-paid-by-payer',
        '1',
        '--under-paid-cover',
        '2.50',
        '--callback-url',
        'https://shop.example/cb',
        '--email',
        'buyer@example.com',
        '--order-id',
        'ORD-7',
        '--description',
        'Order 7',
        '--json',
      ],
      { env: env() },
    );
    const doc = parse(r);
    expect(doc).toMatchObject({
      trackId: '184747701',
      amount: '25.50',
      payAmount: '25.500001',
      payCurrency: 'USDT',
      address: TRON_ADDRESS,
      orderId: 'ORD-7',
      memo: null,
    });
    expect(sent()).toEqual({
      method: 'POST',
      path: '/v1/payment/white-label',
      merchant: TEST_MERCHANT_KEY,
      general: undefined,
      body:
        '{"amount":25.50,"pay_currency":"USDT","currency":"USD","network":"Tron Network","lifetime":30,"fee_paid_by_payer":1,' +
        '"under_paid_coverage":2.50,"callback_url":"https://shop.example/cb","email":"buyer@example.com","order_id":"ORD-7","description":"Order 7"}',
    });
  });

  it('pay: an HTTP 500 with the envelope is sent once and says the payment MAY HAVE BEEN CREATED (exit 69)', async () => {
    server.program([
      json(
        { data: {}, message: 'Internal error', error: { type: 'api_error', key: 'internal_error', message: 'Internal error' }, status: 500, version: '1.0.0' },
        500,
      ),
    ]);
    const r = await gw(['pay', '25', 'USDT', '--order-id', 'ORD-9', '--json'], { env: env() });
    expect(r.exitCode).toBe(69);
    expect(server.requests).toHaveLength(1);
    const error = (JSON.parse(r.stderr) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ exitCode: 69, status: 500, payment: 'unknown', orderId: 'ORD-9' });
    expect(String(error.message)).toContain('MAY HAVE BEEN CREATED');
  });

  it('pay: a 400 refusal is exit 65 and a definite refusal (nothing created)', async () => {
    server.program([REFUSE(400, 'pay_currency', 'Invalid pay currency')]);
    const r = await gw(['pay', '25', 'USDT', '--json'], { env: env() });
    expect(r.exitCode).toBe(65);
    expect(r.stderr).not.toContain('MAY HAVE BEEN CREATED');
  });

  it('rate: a 429 is exit 75 after the retries the transport allows', async () => {
    server.program([REFUSE(429, 'too_many_requests', 'Slow down')]);
    const r = await gw(['rate', 'BTC', 'USDT', '--json'], { env: env(), clock: new ManualClock() });
    expect(r.exitCode).toBe(75);
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect((JSON.parse(r.stderr) as { error: Record<string, unknown> }).error).toMatchObject({ exitCode: 75, status: 429 });
  });

  it('a profile of a config file chooses the versioned API; a flag overrides it', async () => {
    const dir = tempDir();
    try {
      writeFile(
        dir,
        '.gatewayrc.json',
        JSON.stringify({ baseUrl: server.url, profiles: { shop: { api: 'v1', merchantKey: TEST_MERCHANT_KEY, generalKey: GENERAL_KEY } } }),
      );
      const v1 = await gw(['rate', 'BTC', 'USDT', '--profile', 'shop', '--json'], { cwd: dir });
      expect(parse(v1)).toEqual({ from: 'BTC', to: 'USDT', rate: '65573.550000000001' });
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/general/swap/rate']);
      const legacy = await gw(['rate', 'BTC', 'USDT', '--profile', 'shop', '--api', 'legacy', '--json'], { cwd: dir });
      expect(legacy.exitCode).toBe(1);
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/general/swap/rate', '/exchange/rate']);
    } finally {
      removeDir(dir);
    }
  });

  it('the legacy API (the default) never reaches this server’s versioned routes', async () => {
    const r = await gw(['rate', 'BTC', 'USDT', '--json'], { env: { ...env(), GATEWAY_API: 'legacy' } });
    expect(r.exitCode).toBe(1);
    expect(server.requests[0]?.path).toBe('/exchange/rate');
  });
});
