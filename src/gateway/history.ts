// The payment history, read as a listing gw can vouch for: which filters go to the gateway, which
// gw applies itself, how many of the gateway's pages it reads, and whether what it read is all.
//
// - Filters: a client sends only those its API documents (GatewayClient.historyFilters: the
//   versioned history has no order id). gw applies the others itself, and checks every row the
//   gateway sends against every filter: a row that contradicts one is never shown (a service that
//   ignores a filter must not produce wrong rows). A row that does not say (no order id, no date)
//   is kept when the gateway applied that filter, and dropped when gw applies it alone.
// - Paging: while the gateway applies every filter, --page and --size are the gateway's. Once gw
//   filters (a filter not sent, or rows that show the gateway ignored one), --page and --size
//   apply to the filtered result and gw reads the gateway's pages, the largest the APIs document
//   (200), until it has the page asked for, the pages end, or the command's deadline.
// - Completeness: pages that repeat, counts that cannot be (a last page before the page sent, a
//   page other than the one asked for, fewer payments than the total said), a page that could not
//   be read (the deadline) end the reading; what was read is kept, and the listing says what is
//   missing (`incomplete`).
import { asciiUpperCase } from '../util/ascii.js';
import { ExitCode, GwError } from '../errors.js';
import type { Decimal } from '../money/decimal.js';
import { parseTimestamp } from '../output/time.js';
import { type GatewayClient, HISTORY_FILTERS, type HistoryFilterName, type PaymentFilter, type PaymentInfo, type PaymentPage } from './gateway.js';
import { SeenIds, unseenRows } from './seen-ids.js';

/** The largest history page both APIs take (the versioned history documents size 1–200). */
export const SCAN_PAGE_SIZE = 200;
/** The gateway's own page size when none is asked for (the versioned history's default). */
export const DEFAULT_PAGE_SIZE = 10;
/** The most pages gw reads when it filters itself (200 payments each), whatever the deadline, unless the caller allows more (maxPages). */
export const MAX_SCAN_PAGES = 500;

export interface ListingOptions {
  /** Every matching payment (--all) instead of the filter's page. */
  all: boolean;
  /** With `all` while the gateway filters: the most pages read. */
  maxPages: number;
  /** Called with each batch of matching payments as they are read (--all streams them); may throw to stop. */
  onRows?: (rows: readonly PaymentInfo[]) => Promise<void> | void;
  /**
   * With `all`: false to hand the rows only to `onRows` and keep none (`payments` stays empty), so
   * reading a long range takes memory flat in its rows (gw report). Default true.
   */
  keep?: boolean;
}

export interface Listing {
  /** The payments to show: the page asked for, or with `all` every one read. */
  payments: PaymentInfo[];
  /** The page shown, the number of pages and of payments: null when gw stopped reading before the end. */
  page: number;
  pages: number | null;
  total: number | null;
  /** gw filtered the rows itself and did the paging (the gateway's counts do not apply). */
  filteredByGw: boolean;
  /** What is missing, when the listing is not complete (one sentence). */
  incomplete?: string;
  /** A failure that stopped the reading after some pages (other than the deadline): reported after the output. */
  failure?: GwError;
}

/**
 * How a row stands to one filter: it matches, contradicts it (the gateway did not apply it), does
 * not say, or is `narrower`: the gateway's word matches and gw's finer state does not (a payment
 * the gateway calls expired that gw calls late, funds having arrived after the expiry).
 */
type Verdict = 'yes' | 'no' | 'unknown' | 'narrower';

// Upper-cased by ASCII rules only: Unicode folding would make "uſdt" (long s) or "ＵＳＤＴ" match USDT.
const same = (a: string, b: string): boolean => asciiUpperCase(a.trim()) === asciiUpperCase(b.trim());

/** Whether a text field matches: any of `values` (nulls are "does not say"). */
function textVerdict(values: ReadonlyArray<{ raw(): string } | null>, wanted: string, equal: (a: string, b: string) => boolean): Verdict {
  const known = values.filter((v): v is { raw(): string } => v !== null && v.raw().trim() !== '');
  if (known.length === 0) return 'unknown';
  return known.some((v) => equal(v.raw(), wanted)) ? 'yes' : 'no';
}

type NetworkMatcher = (text: string) => string | undefined;

/** Network names compared as the gateway spells them ("Tron Network", "TRC20", "tron"): the same network, or not known. */
function networkEqual(resolve: NetworkMatcher | undefined): (a: string, b: string) => boolean {
  return (a, b) => {
    if (same(a, b)) return true;
    const [x, y] = [resolve?.(a), resolve?.(b)];
    return x !== undefined && x === y;
  };
}

/** One filter against one row. */
function verdict(p: PaymentInfo, name: HistoryFilterName, filter: PaymentFilter, network: NetworkMatcher | undefined): Verdict {
  const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);
  const created = parseTimestamp(p.date);
  const amount = (bound: Decimal | undefined, keep: (c: number) => boolean): Verdict =>
    bound === undefined ? 'yes' : p.amount === null ? 'unknown' : keep(p.amount.compare(bound)) ? 'yes' : 'no';
  switch (name) {
    case 'status':
      if (filter.status === undefined) return 'yes';
      if (p.status === 'unknown') return 'unknown';
      if (p.status === filter.status) return 'yes';
      // A late payment is an expired one with funds: the gateway says expired for both. Whether an
      // expired one received funds, only its transactions tell (not every answer lists them).
      if (filter.status === 'late' && p.status === 'expired') return 'unknown';
      return filter.status === 'expired' && p.status === 'late' ? 'narrower' : 'no';
    case 'orderId':
      return filter.orderId === undefined ? 'yes' : textVerdict([p.orderId], filter.orderId, (a, b) => a === b);
    case 'trackId':
      return filter.trackId === undefined ? 'yes' : textVerdict([p.trackId], filter.trackId, (a, b) => a.trim() === b.trim());
    case 'currency':
      return filter.currency === undefined ? 'yes' : textVerdict([p.currency], filter.currency, same);
    case 'payCurrency':
      return filter.payCurrency === undefined ? 'yes' : textVerdict([p.payCurrency, ...p.txs.map((t) => t.currency)], filter.payCurrency, same);
    case 'network':
      return filter.network === undefined ? 'yes' : textVerdict([p.network, ...p.txs.map((t) => t.network)], filter.network, networkEqual(network));
    case 'address':
      // Exact: an address is case-sensitive on most chains.
      return filter.address === undefined ? 'yes' : textVerdict([p.address, ...p.txs.map((t) => t.address)], filter.address, (a, b) => a.trim() === b.trim());
    case 'from':
      return filter.from === undefined ? 'yes' : created === undefined ? 'unknown' : seconds(created) >= seconds(filter.from) ? 'yes' : 'no';
    case 'to':
      return filter.to === undefined ? 'yes' : created === undefined ? 'unknown' : seconds(created) <= seconds(filter.to) ? 'yes' : 'no';
    case 'minAmount':
      return amount(filter.minAmount, (c) => c >= 0);
    case 'maxAmount':
      return amount(filter.maxAmount, (c) => c <= 0);
  }
}

/** The filters given (paging aside). */
export function givenFilters(filter: PaymentFilter): HistoryFilterName[] {
  return HISTORY_FILTERS.filter((name) => filter[name] !== undefined);
}

/**
 * Whether a row may be shown for `filter`: no filter contradicts it, and every filter the gateway
 * did not apply (not in `sent`) confirms it.
 */
export function rowMatches(p: PaymentInfo, filter: PaymentFilter, sent: ReadonlySet<HistoryFilterName>, network?: NetworkMatcher): boolean {
  for (const name of givenFilters(filter)) {
    const v = verdict(p, name, filter, network);
    if (v === 'no' || v === 'narrower' || (v === 'unknown' && !sent.has(name))) return false;
  }
  return true;
}

/** Whether a row shows that the gateway did not apply a filter it was sent. */
export function rowContradicts(p: PaymentInfo, filter: PaymentFilter, network?: NetworkMatcher): boolean {
  return givenFilters(filter).some((name) => verdict(p, name, filter, network) === 'no');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a page's paging cannot be right, if it cannot. */
function impossiblePaging(answer: PaymentPage, asked: number): string | undefined {
  const d = answer.declared ?? {};
  if (d.page !== undefined && d.page !== asked) return `the gateway answered page ${d.page} when asked for page ${asked}`;
  if (d.page !== undefined && d.pages !== undefined && d.pages < d.page && !(d.pages === 0 && answer.payments.length === 0))
    return `the gateway's page ${d.page} says the last page is ${d.pages}`;
  return undefined;
}

/**
 * A failure of a page after the first: the deadline (or the gateway's rate limit) stops the reading;
 * so do Ctrl-C and SIGTERM, whose failure is kept (exit 130/143) so the payments read are still
 * printed whole, a streamed --json document closed with "complete": false.
 */
function stopFor(error: unknown): GwError {
  if (!(error instanceof GwError)) throw error;
  return error;
}

const isInterruption = (error: GwError): boolean => error.exitCode === ExitCode.INTERRUPTED || error.exitCode === ExitCode.TERMINATED;

interface Walk {
  /** Matching payments read, in order, each track id once (none kept when `keep` is false). */
  rows: PaymentInfo[];
  /** How many matching payments were read. */
  matched: number;
  /** Distinct payments the gateway sent (matching or not). */
  seen: number;
  last: PaymentPage;
  /** The gateway's pages ended (as it counted them). */
  ended: boolean;
  incomplete?: string;
  failure?: GwError;
  /** A row contradicted a filter the gateway was sent (only checked on the first page). */
  contradicted: boolean;
}

/** A page's paging without its payments: what the reading keeps of a page once its rows are handed on. */
const pagingOf = (page: PaymentPage): PaymentPage => ({
  payments: [],
  page: page.page,
  pages: page.pages,
  total: page.total,
  ...(page.declared !== undefined && { declared: page.declared }),
});

/**
 * Reads the gateway's pages from the first, `size` payments each, keeping the rows that match,
 * until `enough(rows)` says stop, the pages end, `maxPages` pages were read, or a page fails.
 * Between pages it holds only the track ids read (./seen-ids.ts) and the last page's paging: a
 * page's payments are handed on (or kept, with `keep`) and dropped before the next is asked for.
 */
async function walk(
  gateway: GatewayClient,
  filter: PaymentFilter,
  size: number | undefined,
  sent: ReadonlySet<HistoryFilterName>,
  network: NetworkMatcher | undefined,
  limits: { maxPages: number; enough: (rows: number) => boolean; stopOnContradiction: boolean; onRows?: ListingOptions['onRows']; keep?: boolean },
): Promise<Walk> {
  const base: PaymentFilter = { ...filter };
  delete base.page;
  delete base.size;
  if (size !== undefined) base.size = size;
  const ids = new SeenIds();
  const rows: PaymentInfo[] = [];
  const read = (n: number): Promise<PaymentPage> => gateway.payments(n === 1 ? base : { ...base, page: n });
  let n = 1;
  let page: PaymentPage | undefined = await read(n);
  const out: Walk = { rows, matched: 0, seen: 0, last: page, ended: false, contradicted: false };
  /** One page read: its rows handed on; 'stop' once out says why the reading ends. */
  const take = async (answer: PaymentPage, at: number): Promise<'stop' | 'next'> => {
    out.last = answer;
    const fresh = unseenRows(answer.payments, (p) => p.trackId.raw(), ids);
    const paging = impossiblePaging(answer, at);
    if (at > 1 && answer.payments.length > 0 && fresh.length === 0) {
      out.incomplete = `the gateway's page ${at} repeats payments of earlier pages`;
      return 'stop';
    }
    if (paging !== undefined && at > 1) {
      out.incomplete = paging;
      return 'stop';
    }
    const matching = fresh.filter((p) => rowMatches(p, filter, sent, network));
    if (at === 1 && limits.stopOnContradiction && fresh.some((p) => rowContradicts(p, filter, network))) {
      out.contradicted = true;
      return 'stop';
    }
    for (const p of fresh) ids.add(p.trackId.raw());
    out.seen = ids.size;
    if (limits.keep !== false) rows.push(...matching);
    out.matched += matching.length;
    if (matching.length > 0) await limits.onRows?.(matching);
    if (paging !== undefined) {
      out.incomplete = paging;
      return 'stop';
    }
    if (answer.page >= answer.pages || answer.payments.length === 0) {
      if (answer.payments.length === 0 && answer.page < answer.pages) out.incomplete = `the gateway's page ${at} of ${answer.pages} is empty`;
      else if (answer.declared?.total !== undefined && out.seen < answer.declared.total)
        out.incomplete = `the gateway counted ${plural(answer.declared.total, 'payment')} but its pages ended after ${out.seen}`;
      out.ended = out.incomplete === undefined;
      return 'stop';
    }
    if (limits.enough(out.matched)) return 'stop';
    if (at >= limits.maxPages) {
      out.incomplete = `gw stopped after ${plural(at, 'page')} of ${answer.pages}`;
      return 'stop';
    }
    // Only the paging is kept while the next page is read.
    out.last = pagingOf(answer);
    return 'next';
  };
  while (page !== undefined) {
    const next = await take(page, n);
    page = undefined;
    if (next === 'stop') return out;
    n++;
    try {
      page = await read(n);
    } catch (error) {
      const failure = stopFor(error);
      const { pages } = out.last;
      if (failure.exitCode === ExitCode.TEMPFAIL) {
        out.incomplete = `stopped before page ${n} of ${pages}: ${failure.message}`;
      } else if (isInterruption(failure)) {
        out.incomplete = `stopped before page ${n} of ${pages}`;
        out.failure = failure;
      } else {
        out.incomplete = `page ${n} of ${pages} could not be read`;
        out.failure = failure;
      }
      return out;
    }
  }
  return out;
}

/** The gateway's network matcher, loaded only when a network filter is given. */
async function networkMatcher(filter: PaymentFilter): Promise<NetworkMatcher | undefined> {
  if (filter.network === undefined) return undefined;
  const { matchNetwork } = await import('../payment-uri/networks.js');
  return (text) => matchNetwork(text);
}

/** The payment history for `filter`: see the top of this file. */
export async function listPayments(gateway: GatewayClient, filter: PaymentFilter, options: ListingOptions): Promise<Listing> {
  const sent = gateway.historyFilters ?? new Set(HISTORY_FILTERS);
  const network = await networkMatcher(filter);
  const byGateway = givenFilters(filter).every((name) => sent.has(name));
  if (byGateway) {
    const listing = options.all ? await allByGateway(gateway, filter, sent, network, options) : await pageByGateway(gateway, filter, sent, network);
    if (listing !== 'contradicted') return listing;
  }
  return filteredByGw(gateway, filter, sent, network, options);
}

/** One page, filtered and paged by the gateway; 'contradicted' when a row shows it ignored a filter. */
async function pageByGateway(
  gateway: GatewayClient,
  filter: PaymentFilter,
  sent: ReadonlySet<HistoryFilterName>,
  network: NetworkMatcher | undefined,
): Promise<Listing | 'contradicted'> {
  const answer = await gateway.payments(filter);
  if (answer.payments.some((p) => rowContradicts(p, filter, network))) return 'contradicted';
  const rows = answer.payments.filter((p) => rowMatches(p, filter, sent, network));
  const asked = filter.page ?? 1;
  const listing: Listing = { payments: rows, page: answer.page, pages: answer.pages, total: answer.total, filteredByGw: false };
  const paging = impossiblePaging(answer, asked);
  const d = answer.declared ?? {};
  const size = filter.size ?? answer.payments.length;
  if (paging !== undefined) listing.incomplete = paging;
  else if (d.total !== undefined && d.total < (asked - 1) * size + answer.payments.length)
    listing.incomplete = `the gateway counted ${plural(d.total, 'payment')} in all but sent ${answer.payments.length} on page ${asked}`;
  else if (d.total !== undefined && asked === 1 && answer.pages === 1 && d.total > answer.payments.length)
    listing.incomplete = `the gateway counted ${plural(d.total, 'payment')} but its only page holds ${answer.payments.length}`;
  return listing;
}

/** Every page, filtered by the gateway (rows still checked). */
async function allByGateway(
  gateway: GatewayClient,
  filter: PaymentFilter,
  sent: ReadonlySet<HistoryFilterName>,
  network: NetworkMatcher | undefined,
  options: ListingOptions,
): Promise<Listing | 'contradicted'> {
  const w = await walk(gateway, filter, filter.size, sent, network, {
    maxPages: options.maxPages,
    enough: () => false,
    stopOnContradiction: true,
    ...(options.onRows && { onRows: options.onRows }),
    ...(options.keep === false && { keep: false }),
  });
  if (w.contradicted) return 'contradicted';
  const listing: Listing = { payments: w.rows, page: w.last.page, pages: w.last.pages, total: w.last.total, filteredByGw: false };
  if (w.incomplete !== undefined) listing.incomplete = w.incomplete;
  if (w.failure !== undefined) listing.failure = w.failure;
  return listing;
}

/** gw filters: the gateway's pages read at the largest size, --page and --size applied to the matches. */
async function filteredByGw(
  gateway: GatewayClient,
  filter: PaymentFilter,
  sent: ReadonlySet<HistoryFilterName>,
  network: NetworkMatcher | undefined,
  options: ListingOptions,
): Promise<Listing> {
  const page = filter.page ?? 1;
  const size = filter.size ?? DEFAULT_PAGE_SIZE;
  // Enough: the page asked for, and one more match to know whether a next page exists.
  const want = options.all ? Number.POSITIVE_INFINITY : page * size + 1;
  const w = await walk(gateway, filter, SCAN_PAGE_SIZE, sent, network, {
    // A caller that lifts the page cap (maxPages Infinity: payments --format csv) lifts this one too.
    maxPages: Math.max(MAX_SCAN_PAGES, options.maxPages),
    enough: (rows) => rows >= want,
    stopOnContradiction: false,
    ...(options.onRows && { onRows: options.onRows }),
    ...(options.all && options.keep === false && { keep: false }),
  });
  const known = w.ended ? w.matched : null;
  const listing: Listing = options.all
    ? { payments: w.rows, page: 1, pages: 1, total: known, filteredByGw: true }
    : {
        payments: w.rows.slice((page - 1) * size, page * size),
        page,
        pages: known === null ? null : Math.max(1, Math.ceil(known / size)),
        total: known,
        filteredByGw: true,
      };
  if (w.incomplete !== undefined) listing.incomplete = `${w.incomplete} (gw filters these payments itself and had read ${plural(w.seen, 'payment')})`;
  if (w.failure !== undefined) listing.failure = w.failure;
  return listing;
}
