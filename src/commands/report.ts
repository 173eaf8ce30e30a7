// gw report [--since when] [--until when] [--by day|week|month] [--in FIAT] [--check-stats]: the
// takings of a range per local day, week (from Monday) or month, from the payment history (every
// page, src/gateway/history.ts, nothing kept but each period's sums: src/domain/report.ts) and the
// payout history (payout key; without it, one line says payouts are not included). The sums are
// those of `gw payments --since … --until …` (src/domain/takings.ts), to the last digit. `--in`
// values what was not asked in that fiat at the gateway's current prices, labelled with the time
// they were read. `--check-stats` compares the gateway's statistics (GET /v1/payment/stats).
import { Command, Option } from 'commander';
import { parseInFiat, readPrices } from '../cmdutil/fiat-prices.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { parseWhen } from '../cmdutil/time-args.js';
import { payoutCounts } from '../domain/payout-status.js';
import { GROUPINGS, type Grouping, periodsBetween, ReportBuilder } from '../domain/report.js';
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, PaymentInfo } from '../gateway/gateway.js';
import { listPayments } from '../gateway/history.js';
import { forEachPayout } from '../gateway/payout-pages.js';
import { PAYMENT_STATS, type PaymentStats } from '../operations/payment-stats.js';
import type { IOStreams } from '../output/iostreams.js';
import { parseTimestamp } from '../output/time.js';
import type { Clock } from '../util/clock.js';
import { type ReportDocument, reportJson, reportText } from '../views/report-view.js';

export interface ReportOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  since: Date;
  until: Date;
  by: Grouping;
  /** The fiat to value everything in (upper case), when asked. */
  in?: string;
  checkStats: boolean;
}

/** At most this many periods (a table longer than that wants a coarser --by). */
export const MAX_PERIODS = 400;
/** The most history pages read (200 payments each), bounded by the command's deadline too. */
export const MAX_REPORT_PAGES = 5000;

interface ReportFlags {
  since?: string;
  until?: string;
  by: string;
  in?: string;
  checkStats?: boolean;
}

export function buildReportOptions(flags: ReportFlags, now: number): Pick<ReportOptions, 'since' | 'until' | 'by' | 'in' | 'checkStats'> {
  const since = parseWhen(flags.since ?? 'this-month', '--since', now);
  const until = flags.until === undefined ? new Date(now) : parseWhen(flags.until, '--until', now, true);
  if (until < since) throw new UsageError('--until is before --since');
  const by = flags.by.trim().toLowerCase();
  if (!(GROUPINGS as readonly string[]).includes(by)) throw new UsageError(`--by must be day, week or month (got "${flags.by.slice(0, 20)}")`);
  if (periodsBetween(since, until, by as Grouping, MAX_PERIODS) === undefined)
    throw new UsageError(`--by ${by} over this range makes more than ${MAX_PERIODS} rows`, 'use --by week or --by month, or a shorter range');
  const fiat = flags.in === undefined ? undefined : parseInFiat(flags.in);
  return { since, until, by: by as Grouping, ...(fiat !== undefined && { in: fiat }), checkStats: flags.checkStats === true };
}

export function newCmdReport(f: Factory, runF: (opts: ReportOptions) => Promise<void> = reportRun): Command {
  const command = new Command('report')
    .option('--since <when>', 'from (default this-month): 2026-11-01, today, yesterday, this-month, last-month, 2026-11-01T14:30, or a duration ago (7d)')
    .option('--until <when>', 'to (default now; a date, today, yesterday means to the end of that day, this-month or last-month to the end of that month)')
    .addOption(new Option('--by <period>', 'one row per local day, week (from Monday) or month').choices([...GROUPINGS]).default('day'))
    .option('--in <fiat>', "value everything in this fiat: amounts asked in it count as they are, the rest at the gateway's current prices")
    .option('--check-stats', "compare the gateway's own payment statistics for the range (versioned API)")
    .action((flags: ReportFlags) => runF({ io: f.io, gateway: () => f.gateway(), clock: f.clock, ...buildReportOptions(flags, f.clock.now()) }));
  return withHelp(command, {
    examples: [
      'gw report',
      'gw report --since last-month --until last-month --by week',
      'gw report --since 2026-01-01 --by month --in EUR',
      'gw report --since today --json',
    ],
    json: '{"range": {"since", "until", "by", "timeZone"}, "periods": [{"period", "start", "end", "count", "byState", "asked", "received", "unreported", "byCurrency", "byCoin", "refunds", "payouts", "net", "value"?}], "totals": {…the same for the whole range}, "payouts": {"included", "note"?}, "prices"?: {"currency", "at", "basis": "current"}, "stats"?: {…}, "complete"} (amounts as exact decimal strings)',
  });
}

/** What the payout history added, or why it is not included. */
async function addPayouts(gateway: GatewayClient, opts: ReportOptions, builder: ReportBuilder): Promise<ReportDocument['payouts']> {
  try {
    const walk = await forEachPayout(
      gateway,
      { from: opts.since, to: opts.until },
      (payouts) => {
        for (const p of payouts)
          if (payoutCounts(p.status)) builder.addPayout({ coin: p.currency?.raw() ?? null, amount: p.amount, fee: p.fee, created: parseTimestamp(p.date) });
      },
      MAX_REPORT_PAGES,
    );
    return { included: true, count: walk.count, ...(walk.incomplete !== undefined && { incomplete: walk.incomplete }) };
  } catch (error) {
    // No payout key, a payout key the gateway refuses, or an API or sandbox without the payout
    // history: the report goes on without them, and says so.
    if (error instanceof ConfigError || (error instanceof GwError && error.exitCode === ExitCode.NOPERM))
      return { included: false, note: `payouts not included: ${error.message}` };
    // Out of time (the payment history may have used it all): the payments read are still shown,
    // and the report says it is incomplete instead of ending with nothing but this error.
    if (error instanceof GwError && error.exitCode === ExitCode.TEMPFAIL)
      return { included: false, note: `payouts not included: ${error.message}`, incomplete: `the payout history could not be read (${error.message})` };
    throw error;
  }
}

async function readStats(gateway: GatewayClient, opts: ReportOptions): Promise<PaymentStats> {
  return gateway.perform(PAYMENT_STATS, { from: opts.since, to: opts.until });
}

export async function reportRun(opts: ReportOptions): Promise<void> {
  const { io } = opts;
  const gateway = await opts.gateway();
  const builder = new ReportBuilder(opts.by, opts.in);
  const prices = opts.in === undefined ? undefined : await readPrices(gateway, opts.in, () => opts.clock.now());
  const listing = await listPayments(
    gateway,
    { from: opts.since, to: opts.until, size: 200 },
    {
      all: true,
      keep: false,
      maxPages: MAX_REPORT_PAGES,
      onRows: (rows: readonly PaymentInfo[]) => {
        for (const p of rows) builder.addPayment({ ...p, created: parseTimestamp(p.date) });
      },
    },
  );
  // A history stopped by Ctrl-C or a failure: nothing more is asked; what was read is shown, then the failure.
  const payouts: ReportDocument['payouts'] =
    listing.failure === undefined
      ? await addPayouts(gateway, opts, builder)
      : { included: false, note: 'payouts not included: the payment history stopped early' };
  // The statistics are compared with a complete history only (and may not cost the report its time).
  const stats = opts.checkStats && listing.incomplete === undefined && payouts.incomplete === undefined ? await readStats(gateway, opts) : undefined;
  const incomplete = [listing.incomplete, payouts.incomplete].filter((s): s is string => s !== undefined);
  const doc: ReportDocument = {
    since: opts.since,
    until: opts.until,
    by: opts.by,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    periods: builder.periods(periodsBetween(opts.since, opts.until, opts.by, MAX_PERIODS) ?? []),
    total: builder.total,
    payouts,
    ...(prices && { prices }),
    ...(stats && { stats }),
    incomplete,
  };
  if (io.json) io.printJson(reportJson(doc));
  else {
    io.sandboxBanner();
    // On a terminal fitted to its width (at most 100 columns); into a pipe nothing is cut.
    io.out(reportText(doc, io.stdoutIsTTY ? Math.min(io.width(), 100) - 1 : Number.MAX_SAFE_INTEGER, io.chalk, io.stdoutIsTTY));
  }
  if (listing.failure !== undefined) throw listing.failure.with({ message: `the report is incomplete: ${incomplete.join('; ')}: ${listing.failure.message}` });
  if (incomplete.length > 0) throw new GwError(ExitCode.PROTOCOL, `the report is incomplete: ${incomplete.join('; ')}`);
}
