// The sandbox's lifecycle rules (src/sandbox/lifecycle.ts): pure, state at time t.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTLE_SECONDS,
  expiresAt,
  nextStep,
  outcomeOf,
  receivedOf,
  schedule,
  stateAt,
  stepsBetween,
  underpaidAmount,
  type LifecyclePlan,
} from '../../src/sandbox/lifecycle.js';

const T0 = 1_795_320_000; // Unix seconds
const plan = (outcome: LifecyclePlan['outcome'], extra: Partial<LifecyclePlan> = {}): LifecyclePlan => ({
  createdAt: T0,
  lifeTime: 60,
  settleSeconds: DEFAULT_SETTLE_SECONDS,
  outcome,
  ...extra,
});
const at = (seconds: number): number => (T0 + seconds) * 1000;

describe('outcomeOf: the order id chooses the final state', () => {
  it.each([
    ['1042', 'paid'],
    ['', 'paid'],
    ['order-7-underpay', 'underpaid'],
    ['ORDER-7-UNDERPAY', 'underpaid'],
    ['x-expire', 'expired'],
    ['x-fail', 'failed'],
    ['x-fail ', 'failed'],
    ['x-failed', 'paid'],
    ['underpay', 'paid'],
    ['gw-20261122-140205-k7q3', 'paid'],
  ])('%j → %s', (orderId, outcome) => {
    expect(outcomeOf(orderId)).toBe(outcome);
  });
});

describe('stateAt', () => {
  it.each([
    ['paid', 0, 'waiting'],
    ['paid', 3.999, 'waiting'],
    ['paid', 4, 'confirming'],
    ['paid', 9.999, 'confirming'],
    ['paid', 10, 'paid'],
    ['paid', 100_000, 'paid'],
    ['underpaid', 5, 'confirming'],
    ['underpaid', 10, 'underpaid'],
    ['failed', 4, 'confirming'],
    ['failed', 10, 'failed'],
    ['expired', 4, 'waiting'],
    ['expired', 9.999, 'waiting'],
    ['expired', 10, 'expired'],
  ] as const)('%s payment at +%ss is %s', (outcome, seconds, status) => {
    expect(stateAt(plan(outcome), at(seconds)).status).toBe(status);
  });

  it('before its creation a payment is in its first state', () => {
    expect(stateAt(plan('paid'), at(-5))).toEqual({ status: 'waiting', at: at(0), txs: [] });
  });

  it('the settle time stretches the schedule; it never ends after the expiry', () => {
    expect(schedule(plan('paid', { settleSeconds: 600 })).map(({ status, at }) => ({ status, at }))).toEqual([
      { status: 'waiting', at: at(0) },
      { status: 'confirming', at: at(240) },
      { status: 'paid', at: at(600) },
    ]);
    expect(schedule(plan('paid', { settleSeconds: 3600, lifeTime: 15 })).at(-1)).toMatchObject({ status: 'paid', at: at(900) });
  });

  it('a payment that is to expire expires at its settle time, and says so in expiredAt', () => {
    expect(expiresAt(plan('expired'))).toBe(T0 + 10);
    expect(expiresAt(plan('paid'))).toBe(T0 + 3600);
    expect(expiresAt(plan('expired', { settleSeconds: 3600, lifeTime: 15 }))).toBe(T0 + 900);
  });

  it('nextStep and stepsBetween walk the schedule', () => {
    const p = plan('paid');
    expect(nextStep(p, at(0))).toMatchObject({ status: 'confirming', at: at(4) });
    expect(nextStep(p, at(4))).toMatchObject({ status: 'paid', at: at(10) });
    expect(nextStep(p, at(10))).toBeUndefined();
    expect(stepsBetween(p, at(0), at(30)).map((s) => s.status)).toEqual(['confirming', 'paid']);
    expect(stepsBetween(p, at(4), at(9))).toEqual([]);
  });
});

describe('amounts received', () => {
  it.each([
    ['25', 6, '22.5'],
    ['0.00038127', 8, '0.00034314'],
    ['0.00000001', 8, '0'],
    ['12.345678', 6, '11.11111'],
    ['1.5', 18, '1.35'],
  ])('underpaid: 90%% of %s at %i decimals, rounded down → %s', (pay, decimals, got) => {
    expect(underpaidAmount(pay, decimals)).toBe(got);
  });

  it.each([
    ['waiting', 'paid', 0, '0'],
    ['confirming', 'paid', 4, '25'],
    ['confirming', 'underpaid', 4, '22.5'],
    ['paid', 'paid', 10, '25'],
    ['underpaid', 'underpaid', 10, '22.5'],
    ['failed', 'failed', 10, '0'],
    ['expired', 'expired', 10, '0'],
    ['refunded', 'refund', 10, '25'],
  ] as const)('%s (outcome %s, at +%ss) has received %s', (status, outcome, seconds, amount) => {
    const step = stateAt(plan(outcome), at(seconds));
    expect(step.status).toBe(status);
    expect(receivedOf(step.txs, '25', 6)).toBe(amount);
  });
});

describe('the order-id situations: -late, -partial, -mixed, -refund', () => {
  it.each([
    ['order-9-late', 'late'],
    ['ORDER-9-LATE', 'late'],
    ['x-partial', 'partial'],
    ['x-mixed', 'mixed'],
    ['x-refund', 'refund'],
    ['x-refunds', 'paid'],
    ['late', 'paid'],
    ['x-mixedup', 'paid'],
  ])('%j → %s', (orderId, outcome) => {
    expect(outcomeOf(orderId)).toBe(outcome);
  });

  it('a generated order id never ends in a situation: its last part is 4 characters without i, l, o, u', async () => {
    const { generateOrderId } = await import('../../src/cmdutil/order-id.js');
    // Every byte value in each of the four positions, and the alphabet checked against every suffix.
    for (let b = 0; b < 256; b++) {
      const id = generateOrderId(Date.UTC(2026, 10, 22, 14, 2, 5), () => new Uint8Array([b, (b * 7) & 255, (b * 13) & 255, (b * 31) & 255]));
      expect(outcomeOf(id)).toBe('paid');
    }
    for (const suffix of ['-underpay', '-expire', '-fail', '-late', '-partial', '-mixed', '-refund']) {
      // Four-character words could be generated only from the alphabet; each has a letter it lacks.
      const word = suffix.slice(1);
      expect(word.length !== 4 || /[ilou]/.test(word)).toBe(true);
    }
  });

  const timeline = (outcome: LifecyclePlan['outcome'], extra: Partial<LifecyclePlan> = {}) =>
    schedule(plan(outcome, extra)).map((s) => [
      (s.at - at(0)) / 1000,
      s.status,
      s.txs.map((t) => `${t.n}:${t.part}${t.coin === 'second' ? '@second' : ''}:${t.state}@${(t.seenAt - at(0)) / 1000}`).join(' '),
    ]);

  it('-late: expired with nothing at half the settle time (its expiry moved there), then the full amount arrives, still expired', () => {
    expect(timeline('late')).toEqual([
      [0, 'waiting', ''],
      [5, 'expired', ''],
      [10, 'expired', '0:full:confirmed@10'],
    ]);
    expect(expiresAt(plan('late'))).toBe(T0 + 5);
    // A settle time past the lifetime: the expiry is the lifetime's, the funds half a second later.
    expect(timeline('late', { settleSeconds: 3600, lifeTime: 15 }).map((s) => s[0])).toEqual([0, 900, 900.5]);
    expect(timeline('late', { settleSeconds: 1 }).map((s) => s[0])).toEqual([0, 1, 1.5]);
  });

  it('-partial: two transactions, 50 % then 40 %, ending underpaid at its expiry', () => {
    expect(timeline('partial')).toEqual([
      [0, 'waiting', ''],
      [3, 'confirming', '0:half:confirming@3'],
      [6, 'confirming', '0:half:confirmed@3 1:forty:confirming@6'],
      [10, 'underpaid', '0:half:confirmed@3 1:forty:confirmed@6'],
    ]);
    expect(expiresAt(plan('partial'))).toBe(T0 + 10);
    const last = schedule(plan('partial')).at(-1)?.txs ?? [];
    expect(receivedOf(last, '25', 6)).toBe('22.5');
    expect(receivedOf(last, '0.00038127', 8)).toBe('0.00034314');
  });

  it('-mixed: half in the pay currency, the rest in a second coin, ending paid', () => {
    expect(timeline('mixed')).toEqual([
      [0, 'waiting', ''],
      [3, 'confirming', '0:half:confirming@3'],
      [6, 'confirming', '0:half:confirmed@3 1:rest@second:confirming@6'],
      [10, 'paid', '0:half:confirmed@3 1:rest@second:confirmed@6'],
    ]);
    expect(receivedOf(schedule(plan('mixed')).at(-1)?.txs ?? [], '0.00038127', 8)).toBe('0.00038127');
  });

  it('-refund: paid, then refunding, then refunded; the transaction stays', () => {
    expect(timeline('refund')).toEqual([
      [0, 'waiting', ''],
      [2, 'confirming', '0:full:confirming@2'],
      [4, 'paid', '0:full:confirmed@2'],
      [7, 'refunding', '0:full:confirmed@2'],
      [10, 'refunded', '0:full:confirmed@2'],
    ]);
  });
});
