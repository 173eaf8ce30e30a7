// What arrived, end to end against the embedded sandbox (its situations by order-id ending,
// docs/sandbox.md): a late payment (expired, then the full amount listed after the expiry), a
// partial one (two transactions, underpaid), a mixed one (two coins), a refund. Each --sandbox run
// starts its own sandbox; the journal in the user's state folder carries the payment between runs.
import { describe, expect, it } from 'vitest';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);
const HOUR = 3_600_000;

async function create(orderId: string, cwd: string): Promise<string> {
  const r = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--order-id', orderId], { cwd, clock: at(0) });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { trackId: string }).trackId;
}

describe('a late payment (-late)', () => {
  it('v1: late, exit 13, the full amount received and listed; never "nothing was paid"', async () => {
    const cwd = emptyDir();
    const trackId = await create('o-late', cwd);
    const json = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(json.exitCode, json.stderr).toBe(13);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ status: 'late', gatewayStatus: 'expired', received: { USDT: '25' } });
    expect((doc.transactions as unknown[]).length).toBeGreaterThan(0);

    const human = await gw(['status', trackId, '--sandbox', '--api', 'v1'], { cwd, clock: at(3 * HOUR) });
    expect(human.exitCode).toBe(13);
    expect(human.stdout).toMatch(/^● LATE/);
    expect(human.stdout).toMatch(/^Received +25 USDT · \d+ transactions?$/m);
    expect(human.stdout).toMatch(/^Transaction 1 +25 USDT · /m);
    expect(human.stderr).toMatch(/do not create another payment for this order/);
    expect(`${human.stdout}${human.stderr}`).not.toMatch(/nothing was paid|create a new payment/i);
  });

  it('legacy: the inquiry lists no transactions (null); the sandbox’s received total (receivedAmount) still makes it late', async () => {
    const cwd = emptyDir();
    const trackId = await create('o-legacy-late', cwd);
    const r = await gw(['status', trackId, '--sandbox', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(r.exitCode, r.stderr).toBe(13);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'late',
      gatewayStatus: 'Expired',
      received: { USDT: '25' },
      difference: { USDT: '0' },
      transactions: null,
    });
    const human = await gw(['status', trackId, '--sandbox'], { cwd, clock: at(3 * HOUR) });
    expect(human.stdout).toMatch(/^● LATE/);
    expect(`${human.stdout}${human.stderr}`).not.toMatch(/nothing was paid|create a new payment/i);
  });
});

describe('a partial payment (-partial): two transactions, underpaid', () => {
  it('v1: both transactions, the received total and the difference with its coin', async () => {
    const cwd = emptyDir();
    const trackId = await create('o-partial', cwd);
    const r = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(3 * HOUR) });
    expect(r.exitCode, r.stderr).toBe(10);
    const doc = JSON.parse(r.stdout) as { received: Record<string, string>; transactions: unknown[]; difference: unknown };
    expect(doc.transactions).toHaveLength(2);
    expect(doc.received).toEqual({ USDT: '22.5' });
    expect(doc.difference).toEqual({ USDT: '2.5' });
    const human = await gw(['status', trackId, '--sandbox', '--api', 'v1'], { cwd, clock: at(3 * HOUR) });
    expect(human.stdout).toMatch(/^Transaction 2 /m);
    expect(human.stdout).toMatch(/^Received +22\.5 USDT · 2 transactions$/m);
    expect(human.stdout).toMatch(/^Difference +2\.5 USDT short of 25 USDT$/m);
    expect(human.stderr).toMatch(/ask the payer for the 2\.5 USDT missing/);
  });
});

describe('a mixed payment (-mixed): two coins', () => {
  it('v1: both coins received, never converted', async () => {
    const cwd = emptyDir();
    const trackId = await create('o-mixed', cwd);
    const r = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(3 * HOUR) });
    const doc = JSON.parse(r.stdout) as { received: Record<string, string>; transactions: Array<{ currency: string }> };
    expect(Object.keys(doc.received)).toHaveLength(2);
    expect(new Set(doc.transactions.map((t) => t.currency)).size).toBe(2);
    const table = await gw(['payments', '--order-id', 'o-mixed', '--sandbox', '--api', 'v1'], { cwd, clock: at(3 * HOUR), stdoutTTY: true, width: 160 });
    expect(table.stdout).toMatch(/USDT \+ \S+ \S+ \(2 txs\)|\S+ \S+ \+ \S+ USDT \(2 txs\)/);
  });
});

describe('a refund (-refund)', () => {
  it('refunding is its own state: exit 12 without --wait, not "refunded"', async () => {
    const cwd = emptyDir();
    const trackId = await create('o-refund', cwd);
    // The plan: 0.7 of its settling time refunding, then refunded.
    for (let ms = 1000; ms < HOUR; ms += 1000) {
      const r = await gw(['status', trackId, '--sandbox', '--api', 'v1', '--json'], { cwd, clock: at(ms) });
      const doc = JSON.parse(r.stdout) as { status: string };
      if (doc.status !== 'refunding') continue;
      expect(r.exitCode).toBe(12);
      expect(JSON.parse(r.stdout)).toMatchObject({ gatewayStatus: 'refunding' });
      return;
    }
    throw new Error('the sandbox never said refunding');
  });
});
