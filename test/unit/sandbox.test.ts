// The sandbox gateway, exercised over real HTTP: a server on 127.0.0.1 port 0, requests with fetch.

import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { multiplyRounded } from '../../src/money/decimal.js';
import { divideForRate, exchangeRate } from '../../src/sandbox/prices.js';

const NOW_MS = 1_750_000_000_123;
const NOW_S = 1_750_000_000;

let sbx: RunningSandbox;

beforeAll(async () => {
  sbx = await startSandbox({ now: () => NOW_MS });
});

afterAll(async () => {
  await sbx.close();
});

interface Reply {
  status: number;
  contentType: string | null;
  text: string;
  // Tests read arbitrary JSON shapes.
  json: any;
}

async function toReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type'), text, json };
}

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(sbx.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toReply(res);
}

async function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(sbx.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return toReply(res);
}

async function getV1(headers: Record<string, string> = {}, query = ''): Promise<Reply> {
  const res = await fetch(`${sbx.url}/v1/payment/accepted-currencies${query}`, {
    headers: { 'content-type': 'application/json', ...headers },
  });
  return toReply(res);
}

const WL = '/merchants/request/whitelabel';

function whitelabel(fields: Record<string, unknown>): Promise<Reply> {
  return postJson(WL, { merchant: SANDBOX_MERCHANT_KEY, ...fields });
}

const EXPECTED_COINS = [...new Set(SANDBOX_OFFERINGS.map((o) => o.payCurrency))];

describe('startSandbox', () => {
  it('listens on an ephemeral 127.0.0.1 port with the default keys', () => {
    expect(sbx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sbx.url.endsWith(':0')).toBe(false);
    expect(sbx.merchantKey).toBe('sandbox-merchant-key');
    expect(sbx.payoutKey).toBe('sandbox-payout-key');
    expect(SANDBOX_MERCHANT_KEY).toBe('sandbox-merchant-key');
    expect(SANDBOX_PAYOUT_KEY).toBe('sandbox-payout-key');
  });

  it('brackets an IPv6 host and honours custom keys', async () => {
    let v6: RunningSandbox;
    try {
      v6 = await startSandbox({ host: '::1', merchantKey: 'mk-1', payoutKey: 'pk-1' });
    } catch {
      return; // no IPv6 loopback in this environment
    }
    try {
      expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect(v6.merchantKey).toBe('mk-1');
      const ok = await fetch(`${v6.url}/merchants/allowedCoins`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant: 'mk-1' }),
      });
      expect(((await ok.json()) as { result: number }).result).toBe(100);
      const refused = await fetch(`${v6.url}/merchants/allowedCoins`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY }),
      });
      expect(((await refused.json()) as { result: number }).result).toBe(102);
    } finally {
      await v6.close();
    }
  });

  it('close() resolves promptly with an idle keep-alive connection open, and is idempotent', async () => {
    const other = await startSandbox();
    const agent = new Agent({ keepAlive: true });
    const { port } = new URL(other.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/exchange/rate', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ fromCurrency: 'BTC', toCurrency: 'USDT' }));
    });
    expect(status).toBe(200);
    // The agent keeps the socket open and idle.
    expect(Object.values(agent.freeSockets).flat().length).toBe(1);
    const started = Date.now();
    await other.close();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
    await expect(fetch(`${other.url}/exchange/rate`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

describe('GET /v1/payment/accepted-currencies (header merchant_api_key)', () => {
  it('lists the accepted currencies in the versioned envelope', async () => {
    const r = await getV1({ merchant_api_key: SANDBOX_MERCHANT_KEY });
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.json).toEqual({
      data: { list: EXPECTED_COINS },
      message: 'Operation completed successfully!',
      error: {},
      status: 200,
      version: '1.0.0',
    });
    expect(r.json.data.list).toContain('BTC');
    expect(r.json.data.list).toContain('USDT');
    expect(new Set(r.json.data.list).size).toBe(r.json.data.list.length);
  });

  it('refuses a wrong key with 401 invalid_merchant_api_key', async () => {
    const r = await getV1({ merchant_api_key: 'nope' });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      data: {},
      message: 'Invalid merchant API key',
      error: { type: 'authentication_error', key: 'invalid_merchant_api_key', message: 'Invalid merchant API key' },
      status: 401,
      version: '1.0.0',
    });
  });

  it('refuses a missing key with 401 missing_merchant_api_key', async () => {
    const r = await getV1();
    expect(r.status).toBe(401);
    expect(r.json.status).toBe(401);
    expect(r.json.error.key).toBe('missing_merchant_api_key');
    expect(r.json.error.type).toBe('authentication_error');
    expect(r.json.version).toBe('1.0.0');
  });

  it('refuses the key anywhere but that header', async () => {
    expect((await getV1({}, `?merchant_api_key=${SANDBOX_MERCHANT_KEY}`)).status).toBe(401);
    expect((await getV1({ merchant: SANDBOX_MERCHANT_KEY })).status).toBe(401);
    expect((await getV1({ 'merchant-api-key': SANDBOX_MERCHANT_KEY })).status).toBe(401);
    expect((await getV1({ authorization: `Bearer ${SANDBOX_MERCHANT_KEY}` })).status).toBe(401);
  });

  it('answers a wrong method with a versioned 405 and an unknown /v1 path with a versioned 404', async () => {
    const post = await toReply(
      await fetch(`${sbx.url}/v1/payment/accepted-currencies`, {
        method: 'POST',
        headers: { merchant_api_key: SANDBOX_MERCHANT_KEY },
      }),
    );
    expect(post.status).toBe(405);
    expect(post.json.status).toBe(405);
    expect(post.json.error.key).toBe('method_not_allowed');
    expect(post.json.version).toBe('1.0.0');

    const missing = await toReply(await fetch(`${sbx.url}/v1/nothing/here`));
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ data: {}, status: 404, version: '1.0.0', error: { key: 'not_found' } });
  });
});

describe('POST /merchants/allowedCoins (body field merchant)', () => {
  const expected = { result: 100, message: 'Operation completed successfully!', allowed: EXPECTED_COINS };

  it('answers form-encoded and JSON requests alike', async () => {
    const form = await postForm('/merchants/allowedCoins', { merchant: SANDBOX_MERCHANT_KEY });
    expect(form.status).toBe(200);
    expect(form.contentType).toMatch(/^application\/json/);
    expect(form.json).toEqual(expected);
    const json = await postJson('/merchants/allowedCoins', { merchant: SANDBOX_MERCHANT_KEY });
    expect(json.json).toEqual(expected);
  });

  it('refuses a wrong or missing key with result 102 and HTTP 200', async () => {
    for (const r of [
      await postForm('/merchants/allowedCoins', { merchant: 'wrong' }),
      await postJson('/merchants/allowedCoins', { merchant: 'wrong' }),
      await postJson('/merchants/allowedCoins', {}),
      await postJson('/merchants/allowedCoins', { merchant: 12345 }),
      await postForm('/merchants/allowedCoins', { merchant: SANDBOX_PAYOUT_KEY }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ result: 102, message: 'Invalid merchant API key' });
    }
  });

  it('refuses the key sent in a header instead of the body', async () => {
    const r = await postJson('/merchants/allowedCoins', {}, { merchant_api_key: SANDBOX_MERCHANT_KEY, merchant: SANDBOX_MERCHANT_KEY });
    expect(r.json.result).toBe(102);
  });

  it('answers a GET with 405 in the legacy envelope', async () => {
    const r = await toReply(await fetch(`${sbx.url}/merchants/allowedCoins`));
    expect(r.status).toBe(405);
    expect(r.json.result).toBe(405);
  });
});

describe('POST /merchants/request/whitelabel', () => {
  it('creates a payment with every field of the interface', async () => {
    const r = await whitelabel({
      amount: 100,
      currency: 'USD',
      payCurrency: 'BTC',
      lifeTime: 30,
      feePaidByPayer: 1,
      underPaidCover: 2.5,
      callbackUrl: 'https://shop.example/callback',
      description: 'Order #42',
      orderId: 'ORD-42',
      email: 'payer@example.com',
    });
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    const body = r.json;
    expect(Object.keys(body)).toEqual([
      'result',
      'message',
      'trackId',
      'amount',
      'currency',
      'payAmount',
      'payCurrency',
      'network',
      'address',
      'callbackUrl',
      'description',
      'email',
      'feePaidByPayer',
      'lifeTime',
      'orderId',
      'underPaidCover',
      'rate',
      'expiredAt',
      'createdAt',
      'QRCode',
    ]);
    expect(body).toMatchObject({
      result: 100,
      message: 'Operation completed successfully!',
      currency: 'USD',
      payCurrency: 'BTC',
      network: 'Bitcoin Network',
      callbackUrl: 'https://shop.example/callback',
      description: 'Order #42',
      orderId: 'ORD-42',
      email: 'payer@example.com',
      feePaidByPayer: 1,
      lifeTime: 30,
      createdAt: NOW_S,
      expiredAt: NOW_S + 30 * 60,
    });
    expect(body.trackId).toMatch(/^[1-9]\d{8}$/); // numeric text, 9 digits, as the gateway's
    expect(r.text).toContain('"amount":100,');
    expect(r.text).toContain('"underPaidCover":2.5,');
    // 1 USD = 1/65573.55 BTC, to 8 significant digits; 100 USD → 0.0015250051 → 8 decimals, half-up.
    expect(r.text).toContain('"rate":0.000015250051,');
    expect(r.text).toContain('"payAmount":0.00152501,');
    const btc = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'BTC');
    expect(btc).toBeDefined();
    expect(body.address).toBe(deriveSandboxAddress(btc!.networkId, body.trackId));
    expect(body.QRCode).toBe(`${sbx.url}/qr/${body.trackId}.png`);
  });

  it('applies the defaults and echoes absent optional strings as ""', async () => {
    const r = await whitelabel({ amount: 12.5, payCurrency: 'USDT' });
    expect(r.json).toMatchObject({
      result: 100,
      currency: 'USDT',
      payCurrency: 'USDT',
      network: 'Tron Network',
      callbackUrl: '',
      description: '',
      email: '',
      orderId: '',
      feePaidByPayer: 0,
      lifeTime: 60,
      underPaidCover: 0,
      rate: 1,
      createdAt: NOW_S,
      expiredAt: NOW_S + 3600,
    });
    expect(r.text).toContain('"amount":12.5,');
    expect(r.text).toContain('"payAmount":12.5,');
  });

  it('echoes an 18-decimal ETH amount digit for digit as amount and payAmount', async () => {
    const literal = '1.234567890123456789';
    const r = await postJson(WL, `{"merchant":"${SANDBOX_MERCHANT_KEY}","amount":${literal},"payCurrency":"ETH","currency":"ETH"}`);
    expect(r.json.result).toBe(100);
    expect(r.text).toContain(`"amount":${literal},`);
    expect(r.text).toContain(`"payAmount":${literal},`);
    expect(r.json.network).toBe('Ethereum Network');
    // Trailing zeros and huge digit counts survive too.
    const long = '0.100000000000000000000000000001';
    const r2 = await postJson(WL, `{"merchant":"${SANDBOX_MERCHANT_KEY}","amount":${long},"payCurrency":"ETH"}`);
    expect(r2.text).toContain(`"amount":${long},`);
    expect(r2.text).toContain(`"payAmount":${long},`);
  });

  it('accepts a numeric string amount and echoes it as a number literal', async () => {
    const r = await whitelabel({ amount: '25.50', currency: 'EUR', payCurrency: 'ETH' });
    expect(r.json.result).toBe(100);
    expect(r.text).toContain('"amount":25.50,');
    // 1 EUR = 1.08/3421.17 ETH = 0.00031568148 (8 significant digits); × 25.50 = 0.00804987774.
    expect(r.text).toContain('"rate":0.00031568148,');
    expect(r.text).toContain('"payAmount":0.00804987774,');
  });

  it('accepts a form-encoded request too', async () => {
    const r = await postForm(WL, {
      merchant: SANDBOX_MERCHANT_KEY,
      amount: '10',
      currency: 'usd',
      payCurrency: 'usdt',
      lifeTime: '15',
      description: 'form + spaces & symbols',
    });
    expect(r.json).toMatchObject({
      result: 100,
      currency: 'USD',
      payCurrency: 'USDT',
      lifeTime: 15,
      description: 'form + spaces & symbols',
      expiredAt: NOW_S + 15 * 60,
    });
    expect(r.text).toContain('"amount":10,');
    expect(r.text).toContain('"payAmount":10,');
  });

  it('creates a payment in every accepted currency, on its default network', async () => {
    for (const payCurrency of EXPECTED_COINS) {
      const r = await whitelabel({ amount: 50, currency: 'USD', payCurrency });
      expect(r.json.result, payCurrency).toBe(100);
      const offering = SANDBOX_OFFERINGS.find((o) => o.payCurrency === payCurrency);
      expect(r.json.network).toBe(offering!.network);
      expect(r.json.address).toBe(deriveSandboxAddress(offering!.networkId, r.json.trackId));
      expect(r.text).toMatch(/"payAmount":\d+(\.\d+)?,/);
      expect(r.text).toMatch(/"rate":\d+(\.\d+)?,/);
    }
  });

  it('chooses the network of a multi-network token', async () => {
    const usdtNetworks = SANDBOX_OFFERINGS.filter((o) => o.payCurrency === 'USDT').map((o) => o.network);
    expect(usdtNetworks.length).toBeGreaterThan(1);
    for (const network of usdtNetworks) {
      const r = await whitelabel({ amount: 5, payCurrency: 'USDT', network });
      expect(r.json.result).toBe(100);
      expect(r.json.network).toBe(network);
      const offering = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'USDT' && o.network === network);
      expect(r.json.address).toBe(deriveSandboxAddress(offering!.networkId, r.json.trackId));
    }
    const lower = await whitelabel({ amount: 5, payCurrency: 'USDT', network: 'ethereum network' });
    expect(lower.json.network).toBe('Ethereum Network');
    expect((await whitelabel({ amount: 5, payCurrency: 'USDT', network: 'Solana Network' })).json.result).toBe(106);
    expect((await whitelabel({ amount: 5, payCurrency: 'BTC', network: 'Tron Network' })).json.result).toBe(106);
  });

  it('gives every payment a unique trackId and keeps expiry = created + lifeTime × 60', async () => {
    const ids = new Set<string>();
    for (const lifeTime of [15, 16, 60, 1440, 2880]) {
      for (let i = 0; i < 4; i++) {
        const r = await whitelabel({ amount: 1, payCurrency: 'TRX', lifeTime });
        expect(r.json.result).toBe(100);
        expect(r.json.createdAt).toBe(NOW_S);
        expect(r.json.expiredAt).toBe(r.json.createdAt + lifeTime * 60);
        expect(r.json.lifeTime).toBe(lifeTime);
        ids.add(r.json.trackId);
      }
    }
    expect(ids.size).toBe(20);
  });

  it('uses the clock given in the options', async () => {
    let now = 1_000_000_999;
    const timed = await startSandbox({ now: () => now });
    try {
      const call = async (): Promise<{ createdAt: number; expiredAt: number }> => {
        const res = await fetch(`${timed.url}${WL}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ merchant: timed.merchantKey, amount: 1, payCurrency: 'BTC', lifeTime: 20 }),
        });
        return (await res.json()) as { createdAt: number; expiredAt: number };
      };
      expect(await call()).toMatchObject({ createdAt: 1_000_000, expiredAt: 1_000_000 + 1200 });
      now = 2_000_000_000;
      expect(await call()).toMatchObject({ createdAt: 2_000_000, expiredAt: 2_000_000 + 1200 });
    } finally {
      await timed.close();
    }
  });

  describe('refusals (HTTP 200, legacy result code)', () => {
    const cases: Array<[string, number, Record<string, unknown>]> = [
      ['wrong merchant key', 102, { merchant: 'wrong' }],
      ['missing merchant key', 102, { merchant: undefined }],
      ['payout key as merchant key', 102, { merchant: SANDBOX_PAYOUT_KEY }],
      ['amount missing', 126, { amount: undefined }],
      ['amount null', 126, { amount: null }],
      ['amount zero', 127, { amount: 0 }],
      ['amount negative', 127, { amount: -5 }],
      ['amount negative string', 127, { amount: '-0.1' }],
      ['amount rounding to nothing', 127, { amount: 0.000000001, currency: 'USD', payCurrency: 'BTC' }],
      ['amount not numeric', 101, { amount: 'ten' }],
      ['amount boolean', 101, { amount: true }],
      ['amount object', 101, { amount: { value: 1 } }],
      ['unknown currency', 105, { currency: 'XYZ' }],
      ['currency wrong type', 101, { currency: 840 }],
      ['payCurrency missing', 120, { payCurrency: undefined }],
      ['payCurrency unknown', 120, { payCurrency: 'XYZ' }],
      ['payCurrency fiat', 120, { payCurrency: 'USD' }],
      ['unknown network', 106, { network: 'Nowhere Network' }],
      ['lifeTime 14', 111, { lifeTime: 14 }],
      ['lifeTime 0', 111, { lifeTime: 0 }],
      ['lifeTime negative', 111, { lifeTime: -60 }],
      ['lifeTime 2881', 112, { lifeTime: 2881 }],
      ['lifeTime fractional', 101, { lifeTime: 60.5 }],
      ['lifeTime text', 101, { lifeTime: 'an hour' }],
      ['underPaidCover -1', 113, { underPaidCover: -1 }],
      ['underPaidCover -0.01', 113, { underPaidCover: -0.01 }],
      ['underPaidCover 60.5', 114, { underPaidCover: 60.5 }],
      ['underPaidCover 61', 114, { underPaidCover: 61 }],
      ['feePaidByPayer 2', 115, { feePaidByPayer: 2 }],
      ['feePaidByPayer -1', 115, { feePaidByPayer: -1 }],
      ['feePaidByPayer 0.5', 115, { feePaidByPayer: 0.5 }],
      ['callbackUrl not a URL', 107, { callbackUrl: 'not a url' }],
      ['callbackUrl ftp', 107, { callbackUrl: 'ftp://shop.example/cb' }],
      ['callbackUrl javascript', 107, { callbackUrl: 'javascript:alert(1)' }],
      ['callbackUrl wrong type', 101, { callbackUrl: 42 }],
      ['description wrong type', 101, { description: ['a'] }],
      ['orderId wrong type', 101, { orderId: 42 }],
      ['email wrong type', 101, { email: false }],
    ];
    it.each(cases)('%s → %i', async (_name, code, overrides) => {
      const r = await postJson(WL, { merchant: SANDBOX_MERCHANT_KEY, amount: 10, payCurrency: 'USDT', ...overrides });
      expect(r.status).toBe(200);
      expect(r.json.result).toBe(code);
      expect(typeof r.json.message).toBe('string');
      expect(r.json.message.length).toBeGreaterThan(0);
      expect(r.json.trackId).toBeUndefined();
    });

    it('accepts the bounds themselves', async () => {
      for (const extra of [
        { lifeTime: 15 },
        { lifeTime: 2880 },
        { underPaidCover: 0 },
        { underPaidCover: 60 },
        { feePaidByPayer: 0 },
        { feePaidByPayer: 1 },
        { callbackUrl: 'http://127.0.0.1:9/cb' },
      ]) {
        const r = await whitelabel({ amount: 10, payCurrency: 'USDT', ...extra });
        expect(r.json.result).toBe(100);
      }
    });

    it('refuses the merchant key sent as a header (→ 102)', async () => {
      const r = await postJson(WL, { amount: 10, payCurrency: 'USDT' }, { merchant_api_key: SANDBOX_MERCHANT_KEY, merchant: SANDBOX_MERCHANT_KEY });
      expect(r.json.result).toBe(102);
    });

    it('answers malformed JSON and non-object bodies with result 101', async () => {
      for (const body of ['{"merchant":', '{amount: 1}', '[1,2]', '"text"', '{"a":1,"a":2}', 'null']) {
        const r = await postJson(WL, body);
        expect(r.status).toBe(200);
        expect(r.json.result).toBe(101);
      }
    });
  });
});

describe('POST /api/balance (body field key)', () => {
  it('returns every balance as strings, form-encoded or JSON', async () => {
    const form = await postForm('/api/balance', { key: SANDBOX_PAYOUT_KEY });
    const json = await postJson('/api/balance', { key: SANDBOX_PAYOUT_KEY });
    expect(form.status).toBe(200);
    expect(form.json.result).toBe(100);
    expect(form.json.message).toBe('Operation completed successfully!');
    expect(json.json).toEqual(form.json);
    const data = form.json.data as Record<string, unknown>;
    expect(Array.isArray(data)).toBe(false);
    for (const coin of EXPECTED_COINS) expect(typeof data[coin]).toBe('string');
    for (const value of Object.values(data)) expect(value).toMatch(/^\d+(\.\d+)?$/);
    expect(data.BTC).toBe('0.00012345');
    expect(data.ETH).toBe('1.234567890123456789');
    expect(Object.values(data)).toContain('0');
    expect(form.text).toContain('"ETH":"1.234567890123456789"');
  });

  it('returns one currency when asked, and 105 for an unknown one', async () => {
    expect((await postForm('/api/balance', { key: SANDBOX_PAYOUT_KEY, currency: 'BTC' })).json).toEqual({
      result: 100,
      message: 'Operation completed successfully!',
      data: { BTC: '0.00012345' },
    });
    expect((await postJson('/api/balance', { key: SANDBOX_PAYOUT_KEY, currency: 'eth' })).json.data).toEqual({
      ETH: '1.234567890123456789',
    });
    expect((await postForm('/api/balance', { key: SANDBOX_PAYOUT_KEY, currency: 'XYZ' })).json.result).toBe(105);
    expect((await postForm('/api/balance', { key: SANDBOX_PAYOUT_KEY, currency: 'USD' })).json.result).toBe(105);
  });

  it('refuses a wrong, missing or misplaced payout key with result 103', async () => {
    for (const r of [
      await postForm('/api/balance', { key: 'wrong' }),
      await postJson('/api/balance', {}),
      await postForm('/api/balance', { key: SANDBOX_MERCHANT_KEY }),
      await postForm('/api/balance', { merchant: SANDBOX_PAYOUT_KEY }),
      await postForm('/api/balance', {}, { key: SANDBOX_PAYOUT_KEY }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ result: 103, message: 'Invalid payout API key' });
    }
  });
});

describe('POST /exchange/rate (no key)', () => {
  it('returns the rate as a string, deterministically, JSON or form-encoded', async () => {
    const a = await postJson('/exchange/rate', { fromCurrency: 'BTC', toCurrency: 'USDT' });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ result: 100, message: 'Operation completed successfully!', rate: '65573.55' });
    expect(a.text).toContain('"rate":"65573.55"');
    const b = await postForm('/exchange/rate', { fromCurrency: 'BTC', toCurrency: 'USDT' });
    expect(b.text).toBe(a.text);
    const pairs: Array<[string, string, string]> = [
      ['ETH', 'USDT', '3421.17'],
      ['BTC', 'ETH', '19.1669955'],
      ['DOGE', 'BTC', '0.0000024750833'],
      ['USDT', 'USDC', '1'],
      ['USD', 'BTC', '0.000015250051'],
    ];
    for (const [fromCurrency, toCurrency, rate] of pairs) {
      const r = await postJson('/exchange/rate', { fromCurrency, toCurrency });
      expect(r.json.rate, `${fromCurrency}→${toCurrency}`).toBe(rate);
      expect((await postJson('/exchange/rate', { fromCurrency, toCurrency })).text).toBe(r.text);
    }
  });

  it('refuses unknown, equal or missing currencies', async () => {
    const code = async (body: Record<string, unknown>): Promise<number> => (await postJson('/exchange/rate', body)).json.result as number;
    expect(await code({ fromCurrency: 'XYZ', toCurrency: 'USDT' })).toBe(121);
    expect(await code({ fromCurrency: 'BTC', toCurrency: 'XYZ' })).toBe(122);
    expect(await code({ fromCurrency: 'BTC', toCurrency: 'BTC' })).toBe(123);
    expect(await code({ fromCurrency: 'btc', toCurrency: 'BTC' })).toBe(123);
    expect(await code({ toCurrency: 'USDT' })).toBe(101);
    expect(await code({ fromCurrency: 'BTC' })).toBe(101);
    expect(await code({})).toBe(101);
    expect(await code({ fromCurrency: 1, toCurrency: 'BTC' })).toBe(101);
  });
});

describe('HTTP robustness', () => {
  it('decides the encoding by Content-Type, sniffing when it is absent or unhelpful', async () => {
    // No Content-Type at all (a Uint8Array body gets none from fetch).
    const enc = new TextEncoder();
    const sniffJson = await fetch(`${sbx.url}/exchange/rate`, {
      method: 'POST',
      body: enc.encode('  {"fromCurrency":"ETH","toCurrency":"USDT"}'),
    });
    expect(((await sniffJson.json()) as { rate: string }).rate).toBe('3421.17');
    const sniffForm = await fetch(`${sbx.url}/exchange/rate`, {
      method: 'POST',
      body: enc.encode('fromCurrency=ETH&toCurrency=USDT'),
    });
    expect(((await sniffForm.json()) as { rate: string }).rate).toBe('3421.17');
    // text/plain (what fetch sends for a string body) is sniffed too.
    const textPlain = await fetch(`${sbx.url}/exchange/rate`, {
      method: 'POST',
      body: '{"fromCurrency":"ETH","toCurrency":"USDT"}',
    });
    expect(((await textPlain.json()) as { rate: string }).rate).toBe('3421.17');
    // A charset parameter does not matter.
    const r = await postJson('/merchants/allowedCoins', { merchant: SANDBOX_MERCHANT_KEY }, { 'content-type': 'application/json; charset=utf-8' });
    expect(r.json.result).toBe(100);
  });

  it('refuses a body over 64 KiB with HTTP 413 and result 101', async () => {
    const r = await postJson(WL, { merchant: SANDBOX_MERCHANT_KEY, amount: 1, payCurrency: 'BTC', description: 'x'.repeat(70 * 1024) });
    expect(r.status).toBe(413);
    expect(r.json.result).toBe(101);
    // The server is still fine afterwards.
    expect((await postJson('/exchange/rate', { fromCurrency: 'BTC', toCurrency: 'USDT' })).json.result).toBe(100);
  });

  it('answers an unknown legacy path with 404 in the legacy envelope', async () => {
    const r = await postJson('/merchants/nothing', {});
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ result: 404, message: 'Not found' });
    expect((await toReply(await fetch(`${sbx.url}/`))).status).toBe(404);
  });

  it('tolerates a query string and a trailing slash on legacy paths', async () => {
    const r = await postJson('/exchange/rate/?x=1', { fromCurrency: 'BTC', toCurrency: 'USDT' });
    expect(r.json.rate).toBe('65573.55');
  });

  it('never crashes on odd input', async () => {
    const bodies = [
      '',
      '\u0000\u0001\u0002',
      '{"amount":1e999999999,"merchant":"sandbox-merchant-key","payCurrency":"BTC"}',
      '{"amount":"1e-99999","merchant":"sandbox-merchant-key","payCurrency":"BTC"}',
      '{"__proto__":{"polluted":true},"merchant":"sandbox-merchant-key","amount":1,"payCurrency":"BTC"}',
      '%%%=&&==',
      '{"merchant":"sandbox-merchant-key","amount":1,"payCurrency":"BTC","network":{"x":1}}',
      '\uFEFF{"fromCurrency":"BTC","toCurrency":"ETH"}',
    ];
    for (const path of ['/merchants/allowedCoins', WL, '/api/balance', '/exchange/rate']) {
      for (const body of bodies) {
        const r = await postJson(path, body);
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(200);
        expect(typeof r.json.result).toBe('number');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await getV1({ merchant_api_key: SANDBOX_MERCHANT_KEY })).status).toBe(200);
  });
});

describe('prices (pure)', () => {
  it('divides to 8 decimals, or to 8 significant digits below 1, half-up, trimmed', () => {
    expect(divideForRate('65573.55', '1')).toBe('65573.55');
    expect(divideForRate('2', '3')).toBe('0.66666667');
    expect(divideForRate('1', '3')).toBe('0.33333333');
    expect(divideForRate('1', '8')).toBe('0.125');
    expect(divideForRate('1', '65573.55')).toBe('0.000015250051');
    expect(divideForRate('0', '5')).toBe('0');
    expect(exchangeRate('EUR', 'ETH')).toBe('0.00031568148');
    expect(exchangeRate('XYZ', 'ETH')).toBeUndefined();
  });

  it('multiplies and rounds half-up to the asset precision', () => {
    expect(multiplyRounded('0.5', '0.00000001', 8)).toBe('0.00000001');
    expect(multiplyRounded('0.49', '0.00000001', 8)).toBe('0');
    expect(multiplyRounded('100', '0.000015250051', 8)).toBe('0.00152501');
    expect(multiplyRounded('2', '1.5', 6)).toBe('3');
    expect(multiplyRounded('1.234567890123456789', '1', 18)).toBe('1.234567890123456789');
  });
});

describe('POST /merchants/inquiry and /merchants/list over HTTP', () => {
  it('answers the payment just created, found again by track id and by order id', async () => {
    const created = await postJson('/merchants/request/whitelabel', { merchant: SANDBOX_MERCHANT_KEY, amount: 25, payCurrency: 'USDT', orderId: 'http-1' });
    const trackId = created.json.trackId as string;
    const info = await postJson('/merchants/inquiry', { merchant: SANDBOX_MERCHANT_KEY, trackId });
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ result: 100, trackId, status: 'Waiting', amount: '25', payAmount: '25', orderId: 'http-1', date: NOW_S });
    const list = await postForm('/merchants/list', { merchant: SANDBOX_MERCHANT_KEY, orderId: 'http-1' });
    expect(list.json).toMatchObject({ result: 100, meta: { page: 1, last_page: 1, total: 1 } });
    expect(list.json.data[0].trackId).toBe(trackId);
    expect((await postJson('/merchants/inquiry', { merchant: SANDBOX_MERCHANT_KEY, trackId: 'sbx0' })).json.result).toBe(116);
    expect((await postJson('/merchants/list', { merchant: 'wrong' })).json.result).toBe(102);
  });
});
