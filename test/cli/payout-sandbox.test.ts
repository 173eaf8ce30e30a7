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

  it('pay → refund (everything that arrived) → payout status --wait confirmed; status --refunds lists it; nothing is left to refund', async () => {
    const cwd = emptyDir();
    const clock = new ManualClock(Date.now());
    const paid = await gw(['pay', '25', 'USDT', '--sandbox', '--json', '--no-qr'], { cwd, clock });
    expect(paid.exitCode).toBe(0);
    const payment = String((JSON.parse(paid.stdout) as { trackId: string }).trackId);
    clock.advance(60_000);
    const to = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';
    // An address of another network: refused before anything is sent.
    const wrong = await gw(['refund', payment, '--to', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', '--yes', '--sandbox'], { cwd, clock });
    expect(wrong.exitCode).toBe(64);
    expect(wrong.stderr).toContain('the address is not a Tron');
    expect(wrong.stderr).toContain('nothing');
    const r = await gw(['refund', payment, '--to', to, '--yes', '--json', '--sandbox'], { cwd, clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('what arrived');
    const refund = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(refund).toMatchObject({ sent: true, payment, arrived: '25', refundedBefore: '0', amount: '25', currency: 'USDT', address: to });
    expect(String(refund.reference)).toMatch(new RegExp(`^refund-${payment}-[0-9a-z]{4}$`));
    const waited = await gw(['payout', 'status', String(refund.trackId), '--wait', '--sandbox', '--json'], { cwd, clock });
    expect(waited.exitCode).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'confirmed', amount: '25' });
    const status = await gw(['status', payment, '--refunds', '--sandbox', '--json'], { cwd, clock });
    expect(status.exitCode).toBe(0);
    expect((JSON.parse(status.stdout) as { refunds: Array<{ trackId: string }> }).refunds.map((x) => x.trackId)).toEqual([refund.trackId]);
    const again = await gw(['refund', payment, '--to', to, '--yes', '--sandbox'], { cwd, clock });
    expect(again.exitCode).toBe(65);
    expect(again.stderr).toContain('nothing is left to refund');
    const more = await gw(['refund', payment, '--to', to, '--amount', '1', '--yes', '--sandbox'], { cwd, clock });
    expect(more.exitCode).toBe(65);
  });

  it('pay → refund → payout status --wait confirmed for a BTC payment above the starting balance and for each coin of a -mixed payment', async () => {
    const cwd = emptyDir();
    const clock = new ManualClock(Date.now());
    const btcTo = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
    const payment = async (args: string[]): Promise<string> => {
      const paid = await gw(['pay', ...args, '--sandbox', '--json', '--no-qr'], { cwd, clock });
      expect(paid.exitCode, paid.stderr).toBe(0);
      return String((JSON.parse(paid.stdout) as { trackId: string }).trackId);
    };
    const refundAndConfirm = async (trackId: string, args: string[], amount: string): Promise<void> => {
      const r = await gw(['refund', trackId, ...args, '--yes', '--json', '--sandbox'], { cwd, clock });
      expect(r.exitCode, r.stderr).toBe(0);
      const refund = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(refund).toMatchObject({ sent: true, payment: trackId, amount });
      const waited = await gw(['payout', 'status', String(refund.trackId), '--wait', '--sandbox', '--json'], { cwd, clock });
      expect(waited.exitCode, waited.stderr).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'confirmed', amount });
    };
    const btc = await payment(['0.001', 'BTC']);
    const mixed = await payment(['25', 'USDT', '--order-id', 'qa-mixed']);
    clock.advance(60_000);
    // 0.001 BTC is more than the sandbox's starting BTC balance (0.00012345): what arrived is on it.
    await refundAndConfirm(btc, ['--to', btcTo], '0.001');
    await refundAndConfirm(mixed, ['--to', 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', '--coin', 'USDT'], '12.5');
    await refundAndConfirm(mixed, ['--to', btcTo, '--coin', 'BTC'], '0.00019063');
    const left = await gw(['balance', 'BTC', '--sandbox', '--json', '--api', 'v1'], { cwd, clock });
    expect(JSON.parse(left.stdout)).toMatchObject({ balances: { BTC: '0.00012345' } });
  });

  it('a payout whose reference ends in -reject ends rejected: payout status exit 12; balances do not move', async () => {
    const cwd = emptyDir();
    const clock = new ManualClock(Date.now());
    const r = await gw(
      ['payout', '1', 'USDT', 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', '--network', 'tron', '--reference', 'test-reject', '--yes', '--json', '--sandbox'],
      { cwd, clock },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const trackId = String((JSON.parse(r.stdout) as { trackId: string }).trackId);
    const waited = await gw(['payout', 'status', trackId, '--wait', '--sandbox'], { cwd, clock });
    expect(waited.exitCode).toBe(12);
    expect(waited.stdout).toContain('rejected');
  });

  it('payouts --format csv: every page, a header, amounts as numbers, a description that looks like a formula guarded', async () => {
    const cwd = emptyDir();
    const clock = new ManualClock(Date.now());
    const args = ['payout', '1.5', 'USDT', 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', '--network', 'tron', '--yes', '--sandbox'];
    expect((await gw([...args, '--description', '=HYPERLINK("x")'], { cwd, clock })).exitCode).toBe(0);
    expect((await gw(args, { cwd, clock })).exitCode).toBe(0);
    const r = await gw(['payouts', '--format', 'csv', '--size', '1', '--sandbox'], { cwd, clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toBe('track_id,created_at,status,gateway_status,amount,fee,currency,network,address,memo,tx_hash,reference,description');
    expect(lines).toHaveLength(3);
    expect(r.stdout).toContain(',1.5,0,USDT,Tron Network,');
    expect(r.stdout).toContain(`"'=HYPERLINK(""x"") gw-po-`);
  });
});
