// The sandbox's versioned answers as docs/gateway.md §12 and §15 document them (issue 23): every
// transaction says what became of it (auto_convert, auto_withdrawal); the `-fail` outcome, which
// the versioned API has no word for, is `expired` with its transaction `failed` and nothing
// received, in the information and in the notification alike; the history honours sort_by,
// sort_type and type, refuses an unknown one with the versioned 400, and pages by 10 without a size.
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { buildNotification } from '../../src/notifications/payload.js';
import type { Api } from '../../src/operations/codec.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { serveOperation } from '../../src/sandbox/routes.js';

type Json = Record<string, unknown>;

function sandbox() {
  const clock = { now: 1_750_000_000_000 };
  const gateway = new SandboxGateway({
    merchantKey: 'mk',
    payoutKey: 'pk',
    now: () => clock.now,
    baseUrl: () => 'http://127.0.0.1:1',
    settleSeconds: 10,
    schedule: () => () => undefined,
  });
  const call = (operation: 'createPayment' | 'paymentInfo' | 'paymentHistory', api: Api, wire: Json): { status: number; body: Json } => {
    const reply =
      api === 'v1'
        ? serveOperation(gateway, operation, 'v1', wire, { merchant_api_key: 'mk' })
        : serveOperation(gateway, operation, 'legacy', { ...wire, merchant: 'mk' });
    return { status: reply.status, body: JSON.parse(stringify(reply.body) ?? '{}') as Json };
  };
  const pay = (amount: string, orderId: string): string => {
    const r = call('createPayment', 'v1', { amount, pay_currency: 'USDT', order_id: orderId });
    expect(r.status).toBe(200);
    return String((r.body.data as Json).track_id);
  };
  return { clock, gateway, call, pay };
}

describe('v1 transactions: auto_convert and auto_withdrawal (§12)', () => {
  it('each transaction of the information and of the history carries them, before its date', () => {
    const { clock, call, pay } = sandbox();
    const id = pay('25', 'doc-paid');
    clock.now += 11_000;
    const info = (call('paymentInfo', 'v1', { track_id: id }).body.data as Json).txs as Json[];
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ auto_convert: { processed: false, amount: 0, currency: 'USDT' }, auto_withdrawal: { processed: false } });
    expect(Object.keys(info[0] as Json).slice(-3)).toEqual(['auto_convert', 'auto_withdrawal', 'date']);
    const row = ((call('paymentHistory', 'v1', {}).body.data as Json).list as Json[])[0] as Json;
    expect((row.txs as Json[])[0]).toEqual(info[0]);
  });
});

describe('the -fail outcome on v1: expired, its transaction failed, nothing received (§15)', () => {
  it('the information says expired with a failed transaction; the notification says the same', () => {
    const { clock, gateway, call, pay } = sandbox();
    const id = pay('25', 'doc-fail');
    clock.now += 11_000;
    const data = call('paymentInfo', 'v1', { track_id: id }).body.data as Json;
    expect(data.status).toBe('expired');
    expect((data.txs as Json[]).map((t) => t.status)).toEqual(['failed']);
    const snapshot = gateway.snapshotOf(id);
    if (snapshot === undefined) throw new Error('no snapshot');
    const body = JSON.parse(buildNotification(snapshot, 'v1').body) as Json;
    expect(body.status).toBe('Expired');
    expect((body.txs as Json[]).map((t) => t.status)).toEqual(['failed']);
    // The legacy inquiry keeps its own word.
    expect(call('paymentInfo', 'legacy', { trackId: id }).body.status).toBe('Failed');
    // A v1 history asking for expired finds it.
    const list = (call('paymentHistory', 'v1', { status: 'expired' }).body.data as Json).list as Json[];
    expect(list.map((p) => p.track_id)).toEqual([id]);
  });
});

describe('v1 history: sort_by, sort_type, type, default size (§12)', () => {
  function three() {
    const s = sandbox();
    const a = s.pay('30', 'doc-a');
    s.clock.now += 1000;
    const b = s.pay('10', 'doc-b');
    s.clock.now += 1000;
    const c = s.pay('20', 'doc-c-expire');
    s.clock.now += 11_000;
    return { ...s, a, b, c };
  }
  const ids = (r: { body: Json }): unknown[] => ((r.body.data as Json).list as Json[]).map((p) => p.track_id);

  it('create_date desc by default; asc; amount; pay_date', () => {
    const { call, a, b, c } = three();
    expect(ids(call('paymentHistory', 'v1', {}))).toEqual([c, b, a]);
    expect(ids(call('paymentHistory', 'v1', { sort_type: 'asc' }))).toEqual([a, b, c]);
    expect(ids(call('paymentHistory', 'v1', { sort_by: 'amount' }))).toEqual([a, c, b]);
    expect(ids(call('paymentHistory', 'v1', { sort_by: 'amount', sort_type: 'asc' }))).toEqual([b, c, a]);
    // pay_date: the expired one was never credited (0), the others in creation order.
    expect(ids(call('paymentHistory', 'v1', { sort_by: 'pay_date', sort_type: 'asc' }))).toEqual([c, a, b]);
  });

  it('type: white_label lists them, invoice and static_address none; an unknown type, sort_by or sort_type is a v1 400', () => {
    const { call, a, b, c } = three();
    expect(ids(call('paymentHistory', 'v1', { type: 'white_label' }))).toEqual([c, b, a]);
    expect(ids(call('paymentHistory', 'v1', { type: 'invoice' }))).toEqual([]);
    expect(ids(call('paymentHistory', 'v1', { type: 'static_address' }))).toEqual([]);
    for (const [name, value] of [
      ['type', 'payout'],
      ['sort_by', 'date'],
      ['sort_type', 'up'],
    ]) {
      const r = call('paymentHistory', 'v1', { [name as string]: value });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ data: {}, status: 400, error: { type: 'invalid_request_error', key: name } });
    }
  });

  it('pages by 10 when size is absent (v1); the legacy list keeps its 20', () => {
    const s = sandbox();
    for (let i = 0; i < 12; i++) s.pay('1', `doc-page-${i}`);
    const v1 = s.call('paymentHistory', 'v1', {}).body.data as Json;
    expect((v1.list as Json[]).length).toBe(10);
    expect(v1.meta).toEqual({ page: 1, last_page: 2, total: 12 });
    expect((s.call('paymentHistory', 'legacy', {}).body.data as Json[]).length).toBe(12);
  });
});

describe('legacy history: sortBy and orderBy (§6; values as v1 sort_by and sort_type)', () => {
  function three() {
    const s = sandbox();
    const a = s.pay('30', 'leg-a');
    s.clock.now += 1000;
    const b = s.pay('10', 'leg-b');
    s.clock.now += 1000;
    const c = s.pay('20', 'leg-c-expire');
    s.clock.now += 11_000;
    return { ...s, a, b, c };
  }
  const ids = (r: { body: Json }): unknown[] => (r.body.data as Json[]).map((p) => String(p.trackId));

  it('create_date desc by default; orderBy asc; sortBy amount; pay_date: the same order as v1', () => {
    const { call, a, b, c } = three();
    expect(ids(call('paymentHistory', 'legacy', {}))).toEqual([c, b, a]);
    expect(ids(call('paymentHistory', 'legacy', { orderBy: 'asc' }))).toEqual([a, b, c]);
    expect(ids(call('paymentHistory', 'legacy', { sortBy: 'amount' }))).toEqual([a, c, b]);
    expect(ids(call('paymentHistory', 'legacy', { sortBy: 'amount', orderBy: 'asc' }))).toEqual([b, c, a]);
    expect(ids(call('paymentHistory', 'legacy', { sortBy: 'pay_date', orderBy: 'asc' }))).toEqual([c, a, b]);
    for (const [sortBy, orderBy] of [
      ['amount', 'desc'],
      ['pay_date', 'desc'],
      ['create_date', 'asc'],
    ] as const) {
      const v1 = ((call('paymentHistory', 'v1', { sort_by: sortBy, sort_type: orderBy }).body.data as Json).list as Json[]).map((p) => String(p.track_id));
      expect(ids(call('paymentHistory', 'legacy', { sortBy, orderBy }))).toEqual(v1);
    }
  });

  it('an unknown sortBy or orderBy is result 101 naming the legacy field', () => {
    const { call } = three();
    for (const [name, value] of [
      ['sortBy', 'date'],
      ['orderBy', 'up'],
    ]) {
      const r = call('paymentHistory', 'legacy', { [name as string]: value });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe(101);
      expect(String(r.body.message)).toContain(`${name} must be one of`);
    }
  });
});
