// The payout history read whole for a range (GET /v1/payout, docs/gateway.md §13), page by page at
// the largest size the docs allow, each page handed on as it comes (nothing kept but the track ids
// seen, compactly (./seen-ids.ts), to notice pages that repeat). A row dated outside the range is dropped (a gateway that
// ignored the date filter must not add to a report); a row without a date is kept, the gateway
// having been sent the filter. Like the payment history (./history.ts), a listing that cannot be
// all says what is missing instead of passing for complete.
import { ExitCode, GwError } from '../errors.js';
import { MAX_PAYOUT_PAGE_SIZE, PAYOUT_HISTORY, type PayoutFilter } from '../operations/payout-history.js';
import type { Payout } from '../operations/payout-info.js';
import { parseTimestamp } from '../output/time.js';
import type { GatewayClient } from './gateway.js';
import { SeenIds, unseenRows } from './seen-ids.js';

export interface PayoutWalk {
  /** Payouts handed on. */
  count: number;
  /** What is missing, when the reading stopped before the end (one sentence). */
  incomplete?: string;
  /** A page's failure that stopped the reading (other than the deadline): its exit code is the listing's. */
  failure?: GwError;
}

function inRange(p: Payout, from: Date | undefined, to: Date | undefined): boolean {
  const date = parseTimestamp(p.date);
  if (date === undefined) return true;
  const s = Math.floor(date.getTime() / 1000);
  return (from === undefined || s >= Math.floor(from.getTime() / 1000)) && (to === undefined || s <= Math.floor(to.getTime() / 1000));
}

/** Every payout of `filter`'s range, oldest page first as the gateway orders them, to `onPayouts`. */
export async function forEachPayout(
  gateway: GatewayClient,
  filter: Omit<PayoutFilter, 'page' | 'size'>,
  onPayouts: (payouts: readonly Payout[]) => void | Promise<void>,
  maxPages: number,
  /** Payouts per page asked for: the largest the docs allow unless a caller asks fewer (gw payouts --size). */
  pageSize: number = MAX_PAYOUT_PAGE_SIZE,
): Promise<PayoutWalk> {
  const seen = new SeenIds();
  const out: PayoutWalk = { count: 0 };
  for (let n = 1; ; n++) {
    let page: Awaited<ReturnType<typeof PAYOUT_HISTORY.decodeAnswer>>;
    try {
      page = await gateway.perform(PAYOUT_HISTORY, { ...filter, page: n, size: pageSize });
    } catch (error) {
      if (n === 1 || !(error instanceof GwError)) throw error;
      if (error.exitCode === ExitCode.INTERRUPTED || error.exitCode === ExitCode.TERMINATED) throw error;
      out.incomplete = `the payout history stopped before page ${n}: ${error.message}`;
      if (error.exitCode !== ExitCode.TEMPFAIL) out.failure = error;
      return out;
    }
    const fresh = unseenRows(page.payouts, (p) => p.trackId.raw(), seen);
    if (n > 1 && page.payouts.length > 0 && fresh.length === 0) {
      out.incomplete = `the gateway's payout page ${n} repeats payouts of earlier pages`;
      return out;
    }
    for (const p of fresh) seen.add(p.trackId.raw());
    const rows = fresh.filter((p) => inRange(p, filter.from, filter.to));
    out.count += rows.length;
    if (rows.length > 0) await onPayouts(rows);
    if (page.page >= page.pages || page.payouts.length === 0) {
      if (page.total > seen.size) out.incomplete = `the gateway counted ${page.total} payouts but its pages ended after ${seen.size}`;
      return out;
    }
    if (n >= maxPages) {
      out.incomplete = `gw stopped after ${n} pages of payouts of ${page.pages}`;
      return out;
    }
  }
}
