// gw status <trackId> [--wait] [--wait-timeout <duration>]: a payment's state from the gateway's
// inquiry (POST /merchants/inquiry), and with --wait, followed until it ends.
//
// The exit code is the payment's: 0 only when it is paid (so `gw status $id && deliver` is safe),
// 10 underpaid, 11 expired with nothing arrived, 12 failed or refunded (or refunding, without
// --wait), 13 late (funds arrived for an expired payment), 8 still open (without --wait); with --wait, 124
// when the wait gave up and 130 on Ctrl-C (src/cmdutil/wait.ts).
import { Command } from 'commander';
import { parseTrackId } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { followPayment } from '../cmdutil/follow.js';
import { withHelp } from '../cmdutil/help.js';
import { refundsOf, refundsSince } from '../cmdutil/refunds.js';
import { payoutJson } from '../cmdutil/payout-view.js';
import { type WaitChoice, type WaitContext, type WaitFlags, waitChoice, waitContext } from '../cmdutil/wait-flags.js';
import type { Payout } from '../operations/payout-info.js';
import { renderTable } from '../output/table.js';
import { endingFailure, stateFailure } from '../cmdutil/wait.js';
import type { GatewayClient, PaymentInfo } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { withSpinner } from '../output/spinner.js';
import { statusText } from '../views/status-view.js';

export interface StatusOptions extends WaitContext, WaitChoice {
  trackId: string;
  /** --refunds: list the refunds made against it (src/cmdutil/refunds.ts). */
  refunds?: boolean;
}

interface StatusFlags extends WaitFlags {
  refunds?: boolean;
}

export const EXIT_CODES_NOTE =
  'Exit codes: 0 paid, 8 still open (new, waiting, confirming, or a status gw does not know), 10 underpaid, 11 expired (nothing arrived), ' +
  '12 failed, refunding or refunded, 13 late (funds arrived for an expired payment); with --wait (which follows a refund under way to its end), 124 gave up waiting (--wait-timeout, or 10 min past the expiry with no transaction seen), ' +
  '130 interrupted, 143 terminated. Failures to ask: 65, 69, 75, 76, 77, 78 as for every command.';

/** A track id as typed: one line, no control characters, at most 100 characters. */
export function newCmdStatus(f: Factory, runF: (opts: StatusOptions) => Promise<void> = statusRun): Command {
  const command = new Command('status')
    .argument('<trackId>', 'the track id gw pay printed')
    .option('--wait', 'follow the payment until it ends (exit 0 only when paid)')
    .option('--wait-timeout <duration>', 'stop waiting after this long, e.g. 90s, 10m, 2h (implies --wait; exit 124)')
    .option('--refunds', 'also list the refunds made against it with gw refund (payout history, payout key)')
    .action((trackId: string, flags: StatusFlags) =>
      runF({
        ...waitContext(f),
        trackId: parseTrackId(trackId),
        ...waitChoice(flags),
        ...(flags.refunds === true && { refunds: true }),
      }),
    );
  return withHelp(command, {
    examples: [
      'gw status 184729305',
      'gw status 184729305 --wait',
      'gw status 184729305 --wait --wait-timeout 15m',
      'gw status 184729305 --json | jq -r .status',
    ],
    json:
      '{"trackId", "status" (new|waiting|confirming|paid|underpaid|expired|late|failed|refunding|refunded|unknown), "gatewayStatus", "amount", "payAmount", …every field the gateway sent, ' +
      '"received" {coin: amount} or null (not reported), "expected" {coin: amount} or null, "difference" {coin: expected − received} or null, ' +
      '"transactions" [{"hash", "amount", "currency", "network", "confirmations", "status", "counted", "confirmed"}] or null} (amounts as exact decimal strings)',
    notes: EXIT_CODES_NOTE,
  });
}

function print(io: IOStreams, info: PaymentInfo, now: number, refunds?: readonly Payout[]): void {
  if (io.json) {
    io.printJson({ ...info.fields, ...(refunds !== undefined && { refunds: refunds.map(payoutJson) }) });
    return;
  }
  io.sandboxBanner();
  io.out(statusText(info, now, io.chalk, io.sandbox));
  if (refunds === undefined) return;
  if (refunds.length === 0) io.out('\nRefunds: none made with gw refund\n');
  else
    io.out(
      `\nRefunds:\n${renderTable(
        ['Payout', 'Status', 'Amount', 'Coin', 'To'],
        refunds.map((r) => [r.trackId.raw(), r.status, r.amount?.toString() ?? '', r.currency?.raw() ?? '', r.address?.raw() ?? '']),
      )}`,
    );
}

/** The payment's refunds, when --refunds asks for them. */
async function refundsFor(opts: StatusOptions, gateway: GatewayClient, info: PaymentInfo): Promise<Payout[] | undefined> {
  return opts.refunds === true ? refundsOf(gateway, opts.trackId, refundsSince(info.date, opts.clock.now())) : undefined;
}

export async function statusRun(opts: StatusOptions): Promise<void> {
  const { io, clock } = opts;
  const gateway = await opts.gateway();
  if (!opts.wait) {
    const info = await withSpinner(io, clock, `Looking up payment ${opts.trackId}…`, () => gateway.paymentInfo(opts.trackId));
    print(io, info, clock.now(), await withSpinner(io, clock, 'Looking up its refunds…', () => refundsFor(opts, gateway, info)));
    const failure = stateFailure(info, io.sandbox, false);
    if (failure !== undefined) throw failure;
    return;
  }
  opts.releaseDeadline();
  const ending = await followPayment({
    io,
    clock,
    signal: opts.signal,
    gateway,
    trackId: opts.trackId,
    ...(opts.waitTimeoutMs !== undefined && { until: clock.now() + opts.waitTimeoutMs }),
  });
  if (ending.info !== undefined) print(io, ending.info, clock.now(), await refundsFor(opts, gateway, ending.info));
  const failure = endingFailure(ending, opts.trackId, io.sandbox);
  if (failure !== undefined) throw failure;
}
