// What a person sees while gw waits for a payment (wait.ts does the waiting):
// - on a terminal, a live line on stderr (spinner, state, time left, last check) redrawn in place
//   four times a second, or, for `gw pay --wait`, the counter screen's state line (the caller's
//   `screen` function), redrawn once a second;
// - into a pipe or a file, no animation and no timer: one line per change of state, and one per
//   run of failures, on stderr;
// - with --json, nothing until the end.
import { withExpected, type Expected } from '../domain/arrival.js';
import type { PaymentState } from '../domain/payment-status.js';
import type { GatewayClient, PaymentInfo } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { SPINNER_FRAMES } from '../output/spinner.js';
import { agoWords, localClock, timeLeftWords } from '../output/time.js';
import type { Clock } from '../util/clock.js';
import { DEFAULT_SETTLE_SECONDS } from '../sandbox/options.js';
import { waitForPayment, type WaitEnding, type WaitPolicy, type WaitProgress } from './wait.js';

/** The live line is redrawn four times a second; the counter screen (a bigger redraw, read from a distance) once a second. */
export const TICK_MS = 250;
export const SCREEN_TICK_MS = 1000;
/** How long a --sandbox wait watches an expired payment for late funds: the sandbox's settle time. */
export const SANDBOX_LATE_WATCH_MS = DEFAULT_SETTLE_SECONDS * 1000;

export interface FollowOptions {
  io: IOStreams;
  clock: Clock;
  signal: AbortSignal;
  gateway: GatewayClient;
  trackId: string;
  initial?: PaymentInfo;
  expiresAt?: number;
  createdAt?: number;
  until?: number;
  policy?: Partial<WaitPolicy>;
  /** What gw knows was owed in the coin paid (pay: the creation answer), for what arrived to be compared with. */
  expected?: Expected | null;
  /**
   * Draws the state on a redrawn screen instead of the live line (pay on a terminal); called on
   * every tick with the line to show. Without it, or where the screen cannot be redrawn, the live
   * line (or the plain lines) are used.
   */
  screen?: (statusLine: string, progress: WaitProgress) => void;
}

const LABELS: Record<PaymentState, string> = {
  new: 'Waiting for the payer',
  waiting: 'Waiting for payment',
  confirming: 'Transaction seen: confirming',
  paid: 'Paid',
  underpaid: 'Underpaid',
  expired: 'Expired, nothing arrived so far: watching for late funds',
  late: 'Funds arrived after expiry',
  failed: 'Failed',
  refunding: 'Refund under way',
  refunded: 'Refunded',
  unknown: 'Waiting',
};

/**
 * The state line: "⠋ Waiting for payment · 59 min left, until 14:42 · checked 2 s ago". `compact`
 * (the counter screen, which shows the time left above it): the state and any problem only.
 */
export function statusLine(progress: WaitProgress, spinner: string, compact = false): string {
  const parts: string[] = [];
  const info = progress.info;
  let label = info === undefined ? 'Checking the payment' : LABELS[info.status];
  if (info?.status === 'unknown' && info.gatewayStatus !== null) label = `Waiting (gateway says "${info.gatewayStatus.line(30)}")`;
  parts.push(`${spinner} ${label}`.trim());
  // The time left matters only while nothing has arrived (not while confirming, nor for a refund under way).
  if (!compact && progress.expiresAt !== undefined && info?.status !== 'confirming' && info?.status !== 'refunding')
    parts.push(timeLeftWords(new Date(progress.expiresAt), progress.now));
  if (progress.problem !== undefined) parts.push(`retrying: ${progress.problem}`);
  else if (!compact && progress.checkedAt !== undefined)
    parts.push(progress.now - progress.checkedAt < 1000 ? 'checked just now' : `checked ${agoWords(progress.now - progress.checkedAt)}`);
  if (progress.slowedDown) parts.push(compact ? 'slowed down by the gateway' : 'slowed down by the gateway’s rate limit');
  return parts.join(' · ');
}

/** Follows the payment until it ends; shows progress as the terminal allows. */
export async function followPayment(options: FollowOptions): Promise<WaitEnding> {
  const { io, trackId } = options;
  const onScreen = options.screen !== undefined && io.canRedraw();
  const animate = !io.json && (onScreen || io.canAnimate());
  let frame = 0;
  let lastProblem: string | undefined;

  const onProgress = (progress: WaitProgress): void => {
    if (animate) {
      const line = statusLine(progress, SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length] ?? '', onScreen);
      if (onScreen) options.screen?.(line, progress);
      else io.liveLine(line);
      return;
    }
    // Plain lines: one per run of failures.
    if (progress.problem !== undefined && lastProblem === undefined) io.warn(`${progress.problem}; still waiting for payment ${trackId}`);
    if (progress.problem === undefined && lastProblem !== undefined) io.notice(`gw: the gateway answers again`);
    lastProblem = progress.problem;
  };
  const onChange = (info: PaymentInfo, previous: PaymentState | undefined): void => {
    if (animate || previous === undefined) return;
    io.notice(`gw: ${localClock(new Date(options.clock.now()))} payment ${info.trackId.line(100)} is ${info.status}`);
  };
  try {
    return await waitForPayment({
      clock: options.clock,
      signal: options.signal,
      poll: async () => withExpected(await options.gateway.paymentInfo(trackId), options.expected ?? null),
      ...(options.initial !== undefined && { initial: withExpected(options.initial, options.expected ?? null) }),
      ...(options.expiresAt !== undefined && { expiresAt: options.expiresAt }),
      ...(options.createdAt !== undefined && { createdAt: options.createdAt }),
      ...(options.until !== undefined && { until: options.until }),
      // The sandbox's clock is compressed: its late funds come within its settle time.
      policy: { ...(io.sandbox && { lateWatchMs: SANDBOX_LATE_WATCH_MS }), ...options.policy },
      ...(animate && { tickMs: onScreen ? SCREEN_TICK_MS : TICK_MS }),
      onProgress,
      onChange,
    });
  } finally {
    io.endLiveLine();
  }
}
