// The sandbox delivers payment notifications as the real gateway does (docs/gateway.md §7):
// on every change of a payment with a callbackUrl (creation included) it POSTs the notification
// body — legacy style for payments made through the legacy endpoints, v1 style for the versioned
// API's (PaymentSnapshot.api) — signed with the running sandbox's merchant key exactly as the
// gateway signs (src/notifications/signature.ts), and sends it again when the receiver does not
// answer HTTP 200 `ok`, on a compressed copy of the gateway's schedule.
//
// It is a listener of SandboxEvents (events.ts): it never changes a payment and never throws into
// the lifecycle. Time is a Clock (ManualClock in tests), the HTTP call an injectable poster.
//
// Schedule: the gateway tries up to 5 times, waiting about 1 min, 3 min, 30 min and 3 h between
// tries; the sandbox waits as many seconds (1 s, 3 s, 30 s, 180 s), configurable.
//
// Only loopback receivers (127.0.0.0/8, ::1, localhost) are delivered to unless `deliverAnywhere`.
//
// Each attempt is one POST through gw's one HTTP stack (src/gateway/post.ts): the proxy the
// environment names for the receiver's URL (curl's rules, NO_PROXY included), TLS verified with the
// same advice, `--verbose` lines. The POST itself is never retried; this schedule is the only one.
import { systemClock, type Clock } from '../util/clock.js';
import type { PostResult } from '../gateway/post.js';
import type { ProxyEnv } from '../gateway/proxy.js';
import { isAcknowledged } from '../notifications/acknowledge.js';
import type { Notification } from '../notifications/payload.js';
import { defaultType, type NotificationStyle, type NotificationType } from '../notifications/types.js';
import type { PaymentChange, PaymentSnapshot, SandboxEvents } from './events.js';
import type { SandboxStatus, TriggerState } from './lifecycle.js';
import { payoutsOf, type PayoutChange } from './payouts.js';

/** The sandbox's waits before each retry: the gateway's minutes as seconds. */
export const SANDBOX_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 30_000, 180_000];
/** How long one attempt may take. */
export const SANDBOX_DELIVERY_TIMEOUT_MS = 5_000;

export type Poster = (
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: { timeoutMs: number; signal: AbortSignal },
) => Promise<PostResult>;

export interface DeliveryOptions {
  /** Waits before the 2nd, 3rd… attempt; attempts in all = length + 1. Default SANDBOX_RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
  /** Deliver to any host, not only to this machine. */
  deliverAnywhere?: boolean;
  /**
   * Lose this many notifications on purpose, the next ones to go out (`gw sandbox --drop-notifications`):
   * each is logged `not-sent` and never delivered, as if every attempt had failed. For trying
   * `gw listen --catch-up` and `gw webhook replay`.
   */
  dropNotifications?: number;
  /** Per attempt; default SANDBOX_DELIVERY_TIMEOUT_MS. */
  timeoutMs?: number;
  clock?: Clock;
  post?: Poster;
  /** The environment proxies are read from (curl's variables); none: every receiver directly. */
  proxyEnv?: ProxyEnv;
  /** --verbose: one line per POST (method, URL, status, time, size). */
  httpLog?: (line: string) => void;
  /** One entry per attempt (and per notification not sent), for `gw sandbox` to print. */
  log?: (entry: DeliveryLogEntry) => void;
}

export type DeliveryResult =
  /** HTTP 200 `ok`. */
  | 'acknowledged'
  /** An answer, but not HTTP 200 `ok`. */
  | 'not-acknowledged'
  /** No answer: refused, timed out, reset. */
  | 'failed'
  /** Not sent: the callbackUrl is not on this machine (and deliverAnywhere is off), or not a URL. */
  | 'not-sent';

export interface DeliveryLogEntry {
  /** Unix milliseconds. */
  at: number;
  trackId: string;
  /** The gateway's word for the status the notification is about (a payout's: processing, confirmed…). */
  status: SandboxStatus | string;
  style: Notification['style'];
  type: Notification['type'];
  url: string;
  attempt: number;
  attempts: number;
  result: DeliveryResult;
  httpStatus?: number;
  /** The receiver's answer body (its first bytes): receiver text, print it as Untrusted. */
  answer?: string;
  /** Why nothing was sent, or why there was no answer. */
  error?: string;
  ms?: number;
  /** Wait before the next attempt; undefined when there is none. */
  nextRetryMs?: number;
  /** Sent again on request (gw sandbox resend). */
  resend: boolean;
}

/** What the first attempt of a delivery gave, for the control routes (trigger, resend). */
export type DeliveryOutcome = Omit<DeliveryLogEntry, 'at'>;

/** A notification's exact bytes and their signature. */
interface Signed {
  body: string;
  hmac: string;
}

interface Sent {
  snapshot: PaymentSnapshot;
  style: NotificationStyle;
  type: NotificationType;
  /** Made once the signing modules are loaded (signing()); its rejection is handled where it is awaited. */
  signed: Promise<Signed>;
  /** Settles with the first attempt's outcome (never rejects). */
  first: Promise<DeliveryOutcome>;
}

type SigningModules = [typeof import('../notifications/payload.js'), typeof import('../notifications/signature.js')];
let signingModules: Promise<SigningModules> | undefined;

/**
 * The modules that build and sign a notification, loaded with the first notification to send: they
 * load node:crypto, which a `--sandbox` run whose payments have no callbackUrl never needs.
 * A payment's notifications still go out in the order of its changes (#start).
 */
function signing(): Promise<SigningModules> {
  signingModules ??= Promise.all([import('../notifications/payload.js'), import('../notifications/signature.js')]);
  return signingModules;
}

/** A versioned notification's `type` names the kind of payment (docs/gateway.md §7, §10); the legacy style says `payment` for all. */
const V1_TYPES: Partial<Record<NonNullable<PaymentSnapshot['kind']>, NotificationType>> = {
  invoice: 'invoice',
  'payment-link': 'payment_link',
  'static-address': 'static_address',
  donation: 'donation',
};

function notificationType(snapshot: PaymentSnapshot, style: NotificationStyle): NotificationType {
  return (style === 'v1' && snapshot.kind !== undefined ? V1_TYPES[snapshot.kind] : undefined) ?? defaultType(style);
}

export class NotificationDelivery {
  readonly #merchantKey: string;
  readonly #delays: readonly number[];
  readonly #deliverAnywhere: boolean;
  /** Notifications still to lose on purpose. */
  #dropLeft: number;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #post: Poster;
  readonly #log: (entry: DeliveryLogEntry) => void;
  /** Aborted by close(): no new attempt, no more waiting. */
  readonly #stop = new AbortController();
  /** Aborted once close()'s grace is over: requests still in flight end. */
  readonly #cut = new AbortController();
  /** Deliveries under way (their attempts and waits). */
  readonly #running = new Set<Promise<void>>();
  /** The latest notification of each payment. */
  readonly #latest = new Map<string, Sent>();

  constructor(merchantKey: string, options: DeliveryOptions = {}) {
    this.#merchantKey = merchantKey;
    this.#delays = options.retryDelaysMs ?? SANDBOX_RETRY_DELAYS_MS;
    this.#deliverAnywhere = options.deliverAnywhere === true;
    this.#dropLeft = options.dropNotifications ?? 0;
    this.#timeoutMs = options.timeoutMs ?? SANDBOX_DELIVERY_TIMEOUT_MS;
    this.#clock = options.clock ?? systemClock;
    this.#post = options.post ?? defaultPoster(options.proxyEnv ?? {}, merchantKey, options.httpLog);
    this.#log = options.log ?? (() => undefined);
  }

  /** Delivers on every change `events` emits, and on every change of the same gateway's payouts; returns the unsubscribe function. */
  listen(events: SandboxEvents): () => void {
    const offPayments = events.onChange((change) => this.onChange(change));
    const offPayouts = payoutsOf(events)?.onChange((change) => this.onPayoutChange(change));
    return () => {
      offPayments();
      offPayouts?.();
    };
  }

  /** A payout changed: notify its callback URL, type `payout`, signed with the PAYOUT key (docs/gateway.md §13). */
  onPayoutChange(change: PayoutChange): void {
    if (this.#stop.signal.aborted || change.callbackUrl === '' || change.payoutKey === '') return;
    // What delivery reads of a payment's snapshot: its track id, status word and callback URL.
    const snapshot = { trackId: change.trackId, gatewayStatus: change.status, callbackUrl: change.callbackUrl } as unknown as PaymentSnapshot;
    const signed = signing().then(([, { signBody }]) => ({ body: change.body, hmac: signBody(change.payoutKey, change.body) }));
    this.#start(snapshot, 'v1', 'payout', signed, false);
  }

  /** A change happened: notify the payment's callbackUrl, if it has one. */
  onChange(change: PaymentChange): void {
    const snapshot = change.payment;
    if (this.#stop.signal.aborted || snapshot.callbackUrl === '') return;
    const style = snapshot.api ?? 'legacy';
    const type = notificationType(snapshot, style);
    // Payment notifications (every type but payout) are signed with the merchant key.
    const signed = signing().then(([{ buildNotification }, { signBody }]) => {
      const { body } = buildNotification(snapshot, style, type);
      return { body, hmac: signBody(this.#merchantKey, body) };
    });
    this.#start(snapshot, style, type, signed, false);
  }

  /** Sends the payment's latest notification again (same bytes, same signature); undefined when none was sent. */
  resend(trackId: string): Promise<DeliveryOutcome> | undefined {
    const last = this.#latest.get(trackId);
    if (last === undefined || this.#stop.signal.aborted) return undefined;
    return this.#start(last.snapshot, last.style, last.type, last.signed, true).first;
  }

  /** The first attempt of the payment's latest notification; undefined when there is none. */
  latest(trackId: string): Promise<DeliveryOutcome> | undefined {
    return this.#latest.get(trackId)?.first;
  }

  /**
   * Stops: no further attempt starts and waits between attempts end now; requests already on the
   * wire get up to `graceMs` to be answered (so a one-command `--sandbox` run still delivers the
   * notification its payment caused), then are cut.
   */
  async close(graceMs = 0): Promise<void> {
    this.#stop.abort();
    if (this.#running.size > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...this.#running]), grace]);
      clearTimeout(timer);
    }
    this.#cut.abort();
    await Promise.allSettled([...this.#running]);
  }

  #start(snapshot: PaymentSnapshot, style: NotificationStyle, type: NotificationType, signed: Promise<Signed>, resend: boolean): Sent {
    // One payment's notifications go out in order: this one's first attempt waits for the
    // previous one's (its retries do not hold the next notification back).
    const previous = this.#latest.get(snapshot.trackId)?.first;
    let settleFirst: (outcome: DeliveryOutcome) => void = () => undefined;
    const first = new Promise<DeliveryOutcome>((resolve) => (settleFirst = resolve));
    // Awaited in #deliver; a notification not sent (below) never awaits it.
    signed.catch(() => undefined);
    const sent: Sent = { snapshot, style, type, signed, first };
    this.#latest.set(snapshot.trackId, sent);
    const running = this.#deliver(sent, resend, previous, settleFirst).catch(() => undefined);
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
    return sent;
  }

  async #deliver(sent: Sent, resend: boolean, previous: Promise<unknown> | undefined, settleFirst: (o: DeliveryOutcome) => void): Promise<void> {
    const { snapshot } = sent;
    const attempts = this.#delays.length + 1;
    const base = {
      trackId: snapshot.trackId,
      status: snapshot.gatewayStatus,
      style: sent.style,
      type: sent.type,
      url: snapshot.callbackUrl,
      attempts,
      resend,
    };
    const report = (entry: DeliveryOutcome): void => {
      try {
        this.#log({ at: this.#clock.now(), ...entry });
      } catch {
        // Logging is the caller's business.
      }
    };
    let url: URL;
    try {
      url = new URL(snapshot.callbackUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    } catch {
      const outcome: DeliveryOutcome = { ...base, attempt: 0, result: 'not-sent', error: 'the callbackUrl is not an http(s) URL' };
      report(outcome);
      return settleFirst(outcome);
    }
    if (!this.#deliverAnywhere && !isLoopbackUrl(url)) {
      const outcome: DeliveryOutcome = {
        ...base,
        attempt: 0,
        result: 'not-sent',
        error: `${url.host} is not this machine: the sandbox delivers only to loopback addresses (gw sandbox --deliver-anywhere to allow others)`,
      };
      report(outcome);
      return settleFirst(outcome);
    }
    if (this.#dropLeft > 0) {
      this.#dropLeft--;
      const outcome: DeliveryOutcome = { ...base, attempt: 0, result: 'not-sent', error: 'dropped on purpose (--drop-notifications)' };
      report(outcome);
      return settleFirst(outcome);
    }
    let signed: Signed;
    let header: string;
    try {
      [signed, [, { SIGNATURE_HEADER_NAME: header }]] = await Promise.all([sent.signed, signing()]);
    } catch {
      const outcome: DeliveryOutcome = { ...base, attempt: 0, result: 'not-sent', error: 'the notification could not be made' };
      report(outcome);
      return settleFirst(outcome);
    }
    if (previous !== undefined) await previous;
    const signal = this.#stop.signal;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        try {
          await this.#clock.sleep(this.#delays[attempt - 2] ?? 0, signal);
        } catch {
          return; // closed
        }
      }
      // A notification with none before it goes out as the change happens: close() just after the
      // change (a `--sandbox` run ending) still gives it the grace, even while it was being signed.
      if (signal.aborted && (attempt > 1 || previous !== undefined)) break;
      let result: PostResult;
      try {
        result = await this.#post(
          url,
          signed.body,
          { 'content-type': 'application/json', [header]: signed.hmac, 'user-agent': 'gw-sandbox' },
          { timeoutMs: this.#timeoutMs, signal: this.#cut.signal },
        );
      } catch {
        result = { ok: false, kind: 'failed', message: 'the request could not be made', ms: 0 };
      }
      if (!result.ok && result.kind === 'aborted') break;
      const acknowledged = result.ok && isAcknowledged(result.status, result.body);
      const nextRetryMs = acknowledged || attempt === attempts || signal.aborted ? undefined : this.#delays[attempt - 1];
      const outcome: DeliveryOutcome = {
        ...base,
        attempt,
        result: acknowledged ? 'acknowledged' : result.ok ? 'not-acknowledged' : 'failed',
        ms: result.ms,
        ...(result.ok ? { httpStatus: result.status, answer: result.body.slice(0, 200) } : { error: result.message }),
        ...(nextRetryMs !== undefined && { nextRetryMs }),
      };
      report(outcome);
      if (attempt === 1) settleFirst(outcome);
      if (acknowledged) return;
    }
    settleFirst({ ...base, attempt: 0, result: 'failed', error: 'the sandbox stopped' });
  }
}

/** POSTs through gw's one HTTP stack, with the proxy the environment names for each receiver's URL. */
function defaultPoster(env: ProxyEnv, merchantKey: string, log: ((line: string) => void) | undefined): Poster {
  return async (url, body, headers, o) => {
    const [{ postBytes }, { proxyFor }] = await Promise.all([import('../gateway/post.js'), import('../gateway/proxy.js')]);
    let proxy: ReturnType<typeof proxyFor>;
    try {
      proxy = proxyFor(url, env);
    } catch (error) {
      // A proxy variable gw cannot use: this attempt fails, saying why (nothing was sent).
      return { ok: false, kind: 'failed', message: error instanceof Error ? error.message : 'the proxy cannot be used', ms: 0 };
    }
    return postBytes(url, body, headers, { ...o, ...(proxy && { proxy }), ...(log && { log }), secrets: [merchantKey] });
  };
}

/** Whether the URL's host is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === 'localhost.') return true;
  if (host === '::1') return true;
  // IPv4-mapped 127.x.y.z, as the URL parser writes it (::ffff:7f00:1).
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

// ---------------------------------------------------------------------------------------------
// What the control routes (control-routes.ts) reach through the gateway object

/** Moves a payment to a state now, emitting its change; undefined when there is no such payment. */
export interface SandboxControl {
  setState(trackId: string, state: TriggerState): PaymentSnapshot | undefined;
}

export interface SandboxNotifications {
  delivery: NotificationDelivery;
  control: SandboxControl;
  /** The key the control routes require. */
  merchantKey: string;
}

const registry = new WeakMap<object, SandboxNotifications>();

/** Makes `notifications` reachable from the routes, which receive only the gateway object. */
export function attachNotifications(gateway: object, notifications: SandboxNotifications): void {
  registry.set(gateway, notifications);
}

export function notificationsOf(gateway: object): SandboxNotifications | undefined {
  return registry.get(gateway);
}
