// Payment links in the sandbox (src/sandbox/invoices.ts, payment-page.ts): an invoice created over
// the versioned API settles on its own when nobody opens its page (the default coin, the order id's
// ending honoured); opened, it waits for the person there, whose coin and button change the payment
// every answer describes; its notifications say `type: "invoice"`; a later process follows it from
// the journal.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/operations/read.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { SandboxJournal } from '../../src/sandbox/journal.js';
import { readNotification } from '../../src/notifications/decode.js';
import { NotificationDelivery } from '../../src/sandbox/notify.js';
import { serveOperation } from '../../src/sandbox/routes.js';
import { sandboxRoutes, serve, type IncomingRequest } from '../../src/sandbox/serve.js';

const T0 = 1_750_000_000_000;
const BASE = 'http://127.0.0.1:1';

function setUp(journal?: SandboxJournal): { gateway: SandboxGateway; clock: { now: number } } {
  const clock = { now: T0 };
  const gateway = new SandboxGateway({
    merchantKey: 'mk',
    payoutKey: 'pk',
    now: () => clock.now,
    baseUrl: () => BASE,
    schedule: () => () => undefined,
    ...(journal !== undefined && { journal }),
  });
  return { gateway, clock };
}

const json = (body: unknown): JsonObject => JSON.parse(stringify(body) ?? '') as JsonObject;

function create(gateway: SandboxGateway, wire: Record<string, unknown>): JsonObject {
  const reply = serveOperation(gateway, 'createInvoice', 'v1', wire, { merchant_api_key: 'mk' });
  expect(reply.status).toBe(200);
  return json(reply.body).data as JsonObject;
}

function info(gateway: SandboxGateway, trackId: string): JsonObject {
  const reply = serveOperation(gateway, 'paymentInfo', 'v1', { track_id: trackId }, { merchant_api_key: 'mk' });
  expect(reply.status).toBe(200);
  return json(reply.body).data as JsonObject;
}

async function request(
  gateway: SandboxGateway,
  method: string,
  target: string,
  form?: string,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const incoming: IncomingRequest = {
    method,
    target,
    headers: form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) },
    body: async () => Buffer.from(form ?? ''),
  };
  const reply = await serve(gateway, sandboxRoutes(), incoming);
  if (reply === 'aborted') throw new Error('aborted');
  return {
    status: reply.status,
    headers: { ...(reply.headers ?? {}) },
    text: Buffer.isBuffer(reply.body) ? reply.body.toString('utf8') : JSON.stringify(reply.body),
  };
}

describe('sandbox invoices', () => {
  it('answer with the track id, the page on the sandbox, the expiry and the date; amounts keep their digits', () => {
    const { gateway } = setUp();
    const data = create(gateway, {
      amount: '25.10',
      currency: 'USD',
      lifetime: 30,
      order_id: 'A1',
      return_url: 'https://shop.example/thanks',
      thanks_message: 'Thank you!',
    });
    expect(data.payment_url).toBe(`${BASE}/pay/${data.track_id}`);
    expect(data.date).toBe(T0 / 1000);
    expect(data.expired_at).toBe(T0 / 1000 + 30 * 60);
    // The information has the invoice-only fields (docs/gateway.md §12).
    expect(info(gateway, String(data.track_id))).toMatchObject({
      amount: 25.1,
      type: 'invoice',
      return_url: 'https://shop.example/thanks',
      thanks_message: 'Thank you!',
    });
  });

  it('refuse what the gateway would: no amount, a lifetime out of bounds, a bad return URL', () => {
    const { gateway } = setUp();
    for (const wire of [{ currency: 'USD' }, { amount: 5, lifetime: 5 }, { amount: 5, return_url: 'javascript:alert(1)' }]) {
      const reply = serveOperation(gateway, 'createInvoice', 'v1', wire, { merchant_api_key: 'mk' });
      expect(reply.status).toBe(400);
    }
  });

  it('with nobody at the page: new (no coin, no address), then the default coin, then paid with its transaction', () => {
    const { gateway, clock } = setUp();
    const id = String(create(gateway, { amount: 25, currency: 'USDT', order_id: 'shop-1' }).track_id);
    const first = info(gateway, id);
    expect([first.status, first.type, first.txs]).toEqual(['new', 'invoice', []]);
    // The legacy inquiry names a coin and address: none before one is chosen.
    const legacy = json(serveOperation(gateway, 'paymentInfo', 'legacy', { merchant: 'mk', trackId: id }).body);
    expect([legacy.payCurrency, legacy.address, legacy.payAmount]).toEqual(['', '', '']);
    clock.now = T0 + 9_500;
    expect(info(gateway, id).status).toBe('new');
    clock.now = T0 + 10_500;
    expect(info(gateway, id).status).toBe('waiting');
    clock.now = T0 + 21_000;
    const settled = info(gateway, id);
    expect(settled.status).toBe('paid');
    const txs = settled.txs as JsonObject[];
    expect([txs.length, txs[0]?.currency, txs[0]?.amount, txs[0]?.network]).toEqual([1, 'USDT', 25, 'Tron Network']);
  });

  it('honour the order id endings: -expire expires with nothing received', () => {
    const { gateway, clock } = setUp();
    const id = String(create(gateway, { amount: 25, order_id: 'shop-2-expire' }).track_id);
    clock.now = T0 + 21_000;
    expect([info(gateway, id).status, info(gateway, id).txs]).toEqual(['expired', []]);
  });

  it('opened: waits for the person there; their coin and "pay in full" are what every answer then says', async () => {
    const { gateway, clock } = setUp();
    const id = String(create(gateway, { amount: 10, currency: 'USD', order_id: 'shop-3', description: '<b>x</b>' }).track_id);
    const opened = await request(gateway, 'GET', `/pay/${id}`);
    expect(opened.status).toBe(200);
    // The policy allows exactly the page's own inline style, by its sha256 (a browser would drop any other).
    const style = /<style>([^<]*)<\/style>/.exec(opened.text)?.[1] ?? '';
    expect(opened.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    );
    expect(opened.text).toContain('&#60;b&#62;x&#60;/b&#62;');
    expect(opened.text).not.toContain('<b>x</b>');
    expect(opened.text).toMatch(/<input type="radio" name="coin" value="\d+"/);
    expect(opened.text).not.toMatch(/<script|src=|https?:\/\/(?!www\.w3\.org)/);
    clock.now = T0 + 30_000;
    expect(info(gateway, id).status).toBe('new');

    // Choose BTC (its index in the list the page offers).
    const btc = /value="(\d+)"[^>]*> BTC \(Bitcoin Network\)/.exec(opened.text)?.[1];
    const chose = await request(gateway, 'POST', `/pay/${id}`, `action=choose&coin=${btc}`);
    expect([chose.status, chose.headers.location]).toEqual([303, `/pay/${id}`]);
    const chosen = await request(gateway, 'GET', `/pay/${id}`);
    expect(chosen.text).toContain('id="pay-currency">BTC<');
    expect(chosen.text).toMatch(/<code id="address">\w{25,}<\/code>/);
    expect(chosen.text).toContain('<svg');
    expect(chosen.text).not.toContain('id="qr-address-only"');
    expect(chosen.text).toContain('id="pay-full"');
    clock.now = T0 + 60_000;
    expect(info(gateway, id).status).toBe('waiting');

    expect((await request(gateway, 'POST', `/pay/${id}`, 'action=full')).status).toBe(303);
    clock.now = T0 + 60_000 + 11_000;
    const paid = info(gateway, id);
    expect(paid.status).toBe('paid');
    expect((paid.txs as JsonObject[])[0]?.currency).toBe('BTC');
    // Paying twice is refused.
    expect((await request(gateway, 'POST', `/pay/${id}`, 'action=full')).status).toBe(409);
  });

  it('a coin whose QR cannot carry the amount (USDT on Tron): the page says the code holds only the address', async () => {
    const { gateway } = setUp();
    const id = String(create(gateway, { amount: 12.345, currency: 'USDT', order_id: 'shop-9' }).track_id);
    const opened = await request(gateway, 'GET', `/pay/${id}`);
    const usdt = /value="(\d+)"[^>]*> USDT \(Tron Network\)/.exec(opened.text)?.[1];
    expect((await request(gateway, 'POST', `/pay/${id}`, `action=choose&coin=${usdt}`)).status).toBe(303);
    const chosen = await request(gateway, 'GET', `/pay/${id}`);
    expect(chosen.text).toContain('id="pay-amount">12.345<');
    expect(chosen.text).toContain('<svg');
    expect(chosen.text).toMatch(/id="qr-address-only">The QR code holds only the address: enter the amount above/);
  });

  it('"pay part of it" ends underpaid; an unknown link is a 404 page', async () => {
    const { gateway, clock } = setUp();
    const id = String(create(gateway, { amount: 10, currency: 'USDT' }).track_id);
    const page = await request(gateway, 'GET', `/pay/${id}`);
    const usdt = /value="(\d+)"[^>]*> USDT \(Tron Network\)/.exec(page.text)?.[1];
    await request(gateway, 'POST', `/pay/${id}`, `action=choose&coin=${usdt}`);
    await request(gateway, 'POST', `/pay/${id}`, 'action=partial');
    clock.now = T0 + 20_000;
    expect(info(gateway, id).status).toBe('underpaid');
    expect((await request(gateway, 'GET', '/pay/999999999')).status).toBe(404);
  });

  it('a link nobody chose a coin for expires at its lifetime; its page then shows no address', async () => {
    const { gateway, clock } = setUp();
    const id = String(create(gateway, { amount: 10, currency: 'USDT', lifetime: 15 }).track_id);
    await request(gateway, 'GET', `/pay/${id}`);
    clock.now = T0 + 15 * 60_000;
    expect([info(gateway, id).status, info(gateway, id).txs]).toEqual(['expired', []]);
    const page = await request(gateway, 'GET', `/pay/${id}`);
    expect(page.text).toContain('data-status="expired"');
    expect(page.text).not.toContain('id="address"');
    expect(page.text).not.toContain('name="coin"');
  });

  it('notify as the gateway does for invoices: v1 bodies with type "invoice", signed', async () => {
    const { gateway, clock } = setUp();
    const bodies: string[] = [];
    const delivery = new NotificationDelivery('mk', {
      post: async (_url, body) => {
        bodies.push(body);
        return { ok: true, status: 200, body: 'ok', ms: 1 } as never;
      },
    });
    delivery.listen(gateway.events);
    const id = String(create(gateway, { amount: 25, currency: 'USDT', callback_url: 'http://127.0.0.1:9/cb' }).track_id);
    clock.now = T0 + 21_000;
    info(gateway, id);
    // The last change's notification goes out after the earlier ones' first attempts.
    await delivery.latest(id);
    await delivery.close(1000);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(JSON.parse(body)).toMatchObject({ type: 'invoice', track_id: id });
    expect(bodies.map((b) => String(JSON.parse(b).status).toLowerCase())).toEqual(['new', 'waiting', 'paying', 'paid']);
    // gw listen's reading of them: an invoice, new without a coin, paid in USDT.
    const read = bodies.map((b) => readNotification(new TextEncoder().encode(b)));
    const summaries = read.map((r) => (r.ok ? r.summary : undefined));
    expect(summaries.map((s) => [s?.type?.raw(), s?.state])).toEqual([
      ['invoice', 'new'],
      ['invoice', 'waiting'],
      ['invoice', 'confirming'],
      ['invoice', 'paid'],
    ]);
    expect(summaries[3]?.payAmount?.toString()).toBe('25');
  });

  it('a later process follows the link from the journal, the page’s choice included', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-inv-')), 'journal.jsonl');
    const { gateway } = setUp(new SandboxJournal(file));
    const id = String(create(gateway, { amount: 10, currency: 'USD', order_id: 'shop-4' }).track_id);
    const page = await request(gateway, 'GET', `/pay/${id}`);
    const eth = /value="(\d+)"[^>]*> ETH \(Ethereum Network\)/.exec(page.text)?.[1];
    await request(gateway, 'POST', `/pay/${id}`, `action=choose&coin=${eth}`);
    await request(gateway, 'POST', `/pay/${id}`, 'action=full');
    const later = setUp(new SandboxJournal(file));
    later.clock.now = T0 + 12_000;
    const seen = info(later.gateway, id);
    expect([seen.status, seen.type, (seen.txs as JsonObject[])[0]?.currency]).toEqual(['paid', 'invoice', 'ETH']);
    // Recorded four times (created, opened, chosen, paid), counted once: the history’s total is one payment.
    expect(new SandboxJournal(file).read()).toHaveLength(4);
    const history = json(serveOperation(later.gateway, 'paymentHistory', 'v1', {}, { merchant_api_key: 'mk' }).body).data as JsonObject;
    expect([(history.list as JsonObject[]).length, (history.meta as JsonObject).total]).toEqual([1, 1]);
  });
});
