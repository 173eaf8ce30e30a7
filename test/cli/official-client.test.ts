// The gateway's official Node library (the `oxapay` npm package, 0.6.10; docs/gateway.md Sources,
// NODE) against the embedded sandbox on 127.0.0.1 (issue 23): every call of the library that the
// sandbox serves gets the answer the library's users read, `result` 100 and the documented fields,
// and a payment created through the library is notified, signed as the gateway's webhook page says
// (the library offers no verifier of its own).
//
// The library speaks the legacy API only: POST https://api.oxapay.com/<path>, JSON bodies, the
// merchant key in the body field `merchant`, the payout key in `key`; it validates the request with
// the JSON schema of its methodInfos.json first (a track id must be an integer) and returns
// `response.data` as it is. Its base URL is a private constant, so a shop that wants it elsewhere
// rewrites the URL in an axios interceptor: so does this test, on the library's own axios, which
// may then only reach 127.0.0.1 (no proxy, bounded time).
//
// exchangeRate (POST /merchants/rate, merchant key) and the General class (prices, currencies,
// networks, system status, no key) are served. Calls the sandbox does not serve (createInvoice,
// static addresses, payouts) answer HTTP 501 with `{result: 501, message: "… is not served by the gw
// sandbox"}`: the library, through axios, throws "Request failed with status code 501" and drops
// the body (it rethrows only the message), so the body is read here where a shop would log it, in a
// response interceptor on the library's axios. paymentInfo is here: the sandbox's track ids are
// numbers, as the gateway's, so the library's schema (an integer) lets it send them.
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { startReceiver, type Receiver } from '../support/notifications.js';

const require = createRequire(import.meta.url);

interface AxiosRequest {
  url?: string;
  proxy?: false;
  timeout?: number;
}
interface AxiosFailure {
  response?: { status: number; data: unknown };
}
interface AxiosLike {
  interceptors: {
    request: { use(f: (c: AxiosRequest) => AxiosRequest): number; eject(id: number): void };
    response: { use(ok: (r: unknown) => unknown, failed: (e: AxiosFailure) => Promise<never>): number; eject(id: number): void };
  };
}
type Call = (reqData?: Record<string, unknown>) => Promise<Record<string, unknown>>;
interface OxapayModule {
  Merchant: new (
    apiKey: string,
  ) => {
    allowedCoins: Call;
    whiteLabel: Call;
    paymentHistory: Call;
    paymentInfo: Call;
    exchangeRate: Call;
    createInvoice: Call;
    createStaticAddress: Call;
  };
  Payout: new (apiKey: string) => { accountBalance: Call; createPayout: Call; payoutHistory: Call };
  General: new () => { cryptoPrices: Call; supportedCurrencies: Call; supportedNetworks: Call; systemStatus: Call };
}

const oxapay = require('oxapay') as OxapayModule;
// The axios instance the library requires (its own copy if it has one, else the hoisted one).
const axios = require(require.resolve('axios', { paths: [require.resolve('oxapay')] })) as AxiosLike;
const GATEWAY = 'https://api.oxapay.com/';
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'all_proxy'];

let sbx: RunningSandbox;
let receiver: Receiver;
let interceptor: number | undefined;
let responseInterceptor: number | undefined;
const sent: string[] = [];
/** The bodies of the answers axios refused (HTTP status not 2xx), as they reached the library. */
const refused: Array<{ status: number; data: unknown }> = [];

beforeAll(async () => {
  for (const name of PROXY_VARIABLES) vi.stubEnv(name, '');
  receiver = await startReceiver('/hooks');
  sbx = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 2, notifications: { retryDelaysMs: [] } });
  interceptor = axios.interceptors.request.use((config) => {
    const url = String(config.url ?? '');
    if (!url.startsWith(GATEWAY)) throw new Error(`the library asked for ${url}, not the gateway`);
    const local = `${sbx.url}/${url.slice(GATEWAY.length)}`;
    if (new URL(local).hostname !== '127.0.0.1') throw new Error(`not loopback: ${local}`);
    sent.push(local.slice(sbx.url.length));
    return { ...config, url: local, proxy: false, timeout: 5000 };
  });
  responseInterceptor = axios.interceptors.response.use(
    (r) => r,
    (error) => {
      if (error.response !== undefined) refused.push({ status: error.response.status, data: error.response.data });
      return Promise.reject(error);
    },
  );
});

afterAll(async () => {
  if (interceptor !== undefined) axios.interceptors.request.eject(interceptor);
  if (responseInterceptor !== undefined) axios.interceptors.response.eject(responseInterceptor);
  vi.unstubAllEnvs();
  await sbx?.close();
  await receiver?.close();
});

const SUCCESS = { result: 100, message: expect.any(String) };

describe('Merchant', () => {
  it('allowedCoins(): POST /merchants/allowedCoins, result 100 and the coins', async () => {
    const answer = await new oxapay.Merchant(sbx.merchantKey).allowedCoins();
    expect(sent.at(-1)).toBe('/merchants/allowedCoins');
    expect(answer).toMatchObject({ ...SUCCESS, allowed: expect.arrayContaining(['BTC', 'USDT']) });
    expect((answer.allowed as unknown[]).every((c) => typeof c === 'string')).toBe(true);
  });

  it("a wrong merchant key is the gateway's refusal, HTTP 200 with result ≠ 100 (the library returns it)", async () => {
    const answer = await new oxapay.Merchant('not-the-key').allowedCoins();
    expect(answer.result).not.toBe(100);
    expect(answer.message).toEqual(expect.any(String));
  });

  it('whiteLabel(): POST /merchants/request/whitelabel with every field of its schema; the answer echoes them', async () => {
    const answer = await new oxapay.Merchant(sbx.merchantKey).whiteLabel({
      amount: 25,
      currency: 'USD',
      payCurrency: 'USDT',
      lifeTime: 30,
      feePaidByPayer: 0,
      underPaidCover: 2.5,
      callbackUrl: `${receiver.url}`,
      returnUrl: 'http://127.0.0.1:9/thanks',
      description: 'official client',
      orderId: 'official-1',
      email: 'payer@example.com',
    });
    expect(sent.at(-1)).toBe('/merchants/request/whitelabel');
    expect(answer).toMatchObject({
      ...SUCCESS,
      trackId: expect.any(String),
      amount: 25,
      currency: 'USD',
      payAmount: 25,
      payCurrency: 'USDT',
      network: 'Tron Network',
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      callbackUrl: receiver.url,
      description: 'official client',
      email: 'payer@example.com',
      feePaidByPayer: 0,
      lifeTime: 30,
      orderId: 'official-1',
      underPaidCover: 2.5,
      rate: 1,
      expiredAt: expect.any(Number),
      createdAt: expect.any(Number),
      QRCode: expect.stringContaining(String(answer.trackId)),
    });
    expect((answer.expiredAt as number) - (answer.createdAt as number)).toBe(30 * 60);
  });

  it('paymentInfo(): POST /merchants/inquiry with the track id as an integer (its schema says so), result 100 and the payment', async () => {
    const merchant = new oxapay.Merchant(sbx.merchantKey);
    const created = await merchant.whiteLabel({ amount: 12.5, currency: 'USD', payCurrency: 'USDT', orderId: 'official-info' });
    expect(created.trackId).toEqual(expect.stringMatching(/^[1-9]\d{8}$/)); // numeric text, as the gateway's
    const answer = await merchant.paymentInfo({ trackId: Number(created.trackId) });
    expect(sent.at(-1)).toBe('/merchants/inquiry');
    expect(answer).toMatchObject({
      ...SUCCESS,
      trackId: created.trackId,
      status: expect.stringMatching(/^(Waiting|Confirming|Paid)$/),
      amount: '12.5', // text in the inquiry's answer (docs/gateway.md §5)
      currency: 'USD',
      payCurrency: 'USDT',
      address: created.address,
      orderId: 'official-info',
    });
    // An id the sandbox never gave: the gateway's refusal, result 116.
    const unknown = await merchant.paymentInfo({ trackId: 100000000 + ((Number(created.trackId) + 1) % 900000000) });
    expect(unknown).toMatchObject({ result: 116 });
  });

  it('paymentHistory(): POST /merchants/list, result 100, the payments in data and the paging in meta', async () => {
    const merchant = new oxapay.Merchant(sbx.merchantKey);
    const created = await merchant.whiteLabel({ amount: 10, payCurrency: 'BTC', orderId: 'official-history' });
    const answer = await merchant.paymentHistory({ orderId: 'official-history', size: 10, page: 1 });
    expect(sent.at(-1)).toBe('/merchants/list');
    expect(answer).toMatchObject({ ...SUCCESS, meta: { page: 1, last_page: 1, total: 1 } });
    expect(answer.data).toEqual([
      expect.objectContaining({
        trackId: created.trackId,
        orderId: 'official-history',
        status: expect.stringMatching(/^(Waiting|Confirming|Paid)$/),
        payCurrency: 'BTC',
        address: created.address,
      }),
    ]);
    // Without filters: every payment of this sandbox, newest first (payments of the same second in
    // any order: the ids are random, as far as a client can tell).
    const all = await merchant.paymentHistory({});
    expect(all).toMatchObject({ ...SUCCESS, meta: { page: 1, total: expect.any(Number) } });
    const data = all.data as Array<{ trackId: string; date: number }>;
    const at = data.findIndex((p) => p.trackId === created.trackId);
    expect(at).toBeGreaterThanOrEqual(0);
    for (const newer of data.slice(0, at)) expect(newer.date).toBe(created.createdAt);
  });

  it('a payment made through the library is notified as the gateway does: legacy body, HMAC-SHA512 of the raw bytes with the merchant key', async () => {
    const created = await new oxapay.Merchant(sbx.merchantKey).whiteLabel({
      amount: 5,
      currency: 'USD',
      payCurrency: 'USDT',
      callbackUrl: receiver.url,
      orderId: 'official-notified',
    });
    const about = () =>
      receiver.requests
        .map((r) => ({ r, body: JSON.parse(r.body.toString('utf8')) as Record<string, unknown> }))
        .filter(({ body }) => body.trackId === created.trackId);
    await expect.poll(() => about().map(({ body }) => body.status), { timeout: 6000, interval: 50 }).toContain('Paid');
    for (const { r, body } of about()) {
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers.hmac).toBe(createHmac('sha512', sbx.merchantKey).update(r.body).digest('hex'));
      expect(body).toMatchObject({
        trackId: created.trackId,
        type: 'payment',
        orderId: 'official-notified',
        amount: '5',
        currency: 'USD',
        payCurrency: 'USDT',
      });
    }
    // In the order the payment went through them (creation's Waiting may fall in the same second as Confirming).
    const order = ['Waiting', 'Confirming', 'Paid'];
    const steps = about().map(({ body }) => order.indexOf(String(body.status)));
    expect(steps.every((step, i) => step >= 0 && (i === 0 || step > (steps[i - 1] ?? -1)))).toBe(true);
    const paid = about().find(({ body }) => body.status === 'Paid')?.body;
    expect(paid).toMatchObject({ txID: expect.stringMatching(/^[0-9a-f]{64}$/), payDate: expect.stringMatching(/^\d+$/) });
  });
});

describe('Payout', () => {
  it('accountBalance(): POST /api/balance with the payout key, every coin; with a currency, that one', async () => {
    const payout = new oxapay.Payout(sbx.payoutKey);
    const all = await payout.accountBalance({});
    expect(sent.at(-1)).toBe('/api/balance');
    expect(all).toMatchObject({ ...SUCCESS, data: expect.objectContaining({ BTC: expect.any(String), USDT: expect.any(String) }) });
    const one = await payout.accountBalance({ currency: 'USDT' });
    expect(one).toEqual({ ...SUCCESS, data: { USDT: (all.data as Record<string, string>).USDT } });
  });

  it('a wrong payout key is refused with result ≠ 100', async () => {
    const answer = await new oxapay.Payout('not-the-key').accountBalance({});
    expect(answer.result).not.toBe(100);
  });
});

describe('exchangeRate and the General class: served', () => {
  it('exchangeRate(): POST /merchants/rate with the merchant key, result 100 and the rate as text', async () => {
    const answer = await new oxapay.Merchant(sbx.merchantKey).exchangeRate({ fromCurrency: 'BTC', toCurrency: 'USDT' });
    expect(sent.at(-1)).toBe('/merchants/rate');
    expect(answer).toEqual({ ...SUCCESS, rate: '65573.55' });
    expect((await new oxapay.Merchant('not-the-key').exchangeRate({ fromCurrency: 'BTC', toCurrency: 'USDT' })).result).toBe(102);
  });

  it('cryptoPrices(), supportedCurrencies(), supportedNetworks(), systemStatus(): result 100 and the data', async () => {
    const general = new oxapay.General();
    const prices = await general.cryptoPrices();
    expect(sent.at(-1)).toBe('/api/prices');
    expect(prices).toMatchObject({ ...SUCCESS, data: { BTC: 65573.55, USDT: 1 } });
    const currencies = await general.supportedCurrencies();
    expect(sent.at(-1)).toBe('/api/currencies');
    expect(currencies).toMatchObject({
      ...SUCCESS,
      data: { USDT: { symbol: 'USDT', status: true, networks: { 'Tron Network': expect.objectContaining({ required_confirmations: 12 }) } } },
    });
    const networks = await general.supportedNetworks();
    expect(sent.at(-1)).toBe('/api/networks');
    expect(networks).toMatchObject({ ...SUCCESS, data: { list: expect.arrayContaining(['Bitcoin Network', 'Tron Network']) } });
    const status = await general.systemStatus();
    expect(sent.at(-1)).toBe('/monitor');
    expect(status).toMatchObject({ ...SUCCESS, data: { status: true } });
  });
});

describe('calls the sandbox does not serve: HTTP 501, "… is not served by the gw sandbox"', () => {
  it.each([
    ['createInvoice', '/merchants/request', 'Invoice creation', () => new oxapay.Merchant(sbx.merchantKey).createInvoice({ amount: 10, currency: 'USD' })],
    [
      'createStaticAddress',
      '/merchants/request/staticaddress',
      'Static address creation',
      () => new oxapay.Merchant(sbx.merchantKey).createStaticAddress({ currency: 'USDT' }),
    ],
    [
      'createPayout',
      '/api/send',
      'Payout creation',
      () => new oxapay.Payout(sbx.payoutKey).createPayout({ address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', amount: 1, currency: 'USDT' }),
    ],
    ['payoutHistory', '/api/list', 'The payout history', () => new oxapay.Payout(sbx.payoutKey).payoutHistory({})],
  ] as const)('%s(): POST %s; the library throws, the 501 envelope names the operation', async (_name, path, operation, call) => {
    const before = refused.length;
    await expect(call()).rejects.toThrow('Request failed with status code 501');
    expect(sent.at(-1)).toBe(path);
    expect(refused.slice(before)).toEqual([{ status: 501, data: { result: 501, message: `${operation} is not served by the gw sandbox` } }]);
  });
});

it('every request the library made went to the sandbox on 127.0.0.1', () => {
  expect(sent.length).toBeGreaterThanOrEqual(9);
  expect(sent.every((p) => p.startsWith('/'))).toBe(true);
});
