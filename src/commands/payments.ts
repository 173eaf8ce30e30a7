// gw payments [filters] [--page n] [--size n] [--all]: the payment history (POST /merchants/list,
// or GET /v1/payment with api v1). On a terminal a table that fits the width; --json one document
// with every payment's fields. A range (--since/--until) is read whole, as --all, and totalled
// (src/domain/takings.ts: per state, asked per currency, received per coin). Which filters the gateway applies and which gw applies itself, the
// paging and when a listing is incomplete (exit 76): src/gateway/history.ts. --all writes each
// page as it is read, and stops (exit 74) when stdout can no longer take it. --format csv streams
// every page; with --in <FIAT> a column values each amount asked as gw report --in does
// (src/cmdutil/fiat-prices.ts reads the current prices once, src/views/payment-csv.ts the column).
import { Command } from 'commander';
import { parseSymbol, parseText, parseTrackId } from '../cmdutil/args.js';
import type { Clock } from '../util/clock.js';
import type { Factory } from '../cmdutil/factory.js';
import { CsvWriter, parseFormat } from '../cmdutil/csv-export.js';
import { keepHeapFlat } from '../cmdutil/stream-heap.js';
import { parseInFiat, readPrices } from '../cmdutil/fiat-prices.js';
import { withHelp } from '../cmdutil/help.js';
import { parseWhen } from '../cmdutil/time-args.js';
import { amountsWords } from '../domain/arrival.js';
import { PAYMENT_STATES, parseState } from '../domain/payment-status.js';
import { addPayment, emptyTotals, paymentTotals, totalsFooter, totalsJson } from '../domain/takings.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, PaymentFilter, PaymentInfo } from '../gateway/gateway.js';
import { type Listing, listPayments } from '../gateway/history.js';
import { Decimal } from '../money/decimal.js';
import { padVisible, truncateVisible, visibleWidth } from '../output/cells.js';
import type { IOStreams } from '../output/iostreams.js';
import { jsonArrayEnd, jsonArrayPage } from '../output/json.js';
import { terminalSafe } from '../output/sanitize.js';
import { currentPricesValuer, paymentCsvHeader, paymentCsvRows, valueColumn } from '../views/payment-csv.js';
import { stateColour } from '../views/status-view.js';
import { localDateTime, parseTimestamp } from '../output/time.js';

export interface PaymentsFlags {
  status?: string;
  orderId?: string;
  trackId?: string;
  currency?: string;
  payCurrency?: string;
  network?: string;
  address?: string;
  since?: string;
  until?: string;
  min?: string;
  max?: string;
  page?: string;
  size?: string;
  all?: boolean;
  format?: string;
  in?: string;
}

export interface PaymentsOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  filter: PaymentFilter;
  /** Follow every page (bounded by MAX_PAGES). */
  all: boolean;
  /** A range was asked for (--since/--until): the totals after the rows, and in --json. */
  totals?: boolean;
  /** --format csv: every page streamed as CSV, one row per transaction (src/views/payment-csv.ts). */
  csv?: boolean;
  /** With csv, --in: the fiat (upper case) each payment's amount asked is valued in, as gw report --in does. */
  csvIn?: string;
  /** Lifts the command's deadline (csv: each page keeps its own, --timeout). */
  releaseDeadline?: () => void;
}

/** Page size bounds (docs/gateway.md §6) and what --all asks for. */
export const PAGE_SIZE = { min: 1, max: 200, all: 200 } as const;
/** --all stops after this many pages. */
export const MAX_PAGES = 50;

function parseCount(text: string, flag: string, min: number, max: number): number {
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text.slice(0, 20)}")`);
  return n;
}

function parseBound(text: string, flag: string): Decimal {
  const amount = /^\s*\d+(?:\.\d+)?\s*$/.test(text) ? Decimal.fromLiteral(text.trim()) : undefined;
  if (amount === undefined) throw new UsageError(`${flag} must be a plain decimal amount such as 25 or 0.5 (got "${text.slice(0, 30)}")`);
  return amount;
}

/** --address: one address as typed (no spaces), compared exactly. */
function parseAddressFilter(text: string): string {
  const address = parseText(text.trim(), '--address', 200);
  if (address === '' || /\s/.test(address)) throw new UsageError(`--address must be an address without spaces (got "${text.slice(0, 60)}")`);
  return address;
}

/** The filter the flags ask for, checked before any request (exit 64). */
export function buildPaymentFilter(flags: PaymentsFlags, now: number): { filter: PaymentFilter; all: boolean; totals: boolean } {
  const filter: PaymentFilter = {};
  if (flags.status !== undefined) {
    const state = parseState(flags.status);
    if (state === undefined || state === 'unknown')
      throw new UsageError(`--status must be one of ${PAYMENT_STATES.filter((s) => s !== 'unknown').join(', ')} (got "${flags.status.slice(0, 30)}")`);
    filter.status = state;
  }
  if (flags.orderId !== undefined) filter.orderId = parseText(flags.orderId, '--order-id', 100);
  if (flags.trackId !== undefined) filter.trackId = parseTrackId(flags.trackId, '--track-id');
  if (flags.currency !== undefined) filter.currency = parseSymbol(flags.currency, '--currency');
  if (flags.payCurrency !== undefined) filter.payCurrency = parseSymbol(flags.payCurrency, '--pay-currency');
  if (flags.network !== undefined) filter.network = parseText(flags.network, '--network', 60);
  if (flags.address !== undefined) filter.address = parseAddressFilter(flags.address);
  if (flags.since !== undefined) filter.from = parseWhen(flags.since, '--since', now);
  if (flags.until !== undefined) filter.to = parseWhen(flags.until, '--until', now, true);
  if (filter.from !== undefined && filter.to !== undefined && filter.to < filter.from) throw new UsageError('--until is before --since');
  if (flags.min !== undefined) filter.minAmount = parseBound(flags.min, '--min');
  if (flags.max !== undefined) filter.maxAmount = parseBound(flags.max, '--max');
  if (filter.minAmount !== undefined && filter.maxAmount !== undefined && filter.maxAmount.compare(filter.minAmount) < 0)
    throw new UsageError('--max is below --min');
  // A range is read whole, every page as --all does, and totalled.
  const totals = flags.since !== undefined || flags.until !== undefined;
  const all = flags.all === true || totals;
  if (flags.all === true && flags.page !== undefined) throw new UsageError('--all reads every page: leave out --page');
  if (totals && flags.page !== undefined) throw new UsageError('--since and --until read the whole range, every page: leave out --page');
  if (flags.page !== undefined) filter.page = parseCount(flags.page, '--page', 1, 1_000_000);
  if (flags.size !== undefined) filter.size = parseCount(flags.size, '--size', PAGE_SIZE.min, PAGE_SIZE.max);
  else if (all) filter.size = PAGE_SIZE.all;
  return { filter, all, totals };
}

export function newCmdPayments(f: Factory, runF: (opts: PaymentsOptions) => Promise<void> = paymentsRun): Command {
  const command = new Command('payments')
    .option('--status <state>', `only payments in this state: ${PAYMENT_STATES.filter((s) => s !== 'unknown').join(', ')}`)
    .option('--order-id <id>', 'only the payments of this order')
    .option('--track-id <id>', 'only this payment')
    .option('--currency <sym>', 'only amounts asked in this currency (USD, BTC…)')
    .option('--pay-currency <sym>', 'only payments paid in this coin')
    .option('--network <name>', 'only payments on this network, e.g. "Tron Network"')
    .option('--address <address>', 'only payments to this address (a fixed address of gw address new)')
    .option('--since <when>', 'created at or after: 2026-11-01, today, yesterday, this-month, last-month, 2026-11-01T14:30, or a duration ago (2h, 7d)')
    .option(
      '--until <when>',
      'created at or before (a date, today or yesterday means to the end of that day; this-month or last-month to the end of that month)',
    )
    .option('--min <amount>', 'requested amount at least this')
    .option('--max <amount>', 'requested amount at most this')
    .option('--page <n>', 'page number, from 1')
    .option('--size <n>', `payments per page, ${PAGE_SIZE.min}–${PAGE_SIZE.max}`)
    .option('--all', `follow every page, printing each as it comes (at most ${MAX_PAGES} pages of ${PAGE_SIZE.all})`)
    .option('--format <format>', 'table, json (as --json) or csv: every page, one row per transaction (RFC 4180, spreadsheet-safe)')
    .option('--in <fiat>', "with --format csv: a column valuing each amount asked in this fiat (as asked in it, else at the gateway's current prices)")
    .action((flags: PaymentsFlags) => {
      const format = parseFormat(flags.format, f.io.json);
      const csv = format === 'csv';
      if (csv && flags.page !== undefined) throw new UsageError('--format csv exports every page: leave out --page');
      // --in values the CSV's rows; a range's totals in a fiat are gw report --in's.
      if (flags.in !== undefined && !csv) throw new UsageError('--in applies to --format csv (for totals in a fiat: gw report --in <fiat>)');
      const csvIn = flags.in === undefined ? undefined : parseInFiat(flags.in);
      if (format === 'json') f.io.setJson(true);
      const { filter, all, totals } = buildPaymentFilter(csv ? { ...flags, all: true } : flags, f.clock.now());
      return runF({
        io: f.io,
        gateway: () => f.gateway(),
        clock: f.clock,
        filter,
        all,
        totals,
        ...(csv && { csv, releaseDeadline: () => f.releaseDeadline() }),
        ...(csvIn !== undefined && { csvIn }),
      });
    });
  return withHelp(command, {
    examples: [
      'gw payments --order-id 1042',
      'gw payments --address TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe --all',
      'gw payments --since today',
      'gw payments --status paid --since 7d',
      'gw payments --since this-month --format csv > payments.csv',
      'gw payments --since last-month --until last-month --format csv --in EUR > october.csv',
      'gw payments --since 2026-11-01 --until 2026-11-30 --all --json | jq -r ".payments[].trackId"',
    ],
    json: '{"payments": [{"trackId", "status", "gatewayStatus", "amount", …every field the gateway sent}], "page", "pages", "total", "complete"} (amounts as exact decimal strings; "pages" and "total" null when gw filtered the payments itself and stopped reading once it had the page; "complete" false, with exit 76, when the gateway\'s pages repeated, its counts were impossible or the reading stopped early); with --since/--until every page is read and "totals": {"count", "byState": {"paid": 3}, "asked": {"USD": "25.3"}, "received": {"USDT": "25"}, "unreported"} is added',
  });
}

export async function paymentsRun(opts: PaymentsOptions): Promise<void> {
  if (opts.csv === true) return paymentsCsv(opts);
  const { io } = opts;
  const gateway = await opts.gateway();
  const stream = opts.all ? new ListingStream(io) : undefined;
  // Streamed, each page is written and added up as it is read and none is kept: memory stays flat
  // in the number of payments.
  const running = stream !== undefined && opts.totals === true ? emptyTotals() : undefined;
  const listing = await listPayments(gateway, opts.filter, {
    all: opts.all,
    maxPages: MAX_PAGES,
    ...(stream && {
      keep: false,
      onRows: (rows: readonly PaymentInfo[]) => {
        if (running !== undefined) for (const p of rows) addPayment(running, p);
        return stream.rows(rows);
      },
    }),
  });
  const complete = listing.incomplete === undefined;
  const totals = opts.totals === true ? (running ?? paymentTotals(listing.payments)) : undefined;
  const counts = { page: listing.page, pages: listing.pages, total: listing.total, complete, ...(totals && { totals: totalsJson(totals, complete) }) };
  if (stream !== undefined) {
    await stream.end(counts, totals && totalsFooter(totals, complete));
  } else if (io.json) {
    io.printJson({ payments: listing.payments.map((p) => ({ ...p.fields })), ...counts });
  } else if (totals !== undefined) {
    io.sandboxBanner();
    if (listing.payments.length > 0) io.out(paymentsTable(listing.payments, io.stdoutIsTTY ? io.width() - 1 : undefined, io.chalk));
    io.out(totalsFooter(totals, complete));
  } else {
    io.sandboxBanner();
    if (listing.payments.length === 0) {
      io.out(
        listing.total !== null && listing.total > 0 && listing.pages !== null
          ? `No payments on page ${listing.page} (${listing.total} in all, ${listing.pages} pages).\n`
          : 'No payments match.\n',
      );
    } else {
      io.out(paymentsTable(listing.payments, io.stdoutIsTTY ? io.width() - 1 : undefined, io.chalk));
      if (complete) pageNotice(io, listing);
    }
  }
  if (!complete) throw incompleteError(listing, stream?.count ?? listing.payments.length);
}

/** The next page, on a terminal: where the listing is, and how to go on. */
function pageNotice(io: IOStreams, listing: Listing): void {
  const { page, pages, total } = listing;
  if (pages === null || total === null) {
    io.notice(`page ${page} of the payments gw found: --page ${page + 1} for the next, --all for every one`);
  } else if (pages > 1) {
    io.notice(`page ${page} of ${pages} (${total} payments)${page < pages ? `: --page ${page + 1} for the next, --all for every one` : ''}`);
  }
}

/**
 * --format csv: every page (no page cap), each page's rows written and flushed before the next is
 * read, none kept, so memory stays flat; each request keeps its own deadline (--timeout) instead
 * of the command's. An incomplete listing ends, after the rows read, with one stderr line: exit
 * 76 (130/143 when interrupted; 74 when stdout went away).
 */
async function paymentsCsv(opts: PaymentsOptions): Promise<void> {
  const { io } = opts;
  const gateway = await opts.gateway();
  // --in: the current prices, read once, before the export and within the command's deadline.
  const prices = opts.csvIn === undefined ? undefined : await readPrices(gateway, opts.csvIn, () => opts.clock.now());
  opts.releaseDeadline?.();
  io.sandboxBanner();
  const valuer = prices && currentPricesValuer(prices);
  const options = { valuer };
  if (prices !== undefined && valuer !== undefined)
    io.notice(
      `gw: ${valueColumn(valuer)}: each amount asked in ${prices.fiat} as it is; any other at the gateway's current prices, read ${isoSecond(prices.at)}: not the value at the time of each payment`,
    );
  const out = new CsvWriter(io, paymentCsvHeader(options), 'payment');
  let unlisted = 0;
  let totalsOnly = 0;
  const listing = await listPayments(gateway, opts.filter, {
    all: true,
    maxPages: Number.POSITIVE_INFINITY,
    keep: false,
    onRows: (rows: readonly PaymentInfo[]) => {
      for (const p of rows) if (p.arrival.transactions === null) p.arrival.source === 'total' ? totalsOnly++ : unlisted++;
      return out.write(rows.map((p) => paymentCsvRows(p, options)).join(''), rows.length);
    },
  });
  await out.end();
  // The legacy history lists no transactions: said once, with the way to get them.
  const none = unlisted + totalsOnly;
  if (none > 0)
    io.notice(
      `gw: the history lists no transactions for ${none === out.count ? 'these payments' : `${none} of ${out.count} payments`}: one row each, ${
        unlisted === 0
          ? 'with the received total the gateway gives in tx_amount'
          : totalsOnly === 0
            ? 'without what arrived'
            : `${totalsOnly} with the received total the gateway gives in tx_amount, the rest without what arrived`
      } (the versioned API lists them: --api v1)`,
    );
  if (valuer !== undefined && valuer.unpriced.size > 0)
    io.notice(
      `gw: ${valueColumn(valuer)} is empty for the payments asked in ${[...valuer.unpriced]
        .sort()
        .map((s) => terminalSafe(s))
        .join(', ')}: the gateway gives no price for ${valuer.unpriced.size === 1 ? 'it' : 'them'}`,
    );
  if (listing.incomplete !== undefined) throw incompleteError(listing, out.count);
}

/** 2026-11-25T14:30:05Z. */
const isoSecond = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/**
 * The one line (exit 76) that says what the listing lacks, printed after the payments read. A page
 * that failed for another reason keeps that failure's exit code.
 */
function incompleteError(listing: Listing, count: number): GwError {
  const shown = `${count} payment${count === 1 ? '' : 's'} shown`;
  const what = `the listing is incomplete: ${listing.incomplete ?? ''}; ${shown}`;
  if (listing.failure !== undefined) return listing.failure.with({ message: `${what}: ${listing.failure.message}` });
  return new GwError(ExitCode.PROTOCOL, what);
}

/**
 * The output of --all, written as the pages are read: the table (its columns sized by the first
 * rows), or the JSON document, the same text printJson would give. A stdout that can no longer
 * take the output (the reader went away, a full disk, a bad descriptor) stops the reading: exit 74.
 */
class ListingStream {
  #count = 0;
  #layout: TableLayout = {};

  constructor(private readonly io: IOStreams) {}

  /** The payments written so far. */
  get count(): number {
    return this.#count;
  }

  async rows(rows: readonly PaymentInfo[]): Promise<void> {
    const { io } = this;
    // From the second page on: a listing of one page does not load node:v8 for it.
    if (this.#count > 0) keepHeapFlat(io);
    if (io.json) {
      // The page as printJson lays it out in the whole document, in one piece.
      io.out(
        jsonArrayPage(
          'payments',
          rows.map((p) => p.fields),
          this.#count === 0,
        ),
      );
    } else {
      if (this.#count === 0) io.sandboxBanner();
      io.out(paymentsTable(rows, io.stdoutIsTTY ? io.width() - 1 : undefined, io.chalk, this.#layout));
    }
    this.#count += rows.length;
    await this.#check();
  }

  async end(counts: { page: number; pages: number | null; total: number | null; complete: boolean }, footer?: string): Promise<void> {
    const { io } = this;
    if (io.json) {
      io.out(jsonArrayEnd('payments', io.sandbox ? { ...counts, sandbox: true } : counts, this.#count === 0));
    } else {
      if (this.#count === 0) io.sandboxBanner();
      if (footer !== undefined) io.out(footer);
      else if (this.#count === 0) io.out('No payments match.\n');
    }
    await this.#check();
  }

  async #check(): Promise<void> {
    await this.io.flush();
    if (this.io.stdoutClosed) {
      throw new GwError(
        ExitCode.IOERR,
        `stdout was closed (EPIPE) after ${this.#count} payment${this.#count === 1 ? '' : 's'}: gw payments --all stopped reading`,
      );
    }
  }
}

interface Column {
  title: string;
  /** Dropped, in this order, while the table is too wide. */
  drop: number;
  cell(p: PaymentInfo): string;
  style?: (p: PaymentInfo, text: string) => string;
}

/**
 * The columns and widths of a table printed in parts (--all, page by page): set by the first part,
 * kept by the next ones (a wider cell then pushes its row), which have no header.
 */
export interface TableLayout {
  shown?: number[];
  widths?: number[];
}

/** "0.0005 BTC (2 txs)", "nothing", or "unreported" (the legacy API lists no transactions). */
export function receivedCell(p: PaymentInfo): string {
  const { received, transactions } = p.arrival;
  if (received === null) return 'unreported';
  const count = transactions === null ? '' : ` (${transactions.length} tx${transactions.length === 1 ? '' : 's'})`;
  return received.size === 0 && transactions?.length === 0 ? 'nothing' : `${amountsWords(received)}${count}`;
}

/** The table, fitted to `width` when given (a terminal): columns dropped, then the last ones cut. */
export function paymentsTable(payments: readonly PaymentInfo[], width: number | undefined, chalk: IOStreams['chalk'], layout?: TableLayout): string {
  const amount = (value: Decimal | null, unit: { toString(): string } | null): string => (value === null ? '' : `${value} ${unit ?? ''}`.trim());
  const columns: Column[] = [
    {
      title: 'Created',
      drop: 5,
      cell: (p) => {
        const d = parseTimestamp(p.date);
        return d === undefined ? '' : localDateTime(d).slice(0, 16);
      },
    },
    { title: 'Track ID', drop: 99, cell: (p) => p.trackId.toString() },
    { title: 'Status', drop: 99, cell: (p) => p.status, style: (p, text) => stateColour(p.status, chalk)(text) },
    { title: 'Amount', drop: 98, cell: (p) => amount(p.amount, p.currency) },
    { title: 'Pay amount', drop: 2, cell: (p) => amount(p.payAmount, p.payCurrency) },
    // What arrived, from the transactions (src/domain/arrival.ts), and how many; the legacy API does not say.
    { title: 'Received', drop: 4, cell: (p) => receivedCell(p) },
    { title: 'Network', drop: 1, cell: (p) => p.network?.toString() ?? '' },
    { title: 'Order ID', drop: 3, cell: (p) => p.orderId?.toString() ?? '' },
  ];
  const cells = payments.map((p) => columns.map((c) => c.cell(p)));
  let shown = columns.map((_, i) => i);
  const widthOf = (i: number): number => Math.max(visibleWidth(columns[i]?.title ?? ''), ...cells.map((row) => visibleWidth(row[i] ?? '')));
  const total = (): number => shown.reduce((sum, i) => sum + widthOf(i), 0) + 2 * (shown.length - 1);
  const continued = layout?.shown !== undefined;
  if (layout?.shown !== undefined) shown = layout.shown;
  else if (width !== undefined) {
    const order = [...shown].sort((a, b) => (columns[a]?.drop ?? 0) - (columns[b]?.drop ?? 0));
    for (const i of order) {
      if (total() <= width) break;
      // The order id is cut rather than dropped while it can keep a few characters.
      if (columns[i]?.title === 'Order ID' && total() - widthOf(i) + 8 <= width) break;
      if ((columns[i]?.drop ?? 99) < 98) shown = shown.filter((j) => j !== i);
    }
  }
  const widths = layout?.widths ?? shown.map(widthOf);
  if (layout !== undefined) {
    layout.shown = shown;
    layout.widths = widths;
  }
  const line = (texts: string[], style: (k: number, text: string) => string): string => {
    const text = texts
      .map((t, k) => (k === texts.length - 1 ? style(k, t) : padVisible(style(k, t), widths[k] ?? 0)))
      .join('  ')
      .trimEnd();
    return width === undefined ? text : truncateVisible(text, width);
  };
  const header = line(
    shown.map((i) => columns[i]?.title ?? ''),
    (_k, t) => chalk.bold(t),
  );
  const body = payments.map((p, r) =>
    line(
      shown.map((i) => cells[r]?.[i] ?? ''),
      (k, t) => columns[shown[k] ?? 0]?.style?.(p, t) ?? t,
    ),
  );
  return `${(continued ? body : [header, ...body]).join('\n')}\n`;
}
