// Notifications end to end, in process (runGw): the sandbox gateway on 127.0.0.1 delivers to
// `gw listen`, which verifies and relays to an application; `gw webhook send` and `gw webhook
// verify` through the whole CLI (config from the environment, argument checks, exit codes). Every
// delivery the application receives is checked here with crypto.createHmac, not with gw's module.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir, runGw as gw, type CliResult } from '../support/cli.js';
import { freePort, hmacOf, startReceiver, type Receiver, waitForPort } from '../support/notifications.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await withSandbox();
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

/** Runs a long-running gw command until `stop()`; its result afterwards. */
function background(argv: string[], extraEnv: Record<string, string> = {}): { stop(): Promise<CliResult> } {
  const interrupt = new AbortController();
  const done = gw(argv, { env: { ...env, ...extraEnv }, interrupt: interrupt.signal });
  return {
    stop: async () => {
      interrupt.abort(Object.assign(new Error('interrupted'), { exitCode: 130 }));
      return done;
    },
  };
}

describe('sandbox → gw listen → the application', () => {
  let app: Receiver;
  beforeAll(async () => {
    app = await startReceiver('/app/hooks');
  });
  afterAll(async () => app.close());

  it('a payment created with a callback URL, then triggered to confirming and paid: three notifications verified, relayed, acknowledged', async () => {
    const port = await freePort();
    const listen = background(['listen', '--port', String(port), '--path', '/hooks', '--forward-to', app.url, '--json']);
    await waitForPort(port);
    const callback = `http://127.0.0.1:${port}/hooks`;

    const pay = await gw(['pay', '25', 'USDT', '--no-qr', '--order-id', 'cli-77', '--callback-url', callback, '--json'], { env });
    expect(pay.exitCode).toBe(0);
    const trackId = (JSON.parse(pay.stdout) as { trackId: string }).trackId;
    await expect.poll(() => app.requests.length).toBe(1);

    const confirming = await gw(['sandbox', 'trigger', trackId, 'confirming'], { env });
    expect(confirming).toMatchObject({ exitCode: 0, stdout: `${trackId} is now confirming; notification to ${callback}: HTTP 200 "ok" (attempt 1/5)\n` });
    const paid = await gw(['sandbox', 'trigger', trackId, 'Paid', '--url', sandbox.url, '--json'], { env });
    expect(paid.exitCode).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ ok: true, status: 'paid', notification: { result: 'acknowledged', httpStatus: 200, answer: 'ok' } });

    const result = await listen.stop();
    expect(result.exitCode).toBe(0);
    const records = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ event: 'listening', url: callback, forwardTo: app.url });
    expect(records.slice(1).map((r) => [r.verified, r.httpStatus, r.trackId, r.status, r.orderId])).toEqual([
      [true, 200, trackId, 'waiting', 'cli-77'],
      [true, 200, trackId, 'confirming', 'cli-77'],
      [true, 200, trackId, 'paid', 'cli-77'],
    ]);
    // What the application got: the sandbox's exact bytes and signature (checked independently).
    expect(app.requests).toHaveLength(3);
    for (const [i, r] of app.requests.entries()) {
      expect(r.headers.hmac).toBe(hmacOf(sandbox.merchantKey, r.body));
      expect(r.body.toString()).toBe(records[i + 1]?.body);
      expect(r.path).toBe('/app/hooks');
    }
    expect(JSON.parse(app.requests[2]!.body.toString())).toMatchObject({
      status: 'Paid',
      trackId,
      type: 'payment',
      orderId: 'cli-77',
      payAmount: '25',
      txID: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
  });

  it('gw pay --sandbox --callback-url: the embedded sandbox delivers the creation notification before it stops', async () => {
    const direct = await startReceiver();
    try {
      const pay = await gw(['pay', '10', 'USDT', '--sandbox', '--no-qr', '--callback-url', direct.url, '--json']);
      expect(pay.exitCode).toBe(0);
      expect(direct.requests).toHaveLength(1);
      const got = direct.requests[0]!;
      expect(got.headers.hmac).toBe(hmacOf('sandbox-merchant-key', got.body));
      expect(JSON.parse(got.body.toString())).toMatchObject({ trackId: (JSON.parse(pay.stdout) as { trackId: string }).trackId, status: 'Waiting' });
    } finally {
      await direct.close();
    }
  });

  it('sandbox trigger / resend: refusals and usage errors as exit codes, one line each', async () => {
    const unknown = await gw(['sandbox', 'trigger', 'sbxnothere', 'paid'], { env });
    expect(unknown).toMatchObject({ exitCode: 65, stdout: '', stderr: 'gw: the sandbox refused: no payment with track id sbxnothere\n' });
    const wrongKey = await gw(['sandbox', 'resend', 'sbxnothere'], { env: { ...env, GATEWAY_MERCHANT_KEY: 'wrong-key-1234' } });
    expect(wrongKey.exitCode).toBe(77);
    expect(wrongKey.stderr).not.toContain('wrong-key-1234');
    expect((await gw(['sandbox', 'trigger', 'sbx1', 'sideways'], { env })).exitCode).toBe(64);
    const remote = await gw(['sandbox', 'trigger', 'sbx1', 'paid'], { env: { GATEWAY_BASE_URL: 'https://api.example.com' } });
    expect(remote).toMatchObject({
      exitCode: 78,
      stderr: expect.stringMatching(/not a sandbox on this machine\nhint: give the running sandbox with --url/) as unknown,
    });
  });
});

describe('gw webhook send → gw listen', () => {
  const keys = { GATEWAY_MERCHANT_KEY: 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s', GATEWAY_PAYOUT_KEY: 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd' };

  it('each style and type verifies at the receiver; a receiver on another path answers 404 and send exits 1', async () => {
    const port = await freePort();
    const listen = background(['listen', '--port', String(port), '--path', '/hooks'], keys);
    await waitForPort(port);
    const url = `http://127.0.0.1:${port}/hooks`;
    for (const args of [[], ['--style', 'v1'], ['--type', 'invoice'], ['--type', 'payout', '--status', 'confirming'], ['--style', 'v1', '--type', 'payout']]) {
      const r = await gw(['webhook', 'send', url, '--order-id', 'o-1', ...args], { env: keys });
      expect({ args, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ args, exitCode: 0, stderr: '' });
      expect(r.stdout).toMatch(/answered as the gateway requires/);
    }
    const wrong = await gw(['webhook', 'send', `http://127.0.0.1:${port}/other`], { env: keys });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toMatch(/^gw: the receiver did not acknowledge the notification: HTTP 404/);
    const out = await listen.stop();
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines.filter((l) => / verified /.test(l))).toHaveLength(5);
    expect(lines.at(-1)).toMatch(/refused 404/);
    for (const key of Object.values(keys)) expect(out.stdout + out.stderr).not.toContain(key);
  });

  it('usage errors exit 64 before anything is sent', async () => {
    for (const args of [
      ['webhook', 'send', 'ftp://127.0.0.1/x'],
      ['webhook', 'send', 'http://127.0.0.1:1/x', '--status', 'sideways'],
      ['webhook', 'send', 'http://127.0.0.1:1/x', '--type', 'refund'],
      ['webhook', 'send', 'http://127.0.0.1:1/x', '--style', 'v2'],
      ['webhook', 'send', 'http://127.0.0.1:1/x', '--amount', '-5'],
      ['webhook', 'verify', 'x.json'],
      ['webhook'],
      ['webhook', 'bogus'],
      ['listen', '--forward-unverified'],
      ['listen', '--forward-to', 'not a url'],
      ['listen', '--port', '99999'],
      ['listen', '--path', '/a b'],
    ]) {
      const r = await gw(args, { env: keys });
      expect({ args, exitCode: r.exitCode }).toEqual({ args, exitCode: 64 });
      expect(r.stderr).toMatch(/^gw: /);
    }
  });

  it('webhook send --json: the document on stdout on a usage error too (64), and with no key (78)', async () => {
    const usage = await gw(['webhook', 'send', 'http://127.0.0.1:1/x', '--status', 'sideways', '--json'], { env: keys });
    expect(usage.exitCode).toBe(64);
    expect(JSON.parse(usage.stdout)).toMatchObject({
      url: 'http://127.0.0.1:1/x',
      acknowledged: false,
      answer: null,
      error: expect.stringMatching(/^--status must be/),
    });
    expect(JSON.parse(usage.stderr)).toMatchObject({ error: { exitCode: 64 } });
    const noKey = await gw(['webhook', 'send', 'http://127.0.0.1:1/x', '--json']);
    expect(noKey.exitCode).toBe(78);
    expect(JSON.parse(noKey.stdout)).toMatchObject({
      url: 'http://127.0.0.1:1/x',
      style: 'legacy',
      acknowledged: false,
      error: expect.stringMatching(/no merchant API key/),
    });
  });

  it('listen --forward-to itself: exit 64, one line, nothing listening', async () => {
    const port = await freePort();
    const r = await gw(['listen', '--port', String(port), '--path', '/hooks', '--forward-to', `http://localhost:${port}/hooks`], { env: keys });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(new RegExp(`^gw: --forward-to http://localhost:${port}/hooks is this receiver itself \\(127\\.0\\.0\\.1:${port}\\)`));
    expect(r.stderr).not.toMatch(/Listening/);
  });

  it('no key configured: listen and send exit 78', async () => {
    expect((await gw(['listen'])).exitCode).toBe(78);
    expect((await gw(['webhook', 'send', 'http://127.0.0.1:1/x'])).exitCode).toBe(78);
  });
});

describe('gw webhook verify', () => {
  const key = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
  const body = '{"track_id":"151811887","status":"Paid","type":"invoice","amount":10,"order_id":"A-1"}';
  const dir = emptyDir('gw-verify-');
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, body);

  it('0 when it verifies (file, stdin, header file), 1 with the cause when it does not', async () => {
    const e = { GATEWAY_MERCHANT_KEY: key };
    expect((await gw(['webhook', 'verify', bodyFile, '--hmac', hmacOf(key, body)], { env: e })).exitCode).toBe(0);
    expect((await gw(['webhook', 'verify', '--hmac', hmacOf(key, body)], { env: e, stdin: body })).exitCode).toBe(0);
    const headers = path.join(dir, 'headers.txt');
    writeFileSync(headers, `POST /hooks HTTP/1.1\nHost: shop\nHMAC: ${hmacOf(key, body)}\n`);
    expect((await gw(['webhook', 'verify', bodyFile, '--header-file', headers], { env: e })).exitCode).toBe(0);

    const edited = await gw(['webhook', 'verify', '--hmac', hmacOf(key, body)], { env: e, stdin: `${body}\n` });
    expect(edited.exitCode).toBe(1);
    expect(edited.stdout).toMatch(/line break was added/);
    expect(edited.stderr).toBe('gw: the signature does not verify\nhint: likely cause: trailing-newline-added\n');
    const json = await gw(['webhook', 'verify', bodyFile, '--hmac', hmacOf('Pq8Xw2Lm-Rt5Yu1Io', body), '--json'], {
      env: { ...e, GATEWAY_PAYOUT_KEY: 'Pq8Xw2Lm-Rt5Yu1Io' },
    });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ verified: false, keyKind: 'payout', expectedKeyKind: 'merchant', causes: [{ code: 'wrong-key-kind' }] });
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { exitCode: 1, message: 'the signature does not verify' } });
  });
});
