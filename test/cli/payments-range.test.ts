// Today's takings end to end against the embedded sandbox (issue 24): `gw payments --since today`
// reads the range whole and totals it; in the TZ set here (the day follows the local clock).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);
const HOUR = 3_600_000;

describe('gw payments --since today --sandbox', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'UTC';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it("today's payments and their totals; yesterday has none", async () => {
    const cwd = emptyDir();
    for (const orderId of ['o-late', 'o-partial']) {
      const r = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--order-id', orderId], { cwd, clock: at(0) });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const r = await gw(['payments', '--since', 'today', '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { payments: unknown[]; totals: Record<string, unknown> };
    expect(doc.payments).toHaveLength(2);
    expect(doc.totals).toEqual({
      count: 2,
      byState: { late: 1, underpaid: 1 },
      asked: { USDT: '50' },
      received: { USDT: '47.5' },
      unconfirmed: {},
      unreported: 0,
      states: {
        late: { count: 1, asked: { USDT: '25' }, received: { USDT: '25' } },
        underpaid: { count: 1, asked: { USDT: '25' }, received: { USDT: '22.5' } },
      },
    });

    const human = await gw(['payments', '--since', 'today', '--sandbox', '--api', 'v1'], { cwd, clock: at(3 * HOUR), stdoutTTY: true, width: 80 });
    const text = human.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^Created +Track ID +Status +Amount +Received/);
    expect(text).toMatch(/ late +25 USDT +25 USDT \(1 tx\)/);
    expect(text.trimEnd().split('\n').slice(-7)).toEqual([
      'Payments  2: 1 late, 1 underpaid',
      'Asked     50 USDT',
      'Received  47.5 USDT',
      '  1 late        asked     25 USDT',
      '                received  25 USDT',
      '  1 underpaid   asked     25 USDT',
      '                received  22.5 USDT',
    ]);

    const before = await gw(['payments', '--since', 'yesterday', '--until', 'yesterday', '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(JSON.parse(before.stdout)).toMatchObject({ payments: [], totals: { count: 0 } });
  });
});
