// gw payments with a range whose listing is incomplete (issue 24): the totals are those of the
// rows read, and both output modes say so (the footer's first line; "complete": false in the
// JSON totals too), then exit 76 as any incomplete listing.
import { describe, expect, it } from 'vitest';
import { buildPaymentFilter, paymentsRun } from '../../src/commands/payments.js';
import { ExitCode, GwError } from '../../src/errors.js';
import type { PaymentFilter, PaymentInfo, PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { ManualClock } from '../../src/util/clock.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const NOW = (T_DATE + 7200) * 1000;
const PAID = v1InfoOf({ track_id: '700001', status: 'paid', currency: 'USD', amount: '25' }, [v1Tx('aa01', '25', 'USDT')]);
const WAITING = v1InfoOf({ track_id: '700002', status: 'waiting', currency: 'EUR', amount: '10', date: T_DATE + 60 }, []);

/** The range's listing: `pages` as the gateway sends them (it counts `pages.length` pages). */
async function run(io: TestIOOptions, pages: PaymentInfo[][]): Promise<{ stdout: string; stderr: string; error: unknown }> {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({
    page: (f: PaymentFilter): PaymentPage => {
      const n = f.page ?? 1;
      return { payments: pages[n - 1] ?? [], page: n, pages: pages.length, total: pages.flat().length };
    },
  });
  const { filter, all, totals } = buildPaymentFilter({ since: 'today' }, NOW);
  const error = await paymentsRun({ io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter, all, totals }).catch((e: unknown) => e);
  return { stdout: t.stdout().replace(/\u001b\[[0-9;]*m/g, ''), stderr: t.stderr(), error };
}

describe('gw payments --since today, the listing incomplete', () => {
  // The gateway's second page repeats its first: gw stops there.
  const incomplete = (io: TestIOOptions) => run(io, [[PAID, WAITING], [PAID, WAITING], [PAID]]);

  it('on a terminal: the footer says the totals are of the rows read; exit 76', async () => {
    const { stdout, error } = await incomplete({ stdoutTTY: true, stderrTTY: true, width: 80 });
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).exitCode).toBe(ExitCode.PROTOCOL);
    expect(stdout.trimEnd().split('\n').slice(-8)).toEqual([
      'Totals of the rows read; the listing is incomplete:',
      'Payments  2: 1 paid, 1 waiting',
      'Asked     10 EUR + 25 USD',
      'Received  25 USDT',
      '  1 paid        asked     25 USD',
      '                received  25 USDT',
      '  1 waiting     asked     10 EUR',
      '                received  nothing',
    ]);
  });

  it('--json: "complete": false at the top and in the totals', async () => {
    const { stdout, error } = await incomplete({ json: true });
    expect((error as GwError).exitCode).toBe(ExitCode.PROTOCOL);
    const doc = JSON.parse(stdout) as { complete: boolean; totals: Record<string, unknown> };
    expect(doc.complete).toBe(false);
    expect(doc.totals).toMatchObject({ count: 2, complete: false });
  });

  it('a complete listing: no such line, and no "complete" in the totals', async () => {
    const table = await run({ stdoutTTY: true, width: 80 }, [[PAID], [WAITING]]);
    expect(table.error).toBeUndefined();
    expect(table.stdout).not.toContain('incomplete');
    const json = await run({ json: true }, [[PAID], [WAITING]]);
    expect(JSON.parse(json.stdout).totals).not.toHaveProperty('complete');
  });
});
