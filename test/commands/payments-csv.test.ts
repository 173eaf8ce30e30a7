// gw payments --format csv: every page (past the --all cap), streamed with one header, each request
// on its own deadline; an incomplete listing keeps the rows read and ends with exit 76 and one line.
import { describe, expect, it, vi } from 'vitest';
import { paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import { ExitCode, GwError, interrupted } from '../../src/errors.js';
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
