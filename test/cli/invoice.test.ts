// gw invoice through the whole CLI, in process: what it sends to a strict recording server on
// 127.0.0.1 (the exact path, the merchant key in the header merchant_api_key, snake_case JSON in the
// documented order, every digit typed, over the versioned API although `api` is legacy), what a
// failure after sending says, and the embedded sandbox followed to the end with --wait; the QR of
// the link, drawn on a terminal, decodes to the link on dark and light screens.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyDir, runGw as gw } from '../support/cli.js';
import { json, startMisbehavingGateway, TEST_MERCHANT_KEY, type MisbehavingGateway, type RecordedRequest } from '../support/misbehaving-gateway.js';
import { decodeTerminalQr } from '../support/qr-decode.js';

const ok = (data: unknown) => json({ data, message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });
const LINK = 'https://pay.example/13355581/184747701';
const ANSWER = { track_id: '184747701', payment_url: LINK, expired_at: 4102444800, date: 4102441200 };

describe('what gw invoice sends (a strict recording server)', () => {
  let server: MisbehavingGateway;
  const env = (api = 'legacy'): Record<string, string> => ({ GATEWAY_BASE_URL: server.url, GATEWAY_API: api, GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY });
  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server.close();
  });

  /** Only POST /v1/payment/invoice with the merchant key header answers; anything else is a 404/401 envelope. */
  const strict = (answer: unknown) => (req: RecordedRequest) => {
    if (req.headers.merchant_api_key !== TEST_MERCHANT_KEY) return json({ data: {}, message: 'key', error: {}, status: 401, version: '1.0.0' }, 401);
    if (`${req.method} ${req.path}` !== 'POST /v1/payment/invoice')
      return json({ data: {}, message: 'not found', error: {}, status: 404, version: '1.0.0' }, 404);
    return ok(answer);
  };
  const one = (): RecordedRequest => {
    expect(server.requests).toHaveLength(1);
    return server.requests[0] as RecordedRequest;
  };

  it.each(['legacy', 'v1'])('api %s: POST /v1/payment/invoice, key header, every option in snake_case, digits as typed', async (api) => {
    server.program(strict(ANSWER));
    const r = await gw(
      [
        'invoice',
        '25.10',
        'usd',
        '--life-time',
        '30',
        '--fee-paid-by-payer',
        '1',
        '--under-paid-cover',
        '2.50',
        '--to-currency',
        'usdt',
        '--auto-withdrawal',
        '0',
        '--mixed-payment',
        '1',
        '--callback-url',
        'https://shop.example/cb',
        '--return-url',
        'https://shop.example/thanks',
        '--email',
        'payer@example.com',
        '--order-id',
        'ORD-7',
        '--thanks-message',
        'Thank you!',
        '--description',
        'Order 7',
        '--test-invoice',
        '--json',
      ],
      { env: env(api) },
    );
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const req = one();
    expect([req.method, req.path, req.headers['content-type']]).toEqual(['POST', '/v1/payment/invoice', 'application/json']);
    expect(req.body).toBe(
      '{"amount":25.10,"currency":"USD","lifetime":30,"fee_paid_by_payer":1,"under_paid_coverage":2.50,"to_currency":"USDT","auto_withdrawal":false,' +
        '"mixed_payment":true,"callback_url":"https://shop.example/cb","return_url":"https://shop.example/thanks","email":"payer@example.com",' +
        '"order_id":"ORD-7","thanks_message":"Thank you!","description":"Order 7","sandbox":true}',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      trackId: '184747701',
      paymentUrl: LINK,
      expiredAt: 4102444800,
      amount: '25.10',
      currency: 'USD',
      orderId: 'ORD-7',
    });
  });

  it('--wait with api legacy: followed over the versioned API it was created on (a gateway serving only that API), exit 0 paid', async () => {
    const info = {
      ...{ track_id: '184747701', type: 'invoice', amount: 25.1, currency: 'USD', status: 'paid', order_id: 'ORD-8', expired_at: 4102444800, date: 4102441200 },
      txs: [
        {
          tx_hash: 'ab12',
          amount: 25.1,
          currency: 'USDT',
          network: 'Tron Network',
          address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
          status: 'confirmed',
          confirmations: 20,
          date: 4102441300,
        },
      ],
    };
    server.program((req) => {
      if (req.headers.merchant_api_key !== TEST_MERCHANT_KEY) return json({ data: {}, message: 'key', error: {}, status: 401, version: '1.0.0' }, 401);
      if (`${req.method} ${req.path}` === 'GET /v1/payment/184747701') return ok(info);
      return strict(ANSWER)(req);
    });
    const r = await gw(['invoice', '25.10', 'USD', '--order-id', 'ORD-8', '--wait', '--json'], { env: env('legacy') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /v1/payment/invoice', 'GET /v1/payment/184747701']);
    expect(JSON.parse(r.stdout)).toMatchObject({ trackId: '184747701', status: 'paid', type: 'invoice', received: { USDT: '25.1' } });
  });

  it('without options: the amount and currency, and the order id gw made up; nothing else', async () => {
    server.program(strict(ANSWER));
    const r = await gw(['invoice', '0.000000000000000001', 'ETH', '--json'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(one().body).toMatch(/^\{"amount":0\.000000000000000001,"currency":"ETH","order_id":"gw-\d{8}-\d{6}-[a-z0-9]{4}"\}$/);
  });

  it.each([
    [['invoice', '25', 'USD', '--mixed-payment', 'yes']],
    [['invoice', '25', 'USD', '--life-time', '5']],
    [['invoice', '-1', 'USD']],
    [['invoice', '25', 'USD', '--to-currency', 'EUR']],
    [['invoice', '25', 'USD', '--return-url', 'javascript:alert(1)']],
  ])('%j: exit 64, nothing sent', async (argv) => {
    server.program(strict(ANSWER));
    const r = await gw(argv, { env: env() });
    expect(r.exitCode).toBe(64);
    expect(server.requests).toHaveLength(0);
  });

  it('a failure after sending says the invoice may exist and how to find it; it is never sent twice', async () => {
    server.program([json({ data: {}, message: 'Internal error', error: { type: 'server', key: 'x', message: 'x' }, status: 500, version: '1.0.0' }, 500)]);
    const r = await gw(['invoice', '25', 'USD', '--order-id', 'ORD-9'], { env: env() });
    expect(r.exitCode).not.toBe(0);
    expect(r.exitCode).not.toBe(64);
    expect(r.stderr).toMatch(/the invoice MAY HAVE BEEN CREATED — it was not sent again/);
    expect(r.stderr).toMatch(/gw payments --order-id ORD-9/);
    expect(server.requests).toHaveLength(1);
  });

  it('an answer without a link a browser can open: exit 76, the invoice named as created, no QR', async () => {
    server.program(strict({ ...ANSWER, payment_url: 'javascript:alert(1)' }));
    const r = await gw(['invoice', '25', 'USD', '--qr'], { env: env() });
    expect(r.exitCode).toBe(76);
    expect(r.stderr).toMatch(/invoice 184747701 was created, but the gateway gave no link a browser can open/);
    expect(r.stdout).not.toMatch(/[█▀▄]{5}/);
  });

  it('on a terminal: the QR of the link (not a coin URI) decodes on a dark and a light screen', async () => {
    server.program(strict(ANSWER));
    const r = await gw(['invoice', '25', 'USD'], { env: { ...env(), FORCE_COLOR: '1' }, stdoutTTY: true, width: 120, height: 60 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(new RegExp(`^Payment link\\s+${LINK}$`, 'm'));
    expect(decodeTerminalQr(r.stdout, 'dark')).toBe(LINK);
    expect(decodeTerminalQr(r.stdout, 'light')).toBe(LINK);
  });
});

describe('gw invoice --sandbox: followed to the end as pay --wait is', () => {
  it('nobody at the page: the link settles paid in the default coin; exit 0, one JSON document with the invoice and its end', async () => {
    const r = await gw(['invoice', '25', 'USDT', '--sandbox', '--wait', '--json', '--order-id', 'inv-1'], {});
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ orderId: 'inv-1', amount: '25', currency: 'USDT', status: 'paid', sandbox: true });
    expect(String(doc.paymentUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/\d{9}$/);
    // The document comes at the end: the link the payer needs was told on stderr, as one JSON notice, while waiting.
    expect(
      r.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ notice: { message: `payment link ${doc.paymentUrl} (track id ${doc.trackId}): waiting until it is paid` } }]);
    expect(doc.received).toEqual({ USDT: '25' });
  });

  it.each([
    ['inv-2-partial', 10, 'UNDERPAID'],
    ['inv-3-expire', 11, 'EXPIRED: nothing arrived'],
    ['inv-4-late', 13, 'LATE'],
  ])('order id %s: exit %i, as pay --wait', async (orderId, code, words) => {
    const r = await gw(['invoice', '25', 'USD', '--sandbox', '--wait', '--order-id', orderId], {});
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(words);
  });

  it('gw status and gw payments know an invoice (a later process reads it from the journal): new without a coin, then paid in it', async () => {
    const home = emptyDir();
    const made = await gw(['invoice', '10', 'USDT', '--sandbox', '--json', '--order-id', 'inv-5'], { home });
    expect(made.exitCode).toBe(0);
    const { trackId } = JSON.parse(made.stdout) as { trackId: string };
    const early = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--json'], { home });
    expect(early.exitCode).toBe(8);
    const open = JSON.parse(early.stdout) as Record<string, unknown>;
    expect(open).toMatchObject({ trackId, status: 'new', type: 'invoice', txs: [], received: {} });
    expect([open.payCurrency, open.address, open.payAmount]).toEqual([undefined, undefined, undefined]);
    const waited = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--wait', '--json'], { home });
    expect([waited.exitCode, waited.stderr]).toEqual([0, '']);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'paid', type: 'invoice', received: { USDT: '10' } });
    const listed = await gw(['payments', '--order-id', 'inv-5', '--sandbox', '--api', 'v1', '--json'], { home });
    expect(JSON.parse(listed.stdout).payments.map((p: { trackId: string; type: string }) => [p.trackId, p.type])).toEqual([[trackId, 'invoice']]);
  });
});
