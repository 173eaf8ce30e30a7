// The sandbox's rules for how a payment's state changes, in ONE place and pure: given what the
// payment is (its plan) and a time, its state. The running sandbox (gateway.ts) asks this module
// for the state on every inquiry and list, and for the next transition to set a timer for it, so
// the state an answer shows and the changes notification delivery hears about always agree.
//
// The rules (docs/sandbox.md, "A payment's life"):
// - a white-label payment starts `waiting` (the payer's currency is chosen when it is created);
// - on a compressed clock of `settleSeconds` (10 by default, `gw sandbox --settle`): after 40 %
//   of it a transaction is "seen" (`confirming`), and at its end the payment reaches its final
//   state — never later than its expiry;
// - which final state is chosen by the order id, case-insensitively: ending in `-underpay` →
//   `underpaid` (90 % of the pay amount received, rounded down to the asset's precision),
//   `-expire` → `expired` (no transaction; the payment's expiry is moved to the settle time, so
//   its `expiredAt` tells the truth), `-fail` → `failed` (a transaction seen, then failed),
//   anything else → `paid`.
// - a state forced with SandboxGateway.setState() replaces the plan for that payment (see there).
import type { PaymentState } from '../domain/payment-status.js';
import { fromBaseUnits, fractionDigits, toBaseUnits } from '../money/decimal.js';

export type Outcome = 'paid' | 'underpaid' | 'expired' | 'failed';
export const OUTCOMES: readonly Outcome[] = ['paid', 'underpaid', 'expired', 'failed'];

export { DEFAULT_SETTLE_SECONDS, SETTLE_SECONDS } from './options.js';

/** Share of the settle time a payment waits before its transaction is seen. */
const CONFIRMING_SHARE = 0.4;
/** Share of the pay amount an underpaid payment receives. */
const UNDERPAID_NUMERATOR = 9n;
const UNDERPAID_DENOMINATOR = 10n;

/** Order-id endings that choose the outcome (compared case-insensitively). */
export const OUTCOME_SUFFIXES: ReadonlyArray<readonly [string, Outcome]> = [
  ['-underpay', 'underpaid'],
  ['-expire', 'expired'],
  ['-fail', 'failed'],
];

/** The final state a payment with this order id reaches. */
export function outcomeOf(orderId: string): Outcome {
  const lower = orderId.trim().toLowerCase();
  for (const [suffix, outcome] of OUTCOME_SUFFIXES) if (lower.endsWith(suffix)) return outcome;
  return 'paid';
}

/** What the lifecycle needs to know about a payment (the sandbox's track id encodes all of it). */
export interface LifecyclePlan {
  /** Unix seconds. */
  createdAt: number;
  /** Minutes. */
  lifeTime: number;
  settleSeconds: number;
  outcome: Outcome;
}

/** A state and when (Unix milliseconds) the payment entered it. */
export interface Step {
  status: PaymentState;
  at: number;
}

/** Unix seconds at which the payment expires: its lifetime, or its settle time when it is to expire. */
export function expiresAt(plan: LifecyclePlan): number {
  const natural = plan.createdAt + plan.lifeTime * 60;
  return plan.outcome === 'expired' ? Math.min(natural, plan.createdAt + plan.settleSeconds) : natural;
}

/** Every state the payment goes through, in order, with its start time. */
export function schedule(plan: LifecyclePlan): Step[] {
  const start = plan.createdAt * 1000;
  if (plan.outcome === 'expired') {
    return [
      { status: 'waiting', at: start },
      { status: 'expired', at: expiresAt(plan) * 1000 },
    ];
  }
  const settleMs = Math.min(plan.settleSeconds, plan.lifeTime * 60) * 1000;
  return [
    { status: 'waiting', at: start },
    { status: 'confirming', at: start + Math.round(settleMs * CONFIRMING_SHARE) },
    { status: plan.outcome, at: start + settleMs },
  ];
}

/** The payment's state at `nowMs` (its first state before it exists). */
export function stateAt(plan: LifecyclePlan, nowMs: number): Step {
  const steps = schedule(plan);
  let current = steps[0] as Step;
  for (const step of steps) if (step.at <= nowMs) current = step;
  return current;
}

/** The next change after `nowMs`, if any is left. */
export function nextStep(plan: LifecyclePlan, nowMs: number): Step | undefined {
  return schedule(plan).find((step) => step.at > nowMs);
}

/** The states entered after `afterMs` up to and including `nowMs`, in order. */
export function stepsBetween(plan: LifecyclePlan, afterMs: number, nowMs: number): Step[] {
  return schedule(plan).filter((step) => step.at > afterMs && step.at <= nowMs);
}

/** What an underpaid payment receives: 90 % of the pay amount, rounded down at `decimals` places (or the amount's own). */
export function underpaidAmount(payAmount: string, decimals: number): string {
  const scale = Math.max(decimals, fractionDigits(payAmount));
  return fromBaseUnits((toBaseUnits(payAmount, scale) * UNDERPAID_NUMERATOR) / UNDERPAID_DENOMINATOR, scale);
}

/** The amount received in `status`: the transaction's amount once seen, "0" before (or when it failed, or never came). */
export function receivedIn(status: PaymentState, outcome: Outcome, payAmount: string, decimals: number): string {
  switch (status) {
    case 'confirming':
      return outcome === 'underpaid' ? underpaidAmount(payAmount, decimals) : payAmount;
    case 'paid':
    case 'refunded':
      return payAmount;
    case 'underpaid':
      return underpaidAmount(payAmount, decimals);
    default:
      return '0';
  }
}

/** Whether a transaction exists in `status` (it has a txID). */
export function hasTransaction(status: PaymentState): boolean {
  return status === 'confirming' || status === 'paid' || status === 'underpaid' || status === 'failed' || status === 'refunded';
}

/** Whether `status` means the payment was credited (it has a payDate). */
export function isCredited(status: PaymentState): boolean {
  return status === 'paid' || status === 'underpaid';
}
