// What the sandbox tells the rest of itself when a payment changes: its lifecycle (states on a
// compressed clock) emits one change per transition, creation included; notification delivery
// listens. A listener never changes the payment and never throws into the lifecycle.
import type { NotificationPayment } from '../notifications/payload.js';
import type { PaymentKind } from '../operations/payment-info.js';
import type { SandboxStatus } from './lifecycle.js';

/** A payment as it stands at one change: what a notification about it carries, and where it goes. */
export interface PaymentSnapshot extends NotificationPayment {
  /** What sort of payment it is (its notifications' `type`); absent: white-label. */
  kind?: PaymentKind;
  callbackUrl: string;
  lifeTime: number;
  /** Unix seconds. */
  expiredAt: number;
  /**
   * Which API created the payment: it decides the style of its notifications (legacy camelCase
   * bodies, or the versioned API's snake_case ones). Absent: legacy.
   */
  api?: 'legacy' | 'v1';
  /** The gateway's word for the status (`status` is gw's reading of it): what answers and logs say. */
  gatewayStatus: SandboxStatus;
  /** Whether its transactions are in more than one currency (v1 `mixed_payment`). */
  mixedPayment: boolean;
}

export interface PaymentChange {
  payment: PaymentSnapshot;
  /** The state before this change; undefined when the payment was just created. */
  previous: SandboxStatus | undefined;
  /** Unix milliseconds. */
  at: number;
}

export type PaymentListener = (change: PaymentChange) => void;

export class SandboxEvents {
  readonly #listeners = new Set<PaymentListener>();

  /** Subscribes; returns the unsubscribe function. */
  onChange(listener: PaymentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: PaymentChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own: the payment's lifecycle goes on.
      }
    }
  }
}
