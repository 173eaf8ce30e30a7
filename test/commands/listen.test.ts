// listenRun: a real receiver on 127.0.0.1 port 0, fed by raw HTTP requests signed here with
// crypto.createHmac (not gw's module). What it answers, what it prints (one line, or NDJSON), what
// it relays to the application, and that hostile input never stops it or drives the terminal.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenRun, type ListenOptions } from '../../src/commands/listen.js';
import type { NotificationKeySettings } from '../../src/cmdutil/notifications.js';
import { ManualClock } from '../../src/util/clock.js';
import { IOStreams, type TestIO } from '../../src/output/iostreams.js';
import type { OutStream } from '../../src/output/streams.js';
import { freePort, hmacOf, send as post, startReceiver, type Receiver } from '../support/notifications.js';

/** Posts, then lets the receiver print (it writes its lines once per turn of the event loop). */
async function send(...args: Parameters<typeof post>): ReturnType<typeof post> {
  const answer = await post(...args);
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  return answer;
}

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const KEYS: NotificationKeySettings = {
  merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' },
  payout: { value: PAYOUT, from: 'env GATEWAY_PAYOUT_KEY' },
};

const LEGACY =
  '{"status":"Paid","trackId":"184729305","type":"payment","orderId":"ORD-7","amount":"25","currency":"USD","payAmount":"0.00038127","payCurrency":"BTC","network":"Bitcoin Network","address":"tb1qxyz","txID":"ab","date":"1750000000","payDate":"1750000300"}';
const V1 =
  '{"track_id":"151811887","status":"Paying","type":"invoice","amount":10,"value":10,"sent_value":9.98,"currency":"USDT","order_id":"ORD-12345","txs":[{"tx_hash":"x","sent_amount":10,"received_amount":9.98,"currency":"USDT","network":"Tron Network","address":"T1","confirmations":1,"status":"confirming"}]}';
const PAYOUT_BODY = '{"status":"Confirming","trackId":"555","type":"payout","amount":"10.50","currency":"USDT"}';

/** Anything a terminal would act on (LF allowed). */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

interface Running {
  url: string;
  t: TestIO;
  /** listenRun's promise: it settles when listening ends. */
  done: Promise<void>;
  stop(): Promise<void>;
}

const running: Running[] = [];
afterEach(async () => {
  // A run that ended by itself (its output failed) was checked by its test.
  for (const r of running.splice(0)) await r.stop().catch(() => undefined);
});

async function listen(overrides: Partial<ListenOptions> = {}, io: { json?: boolean; t?: TestIO } = {}): Promise<Running> {
  const t = io.t ?? IOStreams.test({ json: io.json ?? false, color: false });
  const abort = new AbortController();
  let released = false;
  const done = listenRun({
    io: t.io,
    clock: new ManualClock(),
    signal: abort.signal,
    releaseDeadline: () => (released = true),
    keys: async () => KEYS,
    host: '127.0.0.1',
    port: 0,
    path: '/hooks',
    ...overrides,
  });
  let failed: unknown;
  done.catch((error: unknown) => (failed = error));
  await expect.poll(() => failed ?? /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(t.io.json ? t.stdout() : t.stderr())?.[0]).toBeTruthy();
  if (failed !== undefined) throw failed;
  expect(released).toBe(true);
  const url = (/http:\/\/127\.0\.0\.1:\d+\/[^\s"]*/.exec(t.io.json ? t.stdout() : t.stderr()) as RegExpExecArray)[0];
  const r: Running = {
    url,
    t,
    done,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
  running.push(r);
  return r;
}

const lines = (t: TestIO): string[] =>
  t
    .stdout()
    .split('\n')
    .filter((l) => l !== '');
const records = (t: TestIO): Array<Record<string, unknown>> => lines(t).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('listenRun: verified notifications', () => {
  it('answers 200 "ok" and prints one line: time, verified, type, track id, status (gateway word), amounts, order id', async () => {
    const r = await listen();
    const answer = await send(r.url, LEGACY, { 'content-type': 'application/json', HMAC: hmacOf(MERCHANT, LEGACY) });
    expect(answer).toMatchObject({ status: 200, body: 'ok' });
    expect(lines(r.t)).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d {2}verified {7}payment {2}184729305 {2}paid \(Paid\) {2}25 USD {2}pay 0\.00038127 BTC {2}order ORD-7$/),
    ]);
  });

  it("each line shows its own second, also across a second's edge and when an earlier second comes after a later one", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 11, 59, 59, 999));
    const r = await listen({ clock });
    const expected: string[] = [];
    // 11:59:59.999, 12:00:00.000, 11:59:59.999 again (a line formatted after a later one), 12:00:00.999, 12:00:01.000, a day on.
    for (const step of [0, 1, -1, 1000, 1, 86_400_000]) {
      clock.advance(step);
      const d = new Date(clock.now());
      expected.push([d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':'));
      const n = notification(String(700_000_000 + expected.length));
      expect((await send(r.url, n.body, n.headers)).status).toBe(200);
    }
    expect(new Set(expected).size).toBe(3);
    expect(lines(r.t).map((l) => l.slice(0, 8))).toEqual(expected);
  });

  it('long fields are cut to their width with an ellipsis, white space runs made one space, plain or not', async () => {
    const r = await listen();
    const body = LEGACY.replace('"ORD-7"', `"${'A'.repeat(60)}"`).replace('"184729305"', '"1847 \\t 29305"');
    expect((await send(r.url, body, { HMAC: hmacOf(MERCHANT, body) })).status).toBe(200);
    const line = lines(r.t)[0] ?? '';
    expect(line).toContain(`order ${'A'.repeat(39)}…`);
    expect(line).not.toContain('A'.repeat(40));
    expect(line).toContain('payment  1847 29305  paid');
  });

  it('v1 bodies, payout notifications (payout key), the header name in any case', async () => {
    const r = await listen();
    expect((await send(r.url, V1, { hmac: hmacOf(MERCHANT, V1) })).status).toBe(200);
    expect((await send(r.url, PAYOUT_BODY, { HmAc: hmacOf(PAYOUT, PAYOUT_BODY) })).status).toBe(200);
    const [v1, payout] = lines(r.t);
    // A v1 body states no pay amount: what its transactions received is said as such (no "pay 9.98
    // USDT", which read as the amount owed), the confirming one labelled.
    expect(v1).toMatch(/verified {7}invoice {2}151811887 {2}confirming \(Paying\) {2}10 USDT {2}received 9\.98 USDT \(not confirmed yet\) {2}order ORD-12345$/);
    expect(payout).toMatch(/verified {7}payout {2}555 {2}confirming \(Confirming\) {2}10\.50 USDT$/);
  });

  it("a payout's status is read in the payout vocabulary (Processing, Complete), not as a payment's", async () => {
    const r = await listen({}, { json: true });
    const processing = PAYOUT_BODY.replace('Confirming', 'Processing');
    const complete = PAYOUT_BODY.replace('Confirming', 'Complete');
    for (const body of [processing, complete]) expect((await send(r.url, body, { HMAC: hmacOf(PAYOUT, body) })).status).toBe(200);
    const records = r.t
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((x) => x.event === 'notification');
    expect(records.map((x) => [x.type, x.status, x.gatewayStatus, x.received])).toEqual([
      ['payout', 'processing', 'Processing', null],
      ['payout', 'confirmed', 'Complete', null],
    ]);
  });

  it('--json: a listening event, then one object per request with the raw body and the verdict', async () => {
    const r = await listen({}, { json: true });
    await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) });
    await send(r.url, LEGACY, { HMAC: hmacOf(PAYOUT, LEGACY) });
    const [listening, ok, refused] = records(r.t);
    expect(listening).toEqual({ event: 'listening', url: r.url, keys: ['merchant', 'payout'], forwardTo: null });
    expect(ok).toMatchObject({
      event: 'notification',
      httpStatus: 200,
      verified: true,
      code: 'ok',
      reason: null,
      keyKind: 'merchant',
      type: 'payment',
      trackId: '184729305',
      status: 'paid',
      gatewayStatus: 'Paid',
      amount: '25',
      currency: 'USD',
      payAmount: '0.00038127',
      payCurrency: 'BTC',
      orderId: 'ORD-7',
      body: LEGACY,
      forward: null,
    });
    expect(new Date(ok?.time as string).getTime()).toBe(new ManualClock().now());
    expect(refused).toMatchObject({ httpStatus: 403, verified: false, code: 'wrong-key-kind', keyKind: 'payout', body: LEGACY });
    expect(refused?.reason).toMatch(/payout API key.*merchant API key/);
  });
});

describe('listenRun: a correctly signed body that repeats a key', () => {
  it('is acknowledged (the signature is over the bytes), read with the last value, and one warning line says so', async () => {
    const body = LEGACY.replace('"status":"Paid"', '"status":"Waiting"').replace(/}$/, ',"status":"Paid"}');
    for (const json of [false, true]) {
      const r = await listen({}, { json });
      expect(await send(r.url, body, { HMAC: hmacOf(MERCHANT, body) })).toMatchObject({ status: 200, body: 'ok' });
      if (json) {
        expect(records(r.t)[1]).toMatchObject({ verified: true, status: 'paid', gatewayStatus: 'Paid', repeatedKeys: ['status'], body });
        expect(r.t.stderr()).toMatch(/^\{"warning":\{"message":"notification 184729305: the body repeats the key \\"status\\": gw read the last value/m);
      } else {
        expect(lines(r.t)).toEqual([expect.stringMatching(/verified {7}payment {2}184729305 {2}paid \(Paid\)/)]);
        expect(
          r.t
            .stderr()
            .split('\n')
            .filter((l) => l.startsWith('gw: warning')),
        ).toEqual([
          'gw: warning: notification 184729305: the body repeats the key "status": gw read the last value, as JSON.parse does (the signature covers the bytes, whatever is repeated)',
        ]);
      }
      await r.stop();
    }
  });
});

describe('listenRun: everything else gets a clear 4xx and a line saying why', () => {
  it.each([
    ['no signature', () => ({ body: LEGACY, headers: {} }), 401, /no HMAC signature header/],
    ['a wrong signature', () => ({ body: LEGACY, headers: { HMAC: hmacOf('some-other-key-x', LEGACY) } }), 403, /does not match the merchant API key/],
    ['the payout key on a payment', () => ({ body: LEGACY, headers: { HMAC: hmacOf(PAYOUT, LEGACY) } }), 403, /signed with the payout API key/],
    ['a re-serialised body', () => ({ body: JSON.stringify(JSON.parse(LEGACY), null, 2), headers: { HMAC: hmacOf(MERCHANT, LEGACY) } }), 403, /does not match/],
    ['upper-case hex', () => ({ body: LEGACY, headers: { HMAC: hmacOf(MERCHANT, LEGACY).toUpperCase() } }), 403, /upper-case/],
    ['not JSON', () => ({ body: 'garbage', headers: { HMAC: hmacOf(MERCHANT, 'garbage') } }), 400, /not JSON/],
    ['a JSON array', () => ({ body: '[1]', headers: { HMAC: hmacOf(MERCHANT, '[1]') } }), 400, /not a JSON object/],
  ])('%s → %d', async (_what, make, status, reason) => {
    const r = await listen();
    const { body, headers } = make();
    const answer = await send(r.url, body, headers);
    expect(answer.status).toBe(status);
    expect(answer.body).not.toBe('ok');
    expect(lines(r.t)).toEqual([expect.stringMatching(new RegExp(`refused ${status}.* — .*${reason.source}`))]);
  });

  it('wrong path 404, wrong method 405 (Allow: POST), a body over the limit 413 (declared or streamed)', async () => {
    const r = await listen({ bodyLimit: 1024 });
    const base = r.url.replace(/\/hooks$/, '');
    expect((await send(`${base}/other`, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(404);
    const get = await send(r.url, '', {}, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await send(r.url, 'x'.repeat(2000), { HMAC: 'a' })).status).toBe(413);
    expect((await send(r.url, Buffer.alloc(5000, 'y'), { 'transfer-encoding': 'chunked' })).status).toBe(413);
    // The trailing slash and a query string are the same path.
    expect((await send(`${r.url}/?x=1`, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(200);
    expect(lines(r.t).map((l) => /refused \d+|verified/.exec(l)?.[0])).toEqual(['refused 404', 'refused 405', 'refused 413', 'refused 413', 'verified']);
  });

  it('a payout notification without a payout key configured: 403 naming the missing key', async () => {
    const r = await listen({ keys: async () => ({ merchant: KEYS.merchant as NotificationKeySettings['merchant'] & object }) });
    expect((await send(r.url, PAYOUT_BODY, { HMAC: hmacOf(PAYOUT, PAYOUT_BODY) })).status).toBe(403);
    expect(lines(r.t)[0]).toMatch(/no payout API key is configured/);
    expect(r.t.stderr()).toMatch(/no payout key: payout notifications will be refused/);
  });

  it('no key at all: exit 78 before listening', async () => {
    const t = IOStreams.test();
    await expect(
      listenRun({
        io: t.io,
        clock: new ManualClock(),
        signal: new AbortController().signal,
        releaseDeadline: () => undefined,
        keys: async () => ({}),
        host: '127.0.0.1',
        port: 0,
        path: '/',
      }),
    ).rejects.toMatchObject({ exitCode: 78, message: expect.stringMatching(/no merchant or payout API key/) });
  });
});

describe('listenRun: hostile input', () => {
  const EVIL = '\u001b[31mRED\u001b]0;owned\u0007\u001b]52;c;cm0=\u0007\u009b2J\u202eRTL\u001bc';

  it('escape codes in every field (and the path): human output stays inert, JSON escapes them, verified or not', async () => {
    const body = JSON.stringify({ status: EVIL, trackId: EVIL, type: EVIL, orderId: EVIL, amount: EVIL, currency: EVIL, payAmount: EVIL, payCurrency: EVIL });
    for (const json of [false, true]) {
      const r = await listen({}, { json });
      await send(r.url, body, { HMAC: hmacOf(MERCHANT, body) });
      await send(r.url, body, { HMAC: 'f'.repeat(128) });
      await send(`${r.url.replace(/\/hooks$/, '')}/%1B%5B31m\u00e9`, body, {});
      expect(r.t.stdout()).not.toMatch(UNSAFE);
      expect(r.t.stderr()).not.toMatch(UNSAFE);
      expect(lines(r.t).length).toBe(json ? 4 : 3);
      if (json) expect(records(r.t)[1]?.body).toBe(body);
      await r.stop();
    }
  });

  it('never prints a key, even when a notification carries one', async () => {
    for (const json of [false, true]) {
      const r = await listen({}, { json });
      const body = JSON.stringify({ type: 'payment', trackId: MERCHANT, status: 'Paid', orderId: `x${PAYOUT}`, amount: '1', currency: 'BTC' });
      await send(r.url, body, { HMAC: hmacOf(MERCHANT, body) });
      await send(r.url, body, { HMAC: MERCHANT });
      const output = r.t.stdout() + r.t.stderr();
      for (const key of [MERCHANT, PAYOUT]) for (let i = 0; i + 12 <= key.length; i++) expect(output).not.toContain(key.slice(i, i + 12));
      await r.stop();
    }
  });

  it('never prints a key a notification carries escaped: \\u-escaped in the --json body, percent-encoded in a field cut to its width', async () => {
    const pct = (text: string): string => [...text].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('');
    const esc = (text: string): string => [...text].map((ch) => `\\u00${ch.charCodeAt(0).toString(16)}`).join('');
    // What a reader of the output can decode back: %XX and \uXXXX (with the backslash escaped or not).
    const decode = (text: string): string =>
      text
        .replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        .replace(/\\{1,2}u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    for (const json of [false, true]) {
      const r = await listen({}, { json });
      const body = `{"type":"payment","trackId":"1","status":"Paid","amount":"1","orderId":"${pct(MERCHANT)}","note":"${esc(PAYOUT)}"}`;
      expect((await send(r.url, body, { HMAC: hmacOf(MERCHANT, body) })).status).toBe(200);
      const output = decode(r.t.stdout() + r.t.stderr());
      for (const key of [MERCHANT, PAYOUT]) for (let i = 0; i + 8 <= key.length; i++) expect(output).not.toContain(key.slice(i, i + 8));
      await r.stop();
    }
  });

  it('keeps answering through garbage bytes, a slowloris client and a client that vanishes mid-body', async () => {
    const r = await listen();
    const { port } = new URL(r.url);
    const sockets = [connect(Number(port), '127.0.0.1'), connect(Number(port), '127.0.0.1'), connect(Number(port), '127.0.0.1')];
    await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('connect', resolve))));
    const [garbage, slow, vanish] = sockets as [ReturnType<typeof connect>, ReturnType<typeof connect>, ReturnType<typeof connect>];
    const garbageAnswer = new Promise<string>((resolve) => {
      let text = '';
      garbage.on('data', (c) => (text += String(c)));
      garbage.on('close', () => resolve(text));
    });
    garbage.write('\u0000\u00ff GARBAGE \r\n\r\n');
    slow.write('POST /hooks HTTP/1.1\r\nHost: x\r\nHMAC: ');
    vanish.write(`POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"type":`);
    vanish.destroy();
    expect(await garbageAnswer).toMatch(/^HTTP\/1\.1 400/);
    for (let i = 0; i < 5; i++) expect((await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(200);
    slow.destroy();
    expect(lines(r.t).filter((l) => l.includes('verified'))).toHaveLength(5);
  });

  it('ends on the signal: stops listening, says how many it took, resolves (exit 0)', async () => {
    const r = await listen();
    await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) });
    await r.stop();
    running.splice(running.indexOf(r), 1);
    expect(r.t.stderr()).toMatch(/Stopped: 1 request, 1 verified\.\n$/);
    await expect(send(r.url, LEGACY, {})).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a port in use: exit 69 saying so', async () => {
    const r = await listen();
    const port = Number(new URL(r.url).port);
    await expect(listen({ port })).rejects.toMatchObject({ exitCode: 69, message: `cannot serve notifications on 127.0.0.1:${port}: the port is in use` });
  });
});

describe('listenRun --forward-to', () => {
  let app: Receiver;
  afterEach(async () => app?.close());

  it('relays a verified notification byte for byte with its HMAC and content type; the gateway hears ok only after the application took it', async () => {
    app = await startReceiver();
    app.answer = { status: 200, body: 'received' };
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 2000 } });
    const body = `${LEGACY.slice(0, -1)},  "note": "caf\u00e9"}`;
    const sig = hmacOf(MERCHANT, body);
    expect(await send(r.url, body, { 'content-type': 'application/json; charset=utf-8', HMAC: sig })).toMatchObject({ status: 200, body: 'ok' });
    expect(app.requests).toHaveLength(1);
    const relayed = app.requests[0]!;
    expect(relayed.body.equals(Buffer.from(body))).toBe(true);
    expect(relayed.headers.hmac).toBe(sig);
    expect(relayed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(relayed.headers['x-gw-unverified']).toBeUndefined();
    // The relayed bytes verify for the application too (independent check).
    expect(hmacOf(MERCHANT, relayed.body)).toBe(relayed.headers.hmac);
    expect(lines(r.t)[0]).toMatch(/verified .* → app: HTTP 200 "received" in \d+ ms$/);
  });

  it.each([
    ['the application answers 500', { status: 500, body: 'boom' }, 502, /not taken 502 .*→ app: HTTP 500 "boom" in \d+ ms; the gateway will send it again$/],
    ['the application answers 302', { status: 302, body: '' }, 502, /not taken 502 .*→ app: HTTP 302 in \d+ ms; the gateway will send it again$/],
    [
      'the application is too slow',
      { status: 200, body: 'ok', delayMs: 3000 },
      504,
      /not taken 504 .*→ app: no answer within 0\.3 s; the gateway will send it again$/,
    ],
  ])('%s → the gateway gets %d (so it retries)', async (_what, answer, status, line) => {
    app = await startReceiver();
    app.answer = answer;
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 300 } });
    const started = Date.now();
    expect((await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(status);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(lines(r.t)[0]).toMatch(line);
  });

  it('a notification the application did not take: one warning line on stderr too (stdout may be a log file)', async () => {
    app = await startReceiver();
    app.answer = { status: 500, body: 'boom' };
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 1000 } });
    expect((await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(502);
    expect(
      r.t
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('gw: warning')),
    ).toEqual(['gw: warning: notification 184729305 not acknowledged (HTTP 502): the application answered HTTP 500; the gateway will send it again']);
  });

  it('the application is not running → 502, "connection refused"', async () => {
    const r = await listen({ forward: { url: new URL(`http://127.0.0.1:${await freePort()}/hooks`), unverified: false, timeoutMs: 1000 } });
    expect((await send(r.url, LEGACY, { HMAC: hmacOf(MERCHANT, LEGACY) })).status).toBe(502);
    expect(lines(r.t)[0]).toMatch(
      /^\d\d:\d\d:\d\d {2}not taken 502 {2}payment .*ORD-7 {2}→ app: connection refused \(is the receiver running\?\); the gateway will send it again$/,
    );
  });

  it('an unverified notification is not relayed; with --forward-unverified it is, marked X-Gw-Unverified, and the sender still gets 403', async () => {
    app = await startReceiver();
    const quiet = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 1000 } });
    expect((await send(quiet.url, LEGACY, { HMAC: 'a'.repeat(128) })).status).toBe(403);
    expect(app.requests).toHaveLength(0);
    expect(lines(quiet.t)[0]).toMatch(/→ app: not relayed \(unverified\)$/);

    const loud = await listen({ forward: { url: new URL(app.url), unverified: true, timeoutMs: 1000 } });
    expect((await send(loud.url, LEGACY, { HMAC: 'a'.repeat(128) })).status).toBe(403);
    expect((await send(loud.url, LEGACY, {})).status).toBe(401);
    expect(app.requests.map((q) => q.headers['x-gw-unverified'])).toEqual(['mismatch', 'missing-signature']);
    expect(app.requests[0]?.body.toString()).toBe(LEGACY);
    expect(lines(loud.t)[0]).toMatch(/→ app \(marked unverified\): HTTP 200 "ok"/);
  });
});

/** A legacy notification with its own track id, and its signature. */
function notification(trackId: string): { body: string; headers: Record<string, string> } {
  const body = LEGACY.replace('184729305', trackId);
  return { body, headers: { 'content-type': 'application/json', HMAC: hmacOf(MERCHANT, body) } };
}

/**
 * An IOStreams whose stdout takes writes until `state.failing` is set, then fails each with `code`
 * (as the real stdout does when its reader went away or the disk is full); with `state.syncError`,
 * the fsync of a stdout file fails; with `looksClosed`, it looks like a stdout the shell closed.
 */
function failingIO(code: string, json = false, looksClosed = false): { t: TestIO; state: { failing: boolean; syncError?: string } } {
  const state: { failing: boolean; syncError?: string } = { failing: false };
  let out = '';
  let err = '';
  const stdout: OutStream = {
    looksClosed,
    write(chunk, callback) {
      if (state.failing) {
        queueMicrotask(() => callback?.(Object.assign(new Error(`write ${code}`), { code })));
        return false;
      }
      out += chunk;
      queueMicrotask(() => callback?.());
      return true;
    },
    sync(callback) {
      const failure = state.syncError;
      queueMicrotask(() => callback(failure === undefined ? undefined : Object.assign(new Error(`fsync ${failure}`), { code: failure })));
    },
  };
  const stderr: OutStream = {
    write(chunk, callback) {
      err += chunk;
      queueMicrotask(() => callback?.());
      return true;
    },
  };
  const io = new IOStreams({ stdout, stderr, env: { NO_COLOR: '1' } });
  io.setJson(json);
  return { t: { io, stdout: () => out, stderr: () => err }, state };
}

describe('listenRun: a notification is acknowledged only once it is recorded', () => {
  let app: Receiver | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it.each(['EPIPE', 'ENOSPC', 'EBADF'])('stdout fails with %s: that notification gets 503 (not ok), gw listen stops with exit 74', async (code) => {
    const { t, state } = failingIO(code);
    const r = await listen({}, { t });
    const first = notification('900000001');
    expect(await send(r.url, first.body, first.headers)).toMatchObject({ status: 200, body: 'ok' });
    expect(lines(t)).toEqual([expect.stringContaining('900000001')]);
    state.failing = true;
    const second = notification('900000002');
    const answer = await send(r.url, second.body, second.headers);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatch(new RegExp(`^not recorded: the receiver's output failed \\(${code}\\)`));
    await expect(r.done).rejects.toMatchObject({
      exitCode: 74,
      message: `stopped: stdout can no longer be written (${code}); 1 notification was answered HTTP 503, not acknowledged, so the gateway sends it again`,
    });
    expect(t.stdout()).not.toContain('900000002');
    // It stopped listening: nothing more is taken (and so nothing more acknowledged).
    await expect(send(r.url, first.body, first.headers)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stdout is a file whose fsync fails: 503, exit 74', async () => {
    const { t, state } = failingIO('EIO');
    const r = await listen({}, { t });
    state.syncError = 'EIO';
    const n = notification('900000003');
    expect((await send(r.url, n.body, n.headers)).status).toBe(503);
    await expect(r.done).rejects.toMatchObject({ exitCode: 74, message: expect.stringMatching(/\(EIO\); 1 notification was answered HTTP 503/) });
  });

  it('many at once while stdout goes away: each answered 200 is in the output, the others all got something else', async () => {
    const { t, state } = failingIO('EPIPE', true);
    const r = await listen({}, { t, json: true });
    const ids = Array.from({ length: 30 }, (_, i) => String(700_000_000 + i));
    const post = (id: string) => {
      const n = notification(id);
      return send(r.url, n.body, n.headers).catch((error: Error) => ({ status: 0, body: error.message }));
    };
    const before = await Promise.all(ids.slice(0, 10).map(post));
    state.failing = true;
    const after = await Promise.all(ids.slice(10).map(post));
    await expect(r.done).rejects.toMatchObject({ exitCode: 74 });
    const recorded = new Set(records(t).map((x) => x.trackId));
    const answers = [...before, ...after];
    ids.forEach((id, i) => {
      if (answers[i]?.status === 200) expect(recorded.has(id)).toBe(true);
    });
    expect(before.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(after.map((a) => a.status)).not.toContain(200);
    expect(after.map((a) => a.status)).toContain(503);
  });

  it('stdout closed by the shell (>&-, reopened as /dev/null): exit 74 before listening; with --forward-to, a warning', async () => {
    const closed = (): TestIO => failingIO('EPIPE', false, true).t;
    await expect(listen({}, { t: closed() })).rejects.toMatchObject({
      exitCode: 74,
      message: expect.stringMatching(/^stdout is closed: gw listen would acknowledge/),
    });
    app = await startReceiver();
    const t = closed();
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 1000 } }, { t });
    expect(t.stderr()).toMatch(/^gw: warning: stdout is closed: the notifications are recorded only by the application/);
    const n = notification('900000011');
    expect((await send(r.url, n.body, n.headers)).status).toBe(200);
  });

  it('a refused request is still answered (4xx) when stdout fails', async () => {
    const { t, state } = failingIO('EPIPE');
    const r = await listen({}, { t });
    state.failing = true;
    expect((await send(r.url, LEGACY, { HMAC: 'f'.repeat(128) })).status).toBe(403);
    await expect(r.done).rejects.toMatchObject({
      exitCode: 74,
      message: 'stopped: stdout can no longer be written (EPIPE), so no notification can be acknowledged any more',
    });
  });
});

/**
 * An IOStreams whose stdout is "a file": each write is taken at once, each fsync waits until the
 * test settles it (`syncs`). `durable()` is what the fsyncs done so far cover: every write made
 * before a completed fsync was asked for.
 */
function heldSyncIO(): { t: TestIO; writes: string[]; syncs: Array<(error?: Error) => void>; durable: () => string } {
  const writes: string[] = [];
  const syncs: Array<(error?: Error) => void> = [];
  let durableUpTo = 0;
  let err = '';
  const stdout: OutStream = {
    write(chunk, callback) {
      writes.push(String(chunk));
      queueMicrotask(() => callback?.());
      return true;
    },
    sync(callback) {
      const covers = writes.length;
      syncs.push((error) => {
        if (error === undefined) durableUpTo = Math.max(durableUpTo, covers);
        callback(error);
      });
    },
  };
  const stderr: OutStream = {
    write(chunk, callback) {
      err += chunk;
      queueMicrotask(() => callback?.());
      return true;
    },
  };
  const io = new IOStreams({ stdout, stderr, env: { NO_COLOR: '1' } });
  return { t: { io, stdout: () => writes.join(''), stderr: () => err }, writes, syncs, durable: () => writes.slice(0, durableUpTo).join('') };
}

describe('listenRun: lines are written in batches, each acknowledged only once its fsync is done', () => {
  /**
   * Posts a notification for each of `ids` at once. Each answer is checked the moment it arrives:
   * a 200 whose line no completed fsync covers yet is noted in `early`.
   */
  function postAll(
    url: string,
    ids: string[],
    durable: () => string = () => '',
  ): { answers: Promise<Array<{ status: number; body: string }>>; answered: () => number; early: string[] } {
    let count = 0;
    const early: string[] = [];
    const answers = Promise.all(
      ids.map((id) => {
        const n = notification(id);
        return post(url, n.body, n.headers).then((a) => {
          count++;
          if (a.status === 200 && !durable().includes(id)) early.push(id);
          return a;
        });
      }),
    );
    return { answers, answered: () => count, early };
  }
  const settleNext = (syncs: Array<(error?: Error) => void>, error?: Error): void => (syncs.shift() as (error?: Error) => void)(error);

  it('two notifications at once: neither is answered before the fsync that covers its line; then both 200', async () => {
    const { t, syncs, durable } = heldSyncIO();
    const r = await listen({}, { t });
    const sent = postAll(r.url, ['910000001', '910000002'], durable);
    await expect.poll(() => syncs.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent.answered()).toBe(0);
    while (sent.answered() < 2) {
      await expect.poll(() => syncs.length).toBeGreaterThan(0);
      settleNext(syncs);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await sent.answers).map((a) => [a.status, a.body])).toEqual([
      [200, 'ok'],
      [200, 'ok'],
    ]);
    expect(sent.early).toEqual([]);
    expect(lines(t).filter((l) => l.includes('9100000'))).toHaveLength(2);
  });

  it('a failed fsync: every notification waiting on it or after it gets 503, none 200; gw listen stops with exit 74', async () => {
    const { t, syncs } = heldSyncIO();
    const r = await listen({}, { t });
    const first = postAll(r.url, ['920000001']);
    await expect.poll(() => syncs.length).toBe(1);
    const second = postAll(r.url, ['920000002']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    settleNext(syncs, Object.assign(new Error('fsync EIO'), { code: 'EIO' }));
    expect([...(await first.answers), ...(await second.answers)].map((a) => a.status)).toEqual([503, 503]);
    await expect(r.done).rejects.toMatchObject({ exitCode: 74, message: expect.stringMatching(/\(EIO\); 2 notifications were answered HTTP 503/) });
  });

  it('while one fsync is under way, the lines that come gather into one write and share the next fsync', async () => {
    const { t, writes, syncs, durable } = heldSyncIO();
    const r = await listen({}, { t });
    const first = postAll(r.url, ['930000000'], durable);
    await expect.poll(() => syncs.length).toBe(1);
    const later = postAll(
      r.url,
      Array.from({ length: 8 }, (_, i) => String(930_000_001 + i)),
      durable,
    );
    // They arrive while the first fsync is held: nothing of theirs is written yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writes.join('')).not.toContain('930000001');
    settleNext(syncs);
    expect((await first.answers)[0]?.status).toBe(200);
    await expect.poll(() => syncs.length).toBe(1);
    const written = writes.filter((w) => w.includes('93000000') && !w.includes('930000000'));
    expect(written).toHaveLength(1);
    expect(later.answered()).toBe(0);
    settleNext(syncs);
    expect((await later.answers).map((a) => a.status)).toEqual(Array(8).fill(200));
    expect([...first.early, ...later.early]).toEqual([]);
  });
});

describe('listenRun: idle and slow clients cannot starve it', () => {
  it('a real notification gets through while many idle and slowloris connections are open (the oldest are shed)', async () => {
    const r = await listen({ limits: { connections: 8, maxConnections: 16 } });
    const { port } = new URL(r.url);
    const sockets: ReturnType<typeof connect>[] = [];
    const open = async (first: string | undefined): Promise<void> => {
      const s = connect(Number(port), '127.0.0.1');
      s.on('error', () => undefined);
      sockets.push(s);
      await new Promise((resolve) => s.once('connect', resolve));
      if (first !== undefined) s.write(first);
    };
    try {
      for (let i = 0; i < 20; i++) await open(undefined); // idle
      for (let i = 0; i < 20; i++) await open('POST /hooks HTTP/1.1\r\nHost: x\r\nHMAC: '); // headers never end
      for (let i = 0; i < 20; i++) await open('POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n{"type":'); // body never ends
      for (let i = 0; i < 5; i++) {
        const n = notification(String(800_000_000 + i));
        expect(await send(r.url, n.body, n.headers)).toMatchObject({ status: 200, body: 'ok' });
      }
      expect(sockets.filter((s) => !s.destroyed && !s.closed).length).toBeLessThanOrEqual(8);
    } finally {
      for (const s of sockets) s.destroy();
    }
    expect(lines(r.t).filter((l) => l.includes('verified'))).toHaveLength(5);
  });

  it('a connection whose notification is being answered is never the one shed for a new connection', async () => {
    const app = await startReceiver();
    try {
      app.answer = { status: 200, body: 'ok', delayMs: 300 };
      const r = await listen({ limits: { connections: 2, maxConnections: 16 }, forward: { url: new URL(app.url), unverified: false, timeoutMs: 2000 } });
      const { port } = new URL(r.url);
      const n = notification('800000200');
      // The oldest connection: its notification waits on the application while new connections come.
      const answer = send(r.url, n.body, n.headers);
      await expect.poll(() => app.requests.length).toBe(1);
      const idle: ReturnType<typeof connect>[] = [];
      for (let i = 0; i < 6; i++) {
        const s = connect(Number(port), '127.0.0.1');
        s.on('error', () => undefined);
        idle.push(s);
        await new Promise((resolve) => s.once('connect', resolve));
      }
      expect(await answer).toMatchObject({ status: 200, body: 'ok' });
      for (const s of idle) s.destroy();
    } finally {
      await app.close();
    }
  });

  it('a kept-alive connection whose notification was answered is idle again: shed for a new connection like any idle one', async () => {
    const r = await listen({ limits: { connections: 2, maxConnections: 16 } });
    const { port } = new URL(r.url);
    const n = notification('800000300');
    const kept = connect(Number(port), '127.0.0.1');
    kept.on('error', () => undefined);
    let answered = '';
    kept.on('data', (d: Buffer) => (answered += d.toString()));
    const firstClosed: string[] = [];
    kept.once('close', () => firstClosed.push('kept'));
    kept.write(`POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(n.body)}\r\nHMAC: ${n.headers.HMAC}\r\n\r\n${n.body}`);
    await expect.poll(() => answered).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok$/);
    const others: ReturnType<typeof connect>[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const s = connect(Number(port), '127.0.0.1');
        s.on('error', () => undefined);
        s.once('close', () => firstClosed.push(`new ${i}`));
        others.push(s);
        await new Promise((resolve) => s.once('connect', resolve));
      }
      // The third connection is one too many: the oldest idle one, the kept-alive one, makes room.
      await expect.poll(() => firstClosed.length).toBeGreaterThan(0);
      expect(firstClosed[0]).toBe('kept');
    } finally {
      kept.destroy();
      for (const s of others) s.destroy();
    }
  });

  it('headers and body have bounded time, idle keep-alive connections too', async () => {
    const r = await listen({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, checkIntervalMs: 50 } });
    const { port } = new URL(r.url);
    const closedWithin = (first: string | undefined): Promise<number> =>
      new Promise((resolve) => {
        const started = Date.now();
        const s = connect(Number(port), '127.0.0.1', () => {
          if (first !== undefined) s.write(first);
        });
        s.on('data', () => undefined);
        s.on('error', () => undefined);
        s.on('close', () => resolve(Date.now() - started));
      });
    const n = notification('800000100');
    const keepAlive = `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nHMAC: ${n.headers.HMAC}\r\nContent-Length: ${n.body.length}\r\n\r\n${n.body}`;
    const times = await Promise.all([
      closedWithin(undefined),
      closedWithin('POST /hooks HTTP/1.1\r\nHost: x\r\n'),
      closedWithin('POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{'),
      closedWithin(keepAlive),
    ]);
    for (const ms of times) expect(ms).toBeLessThan(3000);
  });

  it('takes a notification of 200 KiB (real ones are a few KB), refuses one over 1 MiB with 413', async () => {
    const r = await listen();
    const big = JSON.stringify({ ...(JSON.parse(LEGACY) as object), description: 'x'.repeat(200 * 1024) });
    expect((await send(r.url, big, { HMAC: hmacOf(MERCHANT, big) })).status).toBe(200);
    const huge = Buffer.alloc(1024 * 1024 + 1, 'y');
    expect((await send(r.url, huge, { HMAC: 'a' }).catch(() => ({ status: 413 }))).status).toBe(413);
  });
});

describe('listenRun: loops, exposure and runtime warnings', () => {
  let app: Receiver | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('--forward-to its own address and port: exit 64 before listening', async () => {
    const port = await freePort();
    for (const target of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks/`, `http://127.0.0.1:${port}/other`]) {
      const t = IOStreams.test();
      await expect(listen({ port, forward: { url: new URL(target), unverified: false, timeoutMs: 1000 } }, { t })).rejects.toMatchObject({
        exitCode: 64,
        message: expect.stringMatching(/--forward-to .* is this receiver itself/),
      });
    }
    // Another port on this machine is fine.
    const other = await listen({ port, forward: { url: new URL(`http://127.0.0.1:${await freePort()}/hooks`), unverified: false, timeoutMs: 1000 } });
    expect(other.url).toBe(`http://127.0.0.1:${port}/hooks`);
  });

  it('a notification relayed back to the receiver that relayed it (through something else) is refused with 508, not relayed again', async () => {
    // The application passes whatever it gets back to the receiver: a loop --forward-to cannot see.
    app = await startReceiver();
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 2000 } });
    const n = notification('900000009');
    expect((await send(r.url, n.body, n.headers)).status).toBe(200);
    const relayed = app.requests[0];
    const back = await send(r.url, relayed?.body as Buffer, {
      HMAC: String(relayed?.headers.hmac),
      'x-gw-relayed-by': String(relayed?.headers['x-gw-relayed-by']),
    });
    expect(back.status).toBe(508);
    expect(app.requests).toHaveLength(1);
    expect(lines(r.t)[1]).toMatch(/refused 508 .*loop/);
  });

  it('bound to an address other machines can reach: one warning line on stderr', async () => {
    const t = IOStreams.test({ color: false });
    const abort = new AbortController();
    const done = listenRun({
      io: t.io,
      clock: new ManualClock(),
      signal: abort.signal,
      releaseDeadline: () => undefined,
      keys: async () => KEYS,
      host: '0.0.0.0',
      port: 0,
      path: '/hooks',
    });
    await expect.poll(() => t.stderr()).toMatch(/Press Ctrl-C/);
    abort.abort();
    await done;
    expect(
      t
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('gw: warning:')),
    ).toEqual([expect.stringMatching(/^gw: warning: listening on 0\.0\.0\.0, which other machines can reach/)]);
    const quiet = await listen();
    expect(quiet.t.stderr()).not.toMatch(/warning/);
  });

  it("Node's runtime warnings come out as one sanitised line through gw, and many relays at once raise none", async () => {
    app = await startReceiver();
    app.answer = { status: 200, body: 'ok', delayMs: 200 };
    const r = await listen({ forward: { url: new URL(app.url), unverified: false, timeoutMs: 2000 } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => notification(String(600_000_000 + i))).map((n) => send(r.url, n.body, n.headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    process.emitWarning('something odd\n    at line two\u001b[31m', 'ExampleWarning');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const warnings = r.t
      .stderr()
      .split('\n')
      .filter((l) => l.includes('warning'));
    expect(warnings).toEqual(['gw: warning: the runtime warns: ExampleWarning: something odd']);
    await r.stop();
    running.splice(running.indexOf(r), 1);
    expect(process.listeners('warning').length).toBeGreaterThan(0);
  });
});
