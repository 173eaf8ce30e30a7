// Applying the lifecycle (lifecycle.ts: the rules) to the payments: each payment's state now, its
// transactions, and every change emitted on `events` (events.ts) when it happens. A timer (unref'd,
// cleared by close()) is set for each payment's next transition, and every inquiry or list brings
// the emitted state up to date first (current()), so listeners hear each transition once and in
// order even when a timer is late. setState() forces a state (`gw sandbox trigger`).

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizeStatus } from '../domain/payment-status.js';
import { multiplyRounded } from '../money/decimal.js';
import type { NotificationTx } from '../notifications/payload.js';
import type { PaymentRecord } from '../operations/payment-info.js';
import { deriveSandboxAddress } from './addresses.js';
import { SandboxEvents, type PaymentSnapshot } from './events.js';
import {
  creditedAt,
  forcedStep,
  nextStep,
  partOf,
  receivedOf,
  stateAt,
  stepsBetween,
  type PlannedTx,
  type SandboxStatus,
  type Step,
  type TriggerState,
} from './lifecycle.js';
import { SANDBOX_OFFERINGS } from './offerings.js';
import { displayDecimals, exchangeRate } from './prices.js';
import { planOf, type Offering, type SandboxPayment } from './store.js';

/** What the lifecycles need of the gateway's configuration. */
export interface LifecycleClock {
  /** Current time in milliseconds. */
  now: () => number;
  /** Runs `fn` after `ms` and returns a cancel function; default an unref'd setTimeout. */
  schedule?: (ms: number, fn: () => void) => () => void;
}

const defaultSchedule = (ms: number, fn: () => void): (() => void) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A made-up transaction hash, fixed per payment and transaction (hex, 64 digits; the first as it always was). */
function sandboxTxId(trackId: string, n = 0): string {
  return bytesToHex(sha256(utf8ToBytes(n === 0 ? `gw-sandbox-tx\u0000${trackId}` : `gw-sandbox-tx\u0000${trackId}\u0000${n}`)));
}

/** Confirmations a transaction shows: one while confirming, then a dozen (none for a failed one). */
export const CONFIRMATIONS: Readonly<Record<PlannedTx['state'], number>> = { confirming: 1, confirmed: 12, failed: 0 };

/** The coin a mixed payment's second transaction is in: BTC, or ETH when the payment is in BTC. */
function secondOffering(payCurrency: string): Offering {
  return SANDBOX_OFFERINGS.find((o) => o.payCurrency === (payCurrency === 'BTC' ? 'ETH' : 'BTC')) as Offering;
}

interface LiveLifecycle {
  /** The last state emitted, and when the payment entered it (Unix ms). */
  last: SandboxStatus;
  lastAt: number;
  /** Cancels the timer set for the next transition. */
  cancel: (() => void) | undefined;
}

/** The lifecycles of the sandbox's payments: their states, transactions and emitted changes. */
export class PaymentLifecycles {
  /** Every change of a payment created here, creation included (events.ts). */
  readonly events = new SandboxEvents();
  /** Lifecycles of the payments created here, for emitting their changes. */
  private readonly live = new Map<string, LiveLifecycle>();
  /** States forced by setState(), by track id. */
  private readonly forced = new Map<string, Step>();

  constructor(private readonly config: LifecycleClock) {}

  /**
   * Forces `payment` (track id `trackId`) into `state` now: the change is emitted, and the payment
   * stays in that state, its planned lifecycle ended, until forced again.
   */
  setState(trackId: string, payment: SandboxPayment, state: TriggerState): PaymentSnapshot {
    const previous = this.current(payment).status;
    const now = this.config.now();
    const step = forcedStep(planOf(payment), state, now);
    this.forced.set(trackId, step);
    const live = this.live.get(trackId);
    if (live !== undefined) {
      live.cancel?.();
      live.cancel = undefined;
      live.last = step.status;
      live.lastAt = now;
    }
    const snapshot = this.snapshot(payment, step);
    this.events.emit({ payment: snapshot, previous, at: now });
    return snapshot;
  }

  /** The payment's state now; emits the changes a late timer has not emitted yet. */
  current(payment: SandboxPayment): Step {
    this.advance(payment);
    return this.forced.get(payment.trackId) ?? stateAt(planOf(payment), this.config.now());
  }

  /** Starts a new payment's lifecycle: its creation is emitted, then every transition when due. */
  start(payment: SandboxPayment): void {
    const now = this.config.now();
    const first = stateAt(planOf(payment), now);
    this.live.set(payment.trackId, { last: first.status, lastAt: first.at, cancel: undefined });
    this.events.emit({ payment: this.snapshot(payment, first), previous: undefined, at: now });
    this.advance(payment);
  }

  /** Emits every transition due by now, in order, then sets a timer for the next one. */
  advance(payment: SandboxPayment): void {
    const live = this.live.get(payment.trackId);
    if (live === undefined || this.forced.has(payment.trackId)) return;
    const plan = planOf(payment);
    const now = this.config.now();
    for (const step of stepsBetween(plan, live.lastAt, now)) {
      const previous = live.last;
      live.last = step.status;
      live.lastAt = step.at;
      this.events.emit({ payment: this.snapshot(payment, step), previous, at: step.at });
    }
    live.cancel?.();
    live.cancel = undefined;
    const next = nextStep(plan, now);
    if (next !== undefined) {
      const schedule = this.config.schedule ?? defaultSchedule;
      live.cancel = schedule(Math.max(1, next.at - now), () => {
        live.cancel = undefined;
        if (this.live.get(payment.trackId) === live) this.advance(payment);
      });
    }
  }

  /** The payment in `step`, as notifications carry it. */
  snapshot(payment: SandboxPayment, step: Step): PaymentSnapshot {
    const plan = planOf(payment);
    const decimals = displayDecimals(payment.payCurrency);
    const txs = step.txs.map((t) => this.transaction(payment, t));
    const credited = creditedAt(plan, step);
    // A payment link has no coin, pay amount or address until its payer chooses (docs/gateway.md §10).
    const unchosen = payment.link !== undefined && step.status === 'new';
    return {
      trackId: payment.trackId,
      kind: payment.kind,
      status: normalizeStatus(step.status),
      gatewayStatus: step.status,
      amount: payment.amount,
      currency: payment.currency,
      payAmount: unchosen ? '' : payment.payAmount,
      payCurrency: unchosen ? '' : payment.payCurrency,
      network: unchosen ? '' : payment.network,
      address: unchosen ? '' : payment.address,
      receivedAmount: receivedOf(step.txs, payment.payAmount, decimals),
      txID: txs.at(-1)?.txHash ?? '',
      txs,
      mixedPayment: new Set(txs.map((t) => t.currency)).size > 1,
      callbackUrl: payment.callbackUrl,
      description: payment.description,
      email: payment.email,
      orderId: payment.orderId,
      feePaidByPayer: payment.feePaidByPayer,
      underPaidCover: payment.underPaidCover,
      lifeTime: payment.lifeTime,
      createdAt: payment.createdAt,
      expiredAt: payment.expiredAt,
      payDate: credited === undefined ? 0 : Math.floor(credited / 1000),
      api: payment.api,
    };
  }

  /** One transaction of the payment: its amount in its own coin, on its network, to its address. */
  transaction(payment: SandboxPayment, t: PlannedTx): NotificationTx {
    const inPay = partOf(t.part, payment.payAmount, displayDecimals(payment.payCurrency));
    let coin = { currency: payment.payCurrency, network: payment.network, address: payment.address, amount: inPay };
    if (t.coin === 'second') {
      const second = secondOffering(payment.payCurrency);
      const rate = exchangeRate(payment.payCurrency, second.payCurrency) ?? '0';
      coin = {
        currency: second.payCurrency,
        network: second.network,
        address: deriveSandboxAddress(second.networkId, `${payment.trackId}/second`),
        amount: multiplyRounded(inPay, rate, displayDecimals(second.payCurrency)),
      };
    }
    return {
      txHash: sandboxTxId(payment.trackId, t.n),
      ...coin,
      confirmations: CONFIRMATIONS[t.state],
      status: t.state,
      date: Math.floor(t.seenAt / 1000),
    };
  }

  /**
   * The payment in `step` as an answer describes it, in canonical names: every transaction
   * (`txs`), the latest one's hash (`txID`, what the legacy inquiry names) and what arrived in the
   * pay currency (`receivedAmount`). Each API's codec writes what its answer has of it.
   */
  record(payment: SandboxPayment, step: Step): PaymentRecord {
    const s = this.snapshot(payment, step);
    return {
      trackId: s.trackId,
      kind: payment.kind,
      status: s.status,
      amount: s.amount,
      currency: s.currency,
      payAmount: s.payAmount,
      payCurrency: s.payCurrency,
      network: s.network,
      address: s.address,
      txID: s.txID,
      email: s.email,
      orderId: s.orderId,
      description: s.description,
      callbackUrl: s.callbackUrl,
      feePaidByPayer: s.feePaidByPayer,
      underPaidCover: s.underPaidCover,
      lifeTime: s.lifeTime,
      date: s.createdAt,
      payDate: s.payDate,
      expiredAt: s.expiredAt,
      receivedAmount: s.receivedAmount,
      mixedPayment: s.mixedPayment,
      returnUrl: payment.link?.returnUrl ?? '',
      thanksMessage: payment.link?.thanksMessage ?? '',
      txs: (s.txs ?? []).map((t) => ({
        txID: t.txHash,
        amount: t.amount,
        currency: t.currency,
        network: t.network,
        address: t.address,
        status: t.status,
        confirmations: t.confirmations,
        date: t.date,
      })),
    };
  }

  /** Stops every lifecycle timer; no change is emitted after this. */
  close(): void {
    for (const live of this.live.values()) live.cancel?.();
    this.live.clear();
  }
}
