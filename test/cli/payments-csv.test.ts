// gw payments --format csv, the whole command line in process against the embedded sandbox: the
// flags checked first (exit 64), the export read back by an independent RFC 4180 reader, the
// formula guard on a hostile order id, and its sums agreeing with gw payments --json's totals.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';
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
