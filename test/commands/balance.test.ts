import { describe, expect, it } from 'vitest';
import { balanceRun } from '../../src/commands/balance.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { balancesOf, FakeGateway } from '../support/fake-gateway.js';

describe('balanceRun', () => {
  it('aligns the amounts on the decimal point, digits exactly as sent', async () => {
    const t = IOStreams.test();
    const gateway = new FakeGateway({ balances: balancesOf({ BTC: '0.00012345', USDT: '1520.75', ETH: '1.234567890123456789' }) });
    await balanceRun({ io: t.io, gateway: async () => gateway, currency: undefined });
    expect(gateway.calls).toEqual([{ method: 'balances', args: [undefined] }]);
    expect(t.stdout()).toBe(['Currency  Balance', 'BTC          0.00012345', 'USDT      1520.75', 'ETH          1.234567890123456789', ''].join('\n'));
  });

  it('--json: symbol → exact amount string', async () => {
    const t = IOStreams.test({ json: true });
    await balanceRun({ io: t.io, gateway: async () => new FakeGateway({ balances: balancesOf([{ BTC: 1e-8 }]) }), currency: 'BTC' });
    expect(JSON.parse(t.stdout())).toEqual({ balances: { BTC: '0.00000001' } });
  });

  it('a symbol listed twice: every entry is a row, JSON holds their exact sum, and a warning says so', async () => {
    const entries = balancesOf([{ currency: 'USDT', balance: '10.5' }, { currency: 'USDT', balance: '0.000001' }, { BTC: '1' }]);
    const human = IOStreams.test();
    await balanceRun({ io: human.io, gateway: async () => new FakeGateway({ balances: entries }), currency: undefined });
    expect(
      human
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('USDT')),
    ).toHaveLength(2);
    expect(human.stderr()).toMatch(/^gw: warning: the gateway lists "USDT" more than once/);

    const json = IOStreams.test({ json: true });
    await balanceRun({ io: json.io, gateway: async () => new FakeGateway({ balances: entries }), currency: undefined });
    expect(JSON.parse(json.stdout())).toEqual({ balances: { USDT: '10.500001', BTC: '1' } });
    expect(JSON.parse(json.stderr()).warning.message).toContain('USDT');
  });

  it('a balance sent as null is unknown, never 0: "unknown" in the table, null in JSON, a warning either way', async () => {
    const entries = balancesOf({ BTC: null, USDT: '1520.75', ETH: '' });
    const human = IOStreams.test();
    await balanceRun({ io: human.io, gateway: async () => new FakeGateway({ balances: entries }), currency: undefined });
    expect(human.stdout()).toBe(['Currency  Balance', 'BTC       unknown', 'USDT      1520.75', 'ETH       unknown', ''].join('\n'));
    expect(human.stderr()).toBe(
      'gw: warning: the gateway gave no amount for "BTC", "ETH" (null): shown as unknown, not 0; check again later or in the merchant panel\n',
    );

    const json = IOStreams.test({ json: true });
    await balanceRun({ io: json.io, gateway: async () => new FakeGateway({ balances: entries }), currency: undefined });
    expect(JSON.parse(json.stdout())).toEqual({ balances: { BTC: null, USDT: '1520.75', ETH: null } });
    expect(JSON.parse(json.stderr()).warning.message).toContain('(null in JSON)');
  });

  it('a symbol listed twice with one amount unknown: the sum is unknown too (null), never the known part alone', async () => {
    const entries = balancesOf([
      { currency: 'USDT', balance: '10.5' },
      { currency: 'USDT', balance: null },
    ]);
    const json = IOStreams.test({ json: true });
    await balanceRun({ io: json.io, gateway: async () => new FakeGateway({ balances: entries }), currency: undefined });
    expect(JSON.parse(json.stdout())).toEqual({ balances: { USDT: null } });
  });

  it('no balances: says so', async () => {
    const t = IOStreams.test();
    await balanceRun({ io: t.io, gateway: async () => new FakeGateway({ balances: [] }), currency: undefined });
    expect(t.stdout()).toBe('no balances\n');
  });
});
