// The sandbox's versioned API over real HTTP (a server on 127.0.0.1 port 0, requests made the way
// the official SDKs make them: JSON bodies, keys in the documented headers, GET query strings),
// and the payment information/history records written and read through the operations' v1 codec
// (src/operations/payment-info.ts, payment-history.ts), served by the generated routes.

import { request as httpRequest } from 'node:http';
import { LosslessNumber, parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRequestFields } from '../../src/operations/codec.js';
import { encodePaymentPage, PAYMENT_HISTORY } from '../../src/operations/payment-history.js';
import { encodePaymentInfo, encodePaymentRecord, PAYMENT_INFO, type PaymentRecord } from '../../src/operations/payment-info.js';
import { notServedReply, successReply, type GatewayReply } from '../../src/sandbox/envelopes.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { SANDBOX_GENERAL_KEY, SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { getParams, serveOperation } from '../../src/sandbox/routes.js';

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
  text: string;
  // Tests read arbitrary JSON shapes, field by field.
  json: any;
}

async function call(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  const res = await fetch(sbx.url + path, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as unknown };
}

/** A GET with a body, as Node HTTP clients (axios) send one; fetch cannot. */
function rawGet(path: string, headers: Record<string, string>, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sbx.url}${path}`,
      { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, json: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const merchant = { merchant_api_key: SANDBOX_MERCHANT_KEY };
const general = { general_api_key: SANDBOX_GENERAL_KEY };
const whiteLabel = (body: unknown, headers: Record<string, string> = merchant): Promise<Reply> => call('POST', '/v1/payment/white-label', headers, body);

function expectEnvelopeError(r: Reply, status: number, key: string): void {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({ data: {}, status, version: '1.0.0', error: { key } });
  expect(typeof r.json.error.type).toBe('string');
  expect(typeof r.json.error.message).toBe('string');
}

describe('the general key', () => {
  it('has a default constant and can be chosen', async () => {
    expect(SANDBOX_GENERAL_KEY).toBe('sandbox-general-key');
    expect(sbx.generalKey).toBe(SANDBOX_GENERAL_KEY);
    const other = await startSandbox({ generalKey: 'gk-1' });
    try {
      expect(other.generalKey).toBe('gk-1');
      const r = await fetch(`${other.url}/v1/general/account/balance`, { headers: { general_api_key: 'gk-1' } });
      expect(r.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('POST /v1/payment/white-label (header merchant_api_key, snake_case JSON)', () => {
  it('creates a payment: the versioned envelope, snake_case data in the documented order, amounts as JSON numbers digit for digit', async () => {
    const r = await whiteLabel(
      '{"amount":0.123456789012345678,"currency":"ETH","pay_currency":"ETH","lifetime":30,"fee_paid_by_payer":1,"under_paid_coverage":2.50,' +
        '"callback_url":"https://shop.example/cb","email":"buyer@example.com","order_id":"ORD-7","description":"Order 7","to_currency":"USDT","auto_withdrawal":false}',
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });
    const data = r.json.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([
      'track_id',
      'amount',
      'currency',
      'pay_amount',
      'pay_currency',
      'network',
      'address',
      'memo',
      'callback_url',
      'description',
      'email',
      'fee_paid_by_payer',
      'lifetime',
      'order_id',
      'under_paid_coverage',
      'rate',
      'qr_code',
      'expired_at',
      'date',
    ]);
    expect(data).toMatchObject({
      currency: 'ETH',
      pay_currency: 'ETH',
      network: 'Ethereum Network',
      memo: '',
      callback_url: 'https://shop.example/cb',
      description: 'Order 7',
      email: 'buyer@example.com',
      fee_paid_by_payer: 1,
      lifetime: 30,
      order_id: 'ORD-7',
      rate: 1,
      expired_at: NOW_S + 30 * 60,
      date: NOW_S,
    });
    expect(data.track_id).toMatch(/^[1-9]\d{8}$/); // numeric text, as the fixture's
    expect(data.qr_code).toBe(`${sbx.url}/qr/${String(data.track_id)}.png`);
    // The raw bytes: numbers, never strings, with every digit.
    expect(r.text).toContain('"amount":0.123456789012345678,');
    expect(r.text).toContain('"pay_amount":0.123456789012345678,');
    expect(r.text).toContain('"under_paid_coverage":2.50,');
  });

  it('prices a fiat amount like the interface endpoint does (one rule set)', async () => {
    const v1 = await whiteLabel({ amount: 25, currency: 'USD', pay_currency: 'BTC' });
    const old = await call('POST', '/merchants/request/whitelabel', {}, { merchant: SANDBOX_MERCHANT_KEY, amount: 25, currency: 'USD', payCurrency: 'BTC' });
    expect(v1.json.data.pay_amount).toBe(old.json.payAmount);
    expect(v1.json.data.rate).toBe(old.json.rate);
    expect(typeof v1.json.data.pay_amount).toBe('number');
    expect(v1.json.data.network).toBe('Bitcoin Network');
  });

  it('chooses the network asked for', async () => {
    const r = await whiteLabel({ amount: 10, pay_currency: 'USDT', network: 'BEP20' });
    expect(r.json.data.network).toBe('Binance Smart Chain');
  });

  it.each([
    ['no key', {}, 'missing_merchant_api_key'],
    ['a wrong key', { merchant_api_key: 'nope' }, 'invalid_merchant_api_key'],
    ['the payout key', { merchant_api_key: SANDBOX_PAYOUT_KEY }, 'invalid_merchant_api_key'],
    ['the key in another header', { merchant: SANDBOX_MERCHANT_KEY }, 'missing_merchant_api_key'],
  ])('refuses %s with 401', async (_name, headers, key) => {
    expectEnvelopeError(await whiteLabel({ amount: 1, pay_currency: 'BTC' }, headers), 401, key);
  });

  it('reads the key only from its header, never from the body', async () => {
    expectEnvelopeError(await whiteLabel({ merchant: SANDBOX_MERCHANT_KEY, amount: 1, pay_currency: 'BTC' }, {}), 401, 'missing_merchant_api_key');
  });

  it.each([
    ['amount missing', { pay_currency: 'BTC' }, 'amount'],
    ['amount zero', { amount: 0, pay_currency: 'BTC' }, 'amount'],
    ['pay_currency missing', { amount: 1 }, 'pay_currency'],
    ['the interface spelling payCurrency (not the versioned API’s)', { amount: 1, payCurrency: 'BTC' }, 'pay_currency'],
    ['unknown pay_currency', { amount: 1, pay_currency: 'NOPE' }, 'pay_currency'],
    ['unknown currency', { amount: 1, currency: 'XXX', pay_currency: 'BTC' }, 'currency'],
    ['unknown network', { amount: 1, pay_currency: 'USDT', network: 'Moon' }, 'network'],
    ['lifetime too short', { amount: 1, pay_currency: 'BTC', lifetime: 14 }, 'lifetime'],
    ['lifetime too long', { amount: 1, pay_currency: 'BTC', lifetime: 2881 }, 'lifetime'],
    ['under_paid_coverage above 60', { amount: 1, pay_currency: 'BTC', under_paid_coverage: 60.5 }, 'under_paid_coverage'],
    ['fee_paid_by_payer 2', { amount: 1, pay_currency: 'BTC', fee_paid_by_payer: 2 }, 'fee_paid_by_payer'],
    ['a bad callback_url', { amount: 1, pay_currency: 'BTC', callback_url: 'ftp://x' }, 'callback_url'],
  ])('refuses %s with 400, naming the field in the versioned spelling', async (_name, body, key) => {
    const r = await whiteLabel(body);
    expectEnvelopeError(r, 400, key);
    expect(r.json.error.message).not.toMatch(/payCurrency|lifeTime|underPaidCover|feePaidByPayer|callbackUrl/);
  });

  it('answers malformed JSON with a versioned 400', async () => {
    expectEnvelopeError(await whiteLabel('{"amount":'), 400, 'invalid_body');
  });
});

describe('GET /v1/general/account/balance (header general_api_key)', () => {
  it('answers every balance as a JSON number with every digit', async () => {
    const r = await call('GET', '/v1/general/account/balance', general);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ error: {}, status: 200, version: '1.0.0' });
    expect(r.text).toContain('"ETH":1.234567890123456789');
    expect(r.text).toContain('"BNB":0.000000000000000001');
    expect(r.text).toContain('"USDC":0');
    const data = parse(r.text) as { data: Record<string, unknown> };
    for (const value of Object.values(data.data)) expect(value).toBeInstanceOf(LosslessNumber);
    expect(Object.keys(data.data)).toContain('BTC');
  });

  it('one currency with ?currency=, 400 for an unknown one', async () => {
    const r = await call('GET', '/v1/general/account/balance?currency=btc', general);
    expect(r.status).toBe(200);
    expect(r.text).toContain('"data":{"BTC":0.00012345}');
    expectEnvelopeError(await call('GET', '/v1/general/account/balance?currency=NOPE', general), 400, 'currency');
  });

  it.each([
    ['no key', {}, 'missing_general_api_key'],
    ['a wrong key', { general_api_key: 'nope' }, 'invalid_general_api_key'],
    ['the payout key', { general_api_key: SANDBOX_PAYOUT_KEY }, 'invalid_general_api_key'],
    ['the merchant key header', merchant, 'missing_general_api_key'],
  ])('refuses %s with 401', async (_name, headers, key) => {
    expectEnvelopeError(await call('GET', '/v1/general/account/balance', headers), 401, key);
  });
});

describe('POST /v1/general/swap/rate (header general_api_key, {from_currency, to_currency})', () => {
  it('answers the rate as a JSON number, the same as the interface endpoint', async () => {
    const r = await call('POST', '/v1/general/swap/rate', general, { from_currency: 'BTC', to_currency: 'USDT' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('"data":{"rate":65573.55}');
    const old = await call('POST', '/exchange/rate', {}, { fromCurrency: 'ETH', toCurrency: 'BTC' });
    const v1 = await call('POST', '/v1/general/swap/rate', general, { from_currency: 'eth', to_currency: 'btc' });
    expect(String(v1.json.data.rate)).toBe(old.json.rate);
  });

  it.each([
    ['equal currencies', { from_currency: 'BTC', to_currency: 'BTC' }, 'to_currency'],
    ['unknown from_currency', { from_currency: 'NOPE', to_currency: 'BTC' }, 'from_currency'],
    ['the interface spelling', { fromCurrency: 'BTC', toCurrency: 'USDT' }, 'invalid_request'],
  ])('refuses %s with 400', async (_name, body, key) => {
    expectEnvelopeError(await call('POST', '/v1/general/swap/rate', general, body), 400, key);
  });

  it('needs the general key', async () => {
    expectEnvelopeError(await call('POST', '/v1/general/swap/rate', {}, { from_currency: 'BTC', to_currency: 'USDT' }), 401, 'missing_general_api_key');
  });
});

describe('requests as the official SDKs send them', () => {
  it('header names in any case, Accept and Content-Type on a GET without a body', async () => {
    const r = await fetch(`${sbx.url}/v1/payment/accepted-currencies`, {
      headers: { Merchant_Api_Key: SANDBOX_MERCHANT_KEY, Accept: 'application/json', 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(200);
    const b = await fetch(`${sbx.url}/v1/general/account/balance?currency=USDT`, { headers: { General_API_Key: SANDBOX_GENERAL_KEY } });
    expect(await b.text()).toContain('"USDT":1520.75');
  });

  it('a GET with a JSON body (the gateway’s own Node client sends one, `{}` or its filters) and an empty ?currency=', async () => {
    const all = await rawGet('/v1/general/account/balance', general, '{}');
    expect(all.status).toBe(200);
    expect(all.text).toContain('"BTC":0.00012345');
    expect(all.text).toContain('"ETH":1.234567890123456789');
    const one = await rawGet('/v1/general/account/balance', general, '{"currency":"USDT"}');
    expect(one.text).toContain('"data":{"USDT":1520.75}');
    const queryWins = await rawGet('/v1/general/account/balance?currency=BTC', general, '{"currency":"USDT"}');
    expect(queryWins.text).toContain('"data":{"BTC":0.00012345}');
    const empty = await call('GET', '/v1/general/account/balance?currency=', general);
    expect(Object.keys(empty.json.data as object)).toContain('ETH');
    expect((await rawGet('/v1/payment/accepted-currencies', merchant, '{}')).status).toBe(200);
    expect((await rawGet('/v1/payment?size=0', merchant, '{}')).json.error.key).toBe('size');
    expect((await rawGet('/v1/payment', merchant, '{"size":500,"page":1}')).json.error.key).toBe('size');
  });

  it('a trailing slash and an unknown /v1 path', async () => {
    expect((await call('GET', '/v1/payment/accepted-currencies/', merchant)).status).toBe(200);
    expectEnvelopeError(await call('GET', '/v1/general/nothing', general), 404, 'not_found');
    expectEnvelopeError(await call('GET', '/v1/payment/white-label', merchant), 404, 'track_id');
  });
});

// ---------------------------------------------------------------------------------------------
// Payment information and history: the lifecycle's canonical records through the operations' v1 codec

/** A payment as the sandbox's operation answers for it (canonical names and values). */
const RECORD: PaymentRecord = {
  trackId: 'sbx123',
  kind: 'white-label',
  status: 'confirming',
  amount: '25',
  currency: 'USD',
  payAmount: '25.000000000000000001',
  payCurrency: 'USDT',
  network: 'Tron Network',
  address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
  txID: 'abc123',
  email: '',
  orderId: 'ORD-7',
  description: '',
  callbackUrl: 'https://shop.example/cb',
  feePaidByPayer: 0,
  underPaidCover: '2.5',
  lifeTime: 60,
  date: NOW_S,
  payDate: NOW_S + 300,
  expiredAt: NOW_S + 3600,
  receivedAmount: '25.000000000000000001',
  mixedPayment: false,
  txs: [
    {
      txID: 'abc123',
      amount: '25.000000000000000001',
      currency: 'USDT',
      network: 'Tron Network',
      address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      status: 'confirming',
      confirmations: 0,
      date: NOW_S + 300,
    },
  ],
};

const V1_INFO = PAYMENT_INFO.endpoints.v1;
const V1_HISTORY = PAYMENT_HISTORY.endpoints.v1;
const body = (reply: GatewayReply): string => JSON.stringify(reply.body, (_k, v: unknown) => (v instanceof LosslessNumber ? `#${v.value}` : v));
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v instanceof LosslessNumber ? `#${v.value}` : v)));

/** A sandbox gateway without HTTP, for serving one endpoint at a time. */
const direct = new SandboxGateway({ merchantKey: SANDBOX_MERCHANT_KEY, payoutKey: SANDBOX_PAYOUT_KEY, now: () => NOW_MS, baseUrl: () => 'http://127.0.0.1:1' });
const v1 = (operation: Parameters<typeof serveOperation>[1], wire: Record<string, unknown>, key: string | null = SANDBOX_MERCHANT_KEY) =>
  serveOperation(direct, operation, 'v1', wire, key === null ? {} : { merchant_api_key: key });

describe('GET /v1/payment/{track_id}: the payment record through the v1 codec', () => {
  it('writes the versioned payment information: snake_case, numbers, v1 status, txs', () => {
    expect(JSON.parse(body(successReply(V1_INFO, encodePaymentInfo(V1_INFO, RECORD))))).toEqual({
      data: {
        track_id: 'sbx123',
        type: 'white_label',
        amount: '#25',
        currency: 'USD',
        status: 'paying',
        mixed_payment: false,
        fee_paid_by_payer: 0,
        under_paid_coverage: '#2.5',
        lifetime: 60,
        callback_url: 'https://shop.example/cb',
        email: '',
        order_id: 'ORD-7',
        description: '',
        expired_at: NOW_S + 3600,
        date: NOW_S,
        txs: [
          {
            tx_hash: 'abc123',
            amount: '#25.000000000000000001',
            currency: 'USDT',
            network: 'Tron Network',
            address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
            status: 'confirming',
            confirmations: 0,
            auto_convert: { processed: false, amount: '#0', currency: 'USDT' },
            auto_withdrawal: { processed: false },
            date: NOW_S + 300,
          },
        ],
      },
      message: 'Operation completed successfully!',
      error: {},
      status: 200,
      version: '1.0.0',
    });
  });

  it('writes every transaction the record has, and none before a transaction', () => {
    const tx = { txID: 't1', amount: '1.5', confirmations: '3', status: 'confirmed' } as unknown as PaymentRecord['txs'][number];
    const own = encodePaymentRecord(V1_INFO, { ...RECORD, status: 'paid', txs: [tx] });
    expect(json(own.txs)).toEqual([
      {
        tx_hash: 't1',
        amount: '#1.5',
        status: 'confirmed',
        confirmations: '#3',
        auto_convert: { processed: false, amount: '#0', currency: '' },
        auto_withdrawal: { processed: false },
      },
    ]);
    expect(own.status).toBe('paid');
    expect(encodePaymentRecord(V1_INFO, { ...RECORD, status: 'new', txID: '', txs: [] }).txs).toEqual([]);
    // The versioned API has no failed: expired, its transaction failed (docs/sandbox.md).
    expect(encodePaymentRecord(V1_INFO, { ...RECORD, status: 'failed' }).status).toBe('expired');
  });

  it('an unknown track id (result 116) is a versioned 404; a refused key 401', () => {
    expectReply(v1('paymentInfo', { track_id: 'nope' }), 404, 'track_id', 'Invalid track_id');
    expectReply(v1('paymentInfo', { track_id: 'x' }, 'bad'), 401, 'invalid_merchant_api_key');
  });

  it('needs the header key before anything; an operation the sandbox does not serve says so (501)', () => {
    expectReply(v1('paymentInfo', { track_id: 'sbx123' }, null), 401, 'missing_merchant_api_key');
    expectReply(notServedReply(V1_INFO, PAYMENT_INFO.name), 501, 'not_served_by_sandbox', 'Payment information is not served by the gw sandbox');
  });
});

function expectReply(reply: GatewayReply, status: number, key: string, message?: string): void {
  expect(reply.status).toBe(status);
  const b = reply.body as { status: number; error: { key: string; message: string } };
  expect(b.status).toBe(status);
  expect(b.error.key).toBe(key);
  if (message !== undefined) expect(b.error.message).toBe(message);
}

describe('GET /v1/payment: the history through the v1 codec', () => {
  it('reads the query into canonical fields and writes the page as {list, meta}', () => {
    const query = new URLSearchParams(
      'page=2&size=5&status=paying&order_id=ORD-7&track_id=sbx123&currency=USD&pay_currency=USDT&network=Tron+Network&from_date=1700000000&to_date=1800000000&from_amount=1.5&to_amount=100&sort_type=desc',
    );
    expect({ ...decodeRequestFields(V1_HISTORY.request, Object.fromEntries(query)) }).toEqual({
      page: '2',
      size: '5',
      status: 'paying',
      trackId: 'sbx123',
      currency: 'USD',
      payCurrency: 'USDT',
      network: 'Tron Network',
      fromDate: '1700000000',
      toDate: '1800000000',
      fromAmount: '1.5',
      toAmount: '100',
      sortType: 'desc',
    });
    const reply = successReply(
      V1_HISTORY,
      encodePaymentPage(V1_HISTORY, {
        payments: [RECORD, { ...RECORD, trackId: 'sbx124', status: 'expired', txID: '', txs: [] }],
        page: 2,
        pages: 3,
        total: 12,
        size: 5,
      }),
    );
    expect(reply.status).toBe(200);
    const data = JSON.parse(body(reply)).data as { list: Array<Record<string, unknown>>; meta: unknown };
    expect(data.meta).toEqual({ page: 2, last_page: 3, total: 12 });
    expect(data.list.map((p) => [p.track_id, p.status, (p.txs as unknown[]).length])).toEqual([
      ['sbx123', 'paying', 1],
      ['sbx124', 'expired', 0],
    ]);
  });

  it('an empty page', () => {
    expect(json(encodePaymentPage(V1_HISTORY, { payments: [], page: 1, pages: 1, total: 0, size: 20 }))).toEqual({
      list: [],
      meta: { page: 1, last_page: 1, total: 0 },
    });
  });

  it.each(['0', '201', 'ten', '1.5'])('a size of %s is outside 1–200: 400', (size) => {
    expectReply(v1('paymentHistory', { size }), 400, 'size');
  });

  it('refusals: a missing key 401, the operation’s validation 400', () => {
    expectReply(v1('paymentHistory', {}, null), 401, 'missing_merchant_api_key');
    expectReply(v1('paymentHistory', { from_date: '20', to_date: '10' }), 400, 'to_date', 'to_date cannot be earlier than from_date');
  });
});

describe('getParams', () => {
  it('the query string, then the JSON body’s fields it does not name, as text', () => {
    const params = getParams({
      method: 'GET',
      path: '/v1/payment',
      params: {},
      query: new URLSearchParams('page=2&status=paid'),
      headers: {},
      fields: { page: new LosslessNumber('9'), size: new LosslessNumber('20'), from_date: 1700000000, order_id: 'A', nested: { x: 1 }, none: null },
    });
    expect([...params]).toEqual([
      ['page', '2'],
      ['status', 'paid'],
      ['size', '20'],
      ['from_date', '1700000000'],
      ['order_id', 'A'],
    ]);
  });
});

describe('the generated v1 payment routes', () => {
  it('the running sandbox routes GET /v1/payment/{id} and GET /v1/payment to the lifecycle: a payment made over v1 is found, an unknown id is 404', async () => {
    const created = await call('POST', '/v1/payment/white-label', merchant, { amount: 25, pay_currency: 'USDT', order_id: 'v1-lookup' });
    expect(created.status).toBe(200);
    const trackId = String(created.json.data.track_id);
    const info = await call('GET', `/v1/payment/${trackId}`, merchant);
    expect(info.status).toBe(200);
    expect(info.json.data).toMatchObject({ track_id: trackId, order_id: 'v1-lookup' });
    expect(['waiting', 'paying', 'paid']).toContain(info.json.data.status);
    const list = await call('GET', '/v1/payment?page=1&size=10', merchant);
    expect(list.status).toBe(200);
    expect(list.json.data.list.map((p: { track_id: string }) => p.track_id)).toContain(trackId);
    expectEnvelopeError(await call('GET', '/v1/payment/sbx123', merchant), 404, 'track_id');
    expectEnvelopeError(await call('GET', '/v1/payment?size=500', merchant), 400, 'size');
    expectEnvelopeError(await call('GET', '/v1/payment/sbx123', {}), 401, 'missing_merchant_api_key');
    expectEnvelopeError(await call('POST', '/v1/payment/sbx123', merchant, {}), 405, 'method_not_allowed');
  });
});

describe('notifications of payments made through the versioned API', () => {
  it('are in the versioned style (snake_case, type white_label), signed with the merchant key; legacy ones stay legacy', async () => {
    const { hmacOf, startReceiver } = await import('../support/notifications.js');
    const app = await startReceiver();
    try {
      const v1 = await call('POST', '/v1/payment/white-label', merchant, { amount: 10, pay_currency: 'USDT', callback_url: app.url, order_id: 'v1-hook' });
      expect(v1.status).toBe(200);
      const legacyCreated = await call(
        'POST',
        '/merchants/request/whitelabel',
        {},
        { merchant: SANDBOX_MERCHANT_KEY, amount: 10, payCurrency: 'USDT', callbackUrl: app.url },
      );
      expect(legacyCreated.status).toBe(200);
      await expect.poll(() => app.requests.length).toBeGreaterThanOrEqual(2);
      const bodies = app.requests.map((r) => ({ raw: r.body, json: JSON.parse(r.body.toString('utf8')) as Record<string, unknown>, hmac: r.headers.hmac }));
      const fromV1 = bodies.find((b) => b.json.track_id === v1.json.data.track_id);
      const fromLegacy = bodies.find((b) => b.json.trackId === legacyCreated.json.trackId);
      expect(fromV1?.json).toMatchObject({ type: 'white_label', order_id: 'v1-hook' });
      expect(fromLegacy?.json).toMatchObject({ type: 'payment' });
      for (const b of [fromV1, fromLegacy]) expect(b?.hmac).toBe(hmacOf(SANDBOX_MERCHANT_KEY, b?.raw ?? ''));
    } finally {
      await app.close();
    }
  });
});
