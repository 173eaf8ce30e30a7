// gw payments with a range (issue 24, "Today's takings"): --since/--until read the whole range,
// every page, and add the totals: the count per state, the amounts asked per currency and what
// arrived per coin, exact decimal sums. On a terminal a footer under the table; --json "totals".
import { describe, expect, it } from 'vitest';
import { buildPaymentFilter, paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import { UsageError } from '../../src/errors.js';
import type { PaymentFilter, PaymentInfo, PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { visibleWidth } from '../../src/output/table.js';
import { ManualClock } from '../../src/util/clock.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const NOW = (T_DATE + 7200) * 1000;

/** Today's three payments, over two pages: 25 USD paid in USDT, 0.1 + 0.2 USD paid in BTC, one waiting. */
const PAGES: PaymentInfo[][] = [
  [
    v1InfoOf({ track_id: '700001', status: 'paid', currency: 'USD', amount: '25', order_id: 'order-with-a-rather-long-name-1' }, [v1Tx('aa01', '25', 'USDT')]),
    v1InfoOf({ track_id: '700002', status: 'paid', currency: 'USD', amount: '0.1', date: T_DATE + 60 }, [v1Tx('aa02', '0.0000015', 'BTC')]),
  ],
  [
    v1InfoOf({ track_id: '700003', status: 'paid', currency: 'USD', amount: '0.2', date: T_DATE + 120 }, [v1Tx('aa03', '0.0000030', 'BTC')]),
    v1InfoOf({ track_id: '700004', status: 'waiting', currency: 'EUR', amount: '10', date: T_DATE + 180 }, []),
  ],
];

async function run(io: TestIOOptions, flags: { since?: string; until?: string } = { since: 'today' }, pages = PAGES) {
  const t = IOStreams.test(io);
  const asked: PaymentFilter[] = [];
  const gateway = new FakeGateway({
    page: (f: PaymentFilter): PaymentPage => {
      asked.push(f);
      const n = f.page ?? 1;
      const rows = pages[n - 1] ?? [];
      return { payments: rows, page: n, pages: pages.length, total: pages.flat().length };
    },
  });
  const { filter, all, totals } = buildPaymentFilter(flags, NOW);
  const opts: PaymentsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter, all, totals };
  await paymentsRun(opts);
  return { t, asked, stdout: t.stdout().replace(/\u001b\[[0-9;]*m/g, '') };
}

describe('gw payments --since/--until: the whole range, totalled', () => {
  it('a range reads every page, as --all does, and is totalled; --page is refused with it', () => {
    expect(buildPaymentFilter({ since: 'today' }, NOW)).toMatchObject({ all: true, totals: true, filter: { size: 200 } });
    expect(buildPaymentFilter({ until: 'yesterday', size: '50' }, NOW)).toMatchObject({ all: true, totals: true, filter: { size: 50 } });
    expect(buildPaymentFilter({}, NOW)).toMatchObject({ all: false, totals: false });
    expect(() => buildPaymentFilter({ since: 'today', page: '2' }, NOW)).toThrow(UsageError);
    expect(() => buildPaymentFilter({ since: 'today', page: '2' }, NOW)).toThrow(/--since and --until read the whole range, every page: leave out --page/);
  });

  it('on an 80-column terminal: every page, the time before the track id, what arrived, and the totals footer', async () => {
    const { stdout, asked } = await run({ stdoutTTY: true, stderrTTY: true, width: 80 });
    expect(asked.map((f) => f.page ?? 1)).toEqual([1, 2]);
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(visibleWidth(line)).toBeLessThan(80);
    expect(lines[0]).toMatch(/^Created +Track ID +Status +Amount +Received/);
    expect(stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d +700001 +paid +25 USD +25 USDT \(1 tx\)/);
    expect(stdout).toMatch(/700004 +waiting +10 EUR +nothing/);
    expect(lines.slice(-7)).toEqual([
      'Payments  4: 3 paid, 1 waiting',
      'Asked     10 EUR + 25.3 USD',
      'Received  0.0000045 BTC + 25 USDT',
      // Per state: how many, what was asked, what arrived.
      '  3 paid        asked     25.3 USD',
      '                received  0.0000045 BTC + 25 USDT',
      '  1 waiting     asked     10 EUR',
      '                received  nothing',
    ]);
  });

  it("--json: every page's payments and the same totals, exact decimal strings", async () => {
    const { stdout } = await run({ json: true }, { since: 'yesterday', until: 'today' });
    const doc = JSON.parse(stdout) as { payments: Array<{ trackId: string }>; totals: unknown; complete: boolean };
    expect(doc.payments.map((p) => p.trackId)).toEqual(['700001', '700002', '700003', '700004']);
    expect(doc.complete).toBe(true);
    expect(doc.totals).toEqual({
      count: 4,
      byState: { paid: 3, waiting: 1 },
      asked: { EUR: '10', USD: '25.3' },
      received: { BTC: '0.0000045', USDT: '25' },
      unconfirmed: {},
      unreported: 0,
      states: {
        paid: { count: 3, asked: { USD: '25.3' }, received: { BTC: '0.0000045', USDT: '25' } },
        waiting: { count: 1, asked: { EUR: '10' }, received: {} },
      },
    });
    // Without a range: no totals.
    expect(JSON.parse((await run({ json: true }, {})).stdout)).not.toHaveProperty('totals');
  });

  it('nothing in the range: zero totals, not a bare "No payments match."', async () => {
    const { stdout } = await run({ stdoutTTY: true, width: 80 }, { since: 'today' }, [[]]);
    expect(stdout.trimEnd().split('\n').slice(-3)).toEqual(['Payments  0', 'Asked     nothing', 'Received  nothing']);
    const json = JSON.parse((await run({ json: true }, { since: 'today' }, [[]])).stdout) as { totals: unknown };
    expect(json.totals).toEqual({ count: 0, byState: {}, asked: {}, received: {}, unconfirmed: {}, unreported: 0, states: {} });
  });

  it('the legacy history reports no arrival: received says so, not nothing', async () => {
    const legacy = [[paymentInfoOf({ trackId: '184729305', status: 'Paid', amount: '25', currency: 'USD', payAmount: '25', payCurrency: 'USDT' })]];
    const { stdout } = await run({ stdoutTTY: true, width: 100 }, { since: 'today' }, legacy);
    expect(stdout).toContain('Received  unreported');
    const json = JSON.parse((await run({ json: true }, { since: 'today' }, legacy)).stdout) as { totals: unknown };
    expect(json.totals).toMatchObject({ count: 1, asked: { USD: '25' }, received: {}, unreported: 1 });
  });
});
