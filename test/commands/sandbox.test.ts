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
    await expect.poll(() => t.stdout(), { timeout: 10_000 }).toContain('\n');
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
    await expect.poll(() => t.stdout(), { timeout: 10_000 }).toContain('Press Ctrl-C');
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

describe('sandboxRun: notifications', () => {
  it('logs each delivery attempt: one line on stderr, or an NDJSON line on stdout with --json', async () => {
    const { startReceiver, send, hmacOf } = await import('../support/notifications.js');
    const app = await startReceiver();
    app.answer = { status: 204, body: '' };
    for (const json of [false, true]) {
      const t = IOStreams.test({ json, color: false });
      const stop = new AbortController();
      const running = sandboxRun({
        io: t.io,
        signal: stop.signal,
        releaseDeadline: () => undefined,
        server: { port: 0, host: '127.0.0.1', notifications: { retryDelaysMs: [10] } },
      });
      await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+/.exec(t.stdout())?.[0]).toBeTruthy();
      const url = (/http:\/\/127\.0\.0\.1:\d+/.exec(t.stdout()) as RegExpExecArray)[0];
      const body = JSON.stringify({ merchant: 'sandbox-merchant-key', amount: 10, payCurrency: 'USDT', callbackUrl: app.url });
      await send(`${url}/merchants/request/whitelabel`, body, { 'content-type': 'application/json' });
      const log = (): string => (json ? t.stdout().split('\n').slice(1).join('\n') : t.stderr());
      await expect
        .poll(
          () =>
            log()
              .split('\n')
              .filter((l) => l !== '').length,
        )
        .toBe(2);
      if (json) {
        const entries = log()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(entries[0]).toMatchObject({
          event: 'delivery',
          status: 'waiting',
          url: app.url,
          attempt: 1,
          attempts: 2,
          result: 'not-acknowledged',
          httpStatus: 204,
          nextRetryMs: 10,
        });
        expect(entries[1]).toMatchObject({ attempt: 2, result: 'not-acknowledged', nextRetryMs: null });
      } else {
        expect(log()).toMatch(
          /^\d\d:\d\d:\d\d notify [1-9]\d{8} waiting → http:\/\/127\.0\.0\.1:\d+\/hooks: HTTP 204 \(empty body\), not "ok" \(attempt 1\/2\); retry in 0\.01 s\n/,
        );
        expect(log()).toMatch(/\(attempt 2\/2\); gave up\n$/);
      }
      for (const r of app.requests) expect(r.headers.hmac).toBe(hmacOf('sandbox-merchant-key', r.body));
      stop.abort();
      await running;
    }
    await app.close();
  });
});

describe('sandboxControlRun (gw sandbox trigger / resend)', () => {
  it('triggers a state and reports the delivery; resends; refusals map to exit codes', async () => {
    const { sandboxControlRun } = await import('../../src/commands/sandbox.js');
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const { startReceiver, send, freePort } = await import('../support/notifications.js');
    const app = await startReceiver();
    const sbx = await startSandbox();
    try {
      const created = await send(
        `${sbx.url}/merchants/request/whitelabel`,
        JSON.stringify({ merchant: sbx.merchantKey, amount: 10, payCurrency: 'USDT', callbackUrl: app.url }),
        { 'content-type': 'application/json' },
      );
      const trackId = (JSON.parse(created.body) as { trackId: string }).trackId;
      const target = async () => ({ url: new URL(sbx.url), merchantKey: sbx.merchantKey });
      const signal = new AbortController().signal;

      const t = IOStreams.test();
      await sandboxControlRun({ io: t.io, signal, target, action: { kind: 'trigger', trackId, state: 'paid' } });
      expect(t.stdout()).toBe(`${trackId} is now paid; notification to ${app.url}: HTTP 200 "ok" (attempt 1/5)\n`);

      const j = IOStreams.test({ json: true });
      await sandboxControlRun({ io: j.io, signal, target, action: { kind: 'resend', trackId } });
      expect(JSON.parse(j.stdout())).toMatchObject({ ok: true, trackId, notification: { result: 'acknowledged', status: 'paid', httpStatus: 200 } });

      app.answer = { status: 500, body: 'nope' };
      const f = IOStreams.test();
      await sandboxControlRun({ io: f.io, signal, target, action: { kind: 'trigger', trackId, state: 'refunded' } });
      expect(f.stdout()).toMatch(/is now refunded; notification to .*: HTTP 500 "nope", not "ok" \(attempt 1\/5\); retry in 1 s\n$/);

      await expect(sandboxControlRun({ io: t.io, signal, target, action: { kind: 'trigger', trackId: 'nope', state: 'paid' } })).rejects.toMatchObject({
        exitCode: 65,
        message: 'the sandbox refused: no payment with track id nope',
      });
      await expect(
        sandboxControlRun({
          io: t.io,
          signal,
          target: async () => ({ url: new URL(sbx.url), merchantKey: 'wrong-key-123' }),
          action: { kind: 'resend', trackId },
        }),
      ).rejects.toMatchObject({ exitCode: 77 });
      const nowhere = new URL(`http://127.0.0.1:${await freePort()}`);
      await expect(
        sandboxControlRun({ io: t.io, signal, target: async () => ({ url: nowhere, merchantKey: 'k' }), action: { kind: 'resend', trackId } }),
      ).rejects.toMatchObject({
        exitCode: 69,
        message: expect.stringMatching(/cannot reach the sandbox .*connection refused/) as unknown,
      });
      await expect(
        sandboxControlRun({ io: t.io, signal, target: async () => ({ url: new URL(app.url), merchantKey: 'k' }), action: { kind: 'resend', trackId } }),
      ).rejects.toMatchObject({ exitCode: 76 });
    } finally {
      await sbx.close();
      await app.close();
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
