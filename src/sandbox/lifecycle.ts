// The sandbox's rules for how a payment's state changes, in ONE place and pure: given what the
// payment is (its plan) and a time, its state and the transactions seen by then. The running
// sandbox (live.ts) asks this module for the state on every inquiry and list, and for the next
// transition to set a timer for it, so the state an answer shows and the changes notification
// delivery hears about always agree.
//
// The rules (docs/sandbox.md, "A payment's life"), on a compressed clock of `settleSeconds` S (10 by default,
// `gw sandbox --settle`; never past the payment's lifetime): a white-label payment starts
// `waiting` (the payer's currency is chosen when it is created), and its order id chooses, by its
// ending (case-insensitively), what happens next. Times are shares of S after creation:
//
// | order id ends in | what happens                                                                    |
// |------------------|---------------------------------------------------------------------------------|
// | (anything else)  | 0.4 `confirming` (the full amount seen) → 1 `paid`                              |
// | `-underpay`      | 0.4 `confirming` (90 % seen) → 1 `underpaid`                                    |
// | `-fail`          | 0.4 `confirming` → 1 `failed` (the transaction failed)                          |
// | `-expire`        | 1 `expired`, nothing received (its expiry is moved to S)                       |
// | `-late`          | 0.5 `expired`, nothing received (its expiry is moved there) → 1 still `expired`, |
// |                  | the full amount received after the expiry (listed in its transactions)          |
// | `-partial`       | 0.3 `confirming` (50 % seen) → 0.6 `confirming` (a second transaction, 40 %) →  |
// |                  | 1 `underpaid` at its expiry (moved to S): two transactions, 90 % in all         |
// | `-mixed`         | 0.3 `confirming` (50 % in the pay currency) → 0.6 `confirming` (the rest in a   |
// |                  | second coin) → 1 `paid`: two transactions in two currencies                    |
// | `-refund`        | 0.2 `confirming` → 0.4 `paid` → 0.7 `refunding` → 1 `refunded`                  |
//
// Amounts are rounded down at the asset's precision (the second part of a mixed payment is what is
// left, converted by the gateway). A transaction is `confirming` the step it is seen, `confirmed`
// from the next one (`failed` for `-fail`). A state forced with SandboxGateway.setState() replaces
// the plan for that payment (see there). Generated order ids (src/cmdutil/order-id.ts) end in four
// characters without i, l, o or u, so they never choose one of these endings.
import { asciiLowerCase } from '../util/ascii.js';
import { fromBaseUnits, fractionDigits, toBaseUnits } from '../money/decimal.js';

/** What the order id chose. Append only: the index is part of every track id issued with it (track-id.ts). */
export const OUTCOMES = ['paid', 'underpaid', 'expired', 'failed', 'late', 'partial', 'mixed', 'refund'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The gateway's statuses as the sandbox says them: the versioned API's words (docs.oxapay.com
 * "Payment Status Table"), but `confirming` for its `paying` (the legacy word), and `failed`, which
 * only the legacy table has. v1Word() and legacyWord() spell them for each API.
 */
export const SANDBOX_STATUSES = ['new', 'waiting', 'confirming', 'paid', 'underpaid', 'expired', 'failed', 'refunding', 'refunded'] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];

/**
 * The states a payment can be moved to (`gw sandbox trigger`, the control route): the sandbox's
 * statuses, and `late`, which is no gateway word: the payment is `expired` with the full amount
 * received after the expiry (listed in its transactions), as the `-late` order ids end.
 */
export const TRIGGER_STATES = ['new', 'waiting', 'confirming', 'paid', 'underpaid', 'expired', 'late', 'failed', 'refunding', 'refunded'] as const;
export type TriggerState = (typeof TRIGGER_STATES)[number];

/** A trigger state from a person or a request, as parseSandboxStatus reads words; undefined for any other. */
export function parseTriggerState(text: string): TriggerState | undefined {
  if (asciiLowerCase(text).replace(/[\s_-]+/g, '') === 'late') return 'late';
  const status = parseSandboxStatus(text);
  return status === 'manual_accept' ? undefined : status;
}

/** Seconds from a payment's creation to its final state, by default. */
export const DEFAULT_SETTLE_SECONDS = 10;
/** Bounds of the settle time (`gw sandbox --settle`). */
export const SETTLE_SECONDS = { min: 1, max: 3600 } as const;

/** Order-id endings that choose the outcome (compared case-insensitively). */
export const OUTCOME_SUFFIXES: ReadonlyArray<readonly [string, Outcome]> = [
  ['-underpay', 'underpaid'],
  ['-expire', 'expired'],
  ['-fail', 'failed'],
  ['-late', 'late'],
  ['-partial', 'partial'],
  ['-mixed', 'mixed'],
  ['-refund', 'refund'],
];

/** The outcome a payment with this order id has: the one its last dash-separated word names, else `paid`. */
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
  /** A payment link's (invoices.ts): the coin is chosen, and the payment proper starts, later than its creation. */
  link?: LinkPlan;
}

/**
 * When a payment link's payer acted (Unix seconds): the link is `new` from `createdAt`, `waiting`
 * once a coin is chosen (`chosenAt`), and follows the plan of its outcome from `startedAt` (the
 * payer paid, or nobody came and it settles on its own) as a payment created then would. Chosen
 * but not started, or not chosen: it waits until `expiresAt`, then expires with nothing received.
 */
export interface LinkPlan {
  chosenAt: number | undefined;
  startedAt: number | undefined;
  expiresAt: number;
}

/**
 * How much of the pay amount a transaction carries: all of it, 90 % (an under-payment), half,
 * the 40 % that makes a partial payment's second transaction, or what half leaves (a mixed
 * payment's second coin).
 */
export type TxPart = 'full' | 'ninety' | 'half' | 'forty' | 'rest';

/** One transaction as the plan has it at a step. */
export interface PlannedTx {
  /** Its index among the payment's transactions (its hash follows from it). */
  n: number;
  part: TxPart;
  /** In the pay currency, or in the second coin of a mixed payment. */
  coin: 'pay' | 'second';
  /** Unix ms when it was seen. */
  seenAt: number;
  state: 'confirming' | 'confirmed' | 'failed';
}

/** A state, when (Unix milliseconds) the payment entered it, and the transactions seen by then. */
export interface Step {
  status: SandboxStatus;
  at: number;
  txs: readonly PlannedTx[];
}

/** Unix seconds at which the payment expires: its lifetime, moved earlier for the outcomes that are about its expiry. */
export function expiresAt(plan: LifecyclePlan): number {
  const link = plan.link;
  if (link !== undefined) {
    // A link expires at its own time, or earlier when the outcome it started with moves the expiry.
    if (link.chosenAt === undefined || link.startedAt === undefined) return link.expiresAt;
    const { link: _link, ...proper } = plan;
    return Math.min(link.expiresAt, expiresAt({ ...proper, createdAt: link.startedAt }));
  }
  const natural = plan.createdAt + plan.lifeTime * 60;
  switch (plan.outcome) {
    case 'expired':
    case 'partial':
      return Math.min(natural, plan.createdAt + plan.settleSeconds);
    case 'late':
      return Math.min(natural, plan.createdAt + Math.max(1, Math.floor(plan.settleSeconds / 2)));
    default:
      return natural;
  }
}

const tx = (n: number, part: TxPart, seenAt: number, state: PlannedTx['state'], coin: PlannedTx['coin'] = 'pay'): PlannedTx => ({
  n,
  part,
  coin,
  seenAt,
  state,
});

/** Every state the payment goes through, in order, with its start time and transactions. */
export function schedule(plan: LifecyclePlan): Step[] {
  if (plan.link !== undefined) return linkSchedule(plan, plan.link);
  const start = plan.createdAt * 1000;
  const settleMs = Math.min(plan.settleSeconds, plan.lifeTime * 60) * 1000;
  const share = (f: number): number => start + Math.round(settleMs * f);
  const end = start + settleMs;
  const waiting: Step = { status: 'waiting', at: start, txs: [] };
  switch (plan.outcome) {
    case 'expired':
      return [waiting, { status: 'expired', at: expiresAt(plan) * 1000, txs: [] }];
    case 'late': {
      const expiry = expiresAt(plan) * 1000;
      const arrives = Math.max(end, expiry + 500);
      return [waiting, { status: 'expired', at: expiry, txs: [] }, { status: 'expired', at: arrives, txs: [tx(0, 'full', arrives, 'confirmed')] }];
    }
    case 'partial':
    case 'mixed': {
      const [t1, t2] = [share(0.3), share(0.6)];
      const second = plan.outcome === 'partial' ? { part: 'forty' as const, coin: 'pay' as const } : { part: 'rest' as const, coin: 'second' as const };
      return [
        waiting,
        { status: 'confirming', at: t1, txs: [tx(0, 'half', t1, 'confirming')] },
        { status: 'confirming', at: t2, txs: [tx(0, 'half', t1, 'confirmed'), tx(1, second.part, t2, 'confirming', second.coin)] },
        {
          status: plan.outcome === 'partial' ? 'underpaid' : 'paid',
          at: end,
          txs: [tx(0, 'half', t1, 'confirmed'), tx(1, second.part, t2, 'confirmed', second.coin)],
        },
      ];
    }
    case 'refund': {
      const seen = share(0.2);
      const confirmed = [tx(0, 'full', seen, 'confirmed')];
      return [
        waiting,
        { status: 'confirming', at: seen, txs: [tx(0, 'full', seen, 'confirming')] },
        { status: 'paid', at: share(0.4), txs: confirmed },
        { status: 'refunding', at: share(0.7), txs: confirmed },
        { status: 'refunded', at: end, txs: confirmed },
      ];
    }
    default: {
      const seen = share(0.4);
      const part: TxPart = plan.outcome === 'underpaid' ? 'ninety' : 'full';
      return [
        waiting,
        { status: 'confirming', at: seen, txs: [tx(0, part, seen, 'confirming')] },
        { status: plan.outcome, at: end, txs: [tx(0, part, seen, plan.outcome === 'failed' ? 'failed' : 'confirmed')] },
      ];
    }
  }
}

/** A payment link's states: `new`, `waiting` once a coin is chosen, then its outcome's plan from when it started (or its expiry). */
function linkSchedule(plan: LifecyclePlan, link: LinkPlan): Step[] {
  const steps: Step[] = [{ status: 'new', at: plan.createdAt * 1000, txs: [] }];
  if (link.chosenAt !== undefined) steps.push({ status: 'waiting', at: link.chosenAt * 1000, txs: [] });
  if (link.chosenAt === undefined || link.startedAt === undefined) return [...steps, { status: 'expired', at: link.expiresAt * 1000, txs: [] }];
  const { link: _link, ...proper } = plan;
  return [...steps, ...schedule({ ...proper, createdAt: link.startedAt }).filter((s) => s.status !== 'waiting')];
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

/** The changes after `afterMs` up to and including `nowMs`, in order. */
export function stepsBetween(plan: LifecyclePlan, afterMs: number, nowMs: number): Step[] {
  return schedule(plan).filter((step) => step.at > afterMs && step.at <= nowMs);
}

/** When (Unix ms) the payment was credited by `step` (paid or underpaid; still so while refunding), or undefined. */
export function creditedAt(plan: LifecyclePlan, step: Step): number | undefined {
  if (step.status === 'paid' || step.status === 'underpaid') return step.at;
  if (step.status !== 'refunding' && step.status !== 'refunded') return undefined;
  return schedule(plan).find((s) => s.status === 'paid' && s.at <= step.at)?.at;
}

/**
 * A state forced now (SandboxGateway.setState), with transactions where the state has them: those
 * the plan had seen by then, else one of the full amount (90 % when forced underpaid), all
 * `confirming` when forced confirming, `failed` when failed, else `confirmed`. New, waiting and
 * expired have none.
 */
export function forcedStep(plan: LifecyclePlan, status: TriggerState, at: number): Step {
  if (status === 'late') return { status: 'expired', at, txs: [tx(0, 'full', at, 'confirmed')] };
  if (status === 'new' || status === 'waiting' || status === 'expired') return { status, at, txs: [] };
  const planned = stateAt(plan, at).txs;
  const short = status === 'underpaid' || plan.outcome === 'underpaid';
  const base = planned.length > 0 && !(status === 'underpaid' && plan.outcome !== 'partial') ? planned : [tx(0, short ? 'ninety' : 'full', at, 'confirming')];
  const state: PlannedTx['state'] = status === 'confirming' ? 'confirming' : status === 'failed' ? 'failed' : 'confirmed';
  return { status, at, txs: base.map((t) => ({ ...t, state })) };
}

/** What a part of `payAmount` is, rounded down at `decimals` places (or the amount's own, if more). */
export function partOf(part: TxPart, payAmount: string, decimals: number): string {
  const scale = Math.max(decimals, fractionDigits(payAmount));
  const units = toBaseUnits(payAmount, scale);
  const half = units / 2n;
  const ninety = (units * 9n) / 10n;
  const value = { full: units, ninety, half, forty: ninety - half, rest: units - half }[part];
  return fromBaseUnits(value, scale);
}

/** What an underpaid payment receives: 90 % of the pay amount, rounded down at `decimals` places (or the amount's own). */
export function underpaidAmount(payAmount: string, decimals: number): string {
  return partOf('ninety', payAmount, decimals);
}

/** The sum received by `txs` in the pay currency (failed ones count nothing; a second coin counts as its part). */
export function receivedOf(txs: readonly PlannedTx[], payAmount: string, decimals: number): string {
  const scale = Math.max(decimals, fractionDigits(payAmount));
  let units = 0n;
  for (const t of txs) if (t.state !== 'failed') units += toBaseUnits(partOf(t.part, payAmount, decimals), scale);
  return units === 0n ? '0' : fromBaseUnits(units, scale);
}

/** The status in the versioned API's spelling (`paying` for confirming). */
export function v1Word(status: SandboxStatus): string {
  return status === 'confirming' ? 'paying' : status;
}

/** The status in the legacy spelling: capitalised (`Confirming`, `Paid`, `Refunding`…). */
export function legacyWord(status: SandboxStatus): string {
  return `${status.charAt(0).toUpperCase()}${status.slice(1)}`;
}

/**
 * A status word from either API or a person (case, spaces, dashes and underscores ignored;
 * `paying` is confirming), or undefined when the sandbox has no such status. `manual_accept` is a
 * gateway status the sandbox never reaches: it is returned as such, so a filter for it matches none.
 */
export function parseSandboxStatus(text: string): SandboxStatus | 'manual_accept' | undefined {
  const key = asciiLowerCase(text).replace(/[\s_-]+/g, '');
  if (key === 'paying') return 'confirming';
  if (key === 'manualaccept') return 'manual_accept';
  return (SANDBOX_STATUSES as readonly string[]).includes(key) ? (key as SandboxStatus) : undefined;
}
