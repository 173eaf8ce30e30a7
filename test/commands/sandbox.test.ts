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
    expect(info).toMatchObject({ merchantKey: 'sandbox-merchant-key', payoutKey: 'sandbox-payout-key', sandbox: true });
    const answer = await fetch(`${info.url}/exchange/rate`, { method: 'POST', body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' });
    expect(((await answer.json()) as { result: number }).result).toBe(100);
    expect(released).toBe(true);
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

describe('gw sandbox --settle', () => {
  it('passes the settle time to the sandbox: a payment stays open that long', async () => {
    const { newCmdSandbox } = await import('../../src/commands/sandbox.js');
    const seen: Array<number | undefined> = [];
    const f = { io: IOStreams.test().io, signal: new AbortController().signal, releaseDeadline: () => undefined, globals: {} } as unknown as Parameters<
      typeof newCmdSandbox
    >[0];
    const command = newCmdSandbox(f, async (opts) => {
      seen.push(opts.server.settleSeconds);
    });
    await command.parseAsync(['--settle', '60'], { from: 'user' });
    await command.parseAsync([], { from: 'user' });
    expect(seen).toEqual([60, undefined]);
  });
});
