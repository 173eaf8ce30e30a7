import { describe, expect, it } from 'vitest';
import { rateRun } from '../../src/commands/rate.js';
import { ExitCode, GwError } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { FakeGateway } from '../support/fake-gateway.js';

describe('rateRun', () => {
  it('asks for the pair and prints one line with the exact digits', async () => {
    const t = IOStreams.test();
    const gateway = new FakeGateway({ rate: '0.000015250051' });
    await rateRun({ io: t.io, gateway: async () => gateway, from: 'USDT', to: 'BTC' });
    expect(gateway.calls).toEqual([{ method: 'rate', args: ['USDT', 'BTC'] }]);
    expect(t.stdout()).toBe('1 USDT = 0.000015250051 BTC\n');
    expect(t.stderr()).toBe('');
  });

  it('--json: {from, to, rate} with the rate as an exact string, and "sandbox": true on sandbox runs', async () => {
    const t = IOStreams.test({ json: true });
    t.io.setSandbox(true);
    await rateRun({ io: t.io, gateway: async () => new FakeGateway({ rate: '1.5e-7' }), from: 'BTC', to: 'USDT' });
    expect(JSON.parse(t.stdout())).toEqual({ from: 'BTC', to: 'USDT', rate: '0.00000015', sandbox: true });
  });

  it('a sandbox run says SANDBOX on stderr, never on stdout', async () => {
    const t = IOStreams.test();
    t.io.setSandbox(true);
    await rateRun({ io: t.io, gateway: async () => new FakeGateway({ rate: '2' }), from: 'BTC', to: 'USDT' });
    expect(t.stdout()).toBe('1 BTC = 2 USDT\n');
    expect(t.stderr()).toContain('SANDBOX');
  });

  it('a refusal is thrown as it came, nothing printed', async () => {
    const t = IOStreams.test();
    const refusal = new GwError(ExitCode.DATA, 'the gateway refused: Invalid fromCurrency (result 121)');
    await expect(rateRun({ io: t.io, gateway: async () => new FakeGateway({ rate: refusal }), from: 'XXX', to: 'BTC' })).rejects.toBe(refusal);
    expect(t.stdout()).toBe('');
  });
});
