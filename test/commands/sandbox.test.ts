import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sandboxRun } from '../../src/commands/sandbox.js';
import { IOStreams } from '../../src/output/iostreams.js';

describe('sandboxRun', () => {
  it('serves until the signal aborts, printing its URL and test keys first (--json: one line)', async () => {
    const t = IOStreams.test({ json: true });
    const stop = new AbortController();
    let released = false;
    const running = sandboxRun({ io: t.io, signal: stop.signal, releaseDeadline: () => (released = true), server: { port: 0, host: '127.0.0.1' } });
    await expect.poll(() => t.stdout()).toContain('\n');
    const info = JSON.parse(t.stdout()) as { url: string };
    expect(info).toMatchObject({ merchantKey: 'sandbox-merchant-key', payoutKey: 'sandbox-payout-key', generalKey: 'sandbox-general-key', sandbox: true });
    const answer = await fetch(`${info.url}/exchange/rate`, { method: 'POST', body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' });
    expect(((await answer.json()) as { result: number }).result).toBe(100);
    expect(released).toBe(true);
    stop.abort();
    await running;
  });

  it('prints the general key for the versioned API, and serves it with the key it was given', async () => {
    const t = IOStreams.test();
    const stop = new AbortController();
    const server = { port: 0, host: '127.0.0.1', generalKey: 'gk-custom-1' };
    const running = sandboxRun({ io: t.io, signal: stop.signal, releaseDeadline: () => undefined, server });
    await expect.poll(() => t.stdout()).toContain('Press Ctrl-C');
    expect(t.stdout()).toMatch(/^ {2}general key {3}gk-custom-1 /m);
    expect(t.stdout()).toContain('GATEWAY_API=v1');
    const url = /listening on (\S+)/.exec(t.stdout())?.[1] ?? '';
    const answer = await fetch(`${url}/v1/general/swap/rate`, {
      method: 'POST',
      headers: { general_api_key: 'gk-custom-1' },
      body: '{"from_currency":"BTC","to_currency":"USDT"}',
    });
    expect(answer.status).toBe(200);
    stop.abort();
    await running;
  });

  it('a port in use: exit 69 saying so, not an internal error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const t = IOStreams.test();
      await expect(
        sandboxRun({ io: t.io, signal: new AbortController().signal, releaseDeadline: () => undefined, server: { port, host: '127.0.0.1' } }),
      ).rejects.toMatchObject({
        exitCode: 69,
        message: `cannot serve the sandbox on 127.0.0.1:${port}: the port is in use`,
      });
    } finally {
      blocker.close();
    }
  });
});
