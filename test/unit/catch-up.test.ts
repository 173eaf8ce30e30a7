// Catching up's pure parts (src/notifications/catch-up.ts) and its state file
// (src/cmdutil/catch-up-state.ts): stable event ids, the diff against what was seen, the recovered
// body signed as the gateway signs (checked with crypto.createHmac), and a state written
// atomically that a later run reads back, old events forgotten, a foreign file refused.
import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catchUpStatePath, loadCatchUpState, saveCatchUpState } from '../../src/cmdutil/catch-up-state.js';
import { ExitCode, GwError } from '../../src/errors.js';
import { eventId, missedEvents, missedPayoutEvents, payoutEventId, recoveredNotification } from '../../src/notifications/catch-up.js';
import { decodePayout } from '../../src/operations/payout-info.js';
import { parseLossless } from '../../src/util/json.js';
import type { JsonObject } from '../../src/operations/read.js';
import { emptyDir } from '../support/cli.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const row = (trackId: string, status: string, date = T_DATE, txs: string[] = []) =>
  v1InfoOf({ track_id: trackId, status, currency: 'USDT', amount: '25', order_id: `o-${trackId}`, date }, txs);

describe('event ids and the diff', () => {
  it('an event id is sha256 of "track id:state", 32 hex digits, the same every time', () => {
    expect(eventId('184729305', 'paid')).toBe(createHash('sha256').update('184729305:paid').digest('hex').slice(0, 32));
    expect(eventId('184729305', 'paid')).toBe(eventId('184729305', 'paid'));
    expect(eventId('184729305', 'paid')).not.toBe(eventId('184729305', 'confirming'));
  });

  it('missed: each payment whose current state was not seen, once, oldest first; unknown states are no event', () => {
    const rows = [
      row('3', 'paid', T_DATE + 20, [v1Tx('t3', '25', 'USDT')]),
      row('1', 'paying', T_DATE, [v1Tx('t1', '25', 'USDT', { status: 'confirming' })]),
      row('2', 'waiting', T_DATE + 10),
      row('2', 'waiting', T_DATE + 10),
      row('4', 'sideways', T_DATE + 30),
      // Expired with funds is late, in the history as in a notification.
      row('5', 'expired', T_DATE + 40, [v1Tx('t5', '25', 'USDT')]),
    ];
    const seen = new Set([eventId('3', 'paid')]);
    expect(missedEvents(rows, seen).map((e) => [e.trackId, e.state, e.id, e.createdAt])).toEqual([
      ['1', 'confirming', eventId('1', 'confirming'), T_DATE],
      ['2', 'waiting', eventId('2', 'waiting'), T_DATE + 10],
      ['5', 'late', eventId('5', 'late'), T_DATE + 40],
    ]);
  });

  it('the recovered body is the gateway format for the current state, HMAC-SHA512 over its bytes, marked recovered', () => {
    const [event] = missedEvents([row('7', 'paid', T_DATE, [v1Tx('t7', '25', 'USDT')])], new Set());
    if (event === undefined) throw new Error('no event');
    const n = recoveredNotification(event, 'v1', 'the-merchant-key');
    expect(n.headers.HMAC).toBe(createHmac('sha512', 'the-merchant-key').update(n.body).digest('hex'));
    expect(n.headers['X-Gw-Recovered']).toBe('1');
    expect(n.headers['X-Gw-Event-Id']).toBe(eventId('7', 'paid'));
    expect(JSON.parse(n.body)).toMatchObject({
      track_id: '7',
      status: 'Paid',
      type: 'white_label',
      order_id: 'o-7',
      txs: [{ tx_hash: 't7', currency: 'USDT' }],
    });
    const legacy = recoveredNotification(event, 'legacy', 'the-merchant-key');
    expect(JSON.parse(legacy.body)).toMatchObject({ trackId: '7', status: 'Paid', type: 'payment', orderId: 'o-7' });
  });
});

describe('payouts', () => {
  const payout = (trackId: string, status: string) =>
    decodePayout(
      parseLossless(
        `{"track_id":"${trackId}","address":"TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe","currency":"USDT","network":"Tron Network","amount":12.50,"fee":1,"status":"${status}","tx_hash":"","description":"gw-po-1","internal":false,"memo":"","date":${T_DATE}}`,
      ) as JsonObject,
      'the test',
    );

  it('a missed payout state is its own event (never a payment one), its v1 body signed with the payout key', () => {
    expect(payoutEventId('9', 'confirmed')).not.toBe(eventId('9', 'paid'));
    const events = missedPayoutEvents([payout('9', 'Complete'), payout('10', 'canceled')], new Set([payoutEventId('10', 'canceled')]));
    expect(events.map((e) => [e.trackId, e.state, e.id])).toEqual([['9', 'confirmed', payoutEventId('9', 'confirmed')]]);
    const n = recoveredNotification(events[0] as (typeof events)[0], 'legacy', 'the-payout-key');
    expect(n.type).toBe('payout');
    expect(n.style).toBe('v1');
    expect(n.headers.HMAC).toBe(createHmac('sha512', 'the-payout-key').update(n.body).digest('hex'));
    expect(n.body).toContain('"amount":12.50');
    expect(JSON.parse(n.body)).toMatchObject({ track_id: '9', type: 'payout', status: 'Complete', currency: 'USDT', date: T_DATE });
  });
});

describe('the state file', () => {
  it('per profile in the state folder; written atomically (no temporary file left), 0600, read back; old events forgotten', () => {
    const home = emptyDir();
    const file = catchUpStatePath({}, home, 'shop/eu');
    expect(file).toBe(path.join(home, '.local', 'state', 'gateway', 'catch-up-shop_eu.json'));
    expect(catchUpStatePath({ XDG_STATE_HOME: '/var/state' }, home, 'default')).toBe('/var/state/gateway/catch-up-default.json');
    expect(loadCatchUpState(file)).toEqual({ seen: new Map() });
    const state = {
      lastAt: 1_764_100_000,
      seen: new Map([
        [eventId('1', 'paid'), 1_764_000_000],
        [eventId('2', 'paid'), 1_700_000_000],
      ]),
    };
    saveCatchUpState(file, state, 1_763_000_000);
    expect(readdirSync(path.dirname(file))).toEqual(['catch-up-shop_eu.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadCatchUpState(file)).toEqual({ lastAt: 1_764_100_000, seen: new Map([[eventId('1', 'paid'), 1_764_000_000]]) });
  });

  it('a file that is not gw state is refused with exit 78, naming it', () => {
    const file = path.join(emptyDir(), 'catch-up-default.json');
    writeFileSync(file, '{"version": 7}');
    let error: unknown;
    try {
      loadCatchUpState(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).exitCode).toBe(ExitCode.CONFIG);
    expect((error as GwError).message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 7}');
  });
});

describe('a live notification received while catching up', () => {
  // gw listen --catch-up listens while it catches up: a state change delivered live meanwhile is
  // remembered at once, and the catch-up must not deliver it a second time as recovered.
  it('is not delivered again as recovered by the catch-up under way', async () => {
    const { catchUp, rememberLive } = await import('../../src/cmdutil/catch-up.js');
    const { FakeGateway } = await import('../support/fake-gateway.js');
    const { IOStreams } = await import('../../src/output/iostreams.js');
    const statePath = path.join(emptyDir(), 'catch-up-default.json');
    const state = loadCatchUpState(statePath);
    const rows = [row('1', 'paid', T_DATE, [v1Tx('t1', '25', 'USDT')]), row('2', 'paid', T_DATE + 10, [v1Tx('t2', '25', 'USDT')])];
    const gateway = new FakeGateway({ page: { payments: rows, page: 1, pages: 1, total: 2 } });
    const recorded: string[] = [];
    const result = await catchUp({
      io: IOStreams.test().io,
      gateway,
      style: 'v1',
      merchantKey: 'k',
      since: new Date((T_DATE - 60) * 1000),
      until: new Date((T_DATE + 60) * 1000),
      state,
      statePath,
      now: () => (T_DATE + 60) * 1000,
      record: async (line) => {
        recorded.push(line);
        // Payment 2's "paid" arrives live while payment 1's recovered one is being recorded.
        if (recorded.length === 1) rememberLive(statePath, state, eventId('2', 'paid'), T_DATE + 61);
      },
    });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toContain(eventId('1', 'paid'));
    expect(result.delivered).toBe(1);
  });
});

describe('a history that could not be read whole', () => {
  // The gateway hangs on page 2 (the deadline stops the history there) and no time is left for the
  // payout history: what was read is delivered, the run says it is incomplete, and the window does
  // not move on, so the next run still reads the pages this one could not.
  it('delivers what was read, says why it is incomplete, and keeps the window for the next run', async () => {
    const { catchUp } = await import('../../src/cmdutil/catch-up.js');
    const { FakeGateway } = await import('../support/fake-gateway.js');
    const { IOStreams } = await import('../../src/output/iostreams.js');
    const statePath = path.join(emptyDir(), 'catch-up-default.json');
    const state = loadCatchUpState(statePath);
    state.lastAt = T_DATE - 600;
    const gateway = new FakeGateway({
      page: (filter: { page?: number }) => {
        if ((filter.page ?? 1) > 1) throw new GwError(ExitCode.TEMPFAIL, 'no complete answer from the gateway within 4 s');
        return { payments: [row('1', 'paid', T_DATE, [v1Tx('t1', '25', 'USDT')])], page: 1, pages: 2, total: 2 };
      },
      performed: { 'the payout history': new GwError(ExitCode.TEMPFAIL, 'no time was left to send the request to the gateway') },
    });
    const recorded: string[] = [];
    const result = await catchUp({
      io: IOStreams.test().io,
      gateway,
      style: 'v1',
      merchantKey: 'k',
      payoutKey: 'p',
      since: new Date((T_DATE - 60) * 1000),
      until: new Date((T_DATE + 60) * 1000),
      state,
      statePath,
      now: () => (T_DATE + 60) * 1000,
      record: async (line) => void recorded.push(line),
    });
    expect(recorded).toHaveLength(1);
    expect(result.incomplete).toMatch(/stopped before page 2 of 2: no complete answer.*; the payout history could not be read/);
    expect(result.payoutsNote).toBe('payouts not caught up: no time was left to send the request to the gateway');
    expect(loadCatchUpState(statePath).lastAt).toBe(T_DATE - 600);
    // A live notification days later moves lastAt on, but not where the next catch-up starts.
    const { catchUpSince, rememberLive } = await import('../../src/cmdutil/catch-up.js');
    rememberLive(statePath, state, eventId('99', 'paid'), T_DATE + 10 * 86_400);
    expect(catchUpSince(loadCatchUpState(statePath))?.getTime()).toBe((T_DATE - 60) * 1000);
  });
});

describe('the recovered body keeps the payment’s own fields', () => {
  it('under_paid_coverage is the payment’s (2.5), not a made-up 0, in both styles', () => {
    const info = v1InfoOf({ track_id: '9', status: 'paid', currency: 'USDT', amount: '25', order_id: 'o-9', date: T_DATE, under_paid_coverage: 2.5 }, [
      v1Tx('t9', '25', 'USDT'),
    ]);
    const [event] = missedEvents([info], new Set());
    if (event === undefined) throw new Error('no event');
    expect(recoveredNotification(event, 'v1', 'k').body).toContain('"under_paid_coverage":2.5');
    expect(recoveredNotification(event, 'legacy', 'k').body).toContain('"underPaidCover":2.5');
  });
});

describe('a recovered versioned body for an underpaid payment asked in its own coin', () => {
  // The versioned history gives no pay_amount: for a payment asked in the coin it is paid in, what
  // was to be paid is its amount, so sent_value is what arrived (6.75) and each transfer's rate is 1,
  // as in the gateway's (and the sandbox's) own notification, never inflated to make 6.75 worth 7.50.
  it('sent_value is what arrived and each transfer is worth its amount at rate 1', () => {
    const info = v1InfoOf({ track_id: '8', status: 'underpaid', currency: 'USDT', amount: '7.50', order_id: 'o-8', date: T_DATE }, [
      v1Tx('a', '3.75', 'USDT'),
      v1Tx('b', '3', 'USDT'),
    ]);
    const [event] = missedEvents([info], new Set());
    if (event === undefined) throw new Error('no event');
    const body = JSON.parse(recoveredNotification(event, 'v1', 'k').body) as { sent_value: number; txs: Array<{ value: number; rate: number }> };
    expect(body.sent_value).toBe(6.75);
    expect(body.txs.map((t) => [t.value, t.rate])).toEqual([
      [3.75, 1],
      [3, 1],
    ]);
  });
});

describe('a window not wholly delivered', () => {
  it('is where the next catch-up starts until a run covers it whole; then it is forgotten', async () => {
    const { catchUpSince } = await import('../../src/cmdutil/catch-up.js');
    const file = path.join(emptyDir(), 'catch-up-default.json');
    saveCatchUpState(file, { lastAt: T_DATE, pendingSince: T_DATE - 5 * 86_400, seen: new Map() });
    const back = loadCatchUpState(file);
    expect(back.pendingSince).toBe(T_DATE - 5 * 86_400);
    expect(catchUpSince(back)?.getTime()).toBe((T_DATE - 5 * 86_400) * 1000);
    // Without one, the lookback from the last notification.
    expect(catchUpSince({ lastAt: T_DATE, seen: new Map() })?.getTime()).toBe((T_DATE - 2 * 86_400) * 1000);
    // A complete run over that window forgets it.
    const { catchUp } = await import('../../src/cmdutil/catch-up.js');
    const { FakeGateway } = await import('../support/fake-gateway.js');
    const { IOStreams } = await import('../../src/output/iostreams.js');
    await catchUp({
      io: IOStreams.test().io,
      gateway: new FakeGateway({ page: { payments: [], page: 1, pages: 1, total: 0 } }),
      style: 'v1',
      merchantKey: 'k',
      since: catchUpSince(back) as Date,
      until: new Date((T_DATE + 60) * 1000),
      state: back,
      statePath: file,
      now: () => (T_DATE + 60) * 1000,
      record: async () => {},
    });
    expect(loadCatchUpState(file).pendingSince).toBeUndefined();
    expect(loadCatchUpState(file).lastAt).toBe(T_DATE + 60);
  });
});
