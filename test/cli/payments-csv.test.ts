// gw payments --format csv, the whole command line in process against the embedded sandbox: the
// flags checked first (exit 64), the export read back by an independent RFC 4180 reader, the
// formula guard on a hostile order id, and its sums agreeing with gw payments --json's totals.
import { describe, expect, it } from 'vitest';
import { Decimal, multiplyRounded } from '../../src/money/decimal.js';
import { PAYMENT_CSV_COLUMNS } from '../../src/views/payment-csv.js';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';
import { readCsv } from '../support/csv-reader.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);
const HOUR = 3_600_000;

describe('gw payments --format', () => {
  it.each([
    [['--format', 'xml'], /--format must be table, json, csv/],
    [['--format', 'csv', '--json'], /--format csv and --json ask for two outputs/],
    [['--format', 'csv', '--page', '2'], /--format csv exports every page: leave out --page/],
  ])('%j: exit 64', async (flags, message) => {
    const r = await gw(['payments', '--sandbox', ...flags], { clock: at(0) });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('csv: a row per transaction, hostile text guarded, sums equal to the --json totals; --format json is --json', async () => {
    const cwd = emptyDir();
    const orders = ["=cmd|' /C calc'!A0-partial", 'o-2,"quoted"-late', 'o-3'];
    for (const orderId of orders) {
      const r = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--order-id', orderId], { cwd, clock: at(0) });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const csv = await gw(['payments', '--since', '1d', '--sandbox', '--api', 'v1', '--format', 'csv'], { cwd, clock: at(3 * HOUR) });
    expect(csv.exitCode, csv.stderr).toBe(0);
    const [header, ...records] = readCsv(csv.stdout);
    expect(header).toEqual([...PAYMENT_CSV_COLUMNS]);
    const col = (name: (typeof PAYMENT_CSV_COLUMNS)[number]): number => PAYMENT_CSV_COLUMNS.indexOf(name);
    expect(new Set(records.map((r) => r[col('order_id')]))).toEqual(new Set(["'=cmd|' /C calc'!A0-partial", 'o-2,"quoted"-late', 'o-3']));
    // The partial payment has two transactions: two rows, its amount on the first.
    const partial = records.filter((r) => r[col('order_id')]?.startsWith("'=cmd"));
    expect(partial.map((r) => r[col('amount')])).toEqual(['25', '']);
    expect(records.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(r[col('created_at')] ?? ''))).toBe(true);

    const json = await gw(['payments', '--since', '1d', '--sandbox', '--api', 'v1', '--format', 'json'], { cwd, clock: at(3 * HOUR) });
    expect(json.exitCode, json.stderr).toBe(0);
    const totals = (JSON.parse(json.stdout) as { totals: { asked: Record<string, string>; received: Record<string, string> } }).totals;
    const sum = (rows: string[][], name: (typeof PAYMENT_CSV_COLUMNS)[number]): string =>
      rows
        .map((r) => r[col(name)] ?? '')
        .filter((v) => v !== '')
        .reduce((a, v) => a.plus(Decimal.fromLiteral(v) as Decimal), Decimal.ZERO)
        .toString();
    expect(sum(records, 'amount')).toBe(totals.asked.USDT);
    expect(
      sum(
        records.filter((r) => r[col('tx_counted')] === 'yes'),
        'tx_amount',
      ),
    ).toBe(totals.received.USDT);
  });
});

describe('gw payments --format csv --in <FIAT>', () => {
  it.each([
    [['--in', 'USD'], 64, /--in applies to --format csv \(for totals in a fiat: gw report --in <fiat>\)/],
    [['--in', 'USD', '--json'], 64, /--in applies to --format csv/],
    [['--in', 'XYZ', '--format', 'csv'], 64, /--in takes a fiat currency such as USD or EUR \(got "XYZ"\)/],
  ])('%j: exit %i, nothing read', async (flags, code, message) => {
    const r = await gw(['payments', '--sandbox', ...flags], { clock: at(0) });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('a fiat the gateway does not price: the same line and exit code as gw report --in', async () => {
    const csv = await gw(['payments', '--sandbox', '--api', 'v1', '--format', 'csv', '--in', 'JPY'], { clock: at(0) });
    const report = await gw(['report', '--sandbox', '--api', 'v1', '--in', 'JPY'], { clock: at(0) });
    expect(csv.exitCode).toBe(65);
    expect(csv.stderr).toMatch(/the gateway gives no price for JPY: --in takes a fiat it prices/);
    expect([csv.exitCode, csv.stderr]).toEqual([report.exitCode, report.stderr]);
    expect(csv.stdout).toBe('');
  });

  it("--in USD: the value beside each amount asked, at the sandbox's current prices, labelled with their time; its sum is gw report's", async () => {
    const cwd = emptyDir();
    for (const args of [
      ['25', 'USDT', '--order-id', 'v-1'],
      ['0.1', 'USD', '--pay-currency', 'BTC', '--order-id', 'v-2-partial'],
      ['10', 'EUR', '--pay-currency', 'USDT', '--order-id', 'v-3'],
    ]) {
      const r = await gw(['pay', ...args, '--sandbox', '--json'], { cwd, clock: at(0) });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const csv = await gw(['payments', '--since', '1d', '--sandbox', '--api', 'v1', '--format', 'csv', '--in', 'usd'], { cwd, clock: at(3 * HOUR) });
    expect(csv.exitCode, csv.stderr).toBe(0);
    const [header, ...records] = readCsv(csv.stdout);
    expect(header).toEqual([...PAYMENT_CSV_COLUMNS, 'value_usd_at_current_prices']);
    const col = (name: string): number => header?.indexOf(name) ?? -1;
    // The sandbox's fixed USD prices: USDT 1, EUR 1.08; asked in USD counts as it is.
    const expected: Record<string, string> = { 'v-1': multiplyRounded('25', '1', 2), 'v-2-partial': '0.1', 'v-3': multiplyRounded('10', '1.08', 2) };
    for (const [order, value] of Object.entries(expected)) {
      const rows = records.filter((r) => r[col('order_id')] === order);
      expect(rows.length, order).toBeGreaterThan(0);
      // On the first row, beside the amount asked; empty on the others.
      expect(
        rows.map((r) => r[col('value_usd_at_current_prices')]),
        order,
      ).toEqual([value, ...rows.slice(1).map(() => '')]);
      expect(rows[0]?.[col('amount')], order).not.toBe('');
    }
    expect(records.filter((r) => r[col('order_id')] === 'v-2-partial').length).toBe(2);
    expect(csv.stderr.split('\n').filter((line) => line.startsWith('gw:'))).toEqual([
      "gw: value_usd_at_current_prices: each amount asked in USD as it is; any other at the gateway's current prices, read 2026-11-22T15:00:00Z: not the value at the time of each payment",
    ]);
    // A spreadsheet's sum of the column: gw report --in USD's value of what was asked, to the digit.
    const sum = records
      .map((r) => r[col('value_usd_at_current_prices')] ?? '')
      .filter((v) => v !== '')
      .reduce((a, v) => a.plus(Decimal.fromLiteral(v) as Decimal), Decimal.ZERO);
    const report = await gw(['report', '--since', '1d', '--sandbox', '--api', 'v1', '--in', 'USD', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(report.exitCode, report.stderr).toBe(0);
    const doc = JSON.parse(report.stdout) as { totals: { value: { asked: { total: string } } } };
    expect(sum.toString()).toBe(doc.totals.value.asked.total);
  });
});
