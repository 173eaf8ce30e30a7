// webhookVerifyRun and webhookSendRun with IOStreams.test(): the verdict and its likely cause, the
// exit codes (0 verifies / 1 does not / 64 usage / 78 no key), where the signature can come from,
// and what `send` puts on the wire (checked with crypto.createHmac here) and makes of the answer.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListenKeys } from '../../src/commands/listen.js';
import { signatureFromHeaderText, webhookSendRun, webhookVerifyRun, type WebhookSendOptions } from '../../src/commands/webhook.js';
import { ManualClock } from '../../src/cmdutil/clock.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { freePort, hmacOf, startReceiver, type Receiver } from '../support/notifications.js';

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const KEYS: ListenKeys = { merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' }, payout: { value: PAYOUT, from: 'env GATEWAY_PAYOUT_KEY' } };
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
    });
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
