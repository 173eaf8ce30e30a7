// The payment history (docs/gateway.md §6, §12): the filters checked, the payments that match
// (store.ts: memory and journal), sorted and paged. A page of the whole history, newest first,
// reads the journal backwards only as far as the page needs (newestPage).

import { compareDecimals } from '../money/decimal.js';
import type { Api } from '../operations/codec.js';
import type { PaymentHistoryAnswer } from '../operations/payment-history.js';
import type { PaymentKind } from '../operations/payment-info.js';
import { matchNetwork } from '../payment-uri/index.js';
import { fail, ok, type Answer } from './envelopes.js';
import { field, isNegative, readId, readInteger, readNumeric, readString, readSymbol, type RequestFields } from './fields.js';
import type { SandboxJournal } from './journal.js';
import { creditedAt, parseSandboxStatus, type Step } from './lifecycle.js';
import type { PaymentLifecycles } from './live.js';
import { offerings, planOf, type PaymentStore, type SandboxPayment } from './store.js';

/** How far out of creation order processes may append to the journal (see newestPage). */
const JOURNAL_SKEW_SECONDS = 2;

/** Payments a history page holds at most (docs/gateway.md §6: size 1–200). */
export const LIST_SIZE = { min: 1, max: 200, default: 20 } as const;

/** The versioned history's page size when `size` is absent (docs/gateway.md §12: default 10). */
export const V1_LIST_SIZE_DEFAULT = 10;

/** The versioned history's `sort_by` values (§12; `create_date` the default) and `type` values (§12), with the payment kind each names. */
const SORT_BY = ['create_date', 'pay_date', 'amount'] as const;
const SORT_TYPE = ['desc', 'asc'] as const;
const TYPE_KINDS: Readonly<Record<string, PaymentKind>> = { invoice: 'invoice', white_label: 'white-label', static_address: 'static-address' };

/** One page of the history, newest first, with the filters given (docs/gateway.md §6). */
export function paymentHistory(store: PaymentStore, lifecycles: PaymentLifecycles, fields: RequestFields, api: Api = 'legacy'): Answer<PaymentHistoryAnswer> {
  const size = readInteger(fields, 'size', api === 'v1' ? V1_LIST_SIZE_DEFAULT : LIST_SIZE.default);
  if (size === undefined || size < LIST_SIZE.min || size > LIST_SIZE.max)
    return fail(101, `Validation problem: size must be a whole number from ${LIST_SIZE.min} to ${LIST_SIZE.max}`, 'size');
  const page = readInteger(fields, 'page', 1);
  if (page === undefined || page < 1) return fail(101, 'Validation problem: page must be a whole number from 1');
  const fromDate = readInteger(fields, 'fromDate', undefined);
  const toDate = readInteger(fields, 'toDate', undefined);
  if (fromDate === undefined && field(fields, 'fromDate') !== undefined) return fail(101, 'Validation problem: fromDate must be Unix seconds');
  if (toDate === undefined && field(fields, 'toDate') !== undefined) return fail(101, 'Validation problem: toDate must be Unix seconds');
  if (fromDate !== undefined && toDate !== undefined && toDate < fromDate) return fail(119, 'toDate cannot be earlier than fromDate');
  const fromAmount = readNumeric(fields, 'fromAmount');
  const toAmount = readNumeric(fields, 'toAmount');
  if (fromAmount.kind === 'invalid' || (fromAmount.kind === 'ok' && isNegative(fromAmount.plain)))
    return fail(101, 'Validation problem: fromAmount must be a number');
  if (toAmount.kind === 'invalid' || (toAmount.kind === 'ok' && isNegative(toAmount.plain))) return fail(101, 'Validation problem: toAmount must be a number');
  if (fromAmount.kind === 'ok' && toAmount.kind === 'ok' && compareDecimals(toAmount.plain, fromAmount.plain) < 0)
    return fail(118, 'toAmount cannot be smaller than fromAmount');
  const statusField = readString(fields, 'status');
  if (statusField.kind === 'invalid') return fail(101, 'Validation problem: status must be a string');
  const status = statusField.kind === 'ok' ? parseSandboxStatus(statusField.value) : undefined;
  if (statusField.kind === 'ok' && status === undefined) return fail(101, 'Validation problem: unknown status');
  const text: Partial<Record<'currency' | 'payCurrency' | 'network' | 'orderId' | 'address', string>> = {};
  for (const name of ['currency', 'payCurrency', 'network', 'orderId', 'address'] as const) {
    const value = name === 'currency' || name === 'payCurrency' ? readSymbol(fields, name) : readString(fields, name);
    if (value.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
    if (value.kind === 'ok') text[name] = value.value;
  }
  const trackId = readId(fields, 'trackId');
  if (trackId.kind === 'invalid') return fail(116, 'Invalid trackId');
  // Sorting (both APIs: v1 sort_by/sort_type, legacy sortBy/orderBy, the same values) and the payment type (v1's codec alone reads it).
  const sortByField = readString(fields, 'sortBy');
  const sortBy = sortByField.kind === 'ok' ? SORT_BY.find((v) => v === sortByField.value) : 'create_date';
  if (sortByField.kind === 'invalid' || sortBy === undefined) return fail(101, `Validation problem: sortBy must be one of ${SORT_BY.join(', ')}`, 'sort_by');
  const sortTypeField = readString(fields, 'sortType');
  const sortType = sortTypeField.kind === 'ok' ? SORT_TYPE.find((v) => v === sortTypeField.value) : 'desc';
  if (sortTypeField.kind === 'invalid' || sortType === undefined)
    return fail(101, `Validation problem: sortType must be one of ${SORT_TYPE.join(', ')}`, 'sort_type');
  const typeField = readString(fields, 'type');
  const kind = typeField.kind === 'ok' ? (Object.hasOwn(TYPE_KINDS, typeField.value) ? TYPE_KINDS[typeField.value] : undefined) : null;
  if (typeField.kind === 'invalid' || kind === undefined)
    return fail(101, `Validation problem: type must be one of ${Object.keys(TYPE_KINDS).join(', ')}`, 'type');

  const journal = store.journal;
  const onlyPaging =
    status === undefined &&
    trackId.kind === 'absent' &&
    Object.keys(text).length === 0 &&
    fromDate === undefined &&
    toDate === undefined &&
    fromAmount.kind === 'absent' &&
    toAmount.kind === 'absent' &&
    kind === null &&
    sortBy === 'create_date' &&
    sortType === 'desc';
  if (journal !== undefined && onlyPaging) return ok(newestPage(store, lifecycles, journal, page, size));
  // A track id or an order id names a few payments: only those are read. Other filters read them all.
  const pool =
    trackId.kind === 'ok'
      ? [store.resolve(trackId.value)].filter((p): p is SandboxPayment => p !== undefined)
      : text.orderId !== undefined
        ? store.withOrderId(text.orderId)
        : store.known();
  const matches: Array<{ payment: SandboxPayment; step: Step }> = [];
  for (const payment of pool) {
    const step = lifecycles.current(payment);
    // The versioned API has no failed: a failed payment is expired there (its transaction failed).
    if (status !== undefined && step.status !== status && !(api === 'v1' && status === 'expired' && step.status === 'failed')) continue;
    if (kind !== null && payment.kind !== kind) continue;
    if (trackId.kind === 'ok' && payment.trackId !== trackId.value) continue;
    if (text.orderId !== undefined && payment.orderId !== text.orderId) continue;
    if (text.address !== undefined && payment.address !== text.address) continue;
    if (text.currency !== undefined && payment.currency !== text.currency) continue;
    if (text.payCurrency !== undefined && payment.payCurrency !== text.payCurrency) continue;
    if (text.network !== undefined) {
      const offering = offerings().find((o) => o.payCurrency === payment.payCurrency && o.network === payment.network);
      if (offering === undefined || matchNetwork(text.network, payment.payCurrency) !== offering.networkId) continue;
    }
    if (fromDate !== undefined && payment.createdAt < fromDate) continue;
    if (toDate !== undefined && payment.createdAt > toDate) continue;
    if (fromAmount.kind === 'ok' && compareDecimals(payment.amount, fromAmount.plain.replace(/^-/, '')) < 0) continue;
    if (toAmount.kind === 'ok' && compareDecimals(payment.amount, toAmount.plain.replace(/^-/, '')) > 0) continue;
    matches.push({ payment, step });
  }
  // Newest first unless asked otherwise; ties in creation order, then by track id.
  const direction = sortType === 'asc' ? 1 : -1;
  const paidAt = (m: { payment: SandboxPayment; step: Step }): number => creditedAt(planOf(m.payment), m.step) ?? 0;
  const byKey = (a: { payment: SandboxPayment; step: Step }, b: { payment: SandboxPayment; step: Step }): number =>
    sortBy === 'amount' ? compareDecimals(a.payment.amount, b.payment.amount) : sortBy === 'pay_date' ? paidAt(a) - paidAt(b) : 0;
  matches.sort(
    (a, b) => direction * byKey(a, b) || direction * (a.payment.createdAt - b.payment.createdAt) || (a.payment.trackId < b.payment.trackId ? -1 : 1),
  );
  const total = matches.length;
  const lastPage = Math.max(1, Math.ceil(total / size));
  const payments = matches.slice((page - 1) * size, page * size).map((m) => lifecycles.record(m.payment, m.step));
  return ok({ payments, page, pages: lastPage, total, size });
}

/**
 * One page of the whole history, newest first, from the journal read backwards: as many entries
 * as the page needs, plus those created within JOURNAL_SKEW_SECONDS of its oldest (processes
 * append in creation order give or take that), so the cost follows the page, not the journal.
 * The total is the journal's line count.
 */
function newestPage(store: PaymentStore, lifecycles: PaymentLifecycles, journal: SandboxJournal, page: number, size: number): PaymentHistoryAnswer {
  const need = page * size;
  const taken: SandboxPayment[] = store.unjournaledPayments();
  const seen = new Set(taken.map((p) => p.trackId));
  let floor: number | undefined;
  for (const entry of journal.newest()) {
    if (seen.has(entry.trackId)) continue;
    seen.add(entry.trackId);
    const payment = store.get(entry.trackId) ?? store.fromEntry(entry);
    if (payment === undefined) continue;
    if (floor === undefined && taken.length >= need) {
      const newest = taken.map((p) => p.createdAt).sort((a, b) => b - a);
      floor = (newest[need - 1] as number) - JOURNAL_SKEW_SECONDS;
    }
    if (floor !== undefined && payment.createdAt < floor) break;
    taken.push(payment);
  }
  taken.sort((a, b) => b.createdAt - a.createdAt || (a.trackId < b.trackId ? -1 : 1));
  const total = journal.count() + store.unjournaledCount();
  const lastPage = Math.max(1, Math.ceil(total / size));
  const payments = taken.slice((page - 1) * size, page * size).map((p) => lifecycles.record(p, lifecycles.current(p)));
  return { payments, page, pages: lastPage, total, size };
}
