// Notifications through the built binary, for what only processes show: `gw listen` ended by
// SIGINT (or SIGTERM) exits promptly and cleanly even with a slow client holding a connection, and
// one flow across processes — `gw sandbox` delivering to `gw listen`, a payment made with `gw pay`,
// moved with `gw sandbox trigger`. The listener's deliveries are checked with crypto.createHmac.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GW_BIN, removeDir, startGw, tempDir, waitUntilIdle } from '../support/gw.js';
import { type Answer, hmacOf, send, startReceiver } from '../support/notifications.js';

type Child = ReturnType<typeof startGw>;

/** Resolves with the first stdout line matching `pattern` (the child keeps running). */
function lineMatching(child: Child, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer | string): void => {
      text += String(chunk);
      const line = text.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    void child.then(
      () => reject(new Error(`exited before printing ${pattern}: ${text}`)),
      () => reject(new Error(`failed before printing ${pattern}: ${text}`)),
    );
  });
}

const KEYS = { GATEWAY_MERCHANT_KEY: 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s', GATEWAY_PAYOUT_KEY: 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd' };

describe('gw listen as a process', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} ends it within 1.5 s, exit 0, one closing line, no stack — even with a slow client connected`, async () => {
      const child = startGw(['listen', '--json'], { env: KEYS });
      const listening = JSON.parse(await lineMatching(child, /"event":"listening"/)) as { url: string };
      const port = Number(new URL(listening.url).port);
      const slow = connect(port, '127.0.0.1');
      await new Promise((resolve) => slow.once('connect', resolve));
      slow.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"ty');
      slow.on('error', () => undefined);
      const sentAt = Date.now();
      child.kill(signal);
      const result = await child;
      const ms = Date.now() - sentAt;
      slow.destroy();
      expect(result.exitCode).toBe(0);
      expect(ms).toBeLessThan(1500);
      expect(String(result.stderr)).toBe('');
      expect(String(result.stdout).trim().split('\n')).toHaveLength(1);
      expect(String(result.stdout) + String(result.stderr)).not.toMatch(/\n\s+at |Error:/);
    });
  }

  it('human mode: the closing line on stderr says how many it took', async () => {
    const child = startGw(['listen', '--port', '0'], { env: KEYS });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
    await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\//.test(stderr), { timeout: 10_000 }).toBe(true);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toMatch(/Press Ctrl-C to stop\.\nStopped: 0 requests, 0 verified\.\n$/);
  });
});

describe('gw sandbox → gw listen → the application, across processes', () => {
  it('creation, confirming and paid each arrive verified; the sandbox logs each delivery as NDJSON', async () => {
    const app = await startReceiver();
    const sandbox = startGw(['sandbox', '--json'], { timeoutMs: 60_000 });
    const sandboxUrl = (JSON.parse(await lineMatching(sandbox, /"url"/)) as { url: string }).url;
    const env = { GATEWAY_BASE_URL: sandboxUrl, GATEWAY_MERCHANT_KEY: 'sandbox-merchant-key', GATEWAY_PAYOUT_KEY: 'sandbox-payout-key' };
    const listen = startGw(['listen', '--json', '--path', '/hooks', '--forward-to', app.url], { env, timeoutMs: 60_000 });
    const callback = (JSON.parse(await lineMatching(listen, /"event":"listening"/)) as { url: string }).url;
    try {
      const pay = await startGw(['pay', '25', 'USDT', '--no-qr', '--json', '--order-id', 'e2e-1', '--callback-url', callback], { env });
      expect(pay.exitCode).toBe(0);
      const trackId = (JSON.parse(String(pay.stdout)) as { trackId: string }).trackId;
      for (const state of ['confirming', 'paid']) {
        const trigger = await startGw(['sandbox', 'trigger', trackId, state], { env });
        expect({ exitCode: trigger.exitCode, stdout: String(trigger.stdout) }).toEqual({
          exitCode: 0,
          stdout: `${trackId} is now ${state}; notification to ${callback}: HTTP 200 "ok" (attempt 1/5)\n`,
        });
      }
      await expect.poll(() => app.requests.length, { timeout: 10_000 }).toBe(3);
      for (const r of app.requests) expect(r.headers.hmac).toBe(hmacOf('sandbox-merchant-key', r.body));
      expect(app.requests.map((r) => (JSON.parse(r.body.toString()) as { status: string }).status)).toEqual(['Waiting', 'Confirming', 'Paid']);
    } finally {
      listen.kill('SIGINT');
      sandbox.kill('SIGINT');
    }
    const [l, s] = await Promise.all([listen, sandbox]);
    await app.close();
    expect([l.exitCode, s.exitCode]).toEqual([0, 0]);
    const received = String(l.stdout)
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x) as Record<string, unknown>)
      .filter((x) => x.event === 'notification');
    expect(received.map((x) => [x.verified, x.status, x.orderId])).toEqual([
      [true, 'waiting', 'e2e-1'],
      [true, 'confirming', 'e2e-1'],
      [true, 'paid', 'e2e-1'],
    ]);
    const deliveries = String(s.stdout)
      .trim()
      .split('\n')
      .slice(1)
      .map((x) => JSON.parse(x) as Record<string, unknown>);
    expect(deliveries.map((d) => [d.event, d.status, d.result, d.httpStatus])).toEqual([
      ['delivery', 'waiting', 'acknowledged', 200],
      ['delivery', 'confirming', 'acknowledged', 200],
      ['delivery', 'paid', 'acknowledged', 200],
    ]);
  });
});

describe('gw listen acknowledges only what it recorded: its stdout goes away', () => {
  const BODY = (trackId: string): string =>
    `{"status":"Paid","trackId":"${trackId}","type":"payment","orderId":"E2E","amount":"25","currency":"USDT","payAmount":"25","payCurrency":"USDT"}`;
  const post = (url: string, trackId: string): Promise<Answer> =>
    send(url, BODY(trackId), { 'content-type': 'application/json', HMAC: hmacOf(KEYS.GATEWAY_MERCHANT_KEY, BODY(trackId)) }, 'POST', 5000).catch(
      (error: Error) => ({ status: 0, body: error.message, headers: {} }),
    );

  it('the reader of its pipe goes away: what was answered 200 is all in what the reader got, nothing after it is answered 200, exit 74 with one line', async () => {
    const child = startGw(['listen', '--json'], { env: KEYS });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += String(c)));
    const url = (JSON.parse(await lineMatching(child, /"event":"listening"/)) as { url: string }).url;
    const ids = Array.from({ length: 30 }, (_, i) => String(910_000_000 + i));

    const before = await Promise.all(ids.slice(0, 10).map((id) => post(url, id)));
    expect(before.map((a) => a.status)).toEqual(Array(10).fill(200));
    // Every notification answered 200 was written before its answer: the reader has it all.
    await expect.poll(() => ids.slice(0, 10).every((id) => output.includes(`"trackId":"${id}"`)), { timeout: 5000 }).toBe(true);
    child.stdout?.destroy(); // the reader goes away

    const after = await Promise.all(ids.slice(10).map((id) => post(url, id)));
    const result = await child;
    expect(after.map((a) => a.status)).not.toContain(200);
    expect(after.map((a) => a.status)).toContain(503);
    expect(after.find((a) => a.status === 503)?.body).toMatch(/^not recorded: the receiver's output failed \(EPIPE\)/);
    expect(result.exitCode).toBe(74);
    const stderr = String(result.stderr).trim().split('\n');
    expect(stderr).toHaveLength(1);
    expect(JSON.parse(stderr[0] as string)).toMatchObject({
      error: {
        exitCode: 74,
        message: expect.stringMatching(/^stopped: stdout can no longer be written \(EPIPE\); \d+ notifications? (was|were) answered HTTP 503/),
      },
    });
    // No notification answered 200 is missing from the output.
    for (const [i, a] of [...before, ...after].entries()) if (a.status === 200) expect(output).toContain(`"trackId":"${ids[i]}"`);
  });

  it('stdout is a full disk (/dev/full): every notification is answered 503, never 200; exit 74 (ENOSPC)', async () => {
    const home = tempDir();
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [GW_BIN, 'listen', '--port', '0', '--path', '/hooks'], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, ...KEYS },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\/hooks/.test(stderr), { timeout: 10_000 }).toBe(true);
      const url = (/http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(stderr) as RegExpExecArray)[0];
      const answers = await Promise.all(['920000001', '920000002', '920000003'].map((id) => post(url, id)));
      expect(answers.map((a) => a.status)).not.toContain(200);
      expect(answers.map((a) => a.status)).toContain(503);
      expect(await exited).toBe(74);
      expect(stderr).toMatch(
        /\ngw: stopped: stdout can no longer be written \(ENOSPC\); \d+ notifications? (was|were) answered HTTP 503, not acknowledged, so the gateway sends (it|them) again\n$/,
      );
    } finally {
      child.kill('SIGKILL');
      removeDir(home);
    }
  });
});

describe('gw webhook verify with input that does not end', () => {
  /** gw webhook verify reading a stdin pipe that stays open (nothing written, never closed). */
  function verifyOpenStdin(extra: string[]): {
    child: ReturnType<typeof spawn>;
    exited: Promise<{ code: number | null; stderr: string; at: number }>;
    home: string;
  } {
    const home = tempDir();
    const child = spawn(process.execPath, [GW_BIN, 'webhook', 'verify', '--hmac', 'ab', ...extra], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, ...KEYS },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
    const exited = new Promise<{ code: number | null; stderr: string; at: number }>((resolve) =>
      child.once('close', (code) => resolve({ code, stderr, at: Date.now() })),
    );
    return { child, exited, home };
  }

  it('--timeout ends it: exit 75, saying the body did not end', async () => {
    const { child, exited, home } = verifyOpenStdin(['--timeout', '0.5']);
    try {
      const { code, stderr } = await exited;
      expect(code).toBe(75);
      expect(stderr).toBe(
        'gw: the body on stdin did not end: gw did not finish within the 0.5 s timeout\nhint: give a file, or a pipe whose writer finishes (close it, or end the input with Ctrl-D)\n',
      );
    } finally {
      child.kill('SIGKILL');
      removeDir(home);
    }
  });

  it('SIGTERM ends it at once: exit 143', async () => {
    const { child, exited, home } = verifyOpenStdin(['--timeout', '60']);
    try {
      // Sent once gw waits for its input (a process still starting would simply die of it).
      await waitUntilIdle(child.pid ?? 0);
      const sentAt = Date.now();
      child.kill('SIGTERM');
      const { code, stderr, at } = await exited;
      expect(code).toBe(143);
      expect(stderr).toBe('gw: terminated\n');
      // Unwound by itself, not by the 1 s grace after which gw ends a command that did not.
      expect(at - sentAt).toBeLessThan(900);
    } finally {
      child.kill('SIGKILL');
      removeDir(home);
    }
  });
});
