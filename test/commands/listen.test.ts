// listenRun: a real receiver on 127.0.0.1 port 0, fed by raw HTTP requests signed here with
// crypto.createHmac (not gw's module). What it answers, what it prints (one line, or NDJSON), what
// it relays to the application, and that hostile input never stops it or drives the terminal.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenRun, type ListenKeys, type ListenOptions } from '../../src/commands/listen.js';
import { ManualClock } from '../../src/cmdutil/clock.js';
import { IOStreams, type TestIO } from '../../src/output/iostreams.js';
import { freePort, hmacOf, send as post, startReceiver, type Receiver } from '../support/notifications.js';

/** Posts, then lets the receiver print (it writes its lines once per turn of the event loop). */
async function send(...args: Parameters<typeof post>): ReturnType<typeof post> {
  const answer = await post(...args);
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  return answer;
}

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const KEYS: ListenKeys = { merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' }, payout: { value: PAYOUT, from: 'env GATEWAY_PAYOUT_KEY' } };

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
  stop(): Promise<void>;
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function listen(overrides: Partial<ListenOptions> = {}, io: { json?: boolean } = {}): Promise<Running> {
  const t = IOStreams.test({ json: io.json ?? false, color: false });
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

  it('v1 bodies, payout notifications (payout key), the header name in any case', async () => {
    const r = await listen();
    expect((await send(r.url, V1, { hmac: hmacOf(MERCHANT, V1) })).status).toBe(200);
    expect((await send(r.url, PAYOUT_BODY, { HmAc: hmacOf(PAYOUT, PAYOUT_BODY) })).status).toBe(200);
    const [v1, payout] = lines(r.t);
    expect(v1).toMatch(/verified {7}invoice {2}151811887 {2}confirming \(Paying\) {2}10 USDT {2}pay 9\.98 USDT {2}order ORD-12345$/);
    expect(payout).toMatch(/verified {7}payout {2}555 {2}confirming \(Confirming\) {2}10\.50 USDT$/);
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
    const r = await listen({ keys: async () => ({ merchant: KEYS.merchant as ListenKeys['merchant'] & object }) });
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
