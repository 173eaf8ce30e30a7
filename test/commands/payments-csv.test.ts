// gw payments --format csv: every page (past the --all cap), streamed with one header, each request
// on its own deadline; an incomplete listing keeps the rows read and ends with exit 76 and one line.
import { describe, expect, it, vi } from 'vitest';
import { paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import { ExitCode, GwError, interrupted } from '../../src/errors.js';
import { Decimal, divideRounded, multiplyRounded } from '../../src/money/decimal.js';
import type { PaymentFilter, PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { ManualClock } from '../../src/util/clock.js';
import { PAYMENT_CSV_COLUMNS } from '../../src/views/payment-csv.js';
import { readCsv } from '../support/csv-reader.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const NOW = Date.UTC(2026, 10, 22, 14, 0, 0);

/** Page n of `pages`, two payments each: the first with two transactions, the second with none. */
function page(n: number, pages: number): PaymentPage {
  const payments = [
    v1InfoOf({ track_id: `${n}01`, status: 'paid', currency: 'USDT', amount: '10' }, [v1Tx(`h${n}a`, '4', 'USDT'), v1Tx(`h${n}b`, '6', 'USDT')]),
    v1InfoOf({ track_id: `${n}02`, status: 'expired', currency: 'USDT', amount: '3' }, []),
  ];
  return { payments, page: n, pages, total: pages * 2 };
}

function setup(answer: (filter: PaymentFilter) => PaymentPage | Promise<PaymentPage>) {
  const t = IOStreams.test({});
  const gateway = new FakeGateway({ page: answer });
  const releaseDeadline = vi.fn();
  const opts: PaymentsOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock: new ManualClock(NOW),
    filter: { size: 200 },
    all: true,
    csv: true,
    releaseDeadline,
  };
  return { t, gateway, opts, releaseDeadline };
}

describe('gw payments --format csv', () => {
  it('every page, past the 50-page cap of --all: one header, a row per transaction, each request on its own deadline', async () => {
    const { t, gateway, opts, releaseDeadline } = setup((f) => page(f.page ?? 1, 60));
    await paymentsRun(opts);
    expect(gateway.calls).toHaveLength(60);
    expect(releaseDeadline).toHaveBeenCalledOnce();
    const [header, ...records] = readCsv(t.stdout());
    expect(header).toEqual([...PAYMENT_CSV_COLUMNS]);
    expect(records).toHaveLength(60 * 3);
    expect(t.stdout().match(/created_at/g)).toHaveLength(1);
    // The amount asked once per payment: 60 × (10 + 3).
    const amount = PAYMENT_CSV_COLUMNS.indexOf('amount');
    expect(records.reduce((s, r) => s + Number(r[amount] || 0), 0)).toBe(780);
    expect(records.at(-1)?.[1]).toBe('6002');
  });

  it('the legacy history (no transaction lists): one row per payment, and one line saying so', async () => {
    const legacy = (n: number): PaymentPage => ({
      payments: [paymentInfoOf({ trackId: `${n}01`, status: 'Paid', amount: '5', currency: 'USDT', txID: `h${n}` })],
      page: n,
      pages: 2,
      total: 2,
    });
    const { t, opts } = setup((f) => legacy(f.page ?? 1));
    await paymentsRun(opts);
    expect(
      readCsv(t.stdout())
        .slice(1)
        .map((r) => [r[1], r[12]]),
    ).toEqual([
      ['101', 'h1'],
      ['201', 'h2'],
    ]);
    expect(t.stderr()).toBe(
      'gw: the history lists no transactions for these payments: one row each, without what arrived (the versioned API lists them: --api v1)\n',
    );
  });

  it('the legacy history with the received total (receivedAmount): that total in tx_amount, counted, so the sums hold', async () => {
    const legacy = (n: number): PaymentPage => ({
      payments: [
        paymentInfoOf({ trackId: `${n}01`, status: 'Underpaid', amount: '5.00', currency: 'USDT', payCurrency: 'USDT', receivedAmount: '4.50', txID: `h${n}` }),
        paymentInfoOf({ trackId: `${n}02`, status: 'Expired', amount: '3', currency: 'USDT', payCurrency: 'USDT', receivedAmount: '0' }),
      ],
      page: n,
      pages: 2,
      total: 4,
    });
    const { t, opts } = setup((f) => legacy(f.page ?? 1));
    await paymentsRun(opts);
    const col = (name: (typeof PAYMENT_CSV_COLUMNS)[number]): number => PAYMENT_CSV_COLUMNS.indexOf(name);
    expect(
      readCsv(t.stdout())
        .slice(1)
        .map((r) => [r[col('track_id')], r[col('tx_hash')], r[col('tx_amount')], r[col('tx_currency')], r[col('tx_status')], r[col('tx_counted')]]),
    ).toEqual([
      ['101', 'h1', '4.50', 'USDT', '', 'yes'],
      ['102', '', '', '', '', ''],
      ['201', 'h2', '4.50', 'USDT', '', 'yes'],
      ['202', '', '', '', '', ''],
    ]);
    expect(t.stderr()).toBe(
      'gw: the history lists no transactions for these payments: one row each, with the received total the gateway gives in tx_amount (the versioned API lists them: --api v1)\n',
    );
  });

  it('the versioned history: no such line', async () => {
    const { t, opts } = setup((f) => page(f.page ?? 1, 2));
    await paymentsRun(opts);
    expect(t.stderr()).toBe('');
  });

  it('nothing matches: the header alone', async () => {
    const { t, opts } = setup(() => ({ payments: [], page: 1, pages: 0, total: 0 }));
    await paymentsRun(opts);
    expect(readCsv(t.stdout())).toEqual([[...PAYMENT_CSV_COLUMNS]]);
  });

  it('a page that times out: the rows read, then exit 76 and one line on stderr', async () => {
    const { t, opts } = setup((f) => {
      if ((f.page ?? 1) === 3) throw new GwError(ExitCode.TEMPFAIL, 'the gateway did not answer within 15 s');
      return page(f.page ?? 1, 5);
    });
    const error = await gwFailure(paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe('the listing is incomplete: stopped before page 3 of 5: the gateway did not answer within 15 s; 4 payments shown');
    // The rows of pages 1 and 2, whole.
    expect(
      readCsv(t.stdout())
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(['101', '101', '102', '201', '201', '202']);
  });

  it('interrupted (Ctrl-C) between pages: the rows read, exit 130', async () => {
    const { t, opts } = setup((f) => {
      if ((f.page ?? 1) === 2) throw interrupted();
      return page(f.page ?? 1, 5);
    });
    const error = await gwFailure(paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.INTERRUPTED);
    expect(readCsv(t.stdout())).toHaveLength(1 + 3);
  });

  it('the first page fails: nothing on stdout, its own exit code', async () => {
    const { t, opts } = setup(() => {
      throw new GwError(ExitCode.UNAVAILABLE, 'connection refused');
    });
    const error = await gwFailure(paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(t.stdout()).toBe('');
  });
});

describe('gw payments --format csv --in <FIAT>', () => {
  // The gateway's current prices (USD per unit) and fiats, as its answers give them.
  const PRICES = { BTC: '65573.55', USDT: '1.0002', ETH: '3421.17' };
  const FIATS = {
    EUR: { symbol: 'EUR', name: 'Euro', price: '1.08', display_precision: '0.01' },
    USD: { symbol: 'USD', name: 'US Dollar', price: '1', display_precision: '0.01' },
  };
  /** Asked: 10 USD (paid in USDT, two rows), 0.0005 BTC, 3 XYZ (a coin the gateway does not price), 20 EUR. */
  const payments = (): PaymentPage => ({
    payments: [
      v1InfoOf({ track_id: '1', status: 'paid', currency: 'USD', amount: '10' }, [v1Tx('a1', '4', 'USDT'), v1Tx('a2', '6.0012', 'USDT')]),
      v1InfoOf({ track_id: '2', status: 'paid', currency: 'BTC', amount: '0.0005' }, [v1Tx('b1', '0.0005', 'BTC')]),
      v1InfoOf({ track_id: '3', status: 'expired', currency: 'XYZ', amount: '3' }, []),
      v1InfoOf({ track_id: '4', status: 'expired', currency: 'EUR', amount: '20' }, []),
    ],
    page: 1,
    pages: 1,
    total: 4,
  });
  /** The export with --in `fiat`, against a gateway that answers the prices and fiats too. */
  const priced = (answer: (filter: PaymentFilter) => PaymentPage) => {
    const t = IOStreams.test({});
    const gateway = new FakeGateway({ page: answer, performed: { prices: PRICES, 'fiat currencies': FIATS } });
    const opts: PaymentsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: { size: 200 }, all: true, csv: true };
    return { t, gateway, opts };
  };
  const run = async (fiat: string) => {
    const { t, gateway, opts } = priced(payments);
    await paymentsRun({ ...opts, csvIn: fiat });
    const [header, ...records] = readCsv(t.stdout());
    return { t, gateway, header, records };
  };
  const d = (s: string): Decimal => Decimal.fromLiteral(s) as Decimal;

  it("--in USD: one labelled column, the value on the amount asked's row only, asked in USD as it is, the rest at current prices", async () => {
    const { t, header, records } = await run('USD');
    expect(header).toEqual([...PAYMENT_CSV_COLUMNS, 'value_usd_at_current_prices']);
    const value = header?.length === undefined ? -1 : header.length - 1;
    const amount = PAYMENT_CSV_COLUMNS.indexOf('amount');
    // Recomputed here: 0.0005 BTC × 65573.55 = 32.786775 → 32.79 (2 places, half up).
    const btc = multiplyRounded('0.0005', PRICES.BTC, 2);
    expect(btc).toBe('32.79');
    const eur = multiplyRounded('20', FIATS.EUR.price, 2);
    expect(records.map((r) => [r[1], r[amount], r[value]])).toEqual([
      ['1', '10', '10'],
      ['1', '', ''],
      ['2', '0.0005', btc],
      ['3', '3', ''],
      ['4', '20', eur],
    ]);
    // A spreadsheet's sum of the column counts each payment once.
    const sum = records
      .map((r) => r[value] ?? '')
      .filter((v) => v !== '')
      .reduce((a, v) => a.plus(d(v)), Decimal.ZERO);
    expect(sum.toString()).toBe(d('10').plus(d(btc)).plus(d(eur)).toString());
    expect(t.stderr()).toBe(
      [
        "gw: value_usd_at_current_prices: each amount asked in USD as it is; any other at the gateway's current prices, read 2026-11-22T14:00:00Z: not the value at the time of each payment",
        'gw: value_usd_at_current_prices is empty for the payments asked in XYZ: the gateway gives no price for it',
        '',
      ].join('\n'),
    );
  });

  it('--in EUR: asked in EUR as it is, USD and BTC through the EUR price, to its places', async () => {
    const { header, records } = await run('EUR');
    expect(header?.at(-1)).toBe('value_eur_at_current_prices');
    const usdAsEur = divideRounded('10', FIATS.EUR.price, 2);
    const btcAsEur = divideRounded(multiplyRounded('0.0005', PRICES.BTC, 12), FIATS.EUR.price, 2);
    expect([usdAsEur, btcAsEur]).toEqual(['9.26', '30.36']);
    expect(records.map((r) => r.at(-1))).toEqual([usdAsEur, '', btcAsEur, '', '20']);
  });

  it('the prices are read once, before the first page, however many pages', async () => {
    const { t, gateway, opts } = priced((f) => page(f.page ?? 1, 3));
    await paymentsRun({ ...opts, csvIn: 'USD' });
    expect(gateway.calls.map((c) => (c.method === 'perform' ? c.args[0] : c.method))).toEqual([
      'prices',
      'fiat currencies',
      'payments',
      'payments',
      'payments',
    ]);
    // Asked in USDT: 10 × 1.0002 on each payment's first row.
    expect(
      readCsv(t.stdout())
        .slice(1, 4)
        .map((r) => r.at(-1)),
    ).toEqual([multiplyRounded('10', PRICES.USDT, 2), '', multiplyRounded('3', PRICES.USDT, 2)]);
  });

  it("a fiat the gateway does not price: report's error, exit 65, nothing exported", async () => {
    const { t, gateway, opts } = priced(payments);
    const error = await gwFailure(paymentsRun({ ...opts, csvIn: 'JPY' }));
    expect(error.exitCode).toBe(ExitCode.DATA);
    expect(error.message).toBe('the gateway gives no price for JPY: --in takes a fiat it prices');
    expect(t.stdout()).toBe('');
    expect(gateway.calls.some((c) => c.method === 'payments')).toBe(false);
  });
});
