// The counter flow end to end, in process: gw pay --sandbox --wait for each outcome the order id
// chooses, and gw status / gw payments / gw pay --reuse-if-exists in LATER runs (each --sandbox
// run starts its own sandbox: the track id and the journal in the user's state folder carry it).
// A ManualClock drives the sandbox and the waits: no real sleeping.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);

describe('gw pay --sandbox --wait', () => {
  it.each([
    ['order-1', 0, 'paid', 'Paid'],
    ['order-2-underpay', 10, 'underpaid', 'Underpaid'],
    ['order-3-expire', 11, 'expired', 'Expired'],
    ['order-4-fail', 12, 'failed', 'Failed'],
  ])('--order-id %s: exit %i, final status %s', async (orderId, exitCode, status, gatewayStatus) => {
    const clock = at(0);
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--wait', '--json', '--order-id', orderId], { clock });
    expect(r.exitCode, r.stderr).toBe(exitCode);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ status, gatewayStatus, orderId, payAmount: '25', sandbox: true });
    // A final state within 10 s, seen at the next poll; expired with nothing arrived is watched for
    // late funds for the sandbox's settle time (10 s) more before it is taken as the end.
    expect(clock.now() - T0).toBeLessThan(status === 'expired' ? 30_000 : 20_000);
    if (status === 'expired') expect(clock.now() - T0).toBeGreaterThanOrEqual(20_000);
    if (exitCode !== 0) expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exitCode, trackId: doc.trackId } });
    if (status === 'underpaid') expect(doc.receivedAmount).toBe('22.5');
  });

  it('human output into a pipe: the payment, each change, the final state', async () => {
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--wait', '--order-id', 'o-human'], { clock: at(0) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Pay exactly +25 USDT$/m);
    expect(r.stdout).toMatch(/^● PAID/m);
    expect(r.stderr).toMatch(/SANDBOX/);
    expect(r.stderr).toMatch(/is confirming\n.*is paid\n/);
  });

  it('--wait-timeout alone waits (as for gw status), and gives up when it runs out: exit 124, the payment named', async () => {
    const clock = at(0);
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--wait-timeout', '3s', '--order-id', 'o-patience'], { clock });
    expect(r.exitCode).toBe(124);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ orderId: 'o-patience', status: expect.stringMatching(/^(new|waiting|confirming)$/) });
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exitCode: 124, trackId: doc.trackId } });
    expect(clock.now() - T0).toBeLessThan(10_000);
  });

  it('on an 80×24 terminal: the screen ends on PAID', async () => {
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--wait', '--order-id', 'o-tty'], { clock: at(0), stdoutTTY: true, width: 80, height: 24 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/received\. The payment is complete\./);
  });
});

describe('a later run finds the payment', () => {
  it('gw status and gw payments --order-id, in later processes, with --sandbox', async () => {
    const cwd = emptyDir();
    const created = await gw(['pay', '25', 'USD', '--pay-currency', 'BTC', '--sandbox', '--json', '--order-id', 'later-1'], { cwd, clock: at(0) });
    expect(created.exitCode, created.stderr).toBe(0);
    const { trackId, address, payAmount } = JSON.parse(created.stdout) as { trackId: string; address: string; payAmount: string };

    const early = await gw(['status', trackId, '--sandbox', '--json'], { cwd, clock: at(5000) });
    expect(early.exitCode).toBe(8);
    expect(JSON.parse(early.stdout)).toMatchObject({ trackId, status: 'confirming', address, payAmount, orderId: 'later-1' });

    const later = await gw(['status', trackId, '--sandbox'], { cwd, clock: at(60_000) });
    expect(later.exitCode).toBe(0);
    expect(later.stdout).toMatch(/^● PAID/);

    const found = await gw(['payments', '--order-id', 'later-1', '--sandbox', '--json'], { cwd, clock: at(60_000) });
    expect(found.exitCode).toBe(0);
    const page = JSON.parse(found.stdout) as { payments: Array<Record<string, unknown>>; total: number };
    expect(page.total).toBe(1);
    expect(page.payments[0]).toMatchObject({ trackId, status: 'paid', orderId: 'later-1' });

    const waited = await gw(['status', trackId, '--sandbox', '--wait', '--json'], { cwd, clock: at(1000) });
    expect(waited.exitCode).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'paid' });

    const journal = path.join(cwd, '.local', 'state', 'gateway', 'sandbox-payments.jsonl');
    expect(statSync(journal).mode & 0o777).toBe(0o600);
    // One line: the payment's record (what a later process answers from), the order id last.
    expect(JSON.parse(readFileSync(journal, 'utf8'))).toEqual({
      trackId,
      createdAt: expect.any(Number),
      lifeTime: 60,
      payCurrency: 'BTC',
      network: 'Bitcoin Network',
      outcome: 'paid',
      settleSeconds: 10,
      currency: 'USD',
      amount: '25',
      orderId: 'later-1',
    });
    expect(readFileSync(journal, 'utf8')).toMatch(/^\{"trackId":"[1-9]\d{8}",.*,"orderId":"later-1"\}\n$/);
  });

  it('gw pay --reuse-if-exists after a failure: the open payment is shown again, no second one is created', async () => {
    const cwd = emptyDir();
    const first = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--order-id', 'retry-1'], { cwd, clock: at(0) });
    const { trackId } = JSON.parse(first.stdout) as { trackId: string };
    const again = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--order-id', 'retry-1', '--reuse-if-exists'], { cwd, clock: at(2000) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ trackId, reused: true });
    const list = JSON.parse((await gw(['payments', '--order-id', 'retry-1', '--sandbox', '--json'], { cwd, clock: at(3000) })).stdout) as { total: number };
    expect(list.total).toBe(1);
    const paid = await gw(['pay', '25', 'USDT', '--sandbox', '--order-id', 'retry-1', '--reuse-if-exists'], { cwd, clock: at(60_000) });
    expect(paid.exitCode).toBe(0);
    expect(paid.stderr).toMatch(/order "retry-1" is already paid \(payment [1-9]\d{8}\): no new payment was created/);
  });

  it('without --order-id gw sends its own, and shows it; gw payments finds the payment by it', async () => {
    const cwd = emptyDir();
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--json'], { cwd, clock: at(0) });
    const { orderId, trackId } = JSON.parse(r.stdout) as { orderId: string; trackId: string };
    expect(orderId).toMatch(/^gw-\d{8}-\d{6}-[0-9a-z]{4}$/);
    const found = JSON.parse((await gw(['payments', '--order-id', orderId, '--sandbox', '--json'], { cwd, clock: at(1000) })).stdout) as {
      payments: Array<{ trackId: string }>;
    };
    expect(found.payments.map((p) => p.trackId)).toEqual([trackId]);
    const human = await gw(['pay', '25', 'USDT', '--sandbox'], { cwd, clock: at(0) });
    expect(human.stdout).toMatch(/^Order ID +gw-\d{8}-\d{6}-[0-9a-z]{4} \(generated by gw\)$/m);
  });

  it('a track id the sandbox never gave: refused (116, exit 65)', async () => {
    const r = await gw(['status', '184729305', '--sandbox']);
    expect(r.exitCode).toBe(65);
    expect(r.stderr).toMatch(/invalid trackId/i);
  });
});

describe('usage errors cost nothing', () => {
  it.each([
    [['pay', '25', 'USDT', '--reuse-if-exists', '--sandbox'], /--reuse-if-exists needs --order-id/],
    [['pay', '25', 'USDT', '--wait-timeout', 'soon', '--sandbox'], /--wait-timeout must be a duration/],
    [['pay', '25', 'USDT', '--wait', '--wait-timeout', 'soon', '--sandbox'], /--wait-timeout must be a duration/],
    [['status', 'a b', '--sandbox'], /<trackId> must be a payment's track id/],
    [['payments', '--size', '500', '--sandbox'], /--size must be a whole number from 1 to 200/],
    [['sandbox', '--settle', '0'], /--settle must be a whole number of seconds from 1 to 3600/],
  ])('%j → 64', async (argv, message) => {
    const r = await gw(argv);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
