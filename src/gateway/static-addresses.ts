// The static address list, read as a listing gw can vouch for (the same rules as the payment
// history, src/gateway/history.ts): every filter goes to the gateway (the list documents them all),
// and every row it sends is checked against those gw can check (track id, address, network, order
// id, e-mail): a row that contradicts one is never shown, and the listing says so. --page and
// --size are the gateway's; gw always sends a size (the gateway's own default is one row). With
// --all gw reads the pages, the largest size documented, until the last, a page that repeats one
// before, a page that fails after the first (the rows read kept, the listing incomplete), or
// MAX_ADDRESS_PAGES. With `onRows` (gw address list --all) each page's rows are handed on as they
// are read and none is kept, so memory stays flat in the number of addresses.
import { ExitCode, GwError } from '../errors.js';
import { asciiUpperCase } from '../util/ascii.js';
import type { StaticAddress } from '../operations/static-address.js';
import { MAX_ADDRESS_PAGE_SIZE, STATIC_ADDRESS_LIST, type StaticAddressFilter, type StaticAddressPage } from '../operations/static-address-list.js';
import type { GatewayClient } from './gateway.js';
import { SeenIds, unseenRows } from './seen-ids.js';

/** Rows per page when none is asked for (the gateway's own default would be one). */
export const DEFAULT_ADDRESS_PAGE_SIZE = 10;
/** --all stops after this many pages. */
export const MAX_ADDRESS_PAGES = 50;

export interface AddressListing {
  addresses: StaticAddress[];
  page: number;
  pages: number;
  total: number;
  /** What is missing or wrong, when the listing cannot be vouched for (one sentence). */
  incomplete?: string;
  /** A failure that stopped the reading after some pages, other than the deadline (its exit code is the command's). */
  failure?: GwError;
}

type NetworkMatcher = (text: string) => string | undefined;

/** Whether a row contradicts a filter gw can check (a row that does not say is kept: the gateway applied the filter). */
export function addressContradicts(a: StaticAddress, filter: StaticAddressFilter, network: NetworkMatcher): boolean {
  const differs = (value: { raw(): string } | null, wanted: string | undefined, equal: (x: string, y: string) => boolean): boolean =>
    wanted !== undefined && value !== null && value.raw().trim() !== '' && !equal(value.raw().trim(), wanted.trim());
  const exact = (x: string, y: string): boolean => x === y;
  const sameNetwork = (x: string, y: string): boolean => {
    if (asciiUpperCase(x) === asciiUpperCase(y)) return true;
    const [p, q] = [network(x), network(y)];
    return p !== undefined && p === q;
  };
  return (
    differs(a.trackId, filter.trackId, exact) ||
    differs(a.address, filter.address, exact) ||
    differs(a.orderId, filter.orderId, exact) ||
    differs(a.email, filter.email, (x, y) => asciiUpperCase(x) === asciiUpperCase(y)) ||
    differs(a.network, filter.network, sameNetwork)
  );
}

/**
 * The static addresses for `filter`: its page, or with `all` every page. With `onRows`, each page's
 * matching rows go to it as they are read (it may throw to stop) and `addresses` stays empty.
 */
export async function listStaticAddresses(
  gateway: GatewayClient,
  filter: StaticAddressFilter,
  all: boolean,
  onRows?: (rows: readonly StaticAddress[]) => Promise<void> | void,
): Promise<AddressListing> {
  const { matchNetwork } = await import('../payment-uri/networks.js');
  const network: NetworkMatcher = (text) => matchNetwork(text);
  const size = all ? MAX_ADDRESS_PAGE_SIZE : (filter.size ?? DEFAULT_ADDRESS_PAGE_SIZE);
  const base: StaticAddressFilter = { ...filter, size };
  if (all) delete base.page;
  const rows: StaticAddress[] = [];
  const seen = new SeenIds();
  let contradicted = 0;
  let count = 0;
  let n = all ? 1 : (filter.page ?? 1);
  let pages = 1;
  const partial = (incomplete: string, failure?: GwError): AddressListing => ({
    addresses: rows,
    page: 1,
    pages: 1,
    total: count,
    incomplete,
    ...(failure !== undefined && { failure }),
  });
  for (;;) {
    let answer: StaticAddressPage;
    try {
      answer = await gateway.perform(STATIC_ADDRESS_LIST, all ? { ...base, page: n } : base);
    } catch (error) {
      if (!all || n === 1 || !(error instanceof GwError)) throw error;
      // The rows read are kept: the listing says where it stopped (the deadline: exit 76; another failure keeps its code).
      if (error.exitCode === ExitCode.TEMPFAIL) return partial(`stopped before page ${n} of ${pages}: ${error.message}`);
      return partial(`stopped before page ${n} of ${pages}`, error);
    }
    pages = answer.pages;
    const key = (a: StaticAddress): string => a.trackId?.raw() ?? a.address.raw();
    const fresh = unseenRows(answer.addresses, key, seen);
    if (all && n > 1 && answer.addresses.length > 0 && fresh.length === 0) return partial(`the gateway's page ${n} repeats addresses of earlier pages`);
    const matching: StaticAddress[] = [];
    for (const a of fresh) {
      seen.add(key(a));
      if (addressContradicts(a, filter, network)) contradicted++;
      else matching.push(a);
    }
    count += matching.length;
    if (onRows === undefined) rows.push(...matching);
    else if (matching.length > 0) await onRows(matching);
    const stop = !all || answer.page >= answer.pages || answer.addresses.length === 0;
    if (stop || n >= MAX_ADDRESS_PAGES) {
      const listing: AddressListing = all
        ? { addresses: rows, page: 1, pages: 1, total: count }
        : { addresses: rows, page: answer.page, pages: answer.pages, total: answer.total };
      if (contradicted > 0)
        listing.incomplete = `the gateway sent ${contradicted} address${contradicted === 1 ? '' : 'es'} that did not match the filters (not shown)`;
      else if (!stop) listing.incomplete = `gw stopped after ${n} pages of ${answer.pages}`;
      return listing;
    }
    n++;
  }
}
