// The operations' codecs against the gateway's published samples (test/fixtures/gateway/<api>/<operation>.json,
// each naming its public source): the client decodes every sample; the sandbox's answer to the same
// operation has the same field names and JSON types; and every codec carries a canonical value to
// the wire and back unchanged (requests as the client writes and the sandbox reads them, answers as
// the sandbox writes and the client reads them).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { parseLossless } from '../../src/util/json.js';
import type { JsonObject } from '../../src/operations/read.js';
import { Decimal } from '../../src/money/decimal.js';
import { ACCEPTED_CURRENCIES, decodeAcceptedCurrencies, encodeAcceptedCurrencies } from '../../src/operations/accepted-currencies.js';
import { BALANCE, decodeBalanceAnswer, encodeBalances } from '../../src/operations/balance.js';
import { chooseEndpoint, decodeRequestFields, NotServedError, type Api, type Endpoint, type Operation } from '../../src/operations/codec.js';
import { CREATE_PAYMENT, type CreatedPayment, decodePaymentAnswer, encodeCreatedPayment, encodePaymentRequest } from '../../src/operations/create-payment.js';
import { allEndpoints, OPERATIONS } from '../../src/operations/index.js';
import { decodePaymentPageAnswer, encodeHistoryRequest, encodePaymentPage, PAYMENT_HISTORY } from '../../src/operations/payment-history.js';
import { decodePaymentInfoAnswer, encodePaymentInfo, PAYMENT_INFO, type PaymentRecord } from '../../src/operations/payment-info.js';
import { decodeRate, encodeRate, RATE } from '../../src/operations/rate.js';
import { LegacyGateway } from '../../src/gateway/legacy/client.js';
import { V1Gateway } from '../../src/gateway/v1/client.js';
import { successReply } from '../../src/sandbox/envelopes.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { operationRoutes, sandboxServes, serveOperation } from '../../src/sandbox/routes.js';
import { FakeTransport } from '../support/fake-transport.js';

/** A published sample: its source, a request as sent (key aside; `$trackId`: a payment the test makes), the answer. */
interface Fixture {
  source: string;
  request: Record<string, unknown>;
  /** Fields the sandbox sends beyond the published sample (gw reads them where they are there). */
  sandboxExtras?: string[];
  answer: JsonObject;
}

/** An operation of any request and answer type. */
type AnyOperation = Operation<any, unknown, any>;

const FIXTURES = fileURLToPath(new URL('../fixtures/gateway/', import.meta.url));
const APIS: Api[] = ['legacy', 'v1'];

/** Every sample: test/fixtures/gateway/<api>/<operation>.json, for the operation module src/operations/<operation>.ts. */
const CASES = APIS.flatMap((api) =>
  readdirSync(path.join(FIXTURES, api))
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.slice(0, -'.json'.length), api] as const),
);

function fixture(api: Api, name: string): Fixture {
  return parseLossless(readFileSync(path.join(FIXTURES, api, `${name}.json`), 'utf8')) as unknown as Fixture;
}

/** The operation a module holds (the export with endpoints and a codec). */
async function operationOf(name: string): Promise<AnyOperation> {
  const url = pathToFileURL(fileURLToPath(new URL(`../../src/operations/${name}.ts`, import.meta.url))).href;
  const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  const found = Object.values(module).find((v): v is AnyOperation => typeof v === 'object' && v !== null && 'endpoints' in v && 'decodeAnswer' in v);
  if (found === undefined) throw new Error(`src/operations/${name}.ts holds no operation`);
  return found;
}

const endpointOf = (operation: AnyOperation, api: Api): Endpoint => {
  const endpoint = (operation.endpoints as Partial<Record<Api, Endpoint>>)[api];
  if (endpoint === undefined) throw new Error(`${operation.name} has no ${api} endpoint, yet a ${api} sample`);
  return endpoint;
};

/** The client's reading of an answer: the operation's own codec. */
const decode = (operation: AnyOperation, endpoint: Endpoint, body: JsonObject): unknown => operation.decodeAnswer(endpoint, body, operation.what);

/** A value's JSON type, arrays and objects described by their elements' and fields' types. */
type Shape = string | { [key: string]: Shape } | Shape[];
function shape(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object') {
    const out: { [key: string]: Shape } = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[key] = shape(v);
    return out;
  }
  return typeof value;
}

/** `sent`'s fields all in `published` with the same JSON type (recursively), `extras` aside; `published`'s fields the codec lists all sent. */
function compareShapes(sent: Shape, published: Shape, listed: ReadonlySet<string>, extras: ReadonlySet<string>, path = ''): string[] {
  if (typeof sent === 'string' || typeof published === 'string')
    return sent === published ? [] : [`${path || '(top)'}: sandbox ${JSON.stringify(sent)}, sample ${JSON.stringify(published)}`];
  if (Array.isArray(sent) || Array.isArray(published)) {
    if (!Array.isArray(sent) || !Array.isArray(published)) return [`${path}: one is a list, the other not`];
    if (sent.length === 0 || published.length === 0) return sent.length === published.length ? [] : [`${path}: an empty list on one side`];
    return compareShapes(sent[0] as Shape, published[0] as Shape, listed, extras, `${path}[]`);
  }
  const problems: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    if (extras.has(key)) continue;
    const other = published[key];
    if (other === undefined) problems.push(`${path}.${key}: sent by the sandbox, not in the sample`);
    else problems.push(...compareShapes(value, other, listed, extras, `${path}.${key}`));
  }
  for (const key of Object.keys(published))
    if (listed.has(key) && sent[key] === undefined) problems.push(`${path}.${key}: in the sample and the codec's table, not sent by the sandbox`);
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe('the published samples', () => {
  it('cover every endpoint of every operation gw’s commands use (both APIs where an operation has both)', () => {
    expect(CASES).toHaveLength(allEndpoints().length);
  });

  it.each(CASES)('%s (%s): has a source note naming the public page, and the client decodes it', async (name, api) => {
    const sample = fixture(api, name);
    expect(sample.source).toMatch(/docs\.oxapay\.com|docs\/gateway\.md/);
    const operation = await operationOf(name);
    expect(() => decode(operation, endpointOf(operation, api), sample.answer)).not.toThrow();
  });

  it('decodes what matters exactly: digits, text, statuses, transactions, paging', () => {
    const at = (operation: AnyOperation, api: Api, name: string): unknown => decode(operation, endpointOf(operation, api), fixture(api, name).answer);
    const created = at(CREATE_PAYMENT, 'v1', 'create-payment') as ReturnType<typeof decodePaymentAnswer>;
    expect(created.amount?.toString()).toBe('0.123456789012345678');
    expect(created.createdAt).toBe(1700000000);
    expect(created.memo).toBeNull();
    const legacyCreated = at(CREATE_PAYMENT, 'legacy', 'create-payment') as typeof created;
    expect(legacyCreated.QRCode?.raw()).toBe('https://api.example/qr/abc');
    const info = at(PAYMENT_INFO, 'v1', 'payment-info') as ReturnType<typeof decodePaymentInfoAnswer>;
    expect([info.status, info.txs.length, info.payCurrency?.raw(), info.arrival.source]).toEqual(['paid', 1, 'BTC', 'transactions']);
    const legacyInfo = at(PAYMENT_INFO, 'legacy', 'payment-info') as typeof info;
    expect([legacyInfo.status, legacyInfo.payAmount?.toString(), legacyInfo.txID?.raw(), legacyInfo.arrival.source]).toEqual([
      'paid',
      '25',
      'abc123',
      'unreported',
    ]);
    const page = at(PAYMENT_HISTORY, 'v1', 'payment-history') as ReturnType<typeof decodePaymentPageAnswer>;
    expect([page.payments.length, page.page, page.pages, page.total, page.payments[0]?.status]).toEqual([1, 1, 1, 1, 'confirming']);
    const balances = at(BALANCE, 'v1', 'balance') as ReturnType<typeof decodeBalanceAnswer>;
    expect(balances.map((b) => `${b.currency.raw()}=${b.amount?.toString()}`)).toEqual(['BTC=0.00012345', 'ETH=1.234567890123456789', 'USDT=1520.75']);
    expect((at(RATE, 'legacy', 'rate') as Decimal).toString()).toBe('65573.55');
  });
});

describe('the sandbox answers in the samples’ names and JSON types', () => {
  const T0 = 1_750_000_000_000;
  let now = T0;
  const gateway = new SandboxGateway({ merchantKey: 'mk', payoutKey: 'pk', generalKey: 'gk', now: () => now, baseUrl: () => 'http://127.0.0.1:1' });
  const keys = { merchant: 'mk', payout: 'pk', general: 'gk' } as const;

  /** The wire fields and headers of a request to `endpoint`, its key where the endpoint takes it. */
  function request(endpoint: Endpoint, wire: Record<string, unknown>): [Record<string, unknown>, Record<string, string>] {
    const place = endpoint.key;
    if (place === undefined) return [wire, {}];
    if ('header' in place) return [wire, { [place.header]: keys[place.kind] }];
    return [{ ...wire, [place.field]: keys[place.kind] }, {}];
  }

  /** A static address the sandbox made from the published request, for the revocation sample (`$staticAddress`). */
  let staticAddress = '';
  function answer(operation: AnyOperation, api: Api, sent: Record<string, unknown>): JsonObject {
    const wire = Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, v === '$staticAddress' ? staticAddress : v]));
    const endpoint = endpointOf(operation, api);
    const [fields, headers] = request(endpoint, wire);
    const reply = serveOperation(gateway, operation, api, fields, headers);
    expect(reply.status).toBe(200);
    return JSON.parse(stringify(reply.body) ?? '') as JsonObject;
  }

  // A payment made through each API from the published request, then settled (its transactions listed).
  const made: Record<Api, string> = {
    legacy: String(answer(CREATE_PAYMENT, 'legacy', fixture('legacy', 'create-payment').request).trackId),
    v1: String((answer(CREATE_PAYMENT, 'v1', fixture('v1', 'create-payment').request).data as JsonObject).track_id),
  };
  // A payout (v1 only), for the payout-information sample (`$payoutTrackId`).
  const payoutTrackId = String((answer(OPERATIONS.createPayout, 'v1', fixture('v1', 'create-payout').request).data as JsonObject).track_id);
  staticAddress = String((answer(OPERATIONS.createStaticAddress, 'v1', fixture('v1', 'static-address').request).data as JsonObject).address);
  now = T0 + 11_000;

  it.each(CASES)('%s (%s)', async (name, api) => {
    const sample = fixture(api, name);
    const operation = await operationOf(name);
    const wire = Object.fromEntries(
      Object.entries(sample.request).map(([k, v]) => [k, v === '$trackId' ? made[api] : v === '$payoutTrackId' ? payoutTrackId : v]),
    );
    const sent = answer(operation, api, wire);
    const published = JSON.parse(
      JSON.stringify(sample.answer, (_k, v: unknown) => (v !== null && typeof v === 'object' && 'isLosslessNumber' in v ? Number(String(v)) : v)),
    );
    const endpoint = endpointOf(operation, api);
    const listed = new Set([...endpoint.answer.map((f) => f.wire), 'list', 'meta', 'data', 'txs', 'result', 'message', 'error', 'status', 'version']);
    // Balances are a map of symbols: compare one symbol's type.
    const strip = (body: JsonObject): JsonObject =>
      operation !== BALANCE
        ? body
        : JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'data' && v !== null && typeof v === 'object' ? { BTC: (v as JsonObject).BTC } : v)));
    const problems = compareShapes(shape(strip(sent)), shape(strip(published)), listed, new Set(sample.sandboxExtras ?? []));
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Round trips: canonical → wire → canonical

/** A body as it travels: written with lossless-json, read back losslessly. */
const travel = (value: unknown): JsonObject => parseLossless(stringify(value) ?? '') as JsonObject;

const CREATED: CreatedPayment = {
  trackId: 'sbx7',
  amount: '0.123456789012345678',
  currency: 'ETH',
  payAmount: '0.123456789012345678',
  payCurrency: 'ETH',
  network: 'Ethereum Network',
  address: '0x0000000000000000000000000000000000000001',
  memo: '',
  callbackUrl: 'https://shop.example/cb',
  description: 'Order 7',
  email: 'buyer@example.com',
  feePaidByPayer: 1,
  lifeTime: 30,
  orderId: 'ORD-7',
  underPaidCover: '2.50',
  rate: '1',
  QRCode: 'http://127.0.0.1:1/qr/sbx7.png',
  expiredAt: 1700001800,
  createdAt: 1700000000,
};

const RECORD: PaymentRecord = {
  trackId: 'sbx9',
  kind: 'white-label',
  status: 'underpaid',
  amount: '25',
  currency: 'USD',
  payAmount: '25.000000000000000001',
  payCurrency: 'USDT',
  network: 'Tron Network',
  address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
  txID: 'abc123',
  email: '',
  orderId: 'ORD-9',
  description: 'd',
  callbackUrl: 'https://shop.example/cb',
  feePaidByPayer: 0,
  underPaidCover: '0',
  lifeTime: 60,
  date: 1700000000,
  payDate: 0,
  expiredAt: 1700003600,
  receivedAmount: '22.5',
  mixedPayment: false,
  txs: [
    {
      txID: 'abc123',
      amount: '22.5',
      currency: 'USDT',
      network: 'Tron Network',
      address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      status: 'confirmed',
      confirmations: 12,
      date: 1700000300,
    },
  ],
};

const text = (value: { raw(): string } | null): string | null => (value === null ? null : value.raw());
const digits = (value: { toString(): string } | null): string | null => (value === null ? null : value.toString());

describe.each(APIS)('round trips through the %s codecs', (api) => {
  it('creating a payment: the request as the client writes it is what the sandbox reads; the answer as the sandbox writes it is what the client reads', () => {
    const endpoint = CREATE_PAYMENT.endpoints[api];
    const wire = travel(
      encodePaymentRequest(endpoint, {
        amount: Decimal.fromLiteral('0.10') as Decimal,
        currency: 'USD',
        payCurrency: 'BTC',
        lifeTime: 30,
        feePaidByPayer: 1,
        underPaidCover: Decimal.fromLiteral('2.50') as Decimal,
        orderId: 'o-1',
        network: 'Bitcoin Network',
      }),
    );
    const read = decodeRequestFields(endpoint.request, wire);
    expect(Object.fromEntries(Object.entries(read).map(([k, v]) => [k, String(v)]))).toEqual({
      amount: '0.10',
      currency: 'USD',
      payCurrency: 'BTC',
      lifeTime: '30',
      feePaidByPayer: '1',
      underPaidCover: '2.50',
      orderId: 'o-1',
      network: 'Bitcoin Network',
    });
    const payment = decodePaymentAnswer(endpoint, travel(successReply(endpoint, encodeCreatedPayment(endpoint, CREATED)).body), 'x');
    expect({
      trackId: text(payment.trackId),
      amount: digits(payment.amount),
      payAmount: digits(payment.payAmount),
      underPaidCover: digits(payment.underPaidCover),
      rate: digits(payment.rate),
      lifeTime: payment.lifeTime,
      feePaidByPayer: payment.feePaidByPayer,
      createdAt: payment.createdAt,
      expiredAt: payment.expiredAt,
      QRCode: text(payment.QRCode),
      orderId: text(payment.orderId),
    }).toEqual({
      trackId: 'sbx7',
      amount: '0.123456789012345678',
      payAmount: '0.123456789012345678',
      underPaidCover: '2.50',
      rate: '1',
      lifeTime: 30,
      feePaidByPayer: 1,
      createdAt: 1700000000,
      expiredAt: 1700001800,
      QRCode: 'http://127.0.0.1:1/qr/sbx7.png',
      orderId: 'ORD-7',
    });
  });

  it('payment information and history: the record as the sandbox writes it is the payment the client reads', () => {
    const infoEndpoint = PAYMENT_INFO.endpoints[api];
    const info = decodePaymentInfoAnswer(infoEndpoint, travel(successReply(infoEndpoint, encodePaymentInfo(infoEndpoint, RECORD)).body), 'x');
    expect([text(info.trackId), info.status, text(info.gatewayStatus), digits(info.amount), text(info.orderId), info.date, info.expiredAt]).toEqual([
      'sbx9',
      'underpaid',
      api === 'legacy' ? 'Underpaid' : 'underpaid',
      '25',
      'ORD-9',
      1700000000,
      1700003600,
    ]);
    // The legacy inquiry names the latest transaction; the versioned answer lists them, with their exact amounts.
    if (api === 'legacy') expect([text(info.txID), digits(info.payAmount), info.arrival.source]).toEqual(['abc123', '25.000000000000000001', 'total']);
    else expect(info.txs.map((t) => [text(t.txID), digits(t.amount), t.confirmations])).toEqual([['abc123', '22.5', 12]]);

    const historyEndpoint = PAYMENT_HISTORY.endpoints[api];
    const filter = {
      status: 'confirming' as const,
      trackId: 'sbx9',
      from: new Date(1700000000_000),
      minAmount: Decimal.fromLiteral('1.50') as Decimal,
      page: 2,
      size: 5,
    };
    const read = decodeRequestFields(historyEndpoint.request, travel(encodeHistoryRequest(historyEndpoint, filter)));
    expect(Object.fromEntries(Object.entries(read).map(([k, v]) => [k, String(v)]))).toEqual({
      status: api === 'legacy' ? 'Confirming' : 'paying',
      trackId: 'sbx9',
      fromDate: '1700000000',
      fromAmount: '1.50',
      page: '2',
      size: '5',
    });
    const page = decodePaymentPageAnswer(
      historyEndpoint,
      travel(successReply(historyEndpoint, encodePaymentPage(historyEndpoint, { payments: [RECORD], page: 2, pages: 3, total: 11, size: 5 })).body),
      'x',
    );
    expect([page.payments.map((p) => text(p.trackId)), page.page, page.pages, page.total]).toEqual([['sbx9'], 2, 3, 11]);
  });

  it('accepted currencies, balances and the rate', () => {
    const currencies = ACCEPTED_CURRENCIES.endpoints[api];
    expect(
      decodeAcceptedCurrencies(currencies, travel(successReply(currencies, encodeAcceptedCurrencies(currencies, { list: ['BTC', 'USDT'] })).body), 'x').map(
        text,
      ),
    ).toEqual(['BTC', 'USDT']);
    const balance = BALANCE.endpoints[api];
    const balances = decodeBalanceAnswer(
      balance,
      travel(successReply(balance, encodeBalances(balance, { balances: { BTC: '0.00012345', BNB: '0.000000000000000001' } })).body),
      'x',
    );
    expect(balances.map((b) => [text(b.currency), digits(b.amount)])).toEqual([
      ['BTC', '0.00012345'],
      ['BNB', '0.000000000000000001'],
    ]);
    const rate = RATE.endpoints[api];
    expect(decodeRate(rate, travel(successReply(rate, encodeRate(rate, { rate: '65573.550000000001' })).body), 'x').toString()).toBe('65573.550000000001');
  });
});

describe('the registry', () => {
  it('every endpoint of every operation is a sandbox route, with its method, path and envelope', () => {
    const routes = operationRoutes().map((r) => `${r.method} ${r.pattern} ${r.style}`);
    // gw's operations first, then those served for other clients (the merchant rate, the reference data).
    const own = allEndpoints().length;
    expect(routes.slice(0, own)).toEqual(allEndpoints().map(({ endpoint }) => `${endpoint.method} ${endpoint.path} ${endpoint.envelope}`));
    expect(routes.slice(own)).toEqual([
      'POST /merchants/rate legacy',
      'POST /api/prices legacy',
      'GET /v1/common/prices versioned',
      'POST /api/currencies legacy',
      'GET /v1/common/currencies versioned',
      'POST /api/networks legacy',
      'GET /v1/common/networks versioned',
      'POST /monitor legacy',
      'GET /v1/common/monitor versioned',
      'GET /v1/common/fiats versioned',
    ]);
  });

  it('an operation one API lacks goes over the other; one neither has is not served: exit 78, one line', () => {
    const only = { legacy: PAYMENT_INFO.endpoints.legacy };
    expect(chooseEndpoint('payment information', only, 'v1')).toBe(PAYMENT_INFO.endpoints.legacy);
    expect(chooseEndpoint('payment information', PAYMENT_INFO.endpoints, 'v1')).toBe(PAYMENT_INFO.endpoints.v1);
    const error = (() => {
      try {
        chooseEndpoint('payouts', {}, 'legacy');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(NotServedError);
    expect((error as NotServedError).exitCode).toBe(ExitCode.CONFIG);
    expect((error as NotServedError).message).toBe('payouts is not served by either API: nothing was sent');
  });

  it('an operation the sandbox does not serve: the client says so in one line, exit 78, nothing sent', async () => {
    expect(Object.values(OPERATIONS).every((op) => sandboxServes(op.name))).toBe(true);
    expect(sandboxServes('payouts')).toBe(false);
    const keys = { merchant: { value: 'mk', from: 'test' }, general: { value: 'gk', from: 'test' } };
    for (const client of [
      new LegacyGateway(new FakeTransport(), keys, { served: () => false }),
      new V1Gateway(new FakeTransport(), keys, { served: () => false }),
    ]) {
      const error = await client.paymentInfo('184729305').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotServedError);
      expect((error as NotServedError).exitCode).toBe(ExitCode.CONFIG);
      expect((error as NotServedError).message).toBe('payment information is not served by the sandbox: nothing was sent');
    }
    const transport = new FakeTransport();
    await new V1Gateway(transport, keys, { served: (op) => op !== 'creating a white-label payment' })
      .createPayment({ amount: Decimal.fromLiteral('1') as Decimal, currency: 'BTC', payCurrency: 'BTC' })
      .catch(() => undefined);
    expect(transport.requests).toHaveLength(0);
  });

  it('an operation only one API has goes over that API whatever the client speaks: perform() needs nothing but its module', async () => {
    // A made-up operation for the test: the versioned prices (docs/gateway.md §12), no key.
    const PRICES: Operation<Record<string, never>, string[], never> = {
      name: 'prices',
      what: 'the prices request',
      idempotent: true,
      endpoints: {
        v1: { api: 'v1', method: 'GET', path: '/v1/common/prices', body: 'none', envelope: 'versioned', request: [], answer: [] },
      },
      encodeRequest: () => ({}),
      decodeAnswer: (_endpoint, body) => Object.keys(body.data as JsonObject),
      encodeAnswer: () => ({}),
    };
    const ok = '{"data":{"BTC":65573.55,"ETH":3000},"message":"ok","error":{},"status":200,"version":"1.0.0"}';
    const transport = new FakeTransport([{ status: 200, contentType: 'application/json', body: ok }]);
    expect(await new LegacyGateway(transport, {}).perform(PRICES, {})).toEqual(['BTC', 'ETH']);
    expect(transport.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/common/prices']);
  });

  it('a sandbox answer parses as JSON with every amount’s digits', () => {
    const endpoint = CREATE_PAYMENT.endpoints.v1;
    const written = stringify(successReply(endpoint, encodeCreatedPayment(endpoint, CREATED)).body) ?? '';
    expect(written).toContain('"amount":0.123456789012345678,');
    expect(written).toContain('"under_paid_coverage":2.50,');
    expect(parse(written)).toBeTruthy();
  });
});
