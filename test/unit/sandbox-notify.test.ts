// The sandbox's notification delivery (src/sandbox/notify.ts) with an injected clock and poster:
// the compressed retry schedule, loopback-only delivery, the body style and signature, order per
// payment, resend, stopping; the creation change from the gateway; the stand-in state control;
// and the /_sandbox control routes over real HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import type { PostResult } from '../../src/gateway/post.js';
import type { PaymentChange, PaymentSnapshot } from '../../src/sandbox/events.js';
import { SandboxEvents } from '../../src/sandbox/events.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { serveOperation } from '../../src/sandbox/routes.js';
import { NotificationDelivery, SANDBOX_RETRY_DELAYS_MS, type DeliveryLogEntry, type Poster } from '../../src/sandbox/notify.js';
import { hmacOf, send, startReceiver } from '../support/notifications.js';

const KEY = 'sandbox-merchant-key';

const SNAPSHOT: PaymentSnapshot = {
  trackId: 'sbxtest000001',
  status: 'waiting',
  gatewayStatus: 'waiting',
  mixedPayment: false,
  amount: '25',
  currency: 'USDT',
  payAmount: '25',
  payCurrency: 'USDT',
  network: 'Tron Network',
  address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
  receivedAmount: '0',
  txID: '',
  callbackUrl: 'http://127.0.0.1:3000/hooks',
  description: '',
  email: '',
  orderId: 'ORD-7',
  feePaidByPayer: 0,
  underPaidCover: '0',
  lifeTime: 60,
  createdAt: 1_750_000_000,
  expiredAt: 1_750_003_600,
  payDate: 0,
};

const change = (payment: Partial<PaymentSnapshot> = {}, previous: PaymentChange['previous'] = undefined): PaymentChange => ({
  // The gateway's word follows the state unless the test gives it.
  payment: { ...SNAPSHOT, ...(payment.status !== undefined && { gatewayStatus: payment.status as PaymentSnapshot['gatewayStatus'] }), ...payment },
  previous,
  at: 0,
});

interface Sent {
  url: string;
  body: string;
  headers: Readonly<Record<string, string>>;
}

/** A poster that answers from a script (the last answer repeats) and records what was sent. */
function scripted(answers: PostResult[]): { post: Poster; sent: Sent[] } {
  const sent: Sent[] = [];
  const post: Poster = async (url, body, headers) => {
    sent.push({ url: url.href, body, headers });
    return answers[Math.min(sent.length - 1, answers.length - 1)] as PostResult;
  };
  return { post, sent };
}

const ok: PostResult = { ok: true, status: 200, body: 'ok', truncated: false, ms: 3 };
const noContent: PostResult = { ok: true, status: 204, body: '', truncated: false, ms: 3 };
const refused: PostResult = { ok: false, kind: 'refused', message: 'connection refused', ms: 1 };

async function settle(delivery: NotificationDelivery, trackId = SNAPSHOT.trackId): Promise<void> {
  // The first attempt waits for the signing modules (loaded with the first notification); every
  // later one runs on microtasks with a ManualClock: wait until the log stops growing.
  await delivery.latest(trackId);
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  await delivery.latest(trackId);
}

describe('NotificationDelivery: the retry schedule', () => {
  it('retries after 1 s, 3 s, 30 s, 180 s (the gateway’s minutes as seconds) until HTTP 200 "ok", 5 attempts at most', async () => {
    const clock = new ManualClock();
    const log: DeliveryLogEntry[] = [];
    const { post, sent } = scripted([refused, noContent, { ...ok, body: 'OK' }, { ...ok, status: 500 }, ok]);
    const delivery = new NotificationDelivery(KEY, { clock, post, log: (e) => log.push(e) });
    delivery.onChange(change());
    await settle(delivery);
    expect(SANDBOX_RETRY_DELAYS_MS).toEqual([1000, 3000, 30_000, 180_000]);
    expect(clock.sleeps).toEqual([1000, 3000, 30_000, 180_000]);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    expect(log.map((e) => [e.attempt, e.result, e.nextRetryMs])).toEqual([
      [1, 'failed', 1000],
      [2, 'not-acknowledged', 3000],
      [3, 'not-acknowledged', 30_000],
      [4, 'not-acknowledged', 180_000],
      [5, 'acknowledged', undefined],
    ]);
    expect(log.map((e) => e.at - log[0]!.at)).toEqual([0, 1000, 4000, 34_000, 214_000]);
  });

  it('gives up after the last attempt; an answer "ok" at once needs one attempt and no wait', async () => {
    const clock = new ManualClock();
    const log: DeliveryLogEntry[] = [];
    const failing = new NotificationDelivery(KEY, { clock, post: scripted([refused]).post, log: (e) => log.push(e) });
    failing.onChange(change());
    await settle(failing);
    expect(log.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(log.at(-1)).toMatchObject({ attempt: 5, attempts: 5, result: 'failed' });
    expect(log.at(-1)?.nextRetryMs).toBeUndefined();

    const quick = new ManualClock();
    const once = scripted([ok]);
    const fine = new NotificationDelivery(KEY, { clock: quick, post: once.post });
    fine.onChange(change());
    await settle(fine);
    expect(once.sent).toHaveLength(1);
    expect(quick.sleeps).toEqual([]);
  });

  it('a configured schedule: its waits, attempts = waits + 1', async () => {
    const clock = new ManualClock();
    const { post, sent } = scripted([refused]);
    const delivery = new NotificationDelivery(KEY, { clock, post, retryDelaysMs: [10, 20] });
    delivery.onChange(change());
    await settle(delivery);
    expect(clock.sleeps).toEqual([10, 20]);
    expect(sent).toHaveLength(3);
  });

  it('close(grace): a request on the wire may finish within the grace, then is cut; no retry starts', async () => {
    const log: DeliveryLogEntry[] = [];
    const slow =
      (ms: number): Poster =>
      (_url, _body, _headers, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(ok), ms);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve({ ok: false, kind: 'aborted', message: 'stopped', ms: 0 });
          });
        });
    const finishing = new NotificationDelivery(KEY, { clock: new ManualClock(), post: slow(20), log: (e) => log.push(e) });
    finishing.onChange(change());
    await finishing.close(2000);
    expect(log).toEqual([expect.objectContaining({ attempt: 1, result: 'acknowledged' })]);

    const cut = new NotificationDelivery(KEY, { clock: new ManualClock(), post: slow(10_000), log: (e) => log.push(e) });
    cut.onChange(change({ trackId: 'sbxcut' }));
    const started = Date.now();
    await cut.close(50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await cut.latest('sbxcut')).toMatchObject({ attempt: 0, result: 'failed', error: 'the sandbox stopped' });
    expect(log).toHaveLength(1);
  });

  it('close() stops the retries', async () => {
    const clock = new ManualClock();
    const { post, sent } = scripted([refused]);
    const delivery = new NotificationDelivery(KEY, { clock, post });
    delivery.close();
    delivery.onChange(change());
    await settle(delivery);
    expect(sent).toHaveLength(0);
  });
});

describe('NotificationDelivery: what is sent, and where', () => {
  it('the legacy body, signed with the merchant key as the gateway signs (checked with createHmac)', async () => {
    const { post, sent } = scripted([ok]);
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post });
    delivery.onChange(change({ status: 'paid', receivedAmount: '25', txID: 'ab'.repeat(32), payDate: 1_750_000_100 }, 'confirming'));
    await settle(delivery);
    const [one] = sent;
    expect(one?.url).toBe('http://127.0.0.1:3000/hooks');
    expect(one?.headers).toMatchObject({ 'content-type': 'application/json', HMAC: hmacOf(KEY, one?.body ?? '') });
    expect(JSON.parse(one?.body ?? '')).toMatchObject({ status: 'Paid', trackId: 'sbxtest000001', type: 'payment', orderId: 'ORD-7', txID: 'ab'.repeat(32) });
  });

  it('the v1 body for a payment the versioned API created (snapshot.api)', async () => {
    const { post, sent } = scripted([ok]);
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post });
    delivery.onChange(change({ api: 'v1', status: 'confirming', receivedAmount: '25', txID: 'cd'.repeat(32) }));
    await settle(delivery);
    expect(JSON.parse(sent[0]?.body ?? '')).toMatchObject({ track_id: 'sbxtest000001', type: 'white_label', status: 'Paying', order_id: 'ORD-7' });
  });

  it.each([
    ['http://127.0.0.1:3000/x', true],
    ['http://127.9.9.9/x', true],
    ['http://localhost:3000/x', true],
    ['http://[::1]:3000/x', true],
    ['https://example.com/hooks', false],
    ['http://10.0.0.1/hooks', false],
    ['http://127.0.0.1.nip.io/hooks', false],
    ['http://0.0.0.0:3000/x', false],
  ])('%s: delivered %s (loopback only by default); --deliver-anywhere delivers it', async (url, delivered) => {
    const log: DeliveryLogEntry[] = [];
    const strict = scripted([ok]);
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post: strict.post, log: (e) => log.push(e) });
    delivery.onChange(change({ callbackUrl: url }));
    await settle(delivery);
    expect(strict.sent.length).toBe(delivered ? 1 : 0);
    if (!delivered) expect(log[0]).toMatchObject({ attempt: 0, result: 'not-sent', error: expect.stringMatching(/--deliver-anywhere/) as unknown });

    const anywhere = scripted([ok]);
    const open = new NotificationDelivery(KEY, { clock: new ManualClock(), post: anywhere.post, deliverAnywhere: true });
    open.onChange(change({ callbackUrl: url }));
    await settle(open);
    expect(anywhere.sent).toHaveLength(1);
  });

  it('no callbackUrl: nothing; not an http(s) URL: not sent, said why', async () => {
    const log: DeliveryLogEntry[] = [];
    const { post, sent } = scripted([ok]);
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post, log: (e) => log.push(e) });
    delivery.onChange(change({ callbackUrl: '' }));
    delivery.onChange(change({ trackId: 'sbxother', callbackUrl: 'ftp://127.0.0.1/x' }));
    await settle(delivery, 'sbxother');
    expect(sent).toHaveLength(0);
    expect(log).toEqual([expect.objectContaining({ trackId: 'sbxother', result: 'not-sent', error: 'the callbackUrl is not an http(s) URL' })]);
  });

  it("one payment's notifications go out in order, each first attempt after the previous one's", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const post: Poster = async (_url, body) => {
      const status = (JSON.parse(body) as { status: string }).status;
      order.push(`start ${status}`);
      if (status === 'Waiting') await gate;
      order.push(`end ${status}`);
      return ok;
    };
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post });
    delivery.onChange(change({ status: 'waiting' }));
    delivery.onChange(change({ status: 'confirming' }, 'waiting'));
    delivery.onChange(change({ status: 'paid' }, 'confirming'));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await settle(delivery);
    expect(order).toEqual(['start Waiting', 'end Waiting', 'start Confirming', 'end Confirming', 'start Paid', 'end Paid']);
  });

  it('resend: the latest notification again, same bytes and signature, marked as resent', async () => {
    const log: DeliveryLogEntry[] = [];
    const { post, sent } = scripted([ok]);
    const delivery = new NotificationDelivery(KEY, { clock: new ManualClock(), post, log: (e) => log.push(e) });
    expect(delivery.resend(SNAPSHOT.trackId)).toBeUndefined();
    delivery.onChange(change({ status: 'waiting' }));
    delivery.onChange(change({ status: 'paid' }, 'waiting'));
    await settle(delivery);
    const outcome = await delivery.resend(SNAPSHOT.trackId);
    expect(outcome).toMatchObject({ attempt: 1, result: 'acknowledged', resend: true, status: 'paid' });
    expect(sent).toHaveLength(3);
    expect(sent[2]).toEqual(sent[1]);
    expect(log.map((e) => e.resend)).toEqual([false, false, true]);
  });

  it('a listener that throws never reaches the lifecycle', () => {
    const events = new SandboxEvents();
    const delivery = new NotificationDelivery(KEY, {
      clock: new ManualClock(),
      post: () => Promise.reject(new Error('boom')),
      log: () => {
        throw new Error('log');
      },
    });
    delivery.listen(events);
    expect(() => events.emit(change())).not.toThrow();
  });
});

describe('the gateway emits creation; setState emits forced states', () => {
  const config = { merchantKey: KEY, payoutKey: 'sandbox-payout-key', now: () => 1_750_000_000_000, baseUrl: () => 'http://127.0.0.1:1' };
  const create = (gateway: SandboxGateway, callbackUrl = 'http://127.0.0.1:3000/hooks'): string => {
    const reply = serveOperation(gateway, 'createPayment', 'legacy', { merchant: KEY, amount: '25', payCurrency: 'USDT', orderId: 'ORD-9', callbackUrl });
    return (reply.body as { trackId: string }).trackId;
  };

  it('creating a payment emits one change: the new payment, waiting, previous undefined', () => {
    const gateway = new SandboxGateway(config);
    const changes: PaymentChange[] = [];
    gateway.events.onChange((c) => changes.push(c));
    const trackId = create(gateway);
    expect(changes).toEqual([
      {
        payment: expect.objectContaining({
          trackId,
          status: 'waiting',
          orderId: 'ORD-9',
          callbackUrl: 'http://127.0.0.1:3000/hooks',
          receivedAmount: '0',
          payDate: 0,
        }) as unknown,
        previous: undefined,
        at: 1_750_000_000_000,
      },
    ]);
    serveOperation(gateway, 'createPayment', 'legacy', { merchant: 'wrong', amount: '1', payCurrency: 'USDT' });
    expect(changes).toHaveLength(1);
  });

  it("the lifecycle's setState: the change with its previous state, the transaction once seen; undefined for an unknown payment", () => {
    const gateway = new SandboxGateway(config);
    const control = gateway;
    const changes: PaymentChange[] = [];
    gateway.events.onChange((c) => changes.push(c));
    const trackId = create(gateway);
    expect(control.setState('nope', 'paid')).toBeUndefined();
    const paying = control.setState(trackId, 'confirming');
    const paid = control.setState(trackId, 'paid');
    expect(changes.map((c) => [c.previous, c.payment.status])).toEqual([
      [undefined, 'waiting'],
      ['waiting', 'confirming'],
      ['confirming', 'paid'],
    ]);
    expect(paying).toMatchObject({ receivedAmount: '25', payDate: 0 });
    expect(paying?.txID).toMatch(/^[0-9a-f]{64}$/);
    expect(paid).toMatchObject({ receivedAmount: '25', payDate: 1_750_000_000, txID: paying?.txID });
    expect(control.setState(trackId, 'underpaid')).toMatchObject({ receivedAmount: '22.5' }); // 90 % of 25, as the lifecycle's underpaid ending
  });
});

describe('the control routes (/_sandbox/…) over HTTP', () => {
  it('trigger moves a payment and answers with its delivery; resend sends it again; the key is required', async () => {
    const app = await startReceiver();
    const log: DeliveryLogEntry[] = [];
    const sbx = await startSandbox({ notifications: { log: (e) => log.push(e), clock: new ManualClock() } });
    try {
      const created = await send(
        `${sbx.url}/merchants/request/whitelabel`,
        JSON.stringify({ merchant: KEY, amount: 10, payCurrency: 'USDT', callbackUrl: app.url }),
        {
          'content-type': 'application/json',
        },
      );
      const trackId = (JSON.parse(created.body) as { trackId: string }).trackId;
      const control = (path: string, body: object, headers: Record<string, string> = { merchant_api_key: KEY }) =>
        send(`${sbx.url}/_sandbox/payments/${trackId}/${path}`, JSON.stringify(body), { 'content-type': 'application/json', ...headers });

      const paid = await control('state', { state: 'paid' });
      expect(paid.status).toBe(200);
      expect(JSON.parse(paid.body)).toMatchObject({
        ok: true,
        trackId,
        status: 'paid',
        notification: {
          url: app.url,
          style: 'legacy',
          type: 'payment',
          status: 'paid',
          attempt: 1,
          attempts: 5,
          result: 'acknowledged',
          httpStatus: 200,
          answer: 'ok',
        },
      });
      // Creation and paid reached the application, each verifying with the sandbox key.
      await expect.poll(() => app.requests.length).toBe(2);
      for (const r of app.requests) expect(r.headers.hmac).toBe(hmacOf(KEY, r.body));
      expect(app.requests.map((r) => (JSON.parse(r.body.toString()) as { status: string }).status)).toEqual(['Waiting', 'Paid']);

      const again = await control('resend', {});
      expect(JSON.parse(again.body)).toMatchObject({ ok: true, notification: { result: 'acknowledged', status: 'paid' } });
      expect(app.requests).toHaveLength(3);
      expect(app.requests[2]?.body.equals(app.requests[1]!.body)).toBe(true);

      expect((await control('state', { state: 'paid' }, {})).status).toBe(401);
      expect((await control('state', { state: 'paid' }, { merchant_api_key: 'wrong' })).status).toBe(401);
      expect((await control('state', { state: 'paid', merchant: KEY }, {})).status).toBe(200);
      expect((await control('state', { state: 'sideways' })).status).toBe(400);
      expect((await send(`${sbx.url}/_sandbox/payments/nope/state`, '{"state":"paid"}', { merchant_api_key: KEY })).status).toBe(404);
      expect((await send(`${sbx.url}/_sandbox/payments/${trackId}/state`, '', {}, 'GET')).status).toBe(405);
      expect(JSON.parse((await send(`${sbx.url}/_sandbox/nothing`, '{}', {})).body)).toEqual({
        ok: false,
        error: { message: 'No such endpoint: /_sandbox/nothing' },
      });
      expect(log.every((e) => e.result === 'acknowledged')).toBe(true);
    } finally {
      await sbx.close();
      await app.close();
    }
  });

  it('a payment without a callbackUrl: trigger says no notification, resend answers 409', async () => {
    const sbx = await startSandbox();
    try {
      const created = await send(`${sbx.url}/merchants/request/whitelabel`, JSON.stringify({ merchant: KEY, amount: 10, payCurrency: 'USDT' }), {
        'content-type': 'application/json',
      });
      const trackId = (JSON.parse(created.body) as { trackId: string }).trackId;
      const paid = await send(`${sbx.url}/_sandbox/payments/${trackId}/state`, '{"state":"paid"}', { merchant_api_key: KEY });
      expect(JSON.parse(paid.body)).toEqual({ ok: true, trackId, status: 'paid', callbackUrl: '', notification: null });
      expect((await send(`${sbx.url}/_sandbox/payments/${trackId}/resend`, '{}', { merchant_api_key: KEY })).status).toBe(409);
    } finally {
      await sbx.close();
    }
  });
});
