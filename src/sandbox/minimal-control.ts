// STAND-IN until the sandbox payment lifecycle lands: the smallest SandboxControl (notify.ts) that
// lets `gw sandbox trigger` move a payment to a state. It only records the payment's state beside
// the gateway (which stores none yet) and emits the change on the gateway's events; it knows
// nothing of clocks, expiry or inquiry. The lifecycle replaces it with its own implementation of
// SandboxControl (one line in server.ts) and this file goes away.
import type { PaymentState } from '../domain/payment-status.js';
import { multiplyRounded, fractionDigits } from '../money/decimal.js';
import { fakeTxId } from '../notifications/payload.js';
import type { PaymentSnapshot, SandboxEvents } from './events.js';
import type { SandboxPayment } from './gateway.js';
import type { SandboxControl } from './notify.js';
import { snapshotOf } from './snapshot.js';

interface Gateway {
  readonly events: SandboxEvents;
  payment(trackId: string): SandboxPayment | undefined;
}

export class MinimalControl implements SandboxControl {
  /** The latest snapshot of each payment, as the events said. */
  readonly #latest = new Map<string, PaymentSnapshot>();

  constructor(
    private readonly gateway: Gateway,
    private readonly now: () => number,
  ) {
    gateway.events.onChange((change) => this.#latest.set(change.payment.trackId, change.payment));
  }

  setState(trackId: string, state: PaymentState): PaymentSnapshot | undefined {
    const payment = this.gateway.payment(trackId);
    if (payment === undefined) return undefined;
    const current = this.#latest.get(trackId) ?? snapshotOf(payment, 'waiting');
    const seen = state === 'confirming' || state === 'paid' || state === 'underpaid' || state === 'refunded';
    const received = !seen ? '0' : state === 'underpaid' ? multiplyRounded(payment.payAmount, '0.5', fractionDigits(payment.payAmount) + 1) : payment.payAmount;
    const paid = state === 'paid' || state === 'underpaid' || state === 'refunded';
    const next: PaymentSnapshot = {
      ...current,
      status: state,
      receivedAmount: received,
      txID: seen ? fakeTxId(trackId) : '',
      payDate: paid ? current.payDate || Math.floor(this.now() / 1000) : 0,
    };
    this.gateway.events.emit({ payment: next, previous: current.status, at: this.now() });
    return next;
  }
}
