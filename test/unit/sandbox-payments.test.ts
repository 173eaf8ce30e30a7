// The sandbox's payments over time, without HTTP: creation, inquiry and history on a clock the
// test moves, the change events notification delivery listens to, setState, timers, and a later
// "process" (another SandboxGateway) that knows a payment only by its track id and the journal.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { PaymentChange } from '../../src/sandbox/events.js';
import { SandboxGateway, type GatewayConfig } from '../../src/sandbox/gateway.js';
import { SandboxJournal } from '../../src/sandbox/journal.js';
import { serveOperation } from '../../src/sandbox/routes.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { encodeTrackId } from '../../src/sandbox/track-id.js';

const KEY = 'merchant-key-123';
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A gateway on a clock the test sets, with timers the test fires. */
function setup(extra: Partial<GatewayConfig> = {}) {
  let now = T0;
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  const gateway = new SandboxGateway({
    merchantKey: KEY,
    payoutKey: 'payout-key-123',
    now: () => now,
    baseUrl: () => 'http://127.0.0.1:1',
    schedule: (ms, fn) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    ...extra,
  });
  const changes: PaymentChange[] = [];
  gateway.events.onChange((c) => changes.push(c));
  /** Moves the clock, firing the timers that come due, in order. */
  const advance = (ms: number): void => {
    const target = now + ms;
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      due.cancelled = true;
      now = Math.max(now, due.at);
      due.fn();
    }
    now = target;
  };
  const pending = (): number => timers.filter((t) => !t.cancelled).length;
  return { gateway, changes, advance, pending, setNow: (t: number) => (now = t) };
}

type Body = Record<string, unknown>;
/** A request to the operation's legacy endpoint, served as the sandbox's route serves it (key, codec, behaviour). */
const legacyCall = (gateway: SandboxGateway, operation: Parameters<typeof serveOperation>[1], fields: Record<string, unknown>) =>
  serveOperation(gateway, operation, 'legacy', fields);
const body = (reply: { body: unknown }): Body => reply.body as Body;

function create(gateway: SandboxGateway, fields: Record<string, unknown> = {}): string {
  const reply = legacyCall(gateway, 'createPayment', { merchant: KEY, amount: new LosslessNumber('25'), payCurrency: 'USDT', ...fields });
  expect(body(reply).result).toBe(100);
  return body(reply).trackId as string;
}

const inquiry = (gateway: SandboxGateway, trackId: unknown): Body => body(legacyCall(gateway, 'paymentInfo', { merchant: KEY, trackId }));

describe('a payment over time', () => {
  it('waiting → confirming → paid in 10 s, each change emitted once, in order, with a full snapshot', () => {
    const { gateway, changes, advance } = setup();
    const id = create(gateway, { orderId: 'o-1', email: 'a@b.co' });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ previous: undefined, at: T0, payment: { trackId: id, status: 'waiting', receivedAmount: '0', txID: '', payDate: 0 } });
    expect(changes[0]!.payment).toMatchObject({
      amount: '25',
      currency: 'USDT',
      payAmount: '25',
      payCurrency: 'USDT',
      network: 'Tron Network',
      orderId: 'o-1',
      email: 'a@b.co',
    });
    expect(inquiry(gateway, id)).toMatchObject({ result: 100, status: 'Waiting', txID: '', receivedAmount: '0' });

    advance(4000);
    expect(changes.map((c) => [c.previous, c.payment.status])).toEqual([
      [undefined, 'waiting'],
      ['waiting', 'confirming'],
    ]);
    expect(changes[1]!.payment.txID).toMatch(/^[0-9a-f]{64}$/);
    expect(inquiry(gateway, id)).toMatchObject({ status: 'Confirming' });

    advance(6000);
    expect(changes.map((c) => c.payment.status)).toEqual(['waiting', 'confirming', 'paid']);
    expect(changes[2]).toMatchObject({ previous: 'confirming', at: T0 + 10_000, payment: { receivedAmount: '25', payDate: T0 / 1000 + 10 } });
    const paid = inquiry(gateway, id);
    expect(paid).toMatchObject({
      status: 'Paid',
      amount: '25',
      payAmount: '25',
      receivedAmount: '25',
      orderId: 'o-1',
      date: T0 / 1000,
      payDate: T0 / 1000 + 10,
    });
    advance(60_000);
    expect(changes).toHaveLength(3);
  });

  it.each([
    ['x-underpay', ['waiting', 'confirming', 'underpaid'], 'Underpaid', '22.5'],
    ['x-fail', ['waiting', 'confirming', 'failed'], 'Failed', '0'],
    ['x-expire', ['waiting', 'expired'], 'Expired', '0'],
    ['1042', ['waiting', 'confirming', 'paid'], 'Paid', '25'],
  ])('order id %s ends %j', (orderId, statuses, final, received) => {
    const { gateway, changes, advance } = setup();
    const id = create(gateway, { orderId });
    advance(10_000);
    expect(changes.map((c) => c.payment.status)).toEqual(statuses);
    expect(inquiry(gateway, id)).toMatchObject({ status: final, receivedAmount: received });
  });

  it('an expiring payment says when: expiredAt is its settle time', () => {
    const { gateway } = setup();
    const reply = body(legacyCall(gateway, 'createPayment', { merchant: KEY, amount: '25', payCurrency: 'USDT', orderId: 'x-expire' }));
    expect(reply.expiredAt).toBe(T0 / 1000 + 10);
  });

  it('a late timer: an inquiry emits what is due first, and the timer then emits nothing twice', () => {
    const { gateway, changes, setNow, advance } = setup();
    const id = create(gateway);
    setNow(T0 + 30_000);
    expect(inquiry(gateway, id).status).toBe('Paid');
    expect(changes.map((c) => c.payment.status)).toEqual(['waiting', 'confirming', 'paid']);
    advance(1000);
    expect(changes).toHaveLength(3);
  });

  it('a settle time of its own (gw sandbox --settle)', () => {
    const { gateway, advance } = setup({ settleSeconds: 60 });
    const id = create(gateway);
    advance(59_000);
    expect(inquiry(gateway, id).status).toBe('Confirming');
    advance(1000);
    expect(inquiry(gateway, id).status).toBe('Paid');
  });

  it('close() stops every timer: nothing is emitted after it', () => {
    const { gateway, changes, advance, pending } = setup();
    create(gateway);
    create(gateway);
    expect(pending()).toBe(2);
    gateway.close();
    expect(pending()).toBe(0);
    advance(20_000);
    expect(changes).toHaveLength(2);
  });

  it('a listener that throws does not stop the lifecycle', () => {
    const { gateway, changes, advance } = setup();
    gateway.events.onChange(() => {
      throw new Error('listener bug');
    });
    create(gateway);
    advance(10_000);
    expect(changes.map((c) => c.payment.status)).toEqual(['waiting', 'confirming', 'paid']);
  });
});

describe('setState (gw sandbox trigger)', () => {
  it('forces a state now, emits it with the previous one, and holds it', () => {
    const { gateway, changes, advance } = setup();
    const id = create(gateway);
    advance(1000);
    const snapshot = gateway.setState(id, 'paid');
    expect(snapshot).toMatchObject({ trackId: id, status: 'paid', receivedAmount: '25', payDate: T0 / 1000 + 1 });
    expect(snapshot!.txID).toMatch(/^[0-9a-f]{64}$/);
    expect(changes.at(-1)).toMatchObject({ previous: 'waiting', at: T0 + 1000, payment: { status: 'paid' } });
    advance(60_000);
    expect(changes.map((c) => c.payment.status)).toEqual(['waiting', 'paid']);
    expect(inquiry(gateway, id).status).toBe('Paid');
    gateway.setState(id, 'refunded');
    expect(inquiry(gateway, id).status).toBe('Refunded');
    expect(changes.at(-1)).toMatchObject({ previous: 'paid', payment: { status: 'refunded' } });
  });

  it('an unknown track id: undefined, nothing emitted', () => {
    const { gateway, changes } = setup();
    expect(gateway.setState('999999999', 'paid')).toBeUndefined();
    expect(changes).toHaveLength(0);
  });
});

describe('a later process', () => {
  it("answers for a payment it never saw, from the journal's record of it", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-journal-')), 'j.jsonl');
    const first = setup({ journal: new SandboxJournal(file) });
    const id = create(first.gateway, { amount: '25.50', currency: 'USD', payCurrency: 'BTC', orderId: 'o-2-underpay', lifeTime: 30 });
    expect(id).toMatch(/^[1-9]\d{8}$/);
    const created = body(legacyCall(first.gateway, 'paymentInfo', { merchant: KEY, trackId: id }));
    const later = setup({ journal: new SandboxJournal(file) });
    later.setNow(T0 + 5000);
    const seen = inquiry(later.gateway, id);
    expect(seen).toMatchObject({
      status: 'Confirming',
      amount: '25.50',
      currency: 'USD',
      payAmount: created.payAmount,
      payCurrency: 'BTC',
      address: created.address,
      expiredAt: T0 / 1000 + 30 * 60,
      orderId: 'o-2-underpay',
    });
    later.setNow(T0 + 10_000);
    expect(inquiry(later.gateway, id).status).toBe('Underpaid');
    // The id as a JSON integer (the gateway's own client sends it so): the same payment.
    expect(body(legacyCall(later.gateway, 'paymentInfo', { merchant: KEY, trackId: new LosslessNumber(id) }))).toMatchObject({ result: 100, trackId: id });
    expect(later.changes).toHaveLength(0); // it did not create it: no lifecycle events here
    // Without the journal, the id names nothing: the id carries no payment.
    expect(body(legacyCall(setup().gateway, 'paymentInfo', { merchant: KEY, trackId: id })).result).toBe(116);
  });

  it('takes the track id as text or as a JSON integer, in both APIs, and answers it as numeric text', () => {
    const { gateway } = setup();
    const id = create(gateway, { orderId: 'o-int' });
    const v1 = { merchant_api_key: KEY };
    for (const sent of [id, new LosslessNumber(id)]) {
      expect(body(legacyCall(gateway, 'paymentInfo', { merchant: KEY, trackId: sent }))).toMatchObject({ result: 100, trackId: id });
      expect(body(legacyCall(gateway, 'paymentHistory', { merchant: KEY, trackId: sent }))).toMatchObject({
        result: 100,
        data: [expect.objectContaining({ trackId: id })],
      });
      expect(body(serveOperation(gateway, 'paymentInfo', 'v1', { track_id: sent }, v1))).toMatchObject({ status: 200, data: { track_id: id } });
      expect(body(serveOperation(gateway, 'paymentHistory', 'v1', { track_id: sent }, v1))).toMatchObject({
        status: 200,
        data: { list: [expect.objectContaining({ track_id: id })] },
      });
    }
  });

  it("an sbx… id of before (journals on users' machines have them) is still answered for from the id alone", () => {
    const id = encodeTrackId({
      createdAt: T0 / 1000,
      lifeTime: 30,
      offering: SANDBOX_OFFERINGS.findIndex((o) => o.payCurrency === 'BTC'),
      outcome: 'underpaid',
      settleSeconds: 10,
      currency: 'USD',
      amount: '25.50',
      nonce: 7,
    })!;
    const later = setup();
    later.setNow(T0 + 5000);
    expect(inquiry(later.gateway, id)).toMatchObject({
      trackId: id,
      status: 'Confirming',
      amount: '25.50',
      currency: 'USD',
      payCurrency: 'BTC',
      expiredAt: T0 / 1000 + 30 * 60,
      orderId: '', // no journal: the order id is not in the track id
    });
    later.setNow(T0 + 10_000);
    expect(inquiry(later.gateway, id).status).toBe('Underpaid');
  });

  it('finds it by order id through the journal (0600)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-journal-'));
    const file = path.join(dir, 'state', 'gateway', 'sandbox-payments.jsonl');
    const first = setup({ journal: new SandboxJournal(file) });
    const id = create(first.gateway, { orderId: 'o-3' });
    first.setNow(T0 + 1000);
    create(first.gateway, { orderId: 'o-other' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // The record a later process answers from: no e-mail, description or callback URL.
    expect(readFileSync(file, 'utf8')).not.toMatch(/email|description|callback/i);

    const later = setup({ journal: new SandboxJournal(file) });
    later.setNow(T0 + 60_000);
    const list = body(legacyCall(later.gateway, 'paymentHistory', { merchant: KEY, orderId: 'o-3' }));
    expect(list).toMatchObject({ result: 100, meta: { page: 1, last_page: 1, total: 1 } });
    expect(list.data).toEqual([expect.objectContaining({ trackId: id, orderId: 'o-3', status: 'Paid' })]);
    expect(inquiry(later.gateway, id).orderId).toBe('o-3');
    // The whole history, newest first, from the journal.
    expect(body(legacyCall(later.gateway, 'paymentHistory', { merchant: KEY }))).toMatchObject({
      meta: { total: 2 },
      data: [{ orderId: 'o-other' }, { orderId: 'o-3' }],
    });
  });

  it('a journal line that is not an entry is an error, not an empty journal; an unfinished last line is left out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-journal-'));
    const file = path.join(dir, 'j.jsonl');
    const first = setup();
    const id = create(first.gateway);
    const line = `{"trackId":${JSON.stringify(id)},"createdAt":${T0 / 1000},"lifeTime":60,"payCurrency":"USDT","network":"Tron Network","outcome":"paid","settleSeconds":10,"currency":"USDT","amount":"25","orderId":"ok"}`;
    writeFileSync(file, `${line}\n{"trackId":"123","orderId":"cut`, { mode: 0o600 });
    expect(new SandboxJournal(file).read()).toEqual([
      {
        trackId: id,
        orderId: 'ok',
        record: {
          createdAt: T0 / 1000,
          lifeTime: 60,
          payCurrency: 'USDT',
          network: 'Tron Network',
          outcome: 'paid',
          settleSeconds: 10,
          currency: 'USDT',
          amount: '25',
        },
      },
    ]);
    // A numeric id's line without its record is not an entry.
    writeFileSync(file, `${line}\n{"trackId":${JSON.stringify(id)},"orderId":"ok"}\n`, { mode: 0o600 });
    expect(() => new SandboxJournal(file).read()).toThrow(/cannot be used: a line is not a journal entry/);
    writeFileSync(file, `not json\n${line}\n`, { mode: 0o600 });
    expect(() => new SandboxJournal(file).read()).toThrow(/^the sandbox journal .*j\.jsonl cannot be used: a line is not a journal entry: "not json"$/);
    expect(new SandboxJournal(path.join(dir, 'missing', 'j.jsonl')).read()).toEqual([]);
  });
});

describe('inquiry and history refusals', () => {
  const { gateway } = setup();
  it.each([
    [{ merchant: 'wrong', trackId: 'x' }, 102],
    [{ merchant: KEY }, 101],
    [{ merchant: KEY, trackId: 'sbxnothing' }, 116],
    [{ merchant: KEY, trackId: new LosslessNumber('184729305') }, 116],
    [{ merchant: KEY, trackId: true }, 116],
  ])('inquiry %j → %i', (fields, result) => {
    expect(body(legacyCall(gateway, 'paymentInfo', fields)).result).toBe(result);
  });

  it.each([
    [{ merchant: 'wrong' }, 102],
    [{ merchant: KEY, size: 0 }, 101],
    [{ merchant: KEY, size: 201 }, 101],
    [{ merchant: KEY, page: 0 }, 101],
    [{ merchant: KEY, fromDate: 'soon' }, 101],
    [{ merchant: KEY, fromDate: 20, toDate: 10 }, 119],
    [{ merchant: KEY, fromAmount: 20, toAmount: 10 }, 118],
    [{ merchant: KEY, status: 'sleeping' }, 101],
  ])('list %j → %i', (fields, result) => {
    expect(body(legacyCall(gateway, 'paymentHistory', fields)).result).toBe(result);
  });
});

describe('history filters and pages', () => {
  it('filters by state, order, currencies, network, dates and amounts; newest first; paged', () => {
    const { gateway, advance } = setup();
    const ids: string[] = [];
    ids.push(create(gateway, { amount: '10', orderId: 'a' }));
    advance(1000);
    ids.push(create(gateway, { amount: '20', payCurrency: 'BTC', currency: 'USD', orderId: 'b-expire' }));
    advance(1000);
    ids.push(create(gateway, { amount: '30', network: 'Ethereum Network', orderId: 'c' }));
    const list = (fields: Record<string, unknown>): string[] =>
      ((body(legacyCall(gateway, 'paymentHistory', { merchant: KEY, ...fields })).data as Body[]) ?? []).map((p) => p.trackId as string);
    expect(list({})).toEqual([ids[2], ids[1], ids[0]]);
    expect(list({ payCurrency: 'btc' })).toEqual([ids[1]]);
    expect(list({ currency: 'USD' })).toEqual([ids[1]]);
    expect(list({ network: 'ERC20' })).toEqual([ids[2]]);
    expect(list({ network: 'Tron Network' })).toEqual([ids[0]]);
    expect(list({ fromAmount: '15', toAmount: new LosslessNumber('25') })).toEqual([ids[1]]);
    expect(list({ fromDate: T0 / 1000 + 1 })).toEqual([ids[2], ids[1]]);
    expect(list({ toDate: String(T0 / 1000) })).toEqual([ids[0]]);
    expect(list({ trackId: ids[0] })).toEqual([ids[0]]);
    advance(20_000);
    expect(list({ status: 'Expired' })).toEqual([ids[1]]);
    expect(list({ status: 'paid' })).toEqual([ids[2], ids[0]]);
    const page = body(legacyCall(gateway, 'paymentHistory', { merchant: KEY, size: 2, page: 2 }));
    expect(page.meta).toEqual({ page: 2, last_page: 2, total: 3, size: 2 });
    expect((page.data as Body[]).map((p) => p.trackId)).toEqual([ids[0]]);
  });
});
