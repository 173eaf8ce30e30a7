// Tests for the versioned API's client: the pure decoders and the field table
// (the versioned codecs of src/operations/), and V1Gateway against a fake transport, asserting the exact request
// each operation builds (method, path and query, key header, snake_case body with amounts as the
// typed digits), that a missing key stops before any request, and the exit code of each refusal.

import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode, GwError, ProtocolError, UsageError } from '../../src/errors.js';
import type { JsonObject, RawResponse } from '../../src/gateway/envelope.js';
import type { Keys, PaymentRequest } from '../../src/gateway/gateway.js';
import { parseLossless } from '../../src/util/json.js';
import { historyQuery, MAX_PAGE_SIZE, missingV1KeyError, trackIdSegment, V1Gateway, whiteLabelBody } from '../../src/gateway/v1/client.js';
import { decodeV1AcceptedCurrencies } from '../../src/operations/accepted-currencies.js';
import { decodeV1Balances } from '../../src/operations/balance.js';
import { decodeV1Payment } from '../../src/operations/create-payment.js';
import { camelCase, interfaceName, V1_FIELDS, v1Name } from '../../src/operations/index.js';
import { decodeV1PaymentPage } from '../../src/operations/payment-history.js';
import { decodeV1PaymentInfo, interfaceFields } from '../../src/operations/payment-info.js';
import { decodeV1Rate } from '../../src/operations/rate.js';
import { Decimal } from '../../src/money/decimal.js';
import { FakeTransport } from '../support/fake-transport.js';

const MERCHANT = 'MERCHANT-KEY-1234567890';
const GENERAL = 'GENERAL-KEY-0987654321';
const d = (digits: string): Decimal => Decimal.fromLiteral(digits) as Decimal;
/** A value as gw's JSON output shows it (Untrusted and Decimal become their exact strings). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const KEYS = {
  merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' },
  general: { value: GENERAL, from: '~/.config/gateway/config.yaml (profile shop)' },
} satisfies Keys;

const body = (text: string): JsonObject => parseLossless(text) as JsonObject;
const ok = (data: string): string => `{"data":${data},"message":"Operation completed successfully!","error":{},"status":200,"version":"1.0.0"}`;

async function catchAsync(run: () => Promise<unknown>): Promise<GwError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as GwError;
  }
  throw new Error('did not throw');
}

function catchSync(run: () => unknown): GwError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as GwError;
  }
  throw new Error('did not throw');
}

function json(text: string, status = 200): RawResponse {
  return { status, contentType: 'application/json', body: text };
}

function failure(status: number, type: string, key: string, message: string): RawResponse {
  return json(JSON.stringify({ data: {}, message, error: { type, key, message }, status, version: '1.0.0' }), status);
}

function client(answers: RawResponse[], keys: Keys = KEYS): { fake: FakeTransport; gw: V1Gateway } {
  const fake = new FakeTransport(answers);
  return { fake, gw: new V1Gateway(fake, keys) };
}

const WHITE_LABEL_DATA =
  '{"track_id":"184747701","amount":0.123456789012345678,"currency":"ETH","pay_amount":0.123456789012345678,"pay_currency":"ETH",' +
  '"network":"Ethereum Network","address":"0x0000000000000000000000000000000000000001","memo":"","callback_url":"https://shop.example/cb",' +
  '"description":"Order 7","email":"buyer@example.com","fee_paid_by_payer":1,"lifetime":30,"order_id":"ORD-7",' +
  '"under_paid_coverage":2.5,"rate":1,"qr_code":"https://api.example/qr/abc","expired_at":1700001800,"date":1700000000}';

const PAYMENT_INFO_DATA =
  '{"track_id":"184729305","type":"white_label","amount":25,"currency":"USD","status":"paying","mixed_payment":false,' +
  '"fee_paid_by_payer":0,"under_paid_coverage":2.50,"lifetime":60,"callback_url":"https://shop.example/cb","email":"",' +
  '"order_id":"ORD-7","description":"","expired_at":1700003600,"date":1700000000,' +
  '"txs":[{"tx_hash":"abc123","amount":25.000000000000000001,"currency":"USDT","network":"Tron Network",' +
  '"address":"TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe","status":"confirming","confirmations":1,"date":1700000300,' +
  '"auto_convert":{"processed":false,"amount":0,"currency":"USDT"}}]}';

// ---------------------------------------------------------------------------------------------
// The field table

describe('V1_FIELDS: the one table between the versioned names and the interface names', () => {
  it.each([
    ['track_id', 'trackId'],
    ['pay_amount', 'payAmount'],
    ['pay_currency', 'payCurrency'],
    ['order_id', 'orderId'],
    ['expired_at', 'expiredAt'],
    ['callback_url', 'callbackUrl'],
    ['fee_paid_by_payer', 'feePaidByPayer'],
    ['under_paid_coverage', 'underPaidCover'],
    ['lifetime', 'lifeTime'],
    ['qr_code', 'QRCode'],
    ['tx_hash', 'txID'],
    ['date', 'date'],
    ['pay_date', 'payDate'],
    ['from_date', 'fromDate'],
    ['to_amount', 'toAmount'],
  ])('%s ↔ %s', (v1, name) => {
    expect(interfaceName(v1)).toBe(name);
    expect(v1Name(name as Parameters<typeof v1Name>[0])).toBe(v1);
  });

  it('the white-label answer calls `date` createdAt (the interface says so there), everything else date', () => {
    expect(interfaceName('date', 'white-label')).toBe('createdAt');
    expect(interfaceName('date', 'payment')).toBe('date');
    expect(interfaceName('track_id', 'white-label')).toBe('trackId');
  });

  it('a field the table does not list keeps its meaning under its camelCase spelling', () => {
    expect(interfaceName('mixed_payment')).toBe('mixedPayment');
    expect(interfaceName('sent_amount')).toBe('sentAmount');
    expect(interfaceName('auto_convert')).toBe('autoConvert');
    expect(camelCase('a__b_c1')).toBe('aBC1');
    expect(camelCase('plain')).toBe('plain');
  });

  it('has each name once in each direction', () => {
    expect(new Set(V1_FIELDS.map((r) => r.v1)).size).toBe(V1_FIELDS.length);
    expect(new Set(V1_FIELDS.map((r) => r.name)).size).toBe(V1_FIELDS.length);
  });
});

// ---------------------------------------------------------------------------------------------
// Decoders

describe('decodeV1Payment (white-label data)', () => {
  it('reads every field under the interface name, amounts digit for digit from JSON numbers', () => {
    const payment = decodeV1Payment(body(ok(WHITE_LABEL_DATA)), 'the payment request');
    expect(plain(payment)).toEqual({
      trackId: '184747701',
      amount: '0.123456789012345678',
      currency: 'ETH',
      payAmount: '0.123456789012345678',
      payCurrency: 'ETH',
      network: 'Ethereum Network',
      address: '0x0000000000000000000000000000000000000001',
      memo: null,
      callbackUrl: 'https://shop.example/cb',
      description: 'Order 7',
      email: 'buyer@example.com',
      feePaidByPayer: 1,
      lifeTime: 30,
      orderId: 'ORD-7',
      underPaidCover: '2.5',
      rate: '1',
      expiredAt: 1700001800,
      createdAt: 1700000000,
      QRCode: 'https://api.example/qr/abc',
    });
  });

  it('keeps a memo, reads exponent forms exactly, missing optional fields as null', () => {
    const payment = decodeV1Payment(
      body(ok('{"track_id":123,"pay_amount":9.28e-8,"pay_currency":"TON","address":"EQx","memo":"4711","date":"1700000000"}')),
      'x',
    );
    expect(payment.trackId.raw()).toBe('123');
    expect(payment.payAmount?.toString()).toBe('0.0000000928');
    expect(payment.memo?.raw()).toBe('4711');
    expect(plain(payment.createdAt)).toBe('1700000000');
    for (const field of ['amount', 'currency', 'network', 'rate', 'QRCode', 'lifeTime', 'expiredAt', 'orderId'] as const) expect(payment[field]).toBeNull();
  });

  it('is liberal: the interface name is read when the versioned one is absent', () => {
    const payment = decodeV1Payment(body(ok('{"trackId":"t1","payAmount":"1.5","payCurrency":"BTC","address":"a","createdAt":5}')), 'x');
    expect(payment.trackId.raw()).toBe('t1');
    expect(payment.payAmount?.toString()).toBe('1.5');
    expect(payment.createdAt).toBe(5);
  });

  it.each([
    ['no data object', '{"message":"ok","error":{},"status":200}', 'no data object'],
    ['no track id', ok('{"pay_amount":1}'), 'no track_id'],
    ['an amount that is not a number', ok('{"track_id":"1","amount":"lots"}'), 'amount is not a number'],
  ])('%s → exit 76', (_name, text, detail) => {
    const error = catchSync(() => decodeV1Payment(body(text), 'the payment request'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe(`the gateway's answer to the payment request has an unexpected shape: ${detail}`);
  });
});

describe('decodeV1AcceptedCurrencies, decodeV1Balances, decodeV1Rate', () => {
  it('reads data.list', () => {
    expect(plain(decodeV1AcceptedCurrencies(body(ok('{"list":["BTC","USDT"]}')), 'x'))).toEqual(['BTC', 'USDT']);
    expect(() => decodeV1AcceptedCurrencies(body(ok('{"allowed":["BTC"]}')), 'x')).toThrow(ProtocolError);
  });

  it('reads balances sent as JSON numbers with every digit, exponent forms expanded', () => {
    const balances = decodeV1Balances(body(ok('{"BTC":0.00012345,"ETH":1.234567890123456789,"USDC":0,"BNB":1e-18}')), 'x');
    expect(plain(balances)).toEqual([
      { currency: 'BTC', amount: '0.00012345' },
      { currency: 'ETH', amount: '1.234567890123456789' },
      { currency: 'USDC', amount: '0' },
      { currency: 'BNB', amount: '0.000000000000000001' },
    ]);
    expect(() => decodeV1Balances(body('{"status":200,"error":{}}'), 'x')).toThrow(ProtocolError);
  });

  it('reads balances given as {available, pending} per symbol (one of the gateway’s own clients reads that shape): the available amount', () => {
    const balances = decodeV1Balances(body(ok('{"BTC":{"available":0.5,"pending":0.1},"USDT":{"available":1520.75,"pending":0},"ETH":2}')), 'x');
    expect(plain(balances)).toEqual([
      { currency: 'BTC', amount: '0.5' },
      { currency: 'USDT', amount: '1520.75' },
      { currency: 'ETH', amount: '2' },
    ]);
    expect(() => decodeV1Balances(body(ok('{"BTC":{"pending":1}}')), 'x')).toThrow(ProtocolError);
  });

  it('reads data.rate, a number, exactly', () => {
    expect(decodeV1Rate(body(ok('{"rate":65573.550000000001}')), 'x').toString()).toBe('65573.550000000001');
    expect(decodeV1Rate(body(ok('{"rate":"1.5e-5"}')), 'x').toString()).toBe('0.000015');
    expect(() => decodeV1Rate(body(ok('{}')), 'x')).toThrow('no rate');
    expect(() => decodeV1Rate(body(ok('{"rate":-1}')), 'x')).toThrow('the rate is negative');
  });
});

describe('decodeV1PaymentInfo', () => {
  it('normalises the status, keeps the gateway text, reads the transactions and takes the pay side from the first one', () => {
    const info = decodeV1PaymentInfo(body(PAYMENT_INFO_DATA), 'the payment status request');
    expect(info.status).toBe('confirming');
    expect(info.gatewayStatus?.raw()).toBe('paying');
    expect(info.trackId.raw()).toBe('184729305');
    expect(info.type?.raw()).toBe('white_label');
    expect(info.amount?.toString()).toBe('25');
    expect(info.payAmount).toBeNull();
    expect(info.payCurrency?.raw()).toBe('USDT');
    expect(info.network?.raw()).toBe('Tron Network');
    expect(info.address?.raw()).toBe('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
    expect(info.txID?.raw()).toBe('abc123');
    expect(info.orderId?.raw()).toBe('ORD-7');
    expect(info.date).toBe(1700000000);
    expect(info.expiredAt).toBe(1700003600);
    expect(info.payDate).toBeNull();
    expect(plain(info.txs)).toEqual([
      {
        txID: 'abc123',
        amount: '25.000000000000000001',
        currency: 'USDT',
        network: 'Tron Network',
        address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
        status: 'confirming',
        confirmations: 1,
        date: 1700000300,
      },
    ]);
  });

  it('fields: every field sent, under the interface names (others camelCase, nested too), amounts as exact strings, gw status', () => {
    const info = decodeV1PaymentInfo(body(PAYMENT_INFO_DATA), 'x');
    expect(plain(info.fields)).toEqual({
      trackId: '184729305',
      type: 'white_label',
      amount: '25',
      currency: 'USD',
      status: 'confirming',
      gatewayStatus: 'paying',
      mixedPayment: false,
      feePaidByPayer: 0,
      underPaidCover: '2.50',
      lifeTime: 60,
      callbackUrl: 'https://shop.example/cb',
      email: '',
      orderId: 'ORD-7',
      description: '',
      expiredAt: 1700003600,
      date: 1700000000,
      txs: [
        {
          txID: 'abc123',
          amount: '25.000000000000000001',
          currency: 'USDT',
          network: 'Tron Network',
          address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
          status: 'confirming',
          confirmations: 1,
          date: 1700000300,
          autoConvert: { processed: false, amount: '0', currency: 'USDT' },
        },
      ],
      // What arrived (src/domain/arrival.ts): the amount is in USD, the transaction in USDT, so
      // nothing says what was owed in USDT.
      received: { USDT: '25.000000000000000001' },
      expected: null,
      difference: null,
      transactions: [
        {
          hash: 'abc123',
          amount: '25.000000000000000001',
          currency: 'USDT',
          network: 'Tron Network',
          confirmations: 1,
          status: 'confirming',
          counted: true,
          confirmed: false,
        },
      ],
    });
    expect(Object.keys(info.fields)).not.toContain('track_id');
  });

  it.each([
    ['paid', 'paid'],
    ['Paid', 'paid'],
    ['manual_accept', 'paid'],
    ['underpaid', 'underpaid'],
    ['refunding', 'refunding'],
    ['expired', 'expired'],
    ['new', 'new'],
    ['waiting', 'waiting'],
    ['something_else', 'unknown'],
  ])('status %s → %s', (status, state) => {
    expect(decodeV1PaymentInfo(body(`{"track_id":"1","status":"${status}"}`), 'x').status).toBe(state);
  });

  it('without transactions: empty txs, no pay side; a payment-level pay side wins over the transactions', () => {
    const bare = decodeV1PaymentInfo(body('{"track_id":"1","status":"new","txs":[]}'), 'x');
    expect(bare.txs).toEqual([]);
    expect(bare.address).toBeNull();
    expect(bare.txID).toBeNull();
    const own = decodeV1PaymentInfo(body('{"track_id":"1","address":"own","pay_currency":"BTC","txs":[{"address":"tx","currency":"LTC"}]}'), 'x');
    expect(own.address?.raw()).toBe('own');
    expect(own.payCurrency?.raw()).toBe('BTC');
    expect(decodeV1PaymentInfo(body('{"track_id":"1"}'), 'x').status).toBe('unknown');
  });

  it.each([
    ['{"status":"paid"}', 'no track_id'],
    ['{"track_id":"1","txs":{}}', 'txs is not a list'],
    ['{"track_id":"1","txs":["abc"]}', 'a transaction in txs is not an object'],
    ['{"track_id":"1","amount":true}', 'amount is not a number'],
  ])('%s → exit 76 (%s)', (text, detail) => {
    const error = catchSync(() => decodeV1PaymentInfo(body(text), 'the payment status request'));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toContain(detail);
  });
});

describe('decodeV1PaymentPage', () => {
  it('reads data.list and data.meta {page, last_page, total}', () => {
    const page = decodeV1PaymentPage(
      body(ok(`{"list":[${PAYMENT_INFO_DATA},{"track_id":"2","status":"expired"}],"meta":{"page":2,"last_page":7,"total":131}}`)),
      'x',
    );
    expect(page.payments.map((p) => [p.trackId.raw(), p.status])).toEqual([
      ['184729305', 'confirming'],
      ['2', 'expired'],
    ]);
    expect([page.page, page.pages, page.total]).toEqual([2, 7, 131]);
  });

  it('without paging: one page holding what was sent; an empty list is fine', () => {
    expect(decodeV1PaymentPage(body(ok('{"list":[]}')), 'x')).toEqual({ payments: [], page: 1, pages: 1, total: 0, declared: {} });
    const page = decodeV1PaymentPage(body(ok('{"list":[{"track_id":"1"}],"meta":{"page":"3","lastPage":"4"}}')), 'x');
    expect([page.page, page.pages, page.total]).toEqual([3, 4, 1]);
    expect(page.declared).toEqual({ page: 3, pages: 4 });
  });

  it('keeps the paging as stated beside the liberal one: a last page before the page is visible to the reader', () => {
    const page = decodeV1PaymentPage(body(ok('{"list":[{"track_id":"1"}],"meta":{"page":3,"last_page":1,"total":50}}')), 'x');
    expect([page.page, page.pages, page.total]).toEqual([3, 3, 50]);
    expect(page.declared).toEqual({ page: 3, pages: 1, total: 50 });
  });

  it.each([
    [ok('{"meta":{}}'), 'no list of payments'],
    [ok('{"list":[1]}'), 'a payment in the list is not an object'],
    [ok('{"list":[{"status":"paid"}]}'), 'no track_id'],
  ])('%s → exit 76', (text, detail) => {
    const error = catchSync(() => decodeV1PaymentPage(body(text), 'x'));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toContain(detail);
  });
});

describe('interfaceFields', () => {
  it('renames at every depth and keeps exact digits in money fields', () => {
    expect(plain(interfaceFields(body('{"a_b":[{"sent_amount":1.10,"x_y":{"pay_amount":2e-3}}],"under_paid_coverage":0.5}')))).toEqual({
      aB: [{ sentAmount: '1.10', xY: { payAmount: '0.002' } }],
      underPaidCover: '0.5',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Requests

describe('V1Gateway requests', () => {
  it('acceptedCurrencies: GET /v1/payment/accepted-currencies with the merchant_api_key header and nothing else', async () => {
    const { fake, gw } = client([json(ok('{"list":["BTC","ETH"]}'))]);
    expect(plain(await gw.acceptedCurrencies())).toEqual(['BTC', 'ETH']);
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: '/v1/payment/accepted-currencies',
        headers: { merchant_api_key: MERCHANT, 'content-type': 'application/json' },
        idempotent: true,
      },
    ]);
  });

  it('acceptedCurrencies --legacy: the interface endpoint the user asked for, as the interface says', async () => {
    const { fake, gw } = client([json('{"result":100,"message":"ok","allowed":["BTC"]}')]);
    expect(plain(await gw.acceptedCurrencies('legacy'))).toEqual(['BTC']);
    expect(fake.requests).toEqual([{ method: 'POST', path: '/merchants/allowedCoins', form: { merchant: MERCHANT }, idempotent: true }]);
  });

  it('createPayment: POST /v1/payment/white-label, snake_case JSON, the amount as a number literal with the typed digits, never retried', async () => {
    const { fake, gw } = client([json(ok(WHITE_LABEL_DATA))]);
    const payment = await gw.createPayment({ amount: d('0.123456789012345678'), currency: 'ETH', payCurrency: 'ETH' });
    expect(payment.trackId.raw()).toBe('184747701');
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/payment/white-label',
        headers: { merchant_api_key: MERCHANT },
        json: '{"amount":0.123456789012345678,"pay_currency":"ETH","currency":"ETH"}',
        idempotent: false,
      },
    ]);
  });

  it('createPayment: every optional field under its versioned name, numbers as numbers, in a fixed order; no key in the body', async () => {
    const request: PaymentRequest = {
      amount: d('25.50'),
      currency: 'USD',
      payCurrency: 'USDT',
      network: 'Tron Network',
      lifeTime: 30,
      feePaidByPayer: 1,
      underPaidCover: d('2.50'),
      callbackUrl: 'https://shop.example/cb?x=1',
      email: 'buyer@example.com',
      orderId: 'ORD-7',
      description: 'Order "7"',
    };
    expect(whiteLabelBody(request)).toBe(
      '{"amount":25.50,"pay_currency":"USDT","currency":"USD","network":"Tron Network","lifetime":30,"fee_paid_by_payer":1,' +
        '"under_paid_coverage":2.50,"callback_url":"https://shop.example/cb?x=1","email":"buyer@example.com","order_id":"ORD-7",' +
        '"description":"Order \\"7\\""}',
    );
    const { fake, gw } = client([json(ok(WHITE_LABEL_DATA))]);
    await gw.createPayment(request);
    expect(fake.requests[0]?.json).toBe(whiteLabelBody(request));
    expect(fake.requests[0]?.json).not.toContain(MERCHANT);
  });

  it('balances: GET /v1/general/account/balance with the general_api_key header; ?currency= for one', async () => {
    const { fake, gw } = client([json(ok('{"BTC":0.00012345,"ETH":1.234567890123456789}')), json(ok('{"BTC":0.5}'))]);
    expect(plain(await gw.balances())).toEqual([
      { currency: 'BTC', amount: '0.00012345' },
      { currency: 'ETH', amount: '1.234567890123456789' },
    ]);
    expect(plain(await gw.balances('BTC'))).toEqual([{ currency: 'BTC', amount: '0.5' }]);
    expect(fake.requests).toEqual([
      { method: 'GET', path: '/v1/general/account/balance', headers: { general_api_key: GENERAL, 'content-type': 'application/json' }, idempotent: true },
      {
        method: 'GET',
        path: '/v1/general/account/balance?currency=BTC',
        headers: { general_api_key: GENERAL, 'content-type': 'application/json' },
        idempotent: true,
      },
    ]);
  });

  it('rate: POST /v1/general/swap/rate, JSON {from_currency, to_currency}, the general_api_key header', async () => {
    const { fake, gw } = client([json(ok('{"rate":65573.55}'))]);
    expect((await gw.rate('BTC', 'USDT')).toString()).toBe('65573.55');
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/general/swap/rate',
        headers: { general_api_key: GENERAL },
        json: '{"from_currency":"BTC","to_currency":"USDT"}',
        idempotent: true,
      },
    ]);
  });

  it('paymentInfo: GET /v1/payment/{track_id}, the track id percent-encoded as one path segment', async () => {
    const { fake, gw } = client([json(ok(PAYMENT_INFO_DATA)), json(ok('{"track_id":"a/b c"}'))]);
    expect((await gw.paymentInfo('184729305')).status).toBe('confirming');
    await gw.paymentInfo('a/b c');
    expect(fake.requests).toEqual([
      { method: 'GET', path: '/v1/payment/184729305', headers: { merchant_api_key: MERCHANT, 'content-type': 'application/json' }, idempotent: true },
      { method: 'GET', path: '/v1/payment/a%2Fb%20c', headers: { merchant_api_key: MERCHANT, 'content-type': 'application/json' }, idempotent: true },
    ]);
  });

  it.each(['', '.', '..'])('paymentInfo: the track id %j would change the path: usage error before any request', async (trackId) => {
    const { fake, gw } = client([]);
    const error = await catchAsync(() => gw.paymentInfo(trackId));
    expect(error).toBeInstanceOf(UsageError);
    expect(fake.requests).toHaveLength(0);
    expect(trackIdSegment('a.b')).toBe('a.b');
  });

  it('payments: GET /v1/payment with every documented filter as a query parameter in the versioned names, dates as Unix seconds, the v1 status spelling; no order_id (undocumented there)', async () => {
    const { fake, gw } = client([json(ok(`{"list":[${PAYMENT_INFO_DATA}],"meta":{"page":2,"last_page":3,"total":41}}`))]);
    const page = await gw.payments({
      page: 2,
      size: 20,
      status: 'confirming',
      orderId: 'ORD 7&x',
      trackId: '184729305',
      currency: 'USD',
      payCurrency: 'USDT',
      network: 'Tron Network',
      from: new Date('2023-11-14T22:13:20.999Z'),
      to: new Date(1700086400000),
      minAmount: d('10.50'),
      maxAmount: d('0.000000000000000001'),
    });
    expect([page.page, page.pages, page.total, page.payments.length]).toEqual([2, 3, 41, 1]);
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path:
          '/v1/payment?page=2&size=20&status=paying&track_id=184729305&currency=USD&pay_currency=USDT' +
          '&network=Tron+Network&from_date=1700000000&to_date=1700086400&from_amount=10.50&to_amount=0.000000000000000001',
        headers: { merchant_api_key: MERCHANT, 'content-type': 'application/json' },
        idempotent: true,
      },
    ]);
  });

  it('payments: the filters sent are exactly the documented ones; the order id is left to the caller', () => {
    expect(client([]).gw.historyFilters).toEqual(
      new Set(['status', 'trackId', 'currency', 'payCurrency', 'network', 'address', 'from', 'to', 'minAmount', 'maxAmount']),
    );
    expect(historyQuery({ orderId: 'ORD-7' })).toBe('');
    const documented = new Set([
      'track_id',
      'type',
      'status',
      'pay_currency',
      'currency',
      'network',
      'address',
      'from_date',
      'to_date',
      'from_amount',
      'to_amount',
      'sort_by',
      'sort_type',
      'page',
      'size',
    ]);
    const query = historyQuery({
      page: 1,
      size: 2,
      status: 'paid',
      orderId: 'x',
      trackId: '1',
      currency: 'USD',
      payCurrency: 'BTC',
      network: 'n',
      from: new Date(0),
      to: new Date(1),
      minAmount: d('1'),
      maxAmount: d('2'),
    });
    for (const name of new URLSearchParams(query.slice(1)).keys()) expect(documented).toContain(name);
  });

  it('payments: no filter, no query string; statuses with no versioned name are sent as gw names them', async () => {
    expect(historyQuery({})).toBe('');
    expect(historyQuery({ status: 'failed' })).toBe('?status=failed');
    expect(historyQuery({ status: 'paid' })).toBe('?status=paid');
    const { fake, gw } = client([json(ok('{"list":[],"meta":{"page":1,"last_page":1,"total":0}}'))]);
    await gw.payments({});
    expect(fake.requests[0]?.path).toBe('/v1/payment');
  });

  it.each([0, 201, 1.5])(`payments: a page size of %d is outside 1–${MAX_PAGE_SIZE}: usage error before any request`, async (size) => {
    const { fake, gw } = client([]);
    const error = await catchAsync(() => gw.payments({ size }));
    expect(error.exitCode).toBe(ExitCode.USAGE);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('V1Gateway: a missing key stops before any request (exit 78, naming where to set it)', () => {
  const MERCHANT_HINT = 'set it with --merchant-key, GATEWAY_MERCHANT_KEY, or merchantKey in your config file; gw config shows what is set';
  const GENERAL_HINT = 'set it with --general-key, GATEWAY_GENERAL_KEY, or generalKey in your config file; gw config shows what is set';
  it.each([
    ['acceptedCurrencies', { general: KEYS.general }, (gw: V1Gateway) => gw.acceptedCurrencies(), 'merchant'],
    ['createPayment', { general: KEYS.general }, (gw: V1Gateway) => gw.createPayment({ amount: d('1'), currency: 'BTC', payCurrency: 'BTC' }), 'merchant'],
    ['paymentInfo', { general: KEYS.general }, (gw: V1Gateway) => gw.paymentInfo('1'), 'merchant'],
    ['payments', { general: KEYS.general }, (gw: V1Gateway) => gw.payments({}), 'merchant'],
    ['balances', { merchant: KEYS.merchant }, (gw: V1Gateway) => gw.balances(), 'general'],
    ['balances for one currency', { merchant: KEYS.merchant }, (gw: V1Gateway) => gw.balances('BTC'), 'general'],
    ['rate', { merchant: KEYS.merchant }, (gw: V1Gateway) => gw.rate('BTC', 'USDT'), 'general'],
    ['rate with an empty key', { general: { value: '', from: 'env GATEWAY_GENERAL_KEY' } }, (gw: V1Gateway) => gw.rate('BTC', 'USDT'), 'general'],
  ] as const)('%s', async (_name, keys, run, kind) => {
    const { fake, gw } = client([json(ok('{}'))], keys);
    const error = await catchAsync(() => run(gw));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(78);
    if (kind === 'merchant') {
      expect(error.message).toBe('no merchant API key is configured');
      expect(error.hint).toBe(MERCHANT_HINT);
    } else {
      expect(error.message).toBe('no general API key is configured: the versioned API (api v1) reads balances and rates with it');
      expect(error.hint).toBe(GENERAL_HINT);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('says the payout key is not what the versioned API uses when only that one is set', () => {
    const error = missingV1KeyError('general', { payout: { value: 'p', from: 'env GATEWAY_PAYOUT_KEY' } });
    expect(error.hint).toBe(`${GENERAL_HINT}; the payout key is not used by the versioned API`);
  });
});

describe('V1Gateway: refusals (the versioned envelope on HTTP errors) and their exit codes', () => {
  const PAY = (gw: V1Gateway) => gw.createPayment({ amount: d('1'), currency: 'BTC', payCurrency: 'BTC' });
  it.each([
    ['400 validation', failure(400, 'invalid_request_error', 'amount', 'Amount is required'), PAY, ExitCode.DATA, undefined],
    [
      '401 merchant key',
      failure(401, 'authentication_error', 'invalid_merchant_api_key', 'Invalid merchant API key'),
      PAY,
      ExitCode.NOPERM,
      'check the merchant key (from env GATEWAY_MERCHANT_KEY)',
    ],
    [
      '401 general key',
      failure(401, 'authentication_error', 'invalid_general_api_key', 'Invalid general API key'),
      (gw: V1Gateway) => gw.balances(),
      ExitCode.NOPERM,
      'check the general key (from ~/.config/gateway/config.yaml (profile shop))',
    ],
    [
      '429',
      failure(429, 'rate_limit_error', 'too_many_requests', 'Slow down'),
      (gw: V1Gateway) => gw.rate('BTC', 'ETH'),
      ExitCode.TEMPFAIL,
      'the gateway is rate-limiting requests: try again later',
    ],
    [
      '500',
      failure(500, 'api_error', 'internal_error', 'Internal error'),
      (gw: V1Gateway) => gw.acceptedCurrencies(),
      ExitCode.UNAVAILABLE,
      'the gateway failed, not your request: try again later; if it persists, check the base URL',
    ],
    [
      '503',
      failure(503, 'api_error', 'maintenance', 'Down for maintenance'),
      (gw: V1Gateway) => gw.payments({}),
      ExitCode.UNAVAILABLE,
      'the gateway failed, not your request: try again later; if it persists, check the base URL',
    ],
    [
      '404 on status: an unknown track id is the request data being wrong',
      failure(404, 'invalid_request_error', 'not_found', 'Payment not found'),
      (gw: V1Gateway) => gw.paymentInfo('999'),
      ExitCode.DATA,
      'no payment of this merchant account has that track id: check it (if every track id gets this, check the base URL and api v1)',
    ],
    [
      '404 elsewhere: no such endpoint',
      failure(404, 'invalid_request_error', 'not_found', 'No such endpoint'),
      (gw: V1Gateway) => gw.acceptedCurrencies(),
      ExitCode.REFUSED,
      'the gateway has no such endpoint here: check the base URL, and that your account uses the versioned API (api v1)',
    ],
  ] as const)('%s', async (_name, answer, run, exitCode, hint) => {
    const { gw } = client([answer]);
    const error = await catchAsync(() => run(gw));
    expect(error.exitCode).toBe(exitCode);
    expect(error.status).toBe(answer.status);
    expect(error.type).toBeDefined();
    expect(error.key).toBeDefined();
    expect(error.hint).toBe(hint);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain(MERCHANT);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain(GENERAL);
  });

  it('a refusal in an HTTP 200 body (status ≠ 200 inside) is read the same way', async () => {
    const { gw } = client([
      json('{"data":{},"message":"bad","error":{"type":"invalid_request_error","key":"pay_currency","message":"bad"},"status":400,"version":"1"}'),
    ]);
    const error = await catchAsync(() => gw.createPayment({ amount: d('1'), currency: 'BTC', payCurrency: 'XXX' }));
    expect(error.exitCode).toBe(ExitCode.DATA);
    expect(error.key).toBe('pay_currency');
  });

  it('a pay failure carries the status, so a 5xx keeps the payment-may-exist rule', async () => {
    const { gw } = client([failure(500, 'api_error', 'internal_error', 'Internal error')]);
    const error = await catchAsync(() => gw.createPayment({ amount: d('1'), currency: 'BTC', payCurrency: 'BTC' }));
    expect(error.status).toBe(500);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
  });

  it('an HTML 404 (no envelope) stays "not understood" (exit 76), whatever the operation', async () => {
    const { gw } = client([{ status: 404, contentType: 'text/html', body: '<html>Not Found</html>' }]);
    const error = await catchAsync(() => gw.paymentInfo('1'));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
  });

  it('a transport failure is passed through unchanged', async () => {
    const boom = new GwError(ExitCode.UNAVAILABLE, 'down');
    const gw = new V1Gateway({ send: async () => Promise.reject(boom) }, KEYS);
    await expect(gw.balances()).rejects.toBe(boom);
  });
});
