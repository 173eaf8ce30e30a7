// How a wait for a payment ended: the value src/cmdutil/wait.ts's waitForPayment returns and
// pay-view.ts's showEnding draws. Here, below the wait, so that drawing it needs nothing of the
// commands' helpers (wait.ts re-exports it).
import type { GwError } from '../errors.js';
import type { PaymentInfo } from '../gateway/gateway.js';

export type WaitEnding =
  /** The gateway reported a final state. */
  | { kind: 'final'; info: PaymentInfo }
  /** --wait-timeout passed (`timeout`), or the expiry plus the grace with no transaction seen (`expiry`). */
  | { kind: 'gave-up'; reason: 'timeout' | 'expiry'; info: PaymentInfo | undefined }
  /** Ctrl-C or SIGTERM: `reason` carries the exit code (130, 143). */
  | { kind: 'interrupted'; reason: GwError; info: PaymentInfo | undefined };
