// Following a payment until it ends (`gw status --wait`, `gw pay --wait`): a small loop over the
// injected Clock and one `poll` function (the gateway's inquiry), with no output of its own. What
// the user sees is the caller's business (onProgress); how the wait ended is the return value, and
// what each ending means for the exit code is endingFailure() below. Tests drive it with a
// ManualClock and a scripted poll: no real sleeps.
//
// The rules (docs/commands.md, "Waiting"):
// - polls start 1 s apart and grow by half each time up to 5 s (a counter wants to see "paid"
//   quickly; a payment that takes longer does not need faster polling);
// - the gateway's rate limit (result 124, HTTP 429) slows the polling down, never ends it: at least
//   15 s between polls, doubling on each further refusal up to 2 min, halving again with each
//   answer, but never faster than every 15 s for the rest of the wait;
// - transient failures (exit 69 unreachable/5xx, 75 timeout) keep polling: 2 s, doubling up to
//   30 s; answers that cannot be read (exit 76) too, but only 3 in a row; anything else (key
//   refused, invalid track id, configuration…) ends the wait with that failure;
// - the wait ends at a final state (paid, underpaid, late, failed, refunded; not refunding,
//   which goes on), at --wait-timeout,
//   or, while no transaction has been seen (not confirming, no funds in txs), at the payment's expiry plus a grace
//   of 10 min (the gateway marks an unpaid payment Expired at its expiry; the grace covers clocks
//   that disagree and a gateway slow to say so). Once a transaction is seen the wait follows it to
//   its end. Expiry: the answer's expiredAt, else what the caller knows (pay's answer), else the
//   creation date plus the longest lifetime (2880 min). At a limit, one last poll decides;
// - `expired` with nothing arrived is not taken at its word at once: the gateway's own pages
//   disagree on whether Expired can come before funds sent at the last minute are seen (docs/gateway.md
//   §15), so the wait watches for late funds for `lateWatchMs` (1 min; the sandbox's compressed
//   clock: its settle time) after the first such answer. Funds seen end it as `late`; else it ends
//   as `expired` (also at --wait-timeout or the expiry's limit during the watch);
// - Ctrl-C (the signal) ends it at once, as `interrupted`.
import { amountsWords, differenceWords, fundsArrived, type Arrival } from '../domain/arrival.js';
import { isFinal, type PaymentState } from '../domain/payment-status.js';
import { ExitCode, GwError, interrupted } from '../errors.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import { durationWords, parseTimestamp } from '../output/time.js';
import type { Clock } from '../util/clock.js';
import { resumeCommand, v1StatusCommand } from '../views/follow-commands.js';
import type { WaitEnding } from '../views/wait-ending.js';

export { resumeCommand, v1StatusCommand } from '../views/follow-commands.js';
export type { WaitEnding } from '../views/wait-ending.js';

export interface WaitPolicy {
  /** First interval between polls, its growth factor and its cap. */
  intervalMs: number;
  growth: number;
  maxIntervalMs: number;
  /** After a rate limit: at least this long between polls, doubling on each further one, up to the cap. */
  rateLimitedMs: number;
  maxRateLimitedMs: number;
  /** After a transient failure: this long, doubling while they last, up to the cap. */
  retryMs: number;
  maxRetryMs: number;
  /** Unreadable answers (exit 76) tolerated in a row. */
  maxUnreadable: number;
  /** How long after the expiry the wait goes on while no transaction has been seen. */
  graceMs: number;
  /** The gateway's longest lifetime: the expiry of a payment whose answer gives none, from its creation. */
  maxLifetimeMs: number;
  /** After the first `expired` answer with nothing arrived: how long to keep watching for late funds. */
  lateWatchMs: number;
}

export const WAIT_POLICY: Readonly<WaitPolicy> = {
  intervalMs: 1000,
  growth: 1.5,
  maxIntervalMs: 5000,
  rateLimitedMs: 15_000,
  maxRateLimitedMs: 120_000,
  retryMs: 2000,
  maxRetryMs: 30_000,
  maxUnreadable: 3,
  graceMs: 10 * 60_000,
  maxLifetimeMs: 2880 * 60_000,
  lateWatchMs: 60_000,
};

/** Whether an answer is `expired` with nothing seen arriving (or, legacy, nothing reported): watched a while for late funds. */
export function expiredWithNothing(info: PaymentInfo): boolean {
  return info.status === 'expired' && !fundsArrived(info.arrival);
}

/** What the caller shows while waiting. */
export interface WaitProgress {
  /** The last answer, if there was one. */
  info: PaymentInfo | undefined;
  /** When it came (ms). */
  checkedAt: number | undefined;
  /** The payment's expiry (ms), when known. */
  expiresAt: number | undefined;
  /** The last failure while failures last (one line). */
  problem: string | undefined;
  /** Whether the gateway's rate limit has slowed the polling down. */
  slowedDown: boolean;
  now: number;
}

export interface WaitOptions {
  clock: Clock;
  /** One inquiry. */
  poll: () => Promise<PaymentInfo>;
  /** Ends the wait as `interrupted` when aborted (Ctrl-C). */
  signal: AbortSignal;
  /** The state already known (pay: the payment just created): the first poll then waits one interval. */
  initial?: PaymentInfo;
  /** The expiry (ms) when the caller knows it; an answer's expiredAt wins. */
  expiresAt?: number;
  /** When the payment was created (ms), for an expiry nobody gives; an answer's date wins. */
  createdAt?: number;
  /** --wait-timeout: stop at this time (ms). */
  until?: number;
  policy?: Partial<WaitPolicy>;
  /** Animation: sleeps are cut into ticks this long, and onProgress runs after each. None: no ticks at all. */
  tickMs?: number;
  /** After each answer or failure, and on each tick. */
  onProgress?: (progress: WaitProgress) => void;
  /** When the status differs from the one before (the first answer included). */
  onChange?: (info: PaymentInfo, previous: PaymentState | undefined) => void;
}

export type FailureKind = 'rate-limited' | 'transient' | 'unreadable' | 'fatal';

/** How a failed poll affects the wait. */
export function failureKind(error: GwError): FailureKind {
  if (error.result === 124 || error.status === 429) return 'rate-limited';
  if (error.exitCode === ExitCode.UNAVAILABLE || error.exitCode === ExitCode.TEMPFAIL) return 'transient';
  if (error.exitCode === ExitCode.PROTOCOL) return 'unreadable';
  return 'fatal';
}

/** Whether money has been seen for the payment: then its expiry no longer ends the wait. */
function transactionSeen(info: PaymentInfo | undefined): boolean {
  return info?.status === 'confirming' || info?.status === 'refunding' || (info !== undefined && fundsArrived(info.arrival));
}

export async function waitForPayment(options: WaitOptions): Promise<WaitEnding> {
  const { clock, signal } = options;
  const policy: WaitPolicy = { ...WAIT_POLICY, ...options.policy };
  let info = options.initial;
  let checkedAt: number | undefined;
  let problem: string | undefined;
  let interval = policy.intervalMs;
  let slowFloor = 0;
  let failures = 0;
  let unreadable = 0;
  /** When `expired` with nothing arrived was first answered: the late-funds watch runs from there. */
  let expiredSince: number | undefined;

  const expiresAt = (): number | undefined => {
    const fromAnswer = parseTimestamp(info?.expiredAt)?.getTime();
    if (fromAnswer !== undefined) return fromAnswer;
    if (options.expiresAt !== undefined) return options.expiresAt;
    const created = parseTimestamp(info?.date)?.getTime() ?? options.createdAt;
    return created === undefined ? undefined : created + policy.maxLifetimeMs;
  };
  /** The earliest limit and which one it is. */
  const limit = (): { at: number; reason: 'timeout' | 'expiry' } | undefined => {
    const expiry = expiresAt();
    const byExpiry = expiry === undefined || transactionSeen(info) ? undefined : expiry + policy.graceMs;
    if (options.until !== undefined && (byExpiry === undefined || options.until <= byExpiry)) return { at: options.until, reason: 'timeout' };
    return byExpiry === undefined ? undefined : { at: byExpiry, reason: 'expiry' };
  };
  const report = (): void => options.onProgress?.({ info, checkedAt, expiresAt: expiresAt(), problem, slowedDown: slowFloor > 0, now: clock.now() });
  const sleepUntil = async (target: number): Promise<void> => {
    for (let left = target - clock.now(); left > 0; left = target - clock.now()) {
      await clock.sleep(options.tickMs === undefined ? left : Math.min(options.tickMs, left), signal);
      if (options.tickMs !== undefined) report();
    }
  };

  let nextPollAt = clock.now() + (info === undefined ? 0 : interval);
  try {
    for (;;) {
      await sleepUntil(nextPollAt);
      if (signal.aborted) throw signal.reason;
      let delay: number;
      try {
        const answer = await options.poll();
        const previous = info?.status;
        info = answer;
        checkedAt = clock.now();
        problem = undefined;
        failures = 0;
        unreadable = 0;
        if (answer.status !== previous) options.onChange?.(answer, previous);
        if (!expiredWithNothing(answer)) expiredSince = undefined;
        if (expiredWithNothing(answer)) {
          expiredSince ??= clock.now();
          if (clock.now() >= expiredSince + policy.lateWatchMs) {
            report();
            return { kind: 'final', info: answer };
          }
        } else if (isFinal(answer.status)) {
          report();
          return { kind: 'final', info: answer };
        }
        delay = Math.max(interval, slowFloor);
        interval = Math.min(interval * policy.growth, policy.maxIntervalMs);
        // Once rate-limited, the polling speeds up again only halfway each time, never below the floor.
        if (slowFloor > 0) slowFloor = Math.max(policy.rateLimitedMs, slowFloor / 2);
      } catch (error) {
        if (signal.aborted || !(error instanceof GwError)) throw error;
        const kind = failureKind(error);
        if (kind === 'fatal') throw error;
        if (kind === 'unreadable' && ++unreadable > policy.maxUnreadable) throw error;
        failures++;
        problem = error.message;
        if (kind === 'rate-limited') slowFloor = Math.min(Math.max(slowFloor * 2, policy.rateLimitedMs), policy.maxRateLimitedMs);
        delay = Math.max(Math.min(policy.retryMs * 2 ** (failures - 1), policy.maxRetryMs), slowFloor, interval);
      }
      const now = clock.now();
      const end = limit();
      if (end !== undefined && now >= end.at) {
        report();
        // Already expired with nothing arrived: that is how it ended, not a time-out.
        if (info !== undefined && expiredWithNothing(info)) return { kind: 'final', info };
        return { kind: 'gave-up', reason: end.reason, info };
      }
      const watchEnd = expiredSince === undefined ? Number.POSITIVE_INFINITY : expiredSince + policy.lateWatchMs;
      // The watch is over but the last poll failed: the last answer (expired, nothing arrived) stands.
      if (now >= watchEnd && info !== undefined && expiredWithNothing(info)) {
        report();
        return { kind: 'final', info };
      }
      nextPollAt = Math.min(now + delay, end?.at ?? Number.POSITIVE_INFINITY, watchEnd);
      report();
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    const reason = signal.reason instanceof GwError ? signal.reason : interrupted();
    return { kind: 'interrupted', reason, info };
  }
}

// ---------------------------------------------------------------------------------------------
// What an ending, or a state, means for the exit code

/** The exit code a payment's state earns: 0 only when paid. */
export function stateExitCode(state: PaymentState): ExitCode {
  switch (state) {
    case 'paid':
      return ExitCode.OK;
    case 'underpaid':
      return ExitCode.UNDERPAID;
    case 'expired':
      return ExitCode.EXPIRED;
    case 'late':
      return ExitCode.LATE;
    case 'failed':
    case 'refunding':
    case 'refunded':
      return ExitCode.FAILED;
    default:
      return ExitCode.STILL_OPEN;
  }
}

function stateWords(info: PaymentInfo | undefined): string {
  if (info === undefined) return 'open (no answer from the gateway yet)';
  return info.status === 'unknown' ? `open (the gateway says "${info.gatewayStatus?.line(40) ?? ''}")` : `${info.status}`;
}

/**
 * What arrived, in words for a message: "0.0004 BTC received (0.0001 BTC of it still confirming)",
 * "nothing arrived"; undefined when the gateway does not say.
 */
export function arrivedWords(arrival: Arrival, verb = 'received'): string | undefined {
  const { received } = arrival;
  if (received === null) return undefined;
  if (received.size === 0) return arrival.incomplete ? 'a transaction arrived whose amount gw could not read' : 'nothing arrived';
  let words = `${amountsWords(received)} ${verb}`;
  if (arrival.unconfirmed.size > 0) words += ` (${amountsWords(arrival.unconfirmed)} of it not confirmed yet)`;
  if (arrival.incomplete) words += ', and a transaction whose amount gw could not read';
  return words;
}

/** "0.0001 BTC short of 0.0005 BTC", or why it cannot be said. */
function shortWords(arrival: Arrival): string {
  return differenceWords(arrival) ?? `the difference cannot be computed: ${arrival.noDifference ?? 'unknown'}`;
}

/**
 * The failure a payment's state is, when it is not paid (undefined when paid): the message and
 * hint of `gw status`, and of a wait that ended in that state. Words follow from what arrived
 * (src/domain/arrival.ts): money received is never called nothing, and a new payment is never
 * advised for an order that received funds.
 */
export function stateFailure(info: PaymentInfo, sandbox: boolean, waited: boolean): GwError | undefined {
  const id = info.trackId.line(100);
  const details = { trackId: info.trackId.raw() };
  const arrival = info.arrival;
  const arrived = arrivedWords(arrival);
  const checkV1 = v1StatusCommand(info.trackId.raw(), sandbox);
  switch (info.status) {
    case 'paid':
      return undefined;
    case 'underpaid': {
      const short = arrival.difference?.isPositive === true && arrival.expected !== null;
      const rest = short ? `the ${arrival.difference} ${arrival.expected?.coin ?? ''} missing` : 'the rest';
      const choices = `ask the payer for ${rest}, accept it as it is, or refund it`;
      if (arrived === undefined)
        return new GwError(ExitCode.UNDERPAID, `payment ${id} is UNDERPAID: less than the amount arrived`, {
          ...details,
          hint: `do not hand over the goods for the full amount; the legacy API does not report what arrived (see ${checkV1}): ${choices}`,
        });
      return new GwError(ExitCode.UNDERPAID, `payment ${id} is UNDERPAID: ${arrived}, ${shortWords(arrival)}`, {
        ...details,
        hint: `do not hand over the goods for the full amount: ${choices}`,
      });
    }
    case 'expired':
      if (arrived === undefined)
        return new GwError(ExitCode.EXPIRED, `payment ${id} EXPIRED`, {
          ...details,
          hint: `the legacy API does not report what arrived; check before creating another payment: ${checkV1}`,
        });
      return new GwError(ExitCode.EXPIRED, `payment ${id} EXPIRED: nothing arrived`, {
        ...details,
        hint: `the gateway reports no transaction for it; funds sent at the last minute can still show up there, so look once more before creating another payment for the order: ${resumeCommand(info.trackId.raw(), sandbox).replace(' --wait', '')}`,
      });
    case 'late': {
      if (arrived === undefined)
        return new GwError(ExitCode.LATE, `payment ${id} is LATE: a transaction (${info.txID?.line(100) ?? '?'}) was reported for it, and it expired`, {
          ...details,
          hint: `do not create another payment for this order; the legacy API does not say how much arrived: check with ${checkV1}, then accept or refund it in the merchant panel`,
        });
      const short = arrival.difference?.isPositive === true;
      return new GwError(ExitCode.LATE, `payment ${id} is LATE: ${arrivedWords(arrival, 'arrived after it expired')} (${shortWords(arrival)})`, {
        ...details,
        hint: `do not create another payment for this order: decide in the merchant panel whether to accept the funds${short ? ', ask the payer for the rest' : ''} or refund them`,
      });
    }
    case 'refunding':
      return new GwError(ExitCode.FAILED, `payment ${id} is being REFUNDED: the refund is not complete yet`, {
        ...details,
        hint: `do not hand over the goods; follow the refund: ${resumeCommand(info.trackId.raw(), sandbox)}`,
      });
    case 'failed':
    case 'refunded':
      return new GwError(ExitCode.FAILED, `payment ${id} ${info.status === 'failed' ? 'FAILED' : 'was REFUNDED'}`, {
        ...details,
        hint: 'do not hand over the goods; the merchant panel has the details',
      });
    default:
      return new GwError(ExitCode.STILL_OPEN, `payment ${id} is not paid yet: ${stateWords(info)}`, {
        ...details,
        hint: waited ? `follow it again: ${resumeCommand(info.trackId.raw(), sandbox)}` : `wait for it: ${resumeCommand(info.trackId.raw(), sandbox)}`,
      });
  }
}

/** The failure a wait's ending is (undefined when the payment was paid). */
export function endingFailure(ending: WaitEnding, trackId: string, sandbox: boolean, graceMs = WAIT_POLICY.graceMs): GwError | undefined {
  const id = trackId;
  const resume = resumeCommand(trackId, sandbox);
  switch (ending.kind) {
    case 'final':
      return stateFailure(ending.info, sandbox, true);
    case 'gave-up':
      return ending.reason === 'timeout'
        ? new GwError(ExitCode.WAIT_ENDED, `stopped waiting at --wait-timeout: payment ${id} is still ${stateWords(ending.info)}`, {
            trackId,
            hint: `follow it again: ${resume}`,
          })
        : new GwError(
            ExitCode.WAIT_ENDED,
            `stopped waiting: payment ${id} is still ${stateWords(ending.info)} ${durationWords(graceMs)} after its expiry, and no transaction was seen`,
            { trackId, hint: `it should be expired: check it later with ${resume.replace(' --wait', '')}` },
          );
    case 'interrupted':
      return ending.reason.with({
        message: `${ending.reason.message}: payment ${id} is still open (${stateWords(ending.info)})`,
        trackId,
        hint: `follow it again: ${resume}`,
      });
  }
}
