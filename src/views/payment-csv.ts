// A payment as CSV rows (gw payments --format csv): one row per transaction the gateway lists, one
// row for a payment with none. Pure; src/output/csv.ts writes the cells (RFC 4180, formula guard).
//
// - The payment's amounts (amount asked, pay amount, difference) are on its FIRST row only, so a
//   spreadsheet's sum over a column counts each payment once; the columns that identify it (time,
//   track id, order id, state, currencies, network) are on every row, so rows filter and pivot.
// - Transaction amounts are per row: summing tx_amount over the rows with tx_counted "yes", per
//   tx_currency, gives what arrived (src/domain/arrival.ts). A payment whose answer lists no
//   transactions but gives the total received (the legacy history's receivedAmount) has that total
//   in tx_amount on its one row (tx_status empty), so the sum holds under both APIs.
// - Times are ISO 8601 in UTC (2026-11-25T14:30:05Z); a value that is no possible time is written
//   as the gateway sent it (as text), never guessed.
// - Amounts are the gateway's digits exactly (Decimal: plain notation, trailing zeros kept), as
//   numbers: never rounded, converted or formula-guarded. A negative difference is a number too.
// - A fiat value: only when asked (a PaymentCsvValuer: `--in USD`), one more column, on the payment's
//   FIRST row beside the amount asked, so its sum counts each payment once.
import type { PaymentInfo } from '../gateway/gateway.js';
import type { ArrivedTx } from '../domain/arrival.js';
import { askedValue, type PriceTable } from '../domain/report.js';
import type { Decimal } from '../money/decimal.js';
import { type CsvCell, csvNumber, csvRecord } from '../output/csv.js';
import { readTimestamp } from '../output/time.js';

/**
 * The hook for fiat values: given a payment, its value in `currency` (on its first row), or null
 * when it has none. Its column header says which prices were used (`label`, e.g.
 * "at_current_prices"): never presented as the value at payment time.
 */
export interface PaymentCsvValuer {
  currency: string;
  /** Says where the prices come from, in the header: `value_usd_<label>`. */
  label: string;
  value(payment: PaymentInfo): Decimal | null;
}

/** The header of a valuer's column: `value_usd_at_current_prices`. */
export function valueColumn(valuer: PaymentCsvValuer): string {
  return `value_${valuer.currency.toLowerCase()}_${valuer.label}`;
}

/**
 * `--in`'s valuer: the amount asked valued as gw report values it (src/domain/report.ts: asked in
 * the fiat, its own amount; else at the gateway's current prices, read once). The currencies it
 * found no price for (their cells empty) gather in `unpriced`.
 */
export function currentPricesValuer(prices: PriceTable): PaymentCsvValuer & { unpriced: Set<string> } {
  const unpriced = new Set<string>();
  return {
    currency: prices.fiat,
    label: 'at_current_prices',
    unpriced,
    value: (p) => {
      if (p.amount === null || p.currency === null) return null;
      const v = askedValue(p.amount, p.currency.raw(), prices);
      if ('unpriced' in v) {
        unpriced.add(v.unpriced);
        return null;
      }
      return v.value;
    },
  };
}

export interface PaymentCsvOptions {
  valuer?: PaymentCsvValuer | undefined;
}

/** The header row's names, in order (fiat columns last, when asked). */
export const PAYMENT_CSV_COLUMNS = [
  'created_at',
  'track_id',
  'order_id',
  'status',
  'gateway_status',
  'amount',
  'currency',
  'pay_amount',
  'pay_currency',
  'network',
  'address',
  'difference',
  'tx_hash',
  'tx_amount',
  'tx_currency',
  'tx_network',
  'tx_status',
  'tx_counted',
  'tx_confirmations',
  'tx_time',
  'paid_at',
  'description',
] as const;

/** The header record (CRLF-ended). */
export function paymentCsvHeader(options: PaymentCsvOptions = {}): string {
  const fiat = options.valuer === undefined ? [] : [valueColumn(options.valuer)];
  return csvRecord([...PAYMENT_CSV_COLUMNS, ...fiat]);
}

type TimeValue = Parameters<typeof readTimestamp>[0];

/** A time as ISO 8601 UTC to the second; the gateway's text when it is no possible time; empty when none. */
export function isoUtc(value: TimeValue): CsvCell {
  const read = readTimestamp(value);
  if (read.kind === 'none') return null;
  if (read.kind === 'date') return `${read.date.toISOString().slice(0, 19)}Z`;
  return typeof value === 'number' ? String(value) : (value?.raw() ?? null);
}

const text = (value: { raw(): string } | null | undefined): CsvCell => (value === null || value === undefined ? null : value.raw());
const amount = (value: Decimal | null | undefined): CsvCell => (value === null || value === undefined ? null : csvNumber(value));

/** The payment's rows as CSV records (CRLF-ended), in the order of its transactions. */
export function paymentCsvRows(p: PaymentInfo, options: PaymentCsvOptions = {}): string {
  const { arrival } = p;
  const txs: Array<ArrivedTx | null> = arrival.transactions !== null && arrival.transactions.length > 0 ? arrival.transactions : [null];
  const difference = arrival.difference === null || arrival.expected === null ? null : csvNumber(arrival.difference);
  // No transaction list, but the total received (legacy): that total, on the payment's one row.
  const [total] = arrival.source === 'total' ? [...(arrival.received ?? [])] : [];
  let out = '';
  txs.forEach((tx, i) => {
    const first = i === 0;
    // The legacy inquiry lists no transactions; its one txID stands on the payment's row.
    const hash = tx === null ? (arrival.transactions === null ? text(p.txID) : null) : text(tx.hash);
    const cells: CsvCell[] = [
      isoUtc(p.date),
      p.trackId.raw(),
      text(p.orderId),
      p.status,
      text(p.gatewayStatus),
      first ? amount(p.amount) : null,
      text(p.currency),
      first ? amount(p.payAmount) : null,
      text(p.payCurrency),
      text(p.network),
      text(p.address),
      first ? difference : null,
      hash,
      tx === null ? (total === undefined ? null : csvNumber(total[1])) : amount(tx.amount),
      tx === null ? (total?.[0] ?? null) : tx.coin,
      tx === null ? null : text(tx.network),
      tx === null ? null : text(tx.status),
      tx === null ? (total === undefined ? null : 'yes') : tx.count === 'not-counted' ? 'no' : 'yes',
      tx === null || tx.confirmations === null ? null : typeof tx.confirmations === 'number' ? csvNumber(tx.confirmations) : tx.confirmations.raw(),
      tx === null ? null : isoUtc(transactionTime(p, i)),
      isoUtc(p.payDate),
      text(p.description),
    ];
    if (options.valuer !== undefined) cells.push(first ? amount(options.valuer.value(p)) : null);
    out += csvRecord(cells);
  });
  return out;
}

/** The i-th listed transaction's own time (the arrival keeps no date; the payment's txs do). */
function transactionTime(p: PaymentInfo, i: number): TimeValue {
  return p.txs[i]?.date ?? null;
}
