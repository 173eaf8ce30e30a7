// gw report end to end against the embedded sandbox (issue 27): the totals of a range are those of
// `gw payments --since … --until … --json` for the same range, to the last digit, and the periods
// add up to them; --in values at current prices, labelled with their time; the table fits 80
// columns; the statistics cross-check agrees; a missing payout key is one line.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reportRun } from '../../src/commands/report.js';
import { buildReportOptions } from '../../src/commands/report.js';
import { ConfigError } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { visibleWidth } from '../../src/output/table.js';
import { ManualClock as Clock } from '../../src/util/clock.js';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Wednesday 18 November 2026, 09:00 UTC (10:00 in Berlin).
const T0 = Date.UTC(2026, 10, 18, 9, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);
const NOW = 8 * DAY;

type Totals = {
  count: number;
  byState: Record<string, number>;
  asked: Record<string, string>;
  received: Record<string, string>;
  unconfirmed: Record<string, string>;
  unreported: number;
  states: Record<string, { count: number; asked: Record<string, string>; received: Record<string, string> }>;
};
const pick = (t: Totals): Totals => ({
  count: t.count,
  byState: t.byState,
  asked: t.asked,
  received: t.received,
  unconfirmed: t.unconfirmed,
  unreported: t.unreported,
  states: t.states,
});

describe('gw report --sandbox', () => {
  const saved = process.env.TZ;
  const cwd = emptyDir();
  beforeEach(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  // A sandbox week: payments on several days, in several currencies and coins, with the sandbox's outcomes.
  beforeAll(async () => {
    process.env.TZ = 'Europe/Berlin';
    const made: Array<[number, string[]]> = [
      [0, ['25', 'USDT', '--order-id', 'r-1']],
      [HOUR, ['0.1', 'USD', '--pay-currency', 'BTC', '--order-id', 'r-2']],
      [2 * HOUR, ['0.2', 'USD', '--pay-currency', 'BTC', '--order-id', 'r-3-partial']],
      [DAY + HOUR, ['10', 'EUR', '--pay-currency', 'USDT', '--order-id', 'r-4-late']],
      [2 * DAY, ['3.5', 'USDT', '--order-id', 'r-5-underpay']],
      [4 * DAY + 13 * HOUR, ['1.25', 'USDT', '--order-id', 'r-6-expire']],
      [5 * DAY, ['0.05', 'ETH', '--order-id', 'r-7']],
    ];
    for (const [when, args] of made) {
      const r = await gw(['pay', ...args, '--sandbox', '--json'], { cwd, clock: at(when) });
      expect(r.exitCode, r.stderr).toBe(0);
    }
  }, 60_000);

  it.each([
    ['--since', '2026-11-18', '--until', '2026-11-26'],
    ['--since', '2026-11-19', '--until', '2026-11-20'],
    ['--since', 'this-month', '--until', 'today'],
    ['--since', '7d', '--until', 'today'],
  ])(
    'the totals of %s %s %s %s are those of gw payments, and the periods add up to them',
    async (...range) => {
      for (const api of ['v1', 'legacy']) {
        const payments = await gw(['payments', ...range, '--sandbox', '--api', api, '--json'], { cwd, clock: at(NOW) });
        expect(payments.exitCode, payments.stderr).toBe(0);
        const expected = (JSON.parse(payments.stdout) as { totals: Totals }).totals;
        for (const by of ['day', 'week', 'month']) {
          const r = await gw(['report', ...range, '--by', by, '--sandbox', '--api', api, '--json'], { cwd, clock: at(NOW) });
          expect(r.exitCode, r.stderr).toBe(0);
          const doc = JSON.parse(r.stdout) as { totals: Totals; periods: Totals[]; complete: boolean };
          expect(doc.complete).toBe(true);
          expect(pick(doc.totals)).toEqual(expected);
          expect(doc.periods.reduce((n, p) => n + p.count, 0)).toBe(expected.count);
        }
      }
    },
    60_000,
  );

  it('the range holds payments of several days and coins (the comparison above is not empty)', async () => {
    const r = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-26', '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(NOW) });
    const doc = JSON.parse(r.stdout) as { totals: Totals; periods: Array<Totals & { period: string }> };
    expect(doc.totals.count).toBe(7);
    expect(Object.keys(doc.totals.received).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    expect(doc.periods.filter((p) => p.count > 0).map((p) => p.period)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-22', '2026-11-23']);
    // 22 November 23:00 in Berlin is a Sunday: its payment is in the week of 16 November.
    const weeks = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-26', '--by', 'week', '--sandbox', '--api', 'v1', '--json'], {
      cwd,
      clock: at(NOW),
    });
    expect((JSON.parse(weeks.stdout) as { periods: Array<Totals & { period: string }> }).periods.map((p) => [p.period, p.count])).toEqual([
      ['2026-11-16', 6],
      ['2026-11-23', 1],
    ]);
  });

  it('--in USD: labelled as current prices with their time; the table fits 80 columns with a bar per day', async () => {
    const json = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-26', '--in', 'usd', '--sandbox', '--api', 'v1', '--json'], {
      cwd,
      clock: at(NOW),
    });
    expect(json.exitCode, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { prices: Record<string, string>; totals: { value: { asked: Record<string, string> } } };
    expect(doc.prices).toMatchObject({ currency: 'USD', at: new Date(T0 + NOW).toISOString(), basis: 'current' });
    // 0.3 USD asked in USD, exactly; the rest at the sandbox's fixed prices.
    expect(doc.totals.value.asked.own).toBe('0.3');

    const human = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-26', '--in', 'USD', '--sandbox', '--api', 'v1'], {
      cwd,
      clock: at(NOW),
      stdoutTTY: true,
      width: 80,
    });
    expect(human.exitCode, human.stderr).toBe(0);
    const text = human.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    for (const line of text.split('\n')) expect(visibleWidth(line), line).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^Day +Payments +Asked \(USD\) +Received \(USD\)$/m);
    expect(text).toMatch(/^2026-11-18 +3 +█+ /m);
    expect(text).toContain("at the gateway's current prices, read 2026-11-26 10:00");
    expect(text).toContain('not the value at the time of each payment');
  });

  it('--check-stats: the sandbox statistics agree with the history', async () => {
    const r = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-26', '--check-stats', '--sandbox', '--api', 'v1', '--json'], {
      cwd,
      clock: at(NOW),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { stats: { differences: unknown[] } }).stats.differences).toEqual([]);
  });
});

describe('gw report without a payout key', () => {
  it('says in one line that payouts are not included, and the net says so', async () => {
    const t = IOStreams.test({ stdoutTTY: false });
    const gateway = new FakeGateway({
      page: {
        payments: [v1InfoOf({ track_id: '1', status: 'paid', currency: 'USDT', amount: '5', date: T_DATE }, [v1Tx('x', '5', 'USDT')])],
        page: 1,
        pages: 1,
        total: 1,
      },
      performed: { 'the payout history': new ConfigError('no payout API key is configured', 'set it with --payout-key') },
    });
    const now = (T_DATE + 3600) * 1000;
    process.env.TZ = 'UTC';
    await reportRun({ io: t.io, gateway: async () => gateway, clock: new Clock(now), ...buildReportOptions({ since: 'today', by: 'day' }, now) });
    const out = t.stdout();
    expect(out).toContain('payouts not included: no payout API key is configured');
    expect(out).toMatch(/^Net +5 USDT \(payouts not included\)$/m);
    expect(out.split('\n').filter((l) => l.includes('payouts not included:'))).toHaveLength(1);
  });
  it('--check-stats: where the statistics differ from the history, a note gives both and follows the history', async () => {
    const t = IOStreams.test({ stdoutTTY: false });
    const { Decimal } = await import('../../src/money/decimal.js');
    const gateway = new FakeGateway({
      page: {
        payments: [v1InfoOf({ track_id: '1', status: 'paid', currency: 'USDT', amount: '5', date: T_DATE }, [v1Tx('x', '5', 'USDT')])],
        page: 1,
        pages: 1,
        total: 1,
      },
      performed: {
        'the payout history': new ConfigError('no payout API key is configured'),
        'payment statistics': { rows: [{ payCurrency: 'USDT', count: 1, received: Decimal.fromLiteral('4.5') }], more: false },
      },
    });
    const now = (T_DATE + 3600) * 1000;
    process.env.TZ = 'UTC';
    await reportRun({
      io: t.io,
      gateway: async () => gateway,
      clock: new Clock(now),
      ...buildReportOptions({ since: 'today', by: 'day', checkStats: true }, now),
    });
    expect(t.stdout()).toContain("note: USDT arrived: 4.5 by the gateway's statistics, 5 by the history\n(the report follows the history");
    expect(t.stdout()).toMatch(/^Received +5 USDT$/m);
  });
});

describe('gw report when the history runs out of time', () => {
  // A gateway that hangs on page 2: the deadline stops the history there, and nothing is left for
  // the payout history either. The payments read are still reported, marked incomplete, and the
  // failure names the page the history stopped before (not only "no time was left").
  it('prints what was read, says it is incomplete and why, instead of ending with the payout history’s time-out alone', async () => {
    const t = IOStreams.test({ stdoutTTY: false });
    const { ExitCode, GwError } = await import('../../src/errors.js');
    const outOfTime = (): never => {
      throw new GwError(ExitCode.TEMPFAIL, 'no complete answer from the gateway within 4 s');
    };
    const gateway = new FakeGateway({
      page: (filter: { page?: number }) =>
        (filter.page ?? 1) === 1
          ? {
              payments: [v1InfoOf({ track_id: '1', status: 'paid', currency: 'USDT', amount: '5.10', date: T_DATE }, [v1Tx('x', '5.10', 'USDT')])],
              page: 1,
              pages: 3,
              total: 3,
            }
          : outOfTime(),
      performed: { 'the payout history': new GwError(ExitCode.TEMPFAIL, 'no time was left to send the request to the gateway') },
    });
    const now = (T_DATE + 3600) * 1000;
    process.env.TZ = 'UTC';
    const run = reportRun({ io: t.io, gateway: async () => gateway, clock: new Clock(now), ...buildReportOptions({ since: 'today', by: 'day' }, now) });
    await expect(run).rejects.toThrow(/the report is incomplete: stopped before page 2 of 3: no complete answer .*; the payout history could not be read/);
    expect(t.stdout()).toMatch(/^Received +5\.10 USDT$/m);
    expect(t.stdout()).toContain('Totals of the rows read; the listing is incomplete:');
    expect(t.stdout()).toContain('payouts not included: no time was left');
  });
});

describe('gw report --check-stats against the sandbox, a -mixed payment included', () => {
  // A -mixed payment arrives in two coins (USDT, then BTC): the versioned history lists each
  // transaction in its own coin, and the sandbox's statistics must count what arrived the same way,
  // or the cross-check reports a difference that is the sandbox's own.
  it('the statistics agree with the history per coin received', async () => {
    const cwd = emptyDir();
    const made = await gw(['pay', '20', 'USDT', '--order-id', 'm-1-mixed', '--sandbox', '--json'], { cwd, clock: at(0) });
    expect(made.exitCode, made.stderr).toBe(0);
    const r = await gw(['report', '--since', '2026-11-18', '--until', '2026-11-19', '--check-stats', '--sandbox', '--api', 'v1', '--json'], {
      cwd,
      clock: at(DAY),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { totals: { received: Record<string, string> }; stats: { differences: unknown[] } };
    expect(Object.keys(doc.totals.received).sort()).toEqual(['BTC', 'USDT']);
    expect(doc.stats.differences).toEqual([]);
  });
});
