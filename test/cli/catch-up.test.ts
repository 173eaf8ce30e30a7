// Catching up (issue 27): a shop's receiver (gw listen --forward-to the shop) is down for part of a
// sandbox day; the sandbox's notifications for that time are lost (it tries once here); on its
// next start, gw listen --catch-up delivers each missed change the history shows, signed with the
// merchant key (checked here with crypto.createHmac, not gw's module), marked X-Gw-Recovered: 1
// with a stable event id; restarted again, and with gw webhook replay, nothing is sent twice.
// All on 127.0.0.1.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { emptyDir, runGw as gw, type CliResult } from '../support/cli.js';
import { freePort, hmacOf, startReceiver, type Receiver, waitForPort } from '../support/notifications.js';
import { sandboxEnv } from '../support/sandbox.js';

let sandbox: RunningSandbox;
let shop: Receiver;
let env: Record<string, string>;

beforeAll(async () => {
  // One attempt per notification (no retries) and no change but the ones the test triggers.
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 3600, notifications: { retryDelaysMs: [] } });
  shop = await startReceiver('/shop/hooks');
  env = { ...sandboxEnv(sandbox), GATEWAY_API: 'v1', XDG_STATE_HOME: emptyDir('gw-state-') };
});
afterAll(async () => {
  await shop.close();
  await sandbox.close();
});

function background(argv: string[]): { stop(): Promise<CliResult> } {
  const interrupt = new AbortController();
  let stderr = (): string => '';
  const done = gw(argv, { env, interrupt: interrupt.signal, live: (sofar) => (stderr = sofar.stderr) });
  return {
    // Stopped once its catch-up has said how it went (on a loaded machine that can come after the port opens).
    stop: async () => {
      await expect.poll(() => stderr().includes('catch-up:'), { timeout: 15_000 }).toBe(true);
      interrupt.abort(Object.assign(new Error('interrupted'), { exitCode: 130 }));
      return done;
    },
  };
}

const records = (r: CliResult): Array<Record<string, unknown>> =>
  r.stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const eventIdOf = (trackId: string, state: string): string => createHash('sha256').update(`${trackId}:${state}`).digest('hex').slice(0, 32);

describe('a receiver down for part of the day, then caught up', () => {
  it('each missed change delivered once, signed and marked; none twice across restarts', async () => {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/hooks`;
    const listenArgs = ['listen', '--port', String(port), '--path', '/hooks', '--forward-to', shop.url, '--catch-up', '--json'];
    const trigger = async (trackId: string, state: string): Promise<void> => {
      const r = await gw(['sandbox', 'trigger', trackId, state], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    const pay = async (orderId: string): Promise<string> => {
      const r = await gw(['pay', '25', 'USDT', '--no-qr', '--order-id', orderId, '--callback-url', callback, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { trackId: string }).trackId;
    };

    // Morning: the receiver is up (its first start only takes note of what the history shows).
    const first = background(listenArgs);
    await waitForPort(port);
    const a = await pay('cu-a');
    await expect.poll(() => shop.requests.length).toBe(1);
    await trigger(a, 'confirming');
    await expect.poll(() => shop.requests.length).toBe(2);
    const morning = await first.stop();
    expect(morning.exitCode, morning.stderr).toBe(0);
    expect(morning.stderr).toContain('catch-up: nothing recorded before');

    // Midday: the receiver is down. A is paid, B is made and starts confirming, C is made: all lost.
    await trigger(a, 'paid');
    const b = await pay('cu-b');
    await trigger(b, 'confirming');
    const c = await pay('cu-c');
    expect(shop.requests).toHaveLength(2);

    // Afternoon: the receiver starts again and catches up on what the history shows now.
    const second = background(listenArgs);
    await waitForPort(port);
    await expect.poll(() => shop.requests.length).toBe(5);
    const afternoon = await second.stop();
    expect(afternoon.exitCode, afternoon.stderr).toBe(0);
    expect(afternoon.stderr).toContain('catch-up: 3 missed notifications');
    const recovered = shop.requests.slice(2);
    const got = recovered.map((r) => {
      const body = JSON.parse(r.body.toString()) as { track_id: string; status: string };
      expect(r.headers.hmac).toBe(hmacOf(sandbox.merchantKey, r.body));
      expect(r.headers['x-gw-recovered']).toBe('1');
      return [body.track_id, body.status, r.headers['x-gw-event-id']];
    });
    // Oldest payment first; payments made within the same second in track id order.
    const byTrackId = (x: unknown[], y: unknown[]): number => String(x[0]).localeCompare(String(y[0]));
    expect(got.sort(byTrackId)).toEqual(
      [
        [a, 'Paid', eventIdOf(a, 'paid')],
        [b, 'Paying', eventIdOf(b, 'confirming')],
        [c, 'Waiting', eventIdOf(c, 'waiting')],
      ].sort(byTrackId),
    );
    const out = records(afternoon).filter((r) => r.event === 'recovered');
    expect(out.map((r) => [r.trackId, r.status, r.recovered, r.delivered, r.eventId]).sort(byTrackId)).toEqual(
      [
        [a, 'paid', true, true, eventIdOf(a, 'paid')],
        [b, 'confirming', true, true, eventIdOf(b, 'confirming')],
        [c, 'waiting', true, true, eventIdOf(c, 'waiting')],
      ].sort(byTrackId),
    );

    // Evening: B is paid while the receiver is up (seen live); restarts and a replay send nothing again.
    const third = background(listenArgs);
    await waitForPort(port);
    await trigger(b, 'paid');
    await expect.poll(() => shop.requests.length).toBe(6);
    const evening = await third.stop();
    expect(evening.stderr).toContain('catch-up: 0 missed notifications');
    const fourth = background(listenArgs);
    await waitForPort(port);
    const night = await fourth.stop();
    expect(night.stderr).toContain('catch-up: 0 missed notifications');
    const replay = await gw(['webhook', 'replay', '--since', '1d', '--forward-to', shop.url, '--json'], { env });
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(replay.stdout).toBe('');
    expect(shop.requests).toHaveLength(6);
    // Every change the shop got, live or recovered, once.
    const ids = shop.requests.map((r) => {
      const body = JSON.parse(r.body.toString()) as { track_id: string; status: string };
      return `${body.track_id}:${body.status}`;
    });
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);
});

describe('gw sandbox --drop-notifications, then gw webhook replay (legacy API)', () => {
  it('the dropped notification is never sent; replay delivers the current state once in the legacy body format (and the payout), then nothing', async () => {
    const dropping = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 3600, notifications: { retryDelaysMs: [], dropNotifications: 1 } });
    const receiver = await startReceiver('/hooks');
    const env2 = { ...sandboxEnv(dropping), GATEWAY_API: 'legacy', XDG_STATE_HOME: emptyDir('gw-state-') };
    try {
      const pay = await gw(['pay', '5', 'USDT', '--no-qr', '--order-id', 'dropped-1', '--callback-url', receiver.url, '--json'], { env: env2 });
      expect(pay.exitCode, pay.stderr).toBe(0);
      const trackId = (JSON.parse(pay.stdout) as { trackId: string }).trackId;
      // The next change is delivered (one notification dropped, not all): only it arrives, the creation's never does.
      const confirming = await gw(['sandbox', 'trigger', trackId, 'confirming'], { env: env2 });
      expect(confirming.exitCode, confirming.stderr).toBe(0);
      await expect.poll(() => receiver.requests.length).toBe(1);
      expect(JSON.parse(receiver.requests[0]?.body.toString() ?? '{}')).toMatchObject({ trackId, status: 'Confirming' });

      // A payout (no callback URL): payout notifications are caught up too, signed with the payout key.
      const payout = await gw(['payout', '1.5', 'USDT', 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', '--network', 'Tron Network', '--yes', '--json'], { env: env2 });
      expect(payout.exitCode, payout.stderr).toBe(0);
      const payoutId = String((JSON.parse(payout.stdout) as { trackId: string }).trackId);

      const replay = await gw(['webhook', 'replay', '--since', '1h', '--forward-to', receiver.url, '--json'], { env: env2 });
      expect(replay.exitCode, replay.stderr).toBe(0);
      expect(replay.stderr).toContain('payouts included');
      // Each signed with its own key: the payment's with the merchant key, the payout's with the payout key.
      expect(receiver.requests).toHaveLength(3);
      for (const r of receiver.requests.slice(1)) {
        const key = (JSON.parse(r.body.toString()) as { type: string }).type === 'payout' ? dropping.payoutKey : dropping.merchantKey;
        expect(r.headers.hmac).toBe(hmacOf(key, r.body));
        expect(r.headers['x-gw-recovered']).toBe('1');
      }
      const out = records(replay);
      expect(out).toHaveLength(2);
      const recoveredPayout = out.find((r) => r.type === 'payout');
      expect(recoveredPayout).toMatchObject({ trackId: payoutId, status: 'processing', style: 'v1', delivered: true });
      expect(JSON.parse(String(recoveredPayout?.body))).toMatchObject({
        track_id: payoutId,
        type: 'payout',
        status: 'Processing',
        amount: 1.5,
        currency: 'USDT',
      });
      expect(out.find((r) => r.type === 'payment')).toMatchObject({
        event: 'recovered',
        recovered: true,
        delivered: true,
        trackId,
        status: 'confirming',
        style: 'legacy',
        eventId: eventIdOf(trackId, 'confirming'),
      });
      // What the history shows now; gw had recorded nothing for this profile, so it is delivered (at least once).
      expect(JSON.parse(String(out.find((r) => r.type === 'payment')?.body))).toMatchObject({
        trackId,
        status: 'Confirming',
        type: 'payment',
        orderId: 'dropped-1',
      });

      const again = await gw(['webhook', 'replay', '--since', '1h', '--json'], { env: env2 });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain('0 missed notifications');
    } finally {
      await receiver.close();
      await dropping.close();
    }
  });
});

describe('gw webhook replay when the application does not take it', () => {
  it('not remembered (exit 69, the event kept), delivered by the next run, then never again', async () => {
    const sbx = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 3600, notifications: { retryDelaysMs: [] } });
    const app = await startReceiver('/hooks');
    const env3 = { ...sandboxEnv(sbx), GATEWAY_API: 'v1', GATEWAY_PAYOUT_KEY: '', XDG_STATE_HOME: emptyDir('gw-state-') };
    try {
      const pay = await gw(['pay', '7', 'USDT', '--no-qr', '--order-id', 'refused-1', '--json'], { env: env3 });
      expect(pay.exitCode, pay.stderr).toBe(0);
      const trackId = (JSON.parse(pay.stdout) as { trackId: string }).trackId;
      const replay = ['webhook', 'replay', '--since', '1h', '--forward-to', app.url, '--json'];

      app.answer = { status: 500, body: 'down for maintenance' };
      const refused = await gw(replay, { env: env3 });
      expect(refused.exitCode).toBe(69);
      expect(refused.stderr).toContain('1 of 1 recovered notification was not taken');
      expect(records(refused)).toMatchObject([{ trackId, delivered: false, forward: { status: 500 } }]);

      app.answer = { status: 200, body: 'ok' };
      const taken = await gw(replay, { env: env3 });
      expect(taken.exitCode, taken.stderr).toBe(0);
      expect(records(taken)).toMatchObject([{ trackId, delivered: true, eventId: eventIdOf(trackId, 'waiting') }]);

      const again = await gw(replay, { env: env3 });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe('');
      expect(app.requests).toHaveLength(2);
    } finally {
      await app.close();
      await sbx.close();
    }
  });
});

describe('gw webhook replay in text (no --json, no --forward-to): a preview', () => {
  it('lists the missed change and says it is a preview; a later --forward-to run still delivers it, then nothing', async () => {
    const sbx = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 3600, notifications: { retryDelaysMs: [] } });
    const app = await startReceiver('/hooks');
    const env4 = { ...sandboxEnv(sbx), GATEWAY_API: 'v1', GATEWAY_PAYOUT_KEY: '', XDG_STATE_HOME: emptyDir('gw-state-') };
    try {
      const pay = await gw(['pay', '7', 'USDT', '--no-qr', '--order-id', 'preview-1', '--json'], { env: env4 });
      expect(pay.exitCode, pay.stderr).toBe(0);
      const trackId = (JSON.parse(pay.stdout) as { trackId: string }).trackId;

      for (let run = 0; run < 2; run++) {
        const preview = await gw(['webhook', 'replay', '--since', '1h'], { env: env4 });
        expect(preview.exitCode, preview.stderr).toBe(0);
        expect(preview.stdout).toContain(trackId);
        expect(preview.stdout).toContain('missed');
        expect(preview.stderr.trim().split('\n')).toHaveLength(1);
        expect(preview.stderr).toContain('1 missed notification since');
        expect(preview.stderr).toContain('a preview, none delivered or recorded as delivered');
      }
      expect(app.requests).toHaveLength(0);

      const forward = ['webhook', 'replay', '--since', '1h', '--forward-to', app.url, '--json'];
      const taken = await gw(forward, { env: env4 });
      expect(taken.exitCode, taken.stderr).toBe(0);
      expect(records(taken)).toMatchObject([{ trackId, delivered: true }]);
      expect(app.requests).toHaveLength(1);

      const again = await gw(forward, { env: env4 });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe('');
      expect(app.requests).toHaveLength(1);
    } finally {
      await app.close();
      await sbx.close();
    }
  });
});

describe('gw sandbox --drop-notifications: checked before anything starts', () => {
  it.each([['many'], ['-1'], ['10001'], ['1.5']])('--drop-notifications %s: exit 64, one line', async (n) => {
    const r = await gw(['sandbox', '--drop-notifications', n]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(/--drop-notifications must be a whole number from 0 to 10000/);
  });
});
