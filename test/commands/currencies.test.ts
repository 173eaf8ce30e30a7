import { describe, expect, it } from 'vitest';
import { currenciesRun } from '../../src/commands/currencies.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { FakeGateway } from '../support/fake-gateway.js';

describe('currenciesRun', () => {
  it('one symbol per line, from the endpoint asked for', async () => {
    const t = IOStreams.test();
    const gateway = new FakeGateway({ currencies: ['BTC', 'USDT'] });
    await currenciesRun({ io: t.io, gateway: async () => gateway, endpoint: 'legacy' });
    expect(gateway.calls).toEqual([{ method: 'acceptedCurrencies', args: ['legacy'] }]);
    expect(t.stdout()).toBe('BTC\nUSDT\n');
  });

  it('--json: {"currencies": [...]} with the exact text', async () => {
    const t = IOStreams.test({ json: true });
    await currenciesRun({ io: t.io, gateway: async () => new FakeGateway({ currencies: ['BTC', 'USDT\u001b[2J'] }), endpoint: 'default' });
    expect(JSON.parse(t.stdout())).toEqual({ currencies: ['BTC', 'USDT\u001b[2J'] });
    expect(t.stdout()).not.toContain('\u001b');
  });

  it('escape codes in a symbol never reach the terminal', async () => {
    const t = IOStreams.test();
    await currenciesRun({ io: t.io, gateway: async () => new FakeGateway({ currencies: ['US\u001b]0;owned\u0007DT'] }), endpoint: 'default' });
    expect(t.stdout()).toBe('USDT\n');
  });

  it('an empty list prints nothing and warns on stderr', async () => {
    const t = IOStreams.test();
    await currenciesRun({ io: t.io, gateway: async () => new FakeGateway({ currencies: [] }), endpoint: 'default' });
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toBe('gw: warning: the gateway lists no accepted currencies\n');
  });
});
