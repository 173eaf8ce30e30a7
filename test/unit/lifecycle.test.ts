// The sandbox's lifecycle rules (src/sandbox/lifecycle.ts): pure, state at time t.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTLE_SECONDS,
  expiresAt,
  nextStep,
  outcomeOf,
  receivedIn,
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
    expect(stateAt(plan('paid'), at(-5))).toEqual({ status: 'waiting', at: at(0) });
  });

  it('the settle time stretches the schedule; it never ends after the expiry', () => {
    expect(schedule(plan('paid', { settleSeconds: 600 }))).toEqual([
      { status: 'waiting', at: at(0) },
      { status: 'confirming', at: at(240) },
      { status: 'paid', at: at(600) },
    ]);
    expect(schedule(plan('paid', { settleSeconds: 3600, lifeTime: 15 })).at(-1)).toEqual({ status: 'paid', at: at(900) });
  });

  it('a payment that is to expire expires at its settle time, and says so in expiredAt', () => {
    expect(expiresAt(plan('expired'))).toBe(T0 + 10);
    expect(expiresAt(plan('paid'))).toBe(T0 + 3600);
    expect(expiresAt(plan('expired', { settleSeconds: 3600, lifeTime: 15 }))).toBe(T0 + 900);
  });

  it('nextStep and stepsBetween walk the schedule', () => {
    const p = plan('paid');
    expect(nextStep(p, at(0))).toEqual({ status: 'confirming', at: at(4) });
    expect(nextStep(p, at(4))).toEqual({ status: 'paid', at: at(10) });
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
    ['waiting', 'paid', '0'],
    ['confirming', 'paid', '25'],
    ['confirming', 'underpaid', '22.5'],
    ['paid', 'paid', '25'],
    ['underpaid', 'underpaid', '22.5'],
    ['failed', 'failed', '0'],
    ['expired', 'expired', '0'],
    ['refunded', 'paid', '25'],
  ] as const)('%s (outcome %s) has received %s', (status, outcome, amount) => {
    expect(receivedIn(status, outcome, '25', 6)).toBe(amount);
  });
});
