// Catching up, as `gw listen --catch-up` (on start) and `gw webhook replay` do it: read the payment
// history of the window (src/gateway/history.ts), find each payment whose current state the
// receiver has not seen (src/notifications/catch-up.ts), and deliver it: relayed to --forward-to
// in the gateway's body format, signed with the merchant key, marked `X-Gw-Recovered: 1` with its
// `X-Gw-Event-Id`, and recorded on the output (`"recovered": true`). An event is remembered
// (./catch-up-state.ts) only once a delivery carried its body: recorded with the body (--json) or,
// with --forward-to, answered 2xx. What was not is tried again by the next run (at least once);
// what was is never sent again. A preview (gw webhook replay's text lines, which carry no body)
// remembers nothing and leaves the state as it was.
import { ConfigError, ExitCode, GwError } from '../errors.js';
import type { GatewayClient, PaymentInfo } from '../gateway/gateway.js';
import { listPayments } from '../gateway/history.js';
import type { ProxyConfig } from '../gateway/proxy.js';
import {
  eventId,
  type MissedEvent,
  missedEvents,
  missedPayoutEvents,
  payoutEventId,
  type RecoveredNotification,
  recoveredNotification,
} from '../notifications/catch-up.js';
import { forEachPayout } from '../gateway/payout-pages.js';
import type { Payout } from '../operations/payout-info.js';
import type { NotificationStyle } from '../notifications/types.js';
import type { IOStreams } from '../output/iostreams.js';
import { toJson } from '../output/json.js';
import { Untrusted } from '../output/untrusted.js';
import { notificationArrival } from '../domain/notification-arrival.js';
import type { Receipt } from '../notifications/listener.js';
import { CATCH_UP_LOOKBACK_S, type CatchUpState, catchUpStatePath, loadCatchUpState, saveCatchUpState } from './catch-up-state.js';
import type { Factory } from './factory.js';
import { configuredKeys } from './notifications.js';

export interface CatchUpOptions {
  io: IOStreams;
  gateway: GatewayClient;
  /** The body style the gateway uses for this account's payments: the configured API's. */
  style: NotificationStyle;
  merchantKey: string;
  /** Signs recovered payout notifications; without it payouts are not caught up (one line says so). */
  payoutKey?: string;
  /** The window: payments created from `since` (to `until`, default now). */
  since: Date;
  until?: Date;
  state: CatchUpState;
  statePath: string;
  now: () => number;
  forward?: { url: URL; timeoutMs: number; proxy?: ProxyConfig; log?: (line: string) => void; secrets?: readonly string[] };
  /** Writes one output record; resolves once it was taken (gw listen: its batched, confirmed writer). */
  record: (line: string) => Promise<void>;
  /** Only remember what the history shows now, delivering nothing (the first run: a baseline). */
  baselineOnly?: boolean;
  /** List what was missed without delivering it (the records carry no body): nothing remembered, the state untouched. */
  preview?: boolean;
}

export interface CatchUpResult {
  missed: number;
  delivered: number;
  /** Not acknowledged: tried again by the next run. */
  failed: number;
  /** The history could not be read whole (one sentence). */
  incomplete?: string;
  /** Whether payouts were caught up too, in words ("payouts included", "payouts not caught up: …"). */
  payoutsNote: string;
}

/** The payouts of the window whose current state was not seen; or why payouts are not caught up. */
async function payoutEventsOf(
  opts: CatchUpOptions,
  until: Date,
  seen: ReadonlySet<string>,
): Promise<{ events: MissedEvent[]; note: string; incomplete?: string }> {
  if (opts.payoutKey === undefined) return { events: [], note: 'payouts not caught up: no payout key is configured (payout notifications are signed with it)' };
  const rows: Payout[] = [];
  try {
    const walk = await forEachPayout(opts.gateway, { from: opts.since, to: until }, (page) => void rows.push(...page), 500);
    const events = missedPayoutEvents(rows, seen);
    return { events, note: walk.incomplete === undefined ? 'payouts included' : `payouts included as far as read: ${walk.incomplete}` };
  } catch (error) {
    // The payout history is not served (the sandbox, or no versioned API): payments only.
    if (error instanceof ConfigError) return { events: [], note: `payouts not caught up: ${error.message}` };
    // Out of time (the payment history may have used it): the payments read are still delivered.
    if (error instanceof GwError && error.exitCode === ExitCode.TEMPFAIL)
      return { events: [], note: `payouts not caught up: ${error.message}`, incomplete: `the payout history could not be read (${error.message})` };
    throw error;
  }
}

/** The whole window of history (every page), the rows kept for the diff. */
async function historyOf(gateway: GatewayClient, since: Date, until: Date): Promise<{ rows: PaymentInfo[]; incomplete?: string }> {
  const listing = await listPayments(gateway, { from: since, to: until, size: 200 }, { all: true, maxPages: 500 });
  if (listing.failure !== undefined) throw listing.failure;
  return { rows: listing.payments, ...(listing.incomplete !== undefined && { incomplete: listing.incomplete }) };
}

function recordLine(
  io: IOStreams,
  n: RecoveredNotification,
  at: number,
  forward: { status?: number; error?: string } | undefined,
  delivered: boolean,
  preview = false,
): string {
  const e = n.event;
  if (io.json) {
    return `${toJson(
      {
        event: 'recovered',
        recovered: true,
        time: new Date(at).toISOString(),
        eventId: e.id,
        trackId: Untrusted.of(e.trackId),
        status: e.state,
        type: n.type,
        style: n.style,
        orderId: e.orderId,
        delivered,
        body: Untrusted.of(n.body),
        forward: forward === undefined ? null : { status: forward.status ?? null, error: forward.error ?? null },
      },
      0,
    )}\n`;
  }
  const d = new Date(at);
  const clock = [d.getHours(), d.getMinutes(), d.getSeconds()].map((x) => String(x).padStart(2, '0')).join(':');
  const order = e.orderId === null ? '' : `  order ${e.orderId.line(40)}`;
  const app =
    forward === undefined
      ? ''
      : forward.status !== undefined
        ? `  → app: HTTP ${forward.status}`
        : `  → app: not taken (${Untrusted.of(forward.error ?? '').line(80)})`;
  return `${clock}  ${(preview ? 'missed' : delivered ? 'recovered' : 'not taken').padEnd(13)}${n.type}  ${Untrusted.of(e.trackId).line(40)}  ${e.state}${order}${app}  event ${e.id}\n`;
}

/** One catch-up run: see the top of this file. Saves the state after each acknowledged event. */
export async function catchUp(opts: CatchUpOptions): Promise<CatchUpResult> {
  const { io, state } = opts;
  const until = opts.until ?? new Date(opts.now());
  const { rows, incomplete } = await historyOf(opts.gateway, opts.since, until);
  const seen = new Set(state.seen.keys());
  const events = missedEvents(rows, seen);
  // Payouts: their history is versioned only and takes the payout key; without it, one line says so.
  const payouts = await payoutEventsOf(opts, until, seen);
  events.push(...payouts.events);
  const unread = [incomplete, payouts.incomplete].filter((s): s is string => s !== undefined).join('; ');
  const result: CatchUpResult = {
    missed: events.length,
    delivered: 0,
    failed: 0,
    payoutsNote: payouts.note,
    ...(unread !== '' && { incomplete: unread }),
  };
  const forgetBefore = Math.floor(opts.since.getTime() / 1000) - CATCH_UP_LOOKBACK_S;
  const remember = (e: MissedEvent): void => {
    state.seen.set(e.id, e.createdAt);
  };
  if (opts.baselineOnly === true) {
    for (const e of events) remember(e);
    state.lastAt = Math.floor(opts.now() / 1000);
    saveCatchUpState(opts.statePath, state, forgetBefore);
    return { ...result, missed: 0 };
  }
  const { postBytes } = opts.forward === undefined ? { postBytes: undefined } : await import('../gateway/post.js');
  for (const event of events) {
    // Seen live since the history was read (gw listen listens while it catches up): not sent twice.
    if (state.seen.has(event.id)) {
      result.missed--;
      continue;
    }
    const n = recoveredNotification(event, opts.style, event.payout === undefined ? opts.merchantKey : (opts.payoutKey ?? ''));
    let forward: { status?: number; error?: string } | undefined;
    const preview = opts.preview === true && opts.forward === undefined;
    let delivered = !preview;
    if (opts.forward !== undefined && postBytes !== undefined) {
      const f = opts.forward;
      const answer = await postBytes(f.url, n.body, n.headers, {
        timeoutMs: f.timeoutMs,
        ...(f.proxy && { proxy: f.proxy }),
        ...(f.log && { log: f.log }),
        ...(f.secrets && { secrets: f.secrets }),
      });
      forward = answer.ok ? { status: answer.status } : { error: answer.message };
      delivered = answer.ok && answer.status >= 200 && answer.status < 300;
    }
    try {
      await opts.record(recordLine(io, n, opts.now(), forward, delivered, preview));
    } catch (error) {
      throw new GwError(ExitCode.IOERR, `stopped catching up: the output can no longer be written (${(error as Error).message})`);
    }
    // A preview delivered nothing: the event stays missed for the next run.
    if (preview) continue;
    if (!delivered) {
      result.failed++;
      continue;
    }
    result.delivered++;
    remember(event);
    saveCatchUpState(opts.statePath, state, forgetBefore);
  }
  if (opts.preview === true && opts.forward === undefined) return result;
  // The window moves on only when everything in it was read and delivered: what failed, or was on
  // a page not read, stays in the next one.
  const sinceS = Math.floor(opts.since.getTime() / 1000);
  const untilS = Math.floor(until.getTime() / 1000);
  if (result.failed === 0 && result.incomplete === undefined) {
    // A window not wholly delivered before is done once this one covered it.
    if (state.pendingSince !== undefined && sinceS <= state.pendingSince && untilS >= (state.lastAt ?? 0)) delete state.pendingSince;
    state.lastAt = Math.max(state.lastAt ?? 0, untilS);
  } else {
    // Kept apart from lastAt, which live notifications move on: the next catch-up starts here.
    state.pendingSince = Math.min(state.pendingSince ?? sinceS, sinceS);
  }
  saveCatchUpState(opts.statePath, state, forgetBefore);
  return result;
}

/**
 * The window to catch up on from the state: from its last notification, less the lookback, or from
 * the start of a window not wholly delivered if that is earlier; undefined when nothing was recorded yet.
 */
export function catchUpSince(state: CatchUpState): Date | undefined {
  if (state.lastAt === undefined) return state.pendingSince === undefined ? undefined : new Date(state.pendingSince * 1000);
  const fromLast = state.lastAt - CATCH_UP_LOOKBACK_S;
  return new Date(Math.min(fromLast, state.pendingSince ?? fromLast) * 1000);
}

/** What catching up needs from the configuration: the client, the body style (the configured API's), the key, the state file. */
export interface CatchUpSetup {
  gateway: GatewayClient;
  style: NotificationStyle;
  statePath: string;
  /** The payout key, which signs payout notifications (none: payouts are not caught up). */
  payoutKey?: string;
}

/** A notification seen live (verified, recorded, answered 200): remembered so that no catch-up sends it again. */
export function rememberLive(statePath: string, state: CatchUpState, id: string, nowS: number): void {
  state.seen.set(id, nowS);
  state.lastAt = Math.max(state.lastAt ?? 0, nowS);
  saveCatchUpState(statePath, state);
}

/** The configuration's side of catching up: the gateway client, the style of its API, the state file of the profile. */
export async function catchUpSetup(f: Factory): Promise<CatchUpSetup> {
  const config = await f.config();
  const profile = f.globals.sandbox === true ? 'sandbox' : (config.profile?.value ?? 'default');
  const keys = await configuredKeys(f);
  return {
    gateway: await f.gateway(),
    style: config.api.value === 'v1' ? 'v1' : 'legacy',
    statePath: catchUpStatePath(f.env, f.origin.home, profile),
    ...(keys.payout !== undefined && { payoutKey: keys.payout.value }),
  };
}

export interface ListenCatchUp {
  io: IOStreams;
  merchantKey: string | undefined;
  now: () => number;
  forward?: CatchUpOptions['forward'];
  record: (line: string) => Promise<void>;
  /** Given what remembers a live notification as soon as the state is loaded, before catching up (so one received meanwhile counts). */
  onLive?: (live: (r: Receipt) => void) => void;
}

/**
 * gw listen --catch-up, once listening: catches up from the state (the first run only takes a
 * baseline), says what it did in one line, and returns what remembers each notification then
 * received live. A failure to catch up is a warning: the receiver keeps listening.
 */
export async function listenCatchUp(setup: () => Promise<CatchUpSetup>, opts: ListenCatchUp): Promise<(r: Receipt) => void> {
  const { io } = opts;
  const { gateway, style, statePath, payoutKey } = await setup();
  const state = loadCatchUpState(statePath);
  const live = (r: Receipt): void => {
    const trackId = r.summary?.trackId?.raw().trim();
    if (trackId === undefined || trackId === '') return;
    let id: string;
    if (r.summary === undefined) return;
    const payoutState = r.summary.payoutState;
    if (payoutState !== null) {
      if (payoutState === 'unknown') return;
      id = payoutEventId(trackId, payoutState);
    } else {
      const arrived = r.body === undefined ? undefined : notificationArrival(r.body);
      const gwState = arrived?.state ?? r.summary.state;
      if (gwState === undefined || gwState === 'unknown') return;
      id = eventId(trackId, gwState);
    }
    try {
      rememberLive(statePath, state, id, Math.floor(opts.now() / 1000));
    } catch (error) {
      io.warn(`the catch-up state ${statePath} could not be written: ${(error as Error).message}`);
    }
  };
  opts.onLive?.(live);
  if (opts.merchantKey === undefined) {
    io.warn('catch-up needs the merchant key (payment notifications are signed with it): nothing caught up');
    return live;
  }
  const since = catchUpSince(state);
  const nowDate = new Date(opts.now());
  try {
    const result = await catchUp({
      io,
      gateway,
      style,
      merchantKey: opts.merchantKey,
      ...(payoutKey !== undefined && { payoutKey }),
      since: since ?? new Date(nowDate.getTime() - CATCH_UP_LOOKBACK_S * 1000),
      until: nowDate,
      state,
      statePath,
      now: opts.now,
      record: opts.record,
      ...(opts.forward && { forward: opts.forward }),
      ...(since === undefined && { baselineOnly: true }),
    });
    if (since === undefined)
      io.note(
        'catch-up: nothing recorded before; from now on, what this receiver misses is caught up when it starts (gw webhook replay --since … for earlier notifications)',
      );
    else
      io.note(
        `catch-up: ${result.missed} missed notification${result.missed === 1 ? '' : 's'} since ${since.toISOString()}, ${result.delivered} delivered` +
          `${result.failed > 0 ? `, ${result.failed} not taken (tried again on the next start)` : ''}; ${result.payoutsNote}`,
      );
    if (result.incomplete !== undefined) io.warn(`catch-up: the history is incomplete: ${result.incomplete}`);
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    io.warn(`catch-up failed: ${error.message}; still listening`);
  }
  return live;
}

export interface ReplayRequest {
  since: Date;
  until?: Date;
  forward?: { url: URL; timeoutMs: number };
}

/**
 * gw webhook replay: catches up on the window given, against the profile's state (what gw listen
 * --catch-up and earlier replays recorded). Exit 0 when every missed change was delivered; 69 when
 * --forward-to did not take some (the next run sends them); 76 when the history was incomplete.
 */
export async function webhookReplayRun(f: Factory, request: ReplayRequest): Promise<void> {
  const { io } = f;
  const [setup, keys] = await Promise.all([catchUpSetup(f), configuredKeys(f)]);
  const merchantKey = keys.merchant?.value;
  if (merchantKey === undefined)
    throw new ConfigError(
      'no merchant API key is configured to sign the recovered notifications with',
      'set GATEWAY_MERCHANT_KEY or merchantKey in your config file',
    );
  if (!io.secrets.includes(merchantKey)) io.secrets.push(merchantKey);
  let forward: CatchUpOptions['forward'];
  if (request.forward !== undefined) {
    const { proxyFor } = await import('../gateway/proxy.js');
    const proxy = proxyFor(request.forward.url, f.env);
    forward = {
      ...request.forward,
      ...(proxy && { proxy }),
      secrets: io.secrets,
      ...(f.globals.verbose === true && { log: (line: string) => io.err(`${line}\n`) }),
    };
  }
  const state = loadCatchUpState(setup.statePath);
  // Text lines carry no body: they show what was missed, and deliver (so remember) nothing.
  const preview = !io.json && forward === undefined;
  const result = await catchUp({
    io,
    gateway: setup.gateway,
    style: setup.style,
    merchantKey,
    ...(setup.payoutKey !== undefined && { payoutKey: setup.payoutKey }),
    since: request.since,
    ...(request.until !== undefined && { until: request.until }),
    state,
    statePath: setup.statePath,
    now: () => f.clock.now(),
    record: (line) => io.outConfirmed(line),
    ...(forward !== undefined && { forward }),
    ...(preview && { preview }),
  });
  if (preview)
    io.note(
      `${result.missed} missed notification${result.missed === 1 ? '' : 's'} since ${request.since.toISOString()}: a preview, none delivered or recorded as delivered (text lines carry no body); --json or --forward-to delivers them; ${result.payoutsNote}`,
    );
  else
    io.note(
      `${result.missed} missed notification${result.missed === 1 ? '' : 's'} since ${request.since.toISOString()}, ${result.delivered} delivered` +
        (request.forward === undefined ? ' (to stdout)' : ` to ${request.forward.url.href}`) +
        `; ${result.payoutsNote}`,
    );
  if (result.failed > 0)
    throw new GwError(
      ExitCode.UNAVAILABLE,
      `${result.failed} of ${result.missed} recovered notification${result.missed === 1 ? ' was' : 's were'} not taken by ${request.forward?.url.href ?? 'the receiver'}: the next replay or gw listen --catch-up sends ${result.failed === 1 ? 'it' : 'them'} again`,
    );
  if (result.incomplete !== undefined)
    throw new GwError(ExitCode.PROTOCOL, `the history is incomplete: ${result.incomplete}; what it showed was ${preview ? 'listed' : 'delivered'}`);
}
