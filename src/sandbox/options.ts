// Types and constants of the sandbox's public API. Nothing here does work at import time, so the
// CLI can import it eagerly; the server itself is loaded only by startSandbox().
import type { DeliveryOptions } from './notify.js';
import path from 'node:path';
import type { SandboxGateway } from './gateway.js';
import type { InMemoryDispatcher } from './in-memory.js';

/** Seconds from a payment's creation to its final state by default, and its bounds (lifecycle.ts). */
export { DEFAULT_SETTLE_SECONDS, SETTLE_SECONDS } from './lifecycle.js';

export const SANDBOX_MERCHANT_KEY = 'sandbox-merchant-key';
export const SANDBOX_PAYOUT_KEY = 'sandbox-payout-key';
/** The versioned API's general key (balance and rate under /v1/general), in the `general_api_key` header. */
export const SANDBOX_GENERAL_KEY = 'sandbox-general-key';

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (an ephemeral port). */
  port?: number;
  /**
   * false: no HTTP server at all, for a `--sandbox` run that ends as soon as its output is written
   * (nothing could reach a port before then). It answers only in memory (`dispatcher`), `url` is
   * http://in-memory.sandbox.invalid, and its answers carry no link into it: QR code and payment
   * page links are "". Default true.
   */
  listen?: boolean;
  /** Merchant API key the sandbox accepts; default SANDBOX_MERCHANT_KEY. */
  merchantKey?: string;
  /** Payout API key the sandbox accepts; default SANDBOX_PAYOUT_KEY. */
  payoutKey?: string;
  /** General API key the sandbox accepts on the versioned API; default SANDBOX_GENERAL_KEY. */
  generalKey?: string;
  /** Clock in milliseconds, for tests; default Date.now. */
  now?: () => number;
  /** How payment notifications are delivered (retry schedule, hosts, log); see notify.ts. */
  notifications?: DeliveryOptions;
  /** Seconds from a payment's creation to its final state (lifecycle.ts); default 10. */
  settleSeconds?: number;
  /**
   * File that records the payments created (track id and order id), so that a later process finds
   * them by order id (journal.ts). None by default; `--sandbox` runs use the user's state folder.
   */
  journal?: string;
  /** Told, one line each, what the journal did that a user should know (older entries removed, an entry not written). */
  journalNotice?: (line: string) => void;
  /**
   * Serve HTTPS instead of HTTP (`gw sandbox --tls`), with a certificate made at start for
   * 127.0.0.1, ::1 and localhost, signed by a CA made for this run whose PEM goes to `caFile`
   * (tls.ts). None by default.
   */
  tls?: { caFile: string };
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:43121 (https:// with `tls`; no trailing slash; IPv6 hosts bracketed); http://in-memory.sandbox.invalid with `listen: false`. */
  url: string;
  /** With `tls`: the file holding the CA certificate (PEM) a client must trust. */
  caFile?: string;
  merchantKey: string;
  payoutKey: string;
  generalKey: string;
  /** The operations behind the HTTP surface: payment change events, setState(). */
  gateway: SandboxGateway;
  /** Whether this sandbox serves an operation (by its name in src/operations: "payment information"). */
  serves(operation: string): boolean;
  /** The same answers in memory, for a transport in this process (the transport's Exchanger, src/gateway/http1.ts). */
  dispatcher: InMemoryDispatcher;
  /** Stops listening and closes every connection, idle keep-alive ones included, and stops every lifecycle timer. Idempotent. */
  close(): Promise<void>;
}

/**
 * Where `--sandbox` runs record their payments for later processes (journal.ts):
 * $XDG_STATE_HOME/gateway/sandbox-payments.jsonl, else ~/.local/state/gateway/sandbox-payments.jsonl.
 */
export function sandboxJournalPath(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const xdg = env.XDG_STATE_HOME;
  const state = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state');
  return path.join(state, 'gateway', 'sandbox-payments.jsonl');
}
