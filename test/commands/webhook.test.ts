// webhookVerifyRun and webhookSendRun with IOStreams.test(): the verdict and its likely cause, the
// exit codes (0 verifies / 1 does not / 64 usage / 78 no key), where the signature can come from,
// and what `send` puts on the wire (checked with crypto.createHmac here) and makes of the answer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationKeySettings } from '../../src/cmdutil/notifications.js';
import { signatureFromHeaderText, webhookSendRun, webhookVerifyRun, type WebhookSendOptions } from '../../src/commands/webhook.js';
import { ManualClock } from '../../src/util/clock.js';
import { ConfigError, deadlinePassed, type GwError, terminated } from '../../src/errors.js';
import { IOStreams, type TestIO } from '../../src/output/iostreams.js';
import type { OutStream } from '../../src/output/streams.js';
import { freePort, hmacOf, startReceiver, type Receiver } from '../support/notifications.js';

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const KEYS: NotificationKeySettings = {
  merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' },
  payout: { value: PAYOUT, from: 'env GATEWAY_PAYOUT_KEY' },
};
const BODY = '{"status":"Paid","trackId":"184729305","type":"payment","orderId":"ORD-7","amount":"25","currency":"USDT"}';

const dir = mkdtempSync(path.join(tmpdir(), 'gw-webhook-'));
function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('webhookVerifyRun', () => {
  it('verifies: exit 0, says with which key and from where, and what the notification is', async () => {
    const t = IOStreams.test({ color: false });
    await webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file('ok.json', BODY), hmac: hmacOf(MERCHANT, BODY) });
    expect(t.stdout()).toBe(
      'verified: the HMAC-SHA512 of the body with the merchant API key (from env GATEWAY_MERCHANT_KEY) matches\n' +
        '  payment notification, track id 184729305, status Paid (paid), 106 bytes\n',
    );
  });

  it('reads the body from stdin ("-" or no file)', async () => {
    for (const name of [undefined, '-']) {
      const t = IOStreams.test({ stdin: BODY });
      await webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: name, hmac: hmacOf(MERCHANT, BODY) });
      expect(t.stdout()).toMatch(/^verified/);
    }
  });

  it.each([
    [
      'the payout key',
      BODY,
      hmacOf(PAYOUT, BODY),
      'wrong-key-kind',
      /signed with the payout API key, but a "payment" notification is signed with the merchant API key/,
    ],
    ['a newline added by an editor', `${BODY}\n`, hmacOf(MERCHANT, BODY), 'trailing-newline-added', /line break was added at the end/],
    ['pretty-printed by a framework', JSON.stringify(JSON.parse(BODY), null, 2), hmacOf(MERCHANT, BODY), 'reserialised', /parsed and re-serialised/],
    ['an upper-cased signature', BODY, hmacOf(MERCHANT, BODY).toUpperCase(), 'uppercase', /upper case/],
    ['a truncated signature', BODY, hmacOf(MERCHANT, BODY).slice(0, 40), 'truncated', /cut short/],
    ['another key', BODY, hmacOf('someone-else-9', BODY), 'no-match', /another one/],
  ])('%s: exit 1, the likely cause printed', async (_what, body, signature, code, message) => {
    const t = IOStreams.test({ color: false });
    const failure = webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file(`${code}.json`, body), hmac: signature });
    await expect(failure).rejects.toMatchObject({ exitCode: 1, message: 'the signature does not verify', hint: `likely cause: ${code}` });
    expect(t.stdout()).toMatch(/^does not verify \(a payment notification is signed with the merchant API key\)\n/);
    expect(t.stdout()).toMatch(message);
    expect(t.stdout() + t.stderr()).not.toContain(MERCHANT);
  });

  it('--json: one document with the verdict and the causes', async () => {
    const t = IOStreams.test({ json: true });
    await expect(webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file('j.json', `${BODY}\n`), hmac: hmacOf(MERCHANT, BODY) })).rejects.toMatchObject(
      {
        exitCode: 1,
      },
    );
    expect(JSON.parse(t.stdout())).toEqual({
      verified: false,
      keyKind: 'merchant',
      expectedKeyKind: 'merchant',
      type: 'payment',
      trackId: '184729305',
      status: 'paid',
      gatewayStatus: 'Paid',
      bodyBytes: BODY.length + 1,
      causes: [{ code: 'trailing-newline-added', message: expect.stringMatching(/line break/) as unknown }],
      repeatedKeys: [],
    });
  });

  it('a body that repeats a key verifies (the signature is over the bytes); the last value is read, a warning says so', async () => {
    const body = BODY.replace('"status":"Paid"', '"status":"Waiting"').replace(/}$/, ',"status":"Paid"}');
    const t = IOStreams.test({ color: false });
    await webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file('repeat.json', body), hmac: hmacOf(MERCHANT, body) });
    expect(t.stdout()).toMatch(/^verified: .*\n {2}payment notification, track id 184729305, status Paid \(paid\)/);
    expect(t.stderr()).toBe(
      'gw: warning: the body repeats the key "status": gw read the last value, as JSON.parse does (the signature covers the bytes, whatever is repeated)\n',
    );
    const j = IOStreams.test({ json: true });
    await webhookVerifyRun({ io: j.io, keys: async () => KEYS, file: file('repeat.json', body), hmac: hmacOf(MERCHANT, body) });
    expect(JSON.parse(j.stdout())).toMatchObject({ verified: true, status: 'paid', repeatedKeys: ['status'] });
  });

  it('--header-file: the HMAC line of a saved header block', async () => {
    const sig = hmacOf(MERCHANT, BODY);
    const headers = file('headers.txt', `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nhmac:  ${sig}\r\nX-Other: 1\r\n\r\n`);
    const t = IOStreams.test();
    await webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file('h.json', BODY), headerFile: headers });
    expect(t.stdout()).toMatch(/^verified/);
  });

  it.each([
    ['HMAC: abc123', 'abc123'],
    ['hmac=abc123', 'abc123'],
    ["curl -H 'HMAC: abc123' http://x", 'abc123'],
    ['{"content-type":"application/json","hmac":"abc123"}', 'abc123'],
    ['  Hmac :  "abc123"  ', 'abc123'],
    ['0123456789abcdef0123456789abcdef\n', '0123456789abcdef0123456789abcdef'],
    ['Content-Type: text/plain\n', undefined],
  ])('signatureFromHeaderText(%j) → %j', (text, expected) => {
    expect(signatureFromHeaderText(text)).toBe(expected);
  });

  it('usage problems are exit 64, no key is exit 78', async () => {
    const t = IOStreams.test();
    await expect(webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: path.join(dir, 'missing.json'), hmac: 'ab' })).rejects.toMatchObject({
      exitCode: 64,
      message: expect.stringMatching(/cannot read the body file .*missing\.json \(ENOENT\)/),
    });
    await expect(webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: dir, hmac: 'ab' })).rejects.toMatchObject({
      exitCode: 64,
      message: /not a regular file/,
    });
    await expect(
      webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: file('b.json', BODY), headerFile: file('none.txt', 'Content-Type: x\n') }),
    ).rejects.toMatchObject({
      exitCode: 64,
      message: /no "HMAC: …" line/,
    });
    await expect(webhookVerifyRun({ io: t.io, keys: async () => ({}), file: file('c.json', BODY), hmac: 'ab' })).rejects.toMatchObject({ exitCode: 78 });
    await expect(webhookVerifyRun({ io: t.io, keys: async () => KEYS, file: undefined, hmac: 'ab' })).rejects.toMatchObject({
      exitCode: 64,
      message: 'the body is empty (nothing came on stdin)',
    });
  });
});

describe('webhookSendRun', () => {
  let app: Receiver;
  afterEach(async () => app?.close());

  const options = (t: ReturnType<typeof IOStreams.test>, url: string, extra: Partial<WebhookSendOptions> = {}): WebhookSendOptions => ({
    io: t.io,
    clock: new ManualClock(),
    signal: new AbortController().signal,
    keys: async () => KEYS,
    url: new URL(url),
    style: 'legacy',
    type: 'payment',
    status: 'paid',
    amount: '25',
    currency: 'USDT',
    timeoutMs: 2000,
    ...extra,
  });

  it('posts a realistic legacy notification signed with the merchant key (independently checked); HTTP 200 "ok" → exit 0', async () => {
    app = await startReceiver();
    const t = IOStreams.test({ color: false });
    await webhookSendRun(options(t, app.url, { trackId: '184729305', orderId: 'ORD-7' }));
    const got = app.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.hmac).toBe(hmacOf(MERCHANT, got.body));
    const body = JSON.parse(got.body.toString()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'Paid',
      trackId: '184729305',
      type: 'payment',
      orderId: 'ORD-7',
      amount: '25',
      currency: 'USDT',
      payCurrency: 'USDT',
    });
    expect(body.txID).toMatch(/^[0-9a-f]{64}$/);
    expect(t.stdout()).toMatch(/→ HTTP 200 "ok" in \d+ ms: answered as the gateway requires\n$/);
    expect(t.stdout() + t.stderr()).not.toContain(MERCHANT);
  });

  it('v1 style, payout type: snake_case body signed with the payout key', async () => {
    app = await startReceiver();
    const t = IOStreams.test({ json: true });
    await webhookSendRun(options(t, app.url, { style: 'v1', type: 'payout', status: 'confirming' }));
    const got = app.requests[0]!;
    expect(got.headers.hmac).toBe(hmacOf(PAYOUT, got.body));
    expect(JSON.parse(got.body.toString())).toMatchObject({ type: 'payout', status: 'Paying', track_id: expect.any(String) as unknown });
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      style: 'v1',
      type: 'payout',
      status: 'confirming',
      gatewayStatus: 'Paying',
      acknowledged: true,
      answer: { status: 200, body: 'ok' },
    });
    expect(doc.body).toBe(got.body.toString());
    expect(doc.hmac).toBe(got.headers.hmac);
  });

  it.each([false, true])('a stdout that looks closed (>&-), json %s: exit 74 stating that the notification WAS sent', async (json) => {
    app = await startReceiver();
    const take = (looksClosed: boolean): OutStream & { text: string } => {
      const out = {
        text: '',
        looksClosed,
        write(chunk: string, callback?: (error?: Error | null) => void): boolean {
          out.text += chunk;
          callback?.();
          return true;
        },
      };
      return out;
    };
    const stderr = take(false);
    const io = new IOStreams({ stdout: take(true), stderr, env: {} });
    io.setJson(json);
    const sent = webhookSendRun({ ...options(IOStreams.test(), app.url), io });
    await expect(sent).rejects.toMatchObject({
      exitCode: 74,
      message: `the notification was sent to ${app.url} (acknowledged with HTTP 200 "ok"), but the output could not be written to stdout (it is closed)`,
    });
    expect(app.requests).toHaveLength(1);
    io.reportFailure((await sent.catch((e: unknown) => e)) as GwError);
    expect(stderr.text).toContain('the notification was sent to');
  });

  // A receiver reads a late payment as the gateway writes it: the word expired WITH the transaction
  // that arrived after the expiry; a refund under way comes after the payment's transaction.
  it.each([
    ['late', 'legacy', 'Expired'],
    ['late', 'v1', 'Expired'],
    ['refunding', 'legacy', 'Refunding'],
    ['refunding', 'v1', 'Refunding'],
  ] as const)("--status %s (%s): the word %s with the full amount's transaction", async (status, style, word) => {
    app = await startReceiver();
    const t = IOStreams.test({ json: true });
    await webhookSendRun(options(t, app.url, { style, status, amount: '25', currency: 'USDT' }));
    const body = JSON.parse(app.requests[0]!.body.toString()) as Record<string, unknown>;
    expect(body.status).toBe(word);
    if (style === 'legacy') {
      expect(body.txID).toMatch(/^[0-9a-f]{64}$/);
    } else {
      expect(body.txs).toEqual([expect.objectContaining({ received_amount: 25, currency: 'USDT', status: 'confirmed' })]);
      expect(body.sent_value).toBe(25);
    }
    // What gw listen makes of it: late stays late, not plainly expired.
    const { notificationArrival } = await import('../../src/domain/notification-arrival.js');
    const seen = notificationArrival(app.requests[0]!.body);
    expect(seen?.state).toBe(status);
    expect(JSON.parse(t.stdout())).toMatchObject({ status, gatewayStatus: word, acknowledged: true });
  });

  it.each([
    [{ status: 200, body: 'OK' }, /HTTP 200 with the body "OK": answer exactly "ok"/],
    [{ status: 200, body: 'ok\n' }, /answer exactly "ok"/],
    [{ status: 200, body: '{"received":true}' }, /HTTP 200 with the body "\{"received":true\}": the gateway requires the body "ok"/],
    [{ status: 204, body: '' }, /HTTP 204 with an empty body: the gateway requires HTTP 200 with the body "ok"/],
    [{ status: 500, body: 'boom' }, /HTTP 500: the gateway requires/],
  ])('an answer that is not HTTP 200 "ok" (%j) → exit 1 saying what was wrong', async (answer, message) => {
    app = await startReceiver();
    app.answer = answer;
    const t = IOStreams.test();
    await expect(webhookSendRun(options(t, app.url))).rejects.toMatchObject({ exitCode: 1, message, hint: /up to 5 attempts/ });
    expect(t.stdout()).toMatch(/→ HTTP \d+/);
  });

  it('nobody listening → exit 69; no answer in time → exit 75; no key → exit 78', async () => {
    const t = IOStreams.test();
    await expect(webhookSendRun(options(t, `http://127.0.0.1:${await freePort()}/hooks`))).rejects.toMatchObject({
      exitCode: 69,
      message: /connection refused/,
    });
    app = await startReceiver();
    app.answer = { status: 200, body: 'ok', delayMs: 3000 };
    await expect(webhookSendRun(options(t, app.url, { timeoutMs: 200 }))).rejects.toMatchObject({ exitCode: 75, message: /no answer within 0\.2 s/ });
    await expect(webhookSendRun(options(t, app.url, { keys: async () => ({ merchant: KEYS.merchant! }), type: 'payout' }))).rejects.toMatchObject({
      exitCode: 78,
      message: 'no payout API key is configured to sign a payout notification with',
    });
  });

  it('the command deadline ends a send that never answers with its own error', async () => {
    app = await startReceiver();
    app.answer = { status: 200, body: 'ok', delayMs: 5000 };
    const t = IOStreams.test();
    const deadline = new AbortController();
    const reason = Object.assign(new Error('deadline'), { exitCode: 75 });
    setTimeout(() => deadline.abort(reason), 100);
    await expect(webhookSendRun(options(t, app.url, { signal: deadline.signal, timeoutMs: 10_000 }))).rejects.toBe(reason);
  });
});

describe('webhookVerifyRun: input that does not end', () => {
  /** An IOStreams whose stdin yields `chunks` and then, unless `ends`, waits forever. */
  function stdinIO(chunks: Iterable<Buffer>, ends: boolean): TestIO {
    let out = '';
    const memory = (append: (text: string) => void): OutStream => ({
      write(chunk, callback) {
        append(chunk);
        queueMicrotask(() => callback?.());
        return true;
      },
    });
    const stdin = {
      isTTY: false,
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          yield chunk;
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (!ends) await new Promise(() => undefined);
      },
    };
    const io = new IOStreams({ stdout: memory((t) => (out += t)), stderr: memory(() => undefined), stdin, env: {} });
    return { io, stdout: () => out, stderr: () => '' };
  }

  function* endless(): Generator<Buffer> {
    for (;;) yield Buffer.alloc(64 * 1024, 'x');
  }

  it('endless stdin: stops after 1 MiB, exit 64 saying so', async () => {
    const t = stdinIO(endless(), false);
    await expect(
      webhookVerifyRun({ io: t.io, signal: new AbortController().signal, keys: async () => KEYS, file: undefined, hmac: 'ab' }),
    ).rejects.toMatchObject({
      exitCode: 64,
      message: 'the body on stdin is larger than 1048576 bytes',
    });
  });

  it('stdin that never ends: the deadline ends it (exit 75, saying the body did not end); SIGTERM ends it at once (143)', async () => {
    const deadline = new AbortController();
    const started = Date.now();
    setTimeout(() => deadline.abort(deadlinePassed(0.2)), 200);
    await expect(
      webhookVerifyRun({ io: stdinIO([Buffer.from('{"type":')], false).io, signal: deadline.signal, keys: async () => KEYS, file: undefined, hmac: 'ab' }),
    ).rejects.toMatchObject({
      exitCode: 75,
      message: 'the body on stdin did not end: gw did not finish within the 0.2 s timeout',
      hint: expect.stringMatching(/a pipe whose writer finishes/),
    });
    expect(Date.now() - started).toBeLessThan(2000);

    const term = new AbortController();
    setTimeout(() => term.abort(terminated()), 50);
    await expect(
      webhookVerifyRun({ io: stdinIO([], false).io, signal: term.signal, keys: async () => KEYS, file: undefined, hmac: 'ab' }),
    ).rejects.toMatchObject({ exitCode: 143 });
  });

  it('a FIFO is read to its end (1 MiB at most, within the deadline)', async () => {
    const fifos = ['a', 'b', 'c'].map((n) => path.join(dir, `fifo-${process.pid}-${n}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const [ends, slow, flood] = fifos as [string, string, string];
    const verify = (file: string, signal = new AbortController().signal, hmac = 'ab') =>
      webhookVerifyRun({ io: IOStreams.test().io, signal, keys: async () => KEYS, file, hmac });
    try {
      // A writer that writes the body and closes: verified.
      const reading = verify(ends, undefined, hmacOf(MERCHANT, BODY));
      const writer = await open(ends, 'w');
      await writer.write(BODY);
      await writer.close();
      await expect(reading).resolves.toBeUndefined();

      // A writer that never finishes: the deadline ends the read (75).
      const deadline = new AbortController();
      const waiting = verify(slow, deadline.signal);
      const lingering = await open(slow, 'w');
      await lingering.write('{"type":');
      setTimeout(() => deadline.abort(deadlinePassed(0.2)), 100);
      await expect(waiting).rejects.toMatchObject({ exitCode: 75, message: expect.stringMatching(/^the body file .*fifo-\d+-b did not end: /) });
      await lingering.close();

      // A writer that writes more than 1 MiB: exit 64.
      const big = verify(flood);
      const flooding = await open(flood, 'w');
      const writing = flooding.write(Buffer.alloc(2 * 1024 * 1024, 'x')).catch(() => undefined);
      await expect(big).rejects.toMatchObject({ exitCode: 64, message: expect.stringMatching(/is larger than 1048576 bytes$/) });
      await flooding.close();
      await writing;
    } finally {
      for (const fifo of fifos) rmSync(fifo, { force: true });
    }
  });
});

describe('webhookSendRun --json: the document on every exit', () => {
  let app: Receiver | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  const options = (t: TestIO, url: string, extra: Partial<WebhookSendOptions> = {}): WebhookSendOptions => ({
    io: t.io,
    clock: new ManualClock(),
    signal: new AbortController().signal,
    keys: async () => KEYS,
    url: new URL(url),
    style: 'legacy',
    type: 'payment',
    status: 'paid',
    trackId: '184729305',
    amount: '25',
    currency: 'USDT',
    timeoutMs: 2000,
    ...extra,
  });
  const FIELDS = ['url', 'style', 'type', 'trackId', 'status', 'gatewayStatus', 'hmac', 'body', 'answer', 'error', 'acknowledged'];

  it.each([
    [
      '1: answered otherwise',
      async () => {
        app = await startReceiver();
        app.answer = { status: 500, body: 'boom' };
        return { url: app.url };
      },
      1,
      { acknowledged: false, error: null, answer: { status: 500, body: 'boom' } },
    ],
    [
      '69: nobody listening',
      async () => ({ url: `http://127.0.0.1:${await freePort()}/hooks` }),
      69,
      { error: expect.stringMatching(/connection refused/), answer: null },
    ],
    [
      '75: no answer in time',
      async () => {
        app = await startReceiver();
        app.answer = { status: 200, body: 'ok', delayMs: 3000 };
        return { url: app.url, extra: { timeoutMs: 200 } };
      },
      75,
      { error: 'no answer within 0.2 s', answer: null },
    ],
    [
      '78: no key to sign with',
      async () => ({ url: 'http://127.0.0.1:9/hooks', extra: { type: 'payout' as const, keys: async () => ({ merchant: KEYS.merchant! }) } }),
      78,
      {
        error: 'no payout API key is configured to sign a payout notification with',
        hmac: null,
        body: null,
      },
    ],
    [
      '78: the configuration cannot be read',
      async () => ({ url: 'http://127.0.0.1:9/hooks', extra: { keys: () => Promise.reject(new ConfigError('the config file is broken')) } }),
      78,
      {
        error: 'the config file is broken',
      },
    ],
    [
      '75: the command deadline',
      async () => {
        app = await startReceiver();
        app.answer = { status: 200, body: 'ok', delayMs: 5000 };
        const deadline = new AbortController();
        setTimeout(() => deadline.abort(deadlinePassed(0.1)), 100);
        return { url: app.url, extra: { signal: deadline.signal, timeoutMs: 10_000 } };
      },
      75,
      { error: 'gw did not finish within the 0.1 s timeout', hmac: expect.stringMatching(/^[0-9a-f]{128}$/) },
    ],
  ] as const)('exit %s', async (_what, setUp, exitCode, fields) => {
    const { url, extra } = (await setUp()) as { url: string; extra?: Partial<WebhookSendOptions> };
    const t = IOStreams.test({ json: true });
    await expect(webhookSendRun(options(t, url, extra))).rejects.toMatchObject({ exitCode });
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(FIELDS);
    expect(doc).toMatchObject({ url: new URL(url).href, style: 'legacy', trackId: '184729305', acknowledged: false, ...fields });
  });
});
