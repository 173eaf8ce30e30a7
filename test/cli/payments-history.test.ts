// gw payments (and pay --reuse-if-exists) against a misbehaving history on 127.0.0.1: a versioned
// history that ignores what it does not document (order_id) and returns every payment, pages
// that repeat, a page that never comes before the deadline. What gw sends is read from the
// server's record; what it prints must only ever be the rows asked for.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGw as gw } from '../support/cli.js';
import {
  type Behaviour,
  json,
  type MisbehavingGateway,
  type RecordedRequest,
  startMisbehavingGateway,
  TEST_MERCHANT_KEY,
} from '../support/misbehaving-gateway.js';

/** The query parameters GET /v1/payment documents (docs.oxapay.com/api-reference/payment/payment-history). */
const DOCUMENTED = new Set([
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

const NOW = Math.floor(Date.now() / 1000);

/** 450 payments, newest first; payment n belongs to order `order-${n % 50}` (order-7: 9 payments). */
const HISTORY = Array.from({ length: 450 }, (_, i) => ({
  track_id: String(700_000 + i + 1),
  type: 'white_label',
  amount: 25,
  currency: 'USD',
  status: i === 256 ? 'paid' : 'expired',
  order_id: `order-${(i + 1) % 50}`,
  expired_at: NOW - 600,
  date: NOW - (i + 1) * 60,
  txs: [],
}));

const envelope = (data: unknown): Behaviour => json({ data, message: 'ok', error: {}, status: 200, version: '1.0.0' });

/** A history that pages HISTORY by page and size and applies no filter at all. */
function ignoresFilters(req: RecordedRequest, repeat = false): Behaviour {
  const url = new URL(req.path, 'http://gateway.invalid');
  if (req.method !== 'GET' || url.pathname !== '/v1/payment' || req.headers.merchant_api_key !== TEST_MERCHANT_KEY)
    return json({ data: {}, message: 'no', error: { type: 'x', key: 'not_found', message: 'no' }, status: 404, version: '1.0.0' }, 404);
  const size = Number(url.searchParams.get('size') ?? 10);
  const page = repeat ? 1 : Number(url.searchParams.get('page') ?? 1);
  const last = Math.ceil(HISTORY.length / size);
  return envelope({ list: HISTORY.slice((page - 1) * size, page * size), meta: { page, last_page: last, total: HISTORY.length } });
}

describe('the versioned history on 127.0.0.1', () => {
  let server: MisbehavingGateway;
  const env = (): Record<string, string> => ({ GATEWAY_BASE_URL: server.url, GATEWAY_API: 'v1', GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY });
  /** Every request's query parameter names. */
  const params = (): string[][] => server.requests.map((r) => [...new URL(r.path, 'http://x').searchParams.keys()]);

  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => {
    server.reset();
    server.program((req) => ignoresFilters(req));
  });
  afterAll(async () => {
    await server.close();
  });

  it('ignores order_id and returns every payment: gw shows only the order, and never sends order_id', async () => {
    const r = await gw(['payments', '--order-id', 'order-7', '--json'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { payments: Array<{ orderId: string }>; total: number; complete: boolean };
    expect(doc.payments.map((p) => p.orderId)).toEqual(Array(9).fill('order-7'));
    expect(doc).toMatchObject({ total: 9, pages: 1, complete: true });
    expect(server.requests.map((req) => req.path)).toEqual(['/v1/payment?size=200', '/v1/payment?page=2&size=200', '/v1/payment?page=3&size=200']);
  });

  it('human output: the table holds the order and nothing else', async () => {
    const r = await gw(['payments', '--order-id', 'order-7'], { env: env() });
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(9);
    for (const row of rows) expect(row).toMatch(/ order-7$/);
  });

  it('no request carries a parameter the versioned history does not document, whatever the flags', async () => {
    const r = await gw(
      [
        'payments',
        '--order-id',
        'order-7',
        '--status',
        'expired',
        '--track-id',
        '700007',
        '--currency',
        'usd',
        '--pay-currency',
        'usdt',
        '--network',
        'Tron Network',
        '--since',
        '30d',
        '--until',
        '2099-01-01',
        '--min',
        '1',
        '--max',
        '100',
        '--size',
        '5',
        '--json',
      ],
      { env: env() },
    );
    expect(server.requests.length).toBeGreaterThan(0);
    for (const names of params()) for (const name of names) expect(DOCUMENTED).toContain(name);
    // Nothing in this history has a pay currency or network: gw keeps no row it cannot vouch for.
    expect(JSON.parse(r.stdout)).toMatchObject({ complete: true });
  });

  it('--status the gateway ignores: the rows shown all have it', async () => {
    const r = await gw(['payments', '--status', 'paid', '--json'], { env: env() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { payments: Array<{ trackId: string; status: string }>; complete: boolean };
    expect(doc.payments.map((p) => [p.trackId, p.status])).toEqual([['700257', 'paid']]);
  });

  it('pages that repeat (--all): the rows read are printed, "complete": false, one line, exit 76', async () => {
    server.program((req) => ignoresFilters(req, true));
    const r = await gw(['payments', '--all', '--json'], { env: env() });
    expect(r.exitCode).toBe(76);
    const doc = JSON.parse(r.stdout) as { payments: unknown[]; complete: boolean };
    expect(doc.payments).toHaveLength(200);
    expect(doc.complete).toBe(false);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: { exitCode: 76, message: "the listing is incomplete: the gateway's page 2 repeats payments of earlier pages; 200 payments shown" },
    });
    expect(server.requests).toHaveLength(2);
    const human = await gw(['payments', '--all'], { env: env() });
    expect(human.exitCode).toBe(76);
    expect(human.stdout.trimEnd().split('\n')).toHaveLength(201);
    expect(human.stderr).toBe("gw: the listing is incomplete: the gateway's page 2 repeats payments of earlier pages; 200 payments shown\n");
  });

  it('the deadline in the middle of the reading: gw stops, prints what it read and says so (exit 76)', async () => {
    server.program((req) => (new URL(req.path, 'http://x').searchParams.get('page') === '2' ? { kind: 'hang' } : ignoresFilters(req)));
    // A deadline long enough for page 1 on a loaded machine; page 2 never answers, so the deadline ends it.
    const r = await gw(['payments', '--order-id', 'order-0', '--timeout', '4', '--json'], { env: env() });
    expect(r.exitCode).toBe(76);
    const doc = JSON.parse(r.stdout) as { payments: Array<{ orderId: string }>; complete: boolean; total: unknown };
    expect(doc.payments.map((p) => p.orderId)).toEqual(Array(4).fill('order-0'));
    expect(doc).toMatchObject({ complete: false, total: null });
    const error = (JSON.parse(r.stderr) as { error: { message: string } }).error;
    expect(error.message).toMatch(
      /^the listing is incomplete: stopped before page 2 of 3: .* \(gw filters these payments itself and had read 200 payments\); 4 payments shown$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('pay --reuse-if-exists finds the order’s paid payment on a later page, and creates nothing', async () => {
    const r = await gw(['pay', '25', 'USD', '--pay-currency', 'USDT', '--order-id', 'order-7', '--reuse-if-exists', '--json'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ trackId: '700257', status: 'paid', reused: true });
    expect(server.requests.every((req) => req.method === 'GET' && !req.path.includes('order_id'))).toBe(true);
  });
});
