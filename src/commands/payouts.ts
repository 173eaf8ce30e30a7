// gw payouts [filters] [--page n] [--size n]: the payout history (GET /v1/payout, payout key;
// docs/gateway.md §13), newest first. The gateway filters by status, type, currency, network,
// amount and date; gw adds --reference and --address, which it matches itself over the window
// (--since, default the last 90 days: every page of it is read). `payoutRows` is the table's one
// mapping from a payout to its cells; `--format csv` streams every page (src/output/csv.ts: RFC 4180,
// formula-guarded text, amounts as numbers, times in UTC), each page written before the next is read.
import { Command } from 'commander';
import { parseSymbol, parseText } from '../cmdutil/args.js';
import { CsvWriter } from '../cmdutil/csv-export.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { parseReference, referenceOf } from '../cmdutil/payout-reference.js';
import { findPayouts, LOOKBACK_DAYS } from '../cmdutil/payout-find.js';
import { payoutJson } from '../cmdutil/payout-view.js';
import { parseWhen } from '../cmdutil/time-args.js';
import { PAYOUT_STATES } from '../domain/payout-status.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { forEachPayout } from '../gateway/payout-pages.js';
import { Decimal } from '../money/decimal.js';
import { MAX_PAYOUT_PAGE_SIZE, PAYOUT_HISTORY, type PayoutFilter } from '../operations/payout-history.js';
import type { Payout } from '../operations/payout-info.js';
import { type CsvCell, csvNumber, csvRecord } from '../output/csv.js';
import type { IOStreams } from '../output/iostreams.js';
import { renderTable } from '../output/table.js';
import { localDateTime, parseTimestamp } from '../output/time.js';
import type { Clock } from '../util/clock.js';

export interface PayoutsOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  filter: PayoutFilter;
  /** Matched by gw over the window (every page of it). */
  reference?: string;
  address?: string;
  /** --format csv: every page, streamed as CSV. */
  csv?: boolean;
  /** Lifts the command's deadline (csv: each page request keeps its own, --timeout). */
  releaseDeadline?: () => void;
}

/** --format csv stops after this many pages (a gateway whose pages never end), and says so: exit 76. */
export const MAX_CSV_PAGES = 10_000;

interface PayoutsFlags {
  format?: string;
  status?: string;
  type?: string;
  currency?: string;
  network?: string;
  minAmount?: string;
  maxAmount?: string;
  since?: string;
  until?: string;
  page?: string;
  size?: string;
  reference?: string;
  address?: string;
}

/** The table's columns, and each payout's cells (plain text; gateway text made terminal-safe by the table). */
export const PAYOUT_COLUMNS = ['Track ID', 'Created', 'Status', 'Amount', 'Coin', 'Network', 'To', 'Reference'] as const;

export function payoutRows(payouts: readonly Payout[]): string[][] {
  return payouts.map((p) => {
    const date = parseTimestamp(p.date);
    return [
      p.trackId.raw(),
      date === undefined ? '' : localDateTime(date),
      p.status === 'unknown' ? (p.gatewayStatus?.raw() ?? 'unknown') : p.status,
      p.amount?.toString() ?? '',
      p.currency?.raw() ?? '',
      p.network?.raw() ?? '',
      p.address?.raw() ?? '',
      referenceOf(p.description?.raw()) ?? '',
    ];
  });
}

/** The CSV columns, and a payout's record: times in UTC, amounts as numbers, the reference apart. */
export const PAYOUT_CSV_COLUMNS = [
  'track_id',
  'created_at',
  'status',
  'gateway_status',
  'amount',
  'fee',
  'currency',
  'network',
  'address',
  'memo',
  'tx_hash',
  'reference',
  'description',
] as const;

export function payoutCsvRow(p: Payout): CsvCell[] {
  const date = parseTimestamp(p.date);
  const text = (value: { raw(): string } | null): string | null => (value === null ? null : value.raw());
  return [
    p.trackId.raw(),
    date === undefined ? null : date.toISOString().replace('.000Z', 'Z'),
    p.status,
    text(p.gatewayStatus),
    p.amount === null ? null : csvNumber(p.amount),
    p.fee === null ? null : csvNumber(p.fee),
    text(p.currency),
    text(p.network),
    text(p.address),
    text(p.memo),
    text(p.txHash),
    referenceOf(p.description?.raw()) ?? null,
    text(p.description),
  ];
}

function positiveInt(text: string, flag: string, max: number): number {
  const n = /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(Number.isInteger(n) && n >= 1 && n <= max)) throw new UsageError(`${flag} must be a whole number from 1 to ${max} (got "${text.slice(0, 20)}")`);
  return n;
}

function amountFlag(text: string, flag: string): Decimal {
  const d = Decimal.parseAmount(text.trim());
  if (d === undefined || d.isNegative) throw new UsageError(`${flag} must be a plain decimal such as 12.5 (got "${text.slice(0, 30)}")`);
  return d;
}

export function parsePayoutsFlags(flags: PayoutsFlags, now: number): Omit<PayoutsOptions, 'io' | 'gateway' | 'clock'> {
  const filter: PayoutFilter = {};
  if (flags.status !== undefined) {
    const status = flags.status.trim().toLowerCase();
    if (!(PAYOUT_STATES as readonly string[]).includes(status) || status === 'unknown') {
      throw new UsageError(`--status must be one of ${PAYOUT_STATES.filter((s) => s !== 'unknown').join(', ')} (got "${flags.status.slice(0, 20)}")`);
    }
    filter.status = status;
  }
  if (flags.type !== undefined) {
    if (flags.type !== 'internal' && flags.type !== 'external') throw new UsageError('--type must be internal or external');
    filter.type = flags.type;
  }
  if (flags.currency !== undefined) filter.currency = parseSymbol(flags.currency, '--currency');
  if (flags.network !== undefined) filter.network = parseText(flags.network, '--network', 60);
  if (flags.minAmount !== undefined) filter.minAmount = amountFlag(flags.minAmount, '--min-amount');
  if (flags.maxAmount !== undefined) filter.maxAmount = amountFlag(flags.maxAmount, '--max-amount');
  if (flags.since !== undefined) filter.from = parseWhen(flags.since, '--since', now);
  if (flags.until !== undefined) filter.to = parseWhen(flags.until, '--until', now, true);
  // A range that cannot hold anything is a mistake in the line, not an empty answer.
  if (filter.minAmount !== undefined && filter.maxAmount !== undefined && filter.minAmount.compare(filter.maxAmount) > 0) {
    throw new UsageError(`--min-amount ${filter.minAmount} is more than --max-amount ${filter.maxAmount}`);
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from.getTime() > filter.to.getTime()) {
    throw new UsageError(`--since is later than --until: no payout can be in that window`);
  }
  if (flags.page !== undefined) filter.page = positiveInt(flags.page, '--page', 100_000);
  if (flags.size !== undefined) filter.size = positiveInt(flags.size, '--size', 200);
  const out: Omit<PayoutsOptions, 'io' | 'gateway' | 'clock'> = { filter };
  if (flags.reference !== undefined) out.reference = parseReference(flags.reference);
  if (flags.address !== undefined) out.address = parseText(flags.address, '--address', 128).trim();
  if ((out.reference !== undefined || out.address !== undefined) && filter.page !== undefined) {
    throw new UsageError('--page does not go with --reference or --address: gw reads every page of the window to match them');
  }
  return out;
}

export function newCmdPayouts(f: Factory, runF: (opts: PayoutsOptions) => Promise<void> = payoutsRun): Command {
  return withHelp(
    new Command('payouts')
      .option('--status <state>', `only payouts in this state (${PAYOUT_STATES.filter((s) => s !== 'unknown').join(', ')})`)
      .option('--type <type>', 'internal (to another account of the gateway) or external')
      .option('--currency <sym>', 'only this coin')
      .option('--network <name>', 'only this network')
      .option('--min-amount <n>', 'amount at least')
      .option('--max-amount <n>', 'amount at most')
      .option('--since <when>', 'created at or after (2026-11-01, today, 7d…)')
      .option('--until <when>', 'created at or before')
      .option('--reference <ref>', `only the payout with this reference (gw matches it over every page since --since, default ${LOOKBACK_DAYS} days)`)
      .option('--address <addr>', 'only payouts to this address (matched by gw, like --reference)')
      .option('--page <n>', 'page number (1 = newest)')
      .option('--size <n>', 'payouts per page, 1–200 (gateway default 10)')
      .option('--format <format>', 'table, json (as --json) or csv: every page (RFC 4180, spreadsheet-safe)')
      .action((flags: PayoutsFlags) => {
        const format = flags.format ?? (f.io.json ? 'json' : 'table');
        if (!['table', 'json', 'csv'].includes(format)) throw new UsageError(`--format must be table, json or csv (got "${format.slice(0, 20)}")`);
        if (format === 'csv' && flags.page !== undefined) throw new UsageError('--format csv exports every page: leave out --page');
        if (format === 'json') f.io.setJson(true);
        return runF({
          io: f.io,
          gateway: () => f.gateway(),
          clock: f.clock,
          ...parsePayoutsFlags(flags, f.clock.now()),
          ...(format === 'csv' && { csv: true, releaseDeadline: () => f.releaseDeadline() }),
        });
      }),
    {
      examples: [
        'gw payouts',
        'gw payouts --status confirmed --currency USDT --since 7d',
        'gw payouts --since this-month --format csv > payouts.csv',
        'gw payouts --reference gw-po-20261125-140205-k7q3 --address T…',
      ],
      json: '{"payouts": [{"trackId": "258298451", "status": "confirmed", "amount": "12.5", "currency": "USDT", "fee": "1", …}], "page": 1, "pages": 1, "total": 1}',
    },
  );
}

export async function payoutsRun(opts: PayoutsOptions): Promise<void> {
  const { io } = opts;
  if (opts.csv === true && opts.reference === undefined && opts.address === undefined) return payoutsCsv(opts);
  const gateway = await opts.gateway();
  let payouts: Payout[];
  let paging: { page: number; pages: number; total: number };
  if (opts.reference !== undefined || opts.address !== undefined) {
    const since = opts.filter.from ?? new Date(opts.clock.now() - LOOKBACK_DAYS * 86_400_000);
    const found = await findPayouts(gateway, {
      since,
      ...(opts.reference !== undefined && { reference: opts.reference }),
      ...(opts.address !== undefined && { address: opts.address }),
      ...(opts.filter.currency !== undefined && { currency: opts.filter.currency }),
    });
    payouts = found.filter((p) => opts.filter.status === undefined || p.status === opts.filter.status);
    paging = { page: 1, pages: 1, total: payouts.length };
  } else {
    const page = await gateway.perform(PAYOUT_HISTORY, opts.filter);
    payouts = page.payouts;
    paging = { page: page.page, pages: page.pages, total: page.total };
  }
  if (opts.csv === true) {
    io.out([PAYOUT_CSV_COLUMNS, ...payouts.map(payoutCsvRow)].map((cells) => csvRecord(cells)).join(''));
    return;
  }
  if (io.json) return io.printJson({ payouts: payouts.map(payoutJson), ...paging });
  io.sandboxBanner();
  if (payouts.length === 0) {
    io.out('No payouts.\n');
    return;
  }
  io.out(renderTable([...PAYOUT_COLUMNS], payoutRows(payouts)));
  if (paging.pages > 1) io.notice(`page ${paging.page} of ${paging.pages} (${paging.total} payouts): --page ${paging.page + 1} for more`);
}

/**
 * --format csv: every page of the history, each page's rows written and flushed before the next is
 * read, none kept, so memory stays flat; each request keeps its own deadline (--timeout) instead of
 * the command's. Pages that repeat, a page that fails after the first, or the page cap end the
 * export after the rows read with one stderr line: exit 76 (130/143 when interrupted; 74 when
 * stdout went away).
 */
async function payoutsCsv(opts: PayoutsOptions): Promise<void> {
  const { io } = opts;
  const gateway = await opts.gateway();
  opts.releaseDeadline?.();
  io.sandboxBanner();
  const out = new CsvWriter(io, csvRecord(PAYOUT_CSV_COLUMNS), 'payout');
  const { page: _page, size, ...filter } = opts.filter;
  const walk = await forEachPayout(
    gateway,
    filter,
    (payouts) => out.write(payouts.map((p) => csvRecord(payoutCsvRow(p))).join(''), payouts.length),
    MAX_CSV_PAGES,
    size ?? MAX_PAYOUT_PAGE_SIZE,
  );
  await out.end();
  if (walk.incomplete !== undefined) {
    const n = out.count;
    const what = `the export is incomplete: ${walk.incomplete}; ${n} payout${n === 1 ? '' : 's'} written`;
    // The deadline, a repeated page: 76. A page that failed for another reason keeps its exit code, as gw payments does.
    throw walk.failure === undefined ? new GwError(ExitCode.PROTOCOL, what) : walk.failure.with({ message: what });
  }
}
