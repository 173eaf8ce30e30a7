// The sandbox's payouts (src/sandbox/payouts.ts) through its HTTP-free facade and the v1 routes:
// the gateway's checks and result codes, the lifecycle on the compressed clock (and -reject),
// balances that move, the history's filters and paging, and signed payout notifications
// (type payout, HMAC-SHA512 with the PAYOUT key, not the merchant key).
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/notifications/signature.js';
import type { JsonObject } from '../../src/operations/read.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { NotificationDelivery } from '../../src/sandbox/notify.js';
import { serveOperation } from '../../src/sandbox/routes.js';

const T0 = 1_750_000_000_000;
const TRON = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';

function setUp() {
  const clock = { now: T0 };
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  const gateway = new SandboxGateway({
    merchantKey: 'mk',
    payoutKey: 'pk',
    generalKey: 'gk',
    now: () => clock.now,
    baseUrl: () => 'http://127.0.0.1:1',
    settleSeconds: 9,
    schedule: (ms, fn) => {
      const timer = { at: clock.now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  });
  /** Moves the clock to `ms` after T0, running the timers due on the way, in order. */
  const advance = (ms: number): void => {
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.at <= T0 + ms).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      due.cancelled = true;
      clock.now = due.at;
      due.fn();
    }
    clock.now = T0 + ms;
  };
  const call = (operation: 'createPayout' | 'payoutInfo' | 'payoutHistory' | 'balance', wire: Record<string, unknown>) => {
    const key = operation === 'balance' ? { general_api_key: 'gk' } : { payout_api_key: 'pk' };
    const reply = serveOperation(gateway, operation, 'v1', wire, key);
    return { status: reply.status, body: JSON.parse(stringify(reply.body) ?? '') as JsonObject };
  };
  return { gateway, clock, advance, call };
}

const data = (r: { body: JsonObject }): JsonObject => r.body.data as JsonObject;

describe('sandbox payouts', () => {
  it('checks as the gateway does: currency, network, address for that network, decimals, balance, callback URL', () => {
    const { call } = setUp();
    const refused = (wire: Record<string, unknown>): [number, unknown] => {
      const r = call('createPayout', wire);
      return [r.status, (r.body.error as JsonObject).key];
    };
    const base = { address: TRON, currency: 'USDT', amount: 1, network: 'Tron Network' };
    expect(refused({ ...base, currency: 'NOPE' })[0]).toBe(400);
    expect(refused({ ...base, network: 'Solana Network' })[0]).toBe(400);
    expect(refused({ ...base, network: undefined })[0]).toBe(400);
    expect(refused({ ...base, address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' })[0]).toBe(400);
    expect(refused({ ...base, amount: '1.1234567' })[0]).toBe(400);
    expect(refused({ ...base, amount: 1520.76 })[0]).toBe(400);
    expect(refused({ ...base, callback_url: 'ftp://x' })[0]).toBe(400);
    expect(call('createPayout', base).status).toBe(200);
  });

  it('lifecycle: processing → pending → confirming (a tx hash) → confirmed over the settle time; the balance moves', () => {
    const { call, advance } = setUp();
    const id = String(data(call('createPayout', { address: TRON, currency: 'USDT', amount: 20.25, network: 'TRC20' })).track_id);
    const at = (ms: number): JsonObject => {
      advance(ms);
      return data(call('payoutInfo', { track_id: id }));
    };
    expect(at(0)).toMatchObject({ status: 'processing', tx_hash: '', fee: 0, amount: 20.25, network: 'Tron Network' });
    expect(at(3_500).status).toBe('pending');
    const confirming = at(6_500);
    expect(confirming.status).toBe('confirming');
    expect(String(confirming.tx_hash)).toMatch(/^[0-9a-f]{64}$/);
    expect(at(9_000).status).toBe('confirmed');
    expect(data(call('balance', { currency: 'USDT' }))).toEqual({ USDT: 1500.5 });
  });

  it("what arrived for the sandbox's payments is credited to the balance (each coin of a -mixed one; not before it is confirmed, not a -refund one), so it can be refunded", () => {
    const { gateway, call, advance } = setUp();
    const pay = (wire: Record<string, unknown>): void => {
      expect(serveOperation(gateway, 'createPayment', 'v1', wire, { merchant_api_key: 'mk' }).status).toBe(200);
    };
    pay({ amount: 0.001, currency: 'BTC', pay_currency: 'BTC' });
    pay({ amount: 25, currency: 'USDT', pay_currency: 'USDT', network: 'Tron Network', order_id: 'o1-mixed' });
    pay({ amount: 0.5, currency: 'BTC', pay_currency: 'BTC', order_id: 'o2-refund' });
    advance(1_000);
    expect(data(call('balance', {}))).toMatchObject({ BTC: 0.00012345, USDT: 1520.75 });
    advance(60_000);
    const after = data(call('balance', {}));
    // USDT: 1520.75 + 12.5 (the -mixed payment's first half). BTC: 0.00012345 + 0.001 (the BTC
    // payment) + 0.00019063 (the -mixed payment's second half, in BTC at the sandbox's fixed
    // prices); the -refund payment's 0.5 BTC went back and is not on it.
    expect(after).toMatchObject({ USDT: 1533.25, BTC: 0.00131408 });
    // A payout of what arrived is accepted, and one above the credited balance is not.
    expect(call('createPayout', { address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', currency: 'BTC', amount: 0.001 }).status).toBe(200);
    expect(call('createPayout', { address: TRON, currency: 'USDT', amount: 1533.26, network: 'TRC20' }).status).toBe(400);
  });

  it('a description ending in -reject: stays processing, ends rejected, and gives the money back to the balance', () => {
    const { call, advance } = setUp();
    const id = String(data(call('createPayout', { address: TRON, currency: 'USDT', amount: 20, network: 'TRC20', description: 'x test-reject' })).track_id);
    advance(8_000);
    expect(data(call('payoutInfo', { track_id: id })).status).toBe('processing');
    advance(9_000);
    expect(data(call('payoutInfo', { track_id: id })).status).toBe('rejected');
    expect(data(call('balance', { currency: 'USDT' }))).toEqual({ USDT: 1520.75 });
  });

  it('history: newest first, filters, paging; an unknown track id is 404', () => {
    const { call, advance } = setUp();
    for (const [i, amount] of [1, 2, 3].entries()) {
      advance(i * 1000);
      call('createPayout', { address: TRON, currency: 'USDT', amount, network: 'TRC20' });
    }
    call('createPayout', { address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', currency: 'BTC', amount: 0.0001 });
    const page = data(call('payoutHistory', { size: 2, currency: 'USDT' }));
    expect((page.list as JsonObject[]).map((p) => p.amount)).toEqual([3, 2]);
    expect(page.meta).toEqual({ page: 1, last_page: 2, total: 3 });
    expect((data(call('payoutHistory', { to_amount: 1 })).list as JsonObject[]).map((p) => p.amount)).toEqual([0.0001, 1]);
    expect(call('payoutInfo', { track_id: '123' }).status).toBe(404);
  });

  it('notifications: each state of a payout with a callback URL, type payout, signed with the payout key', async () => {
    const { gateway, call, advance } = setUp();
    const sent: Array<{ body: string; hmac: string }> = [];
    const delivery = new NotificationDelivery('mk', {
      post: async (_url, body, headers) => {
        sent.push({ body: String(body), hmac: String(headers.HMAC ?? headers.hmac) });
        return { ok: true, status: 200, body: 'ok', ms: 1 } as never;
      },
    });
    delivery.listen(gateway.events);
    const id = String(
      data(call('createPayout', { address: TRON, currency: 'USDT', amount: 5, network: 'TRC20', callback_url: 'http://127.0.0.1:9/cb' })).track_id,
    );
    advance(10_000);
    await delivery.latest(id);
    await delivery.close(1000);
    expect(sent.map((s) => (JSON.parse(s.body) as { status: string }).status)).toEqual(['Processing', 'Pending', 'Confirming', 'Confirmed']);
    for (const s of sent) {
      expect(s.hmac).toBe(signBody('pk', s.body));
      expect(s.hmac).not.toBe(signBody('mk', s.body));
    }
    expect(Object.keys(JSON.parse(sent[3]?.body ?? '{}'))).toEqual([
      'track_id',
      'type',
      'status',
      'tx_hash',
      'address',
      'amount',
      'value',
      'currency',
      'network',
      'description',
      'date',
    ]);
    expect(JSON.parse(sent[3]?.body ?? '{}')).toMatchObject({ track_id: id, type: 'payout', amount: 5, currency: 'USDT', address: TRON });
  });
});
