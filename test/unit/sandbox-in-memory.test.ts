// The sandbox's in-memory dispatcher (src/sandbox/in-memory.ts), which answers the requests of the
// gw process that embeds it (`--sandbox`): every answer must be the one the same sandbox gives on
// its port, and the transport above it must treat a send exactly as over a connection.

import net from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, ProtocolError } from '../../src/errors.js';
import { ConnectionPool, type Exchanger } from '../../src/gateway/http1.js';
import { Transport, TransportError } from '../../src/gateway/transport.js';
import type { TransportObserver } from '../../src/gateway/transport-observer.js';
import { SANDBOX_GENERAL_KEY, SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

const NOW_MS = 1_750_000_000_123;

let sbx: RunningSandbox;

beforeAll(async () => {
  sbx = await startSandbox({ now: () => NOW_MS });
});

afterAll(async () => {
  await sbx.close();
});

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Seen {
  status: number;
  contentType: string | undefined;
  allow: string | undefined;
  /** Whether a Date header came, in HTTP's form (its value differs by the second). */
  dated: boolean;
  body: string;
}

const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const json = { 'content-type': 'application/json' };

const CASES: Case[] = [
  { name: 'a rate', method: 'POST', path: '/exchange/rate', headers: json, body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' },
  {
    name: 'a rate, form-encoded',
    method: 'POST',
    path: '/exchange/rate',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'fromCurrency=BTC&toCurrency=USDT',
  },
  { name: 'a rate, no content type', method: 'POST', path: '/exchange/rate', body: '{"fromCurrency":"ETH","toCurrency":"USDT"}' },
  { name: 'a rate with an unknown coin (121)', method: 'POST', path: '/exchange/rate', headers: json, body: '{"fromCurrency":"XXX","toCurrency":"USDT"}' },
  { name: 'malformed JSON (101)', method: 'POST', path: '/exchange/rate', headers: json, body: '{"fromCurrency":' },
  { name: 'a JSON array (101)', method: 'POST', path: '/exchange/rate', headers: json, body: '[1,2]' },
  { name: 'a body over 64 KiB (413, 101)', method: 'POST', path: '/exchange/rate', headers: json, body: `{"pad":"${'x'.repeat(70_000)}"}` },
  { name: 'an empty body', method: 'POST', path: '/merchants/allowedCoins', headers: json, body: '' },
  { name: 'allowed coins', method: 'POST', path: '/merchants/allowedCoins', headers: json, body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY }) },
  { name: 'a wrong merchant key', method: 'POST', path: '/merchants/allowedCoins', headers: json, body: '{"merchant":"nope"}' },
  { name: 'the balance', method: 'POST', path: '/api/balance', headers: json, body: JSON.stringify({ key: SANDBOX_PAYOUT_KEY }) },
  {
    name: 'an unknown track id (116)',
    method: 'POST',
    path: '/merchants/inquiry',
    headers: json,
    body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY, trackId: 'sbx0' }),
  },
  { name: 'a list of payments', method: 'POST', path: '/merchants/list', headers: json, body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY, size: 5 }) },
  { name: 'the wrong method (405 and Allow)', method: 'GET', path: '/exchange/rate' },
  { name: 'an unknown legacy path (404)', method: 'POST', path: '/no/such/path', headers: json, body: '{}' },
  { name: 'a query and a trailing slash', method: 'POST', path: '/exchange/rate/?x=1', headers: json, body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' },
  { name: 'v1 accepted currencies', method: 'GET', path: '/v1/payment/accepted-currencies', headers: { merchant_api_key: SANDBOX_MERCHANT_KEY } },
  { name: 'v1 without a key (401)', method: 'GET', path: '/v1/payment/accepted-currencies' },
  {
    name: 'v1 rate',
    method: 'POST',
    path: '/v1/general/swap/rate',
    headers: { ...json, general_api_key: SANDBOX_GENERAL_KEY },
    body: '{"from_currency":"BTC","to_currency":"USDT"}',
  },
  { name: 'v1 payment list', method: 'GET', path: '/v1/payment?size=3', headers: { merchant_api_key: SANDBOX_MERCHANT_KEY } },
  // A GET's body is read too (the gateway's Node client sends filters that way): bad JSON is a 400.
  {
    name: 'a GET whose body is malformed JSON (400)',
    method: 'GET',
    path: '/v1/payment',
    headers: { ...json, merchant_api_key: SANDBOX_MERCHANT_KEY },
    body: '{"size":',
  },
  { name: 'an unknown v1 path (404)', method: 'GET', path: '/v1/nothing', headers: { merchant_api_key: SANDBOX_MERCHANT_KEY } },
  { name: 'a control route without a key (401)', method: 'POST', path: '/_sandbox/payments/sbx0/state', headers: json, body: '{"state":"paid"}' },
  { name: 'the QR image of no payment (404)', method: 'GET', path: '/qr/sbx0.png' },
];

/** gw's own connections (node:http) to the sandbox's port. */
function overTcp(): ConnectionPool {
  const port = Number(new URL(sbx.url).port);
  return new ConnectionPool((callback) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('error', (error) => callback(error));
    socket.once('connect', () => callback(null, socket));
  });
}

async function viaDispatcher(exchanger: Exchanger, c: Case): Promise<Seen> {
  const headers = { host: new URL(sbx.url).host, ...c.headers };
  const response = await exchanger.exchange({ path: c.path, method: c.method, headers, body: c.body ?? null }, new AbortController().signal);
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    status: response.statusCode,
    contentType: header('content-type'),
    allow: header('allow'),
    dated: HTTP_DATE.test(header('date') ?? ''),
    body: await text(response.body),
  };
}

async function viaHttp(c: Case): Promise<Seen> {
  const response = await fetch(`${sbx.url}${c.path}`, { method: c.method, headers: c.headers ?? {}, ...(c.body !== undefined && { body: c.body }) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    allow: response.headers.get('allow') ?? undefined,
    dated: HTTP_DATE.test(response.headers.get('date') ?? ''),
    body: await response.text(),
  };
}

describe('in-memory answers', () => {
  it.each(CASES)('$name: the same status, headers and body as over HTTP', async (c) => {
    if (c.method === 'GET' && c.body !== undefined) {
      // fetch refuses a GET with a body; node:http sends one, as the gateway's Node client does.
      const pool = overTcp();
      try {
        expect(await viaDispatcher(sbx.dispatcher, c)).toEqual(await viaDispatcher(pool, c));
      } finally {
        pool.close();
      }
      return;
    }
    const memory = await viaDispatcher(sbx.dispatcher, c);
    expect(memory).toEqual(await viaHttp(c));
    expect(memory.dated).toBe(true);
  });

  it('serves the same payments as the port: made in memory, found over HTTP, and its QR image too', async () => {
    const made = await viaDispatcher(sbx.dispatcher, {
      name: 'pay',
      method: 'POST',
      path: '/merchants/request/whitelabel',
      headers: json,
      body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY, amount: '25', currency: 'USDT', payCurrency: 'USDT', orderId: 'in-memory-1' }),
    });
    const payment = JSON.parse(made.body) as { result: number; trackId: string; QRCode: string };
    expect(payment.result).toBe(100);
    const found = await viaHttp({
      name: 'inquiry',
      method: 'POST',
      path: '/merchants/inquiry',
      headers: json,
      body: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY, trackId: payment.trackId }),
    });
    expect(JSON.parse(found.body)).toMatchObject({ result: 100, trackId: payment.trackId, orderId: 'in-memory-1' });
    // The QRCode link names the sandbox's port, which serves the image.
    expect(payment.QRCode).toBe(`${sbx.url}/qr/${payment.trackId}.png`);
    const image = await fetch(payment.QRCode);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('a repeated header reaches the routes joined, as node:http joins it: a key given twice is not the key', async () => {
    // The same header under two spellings: one header given twice, as a client may send it.
    const memory = await sbx.dispatcher.exchange(
      {
        path: '/v1/payment/accepted-currencies',
        method: 'GET',
        headers: { merchant_api_key: SANDBOX_MERCHANT_KEY, MERCHANT_API_KEY: SANDBOX_MERCHANT_KEY },
        body: null,
      },
      new AbortController().signal,
    );
    const http = await fetch(`${sbx.url}/v1/payment/accepted-currencies`, {
      headers: [
        ['merchant_api_key', SANDBOX_MERCHANT_KEY],
        ['merchant_api_key', SANDBOX_MERCHANT_KEY],
      ],
    });
    await text(memory.body);
    await http.text();
    expect(memory.statusCode).toBe(http.status);
    expect(memory.statusCode).toBe(401);
  });

  it('answers after dispatch() returns, as a socket would', async () => {
    const events: string[] = [];
    const pending = sbx.dispatcher.exchange(
      { path: '/exchange/rate', method: 'POST', headers: json, body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' },
      new AbortController().signal,
    );
    events.push('dispatched');
    void pending.then(() => events.push('answered'));
    expect(events).toEqual(['dispatched']);
    await pending;
    expect(events).toEqual(['dispatched', 'answered']);
  });

  it("rejects with the signal's reason when the request is aborted before the answer", async () => {
    const controller = new AbortController();
    const pending = sbx.dispatcher.exchange(
      { path: '/exchange/rate', method: 'POST', headers: json, body: '{"fromCurrency":"BTC","toCurrency":"USDT"}' },
      controller.signal,
    );
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('rejects a request whose signal was aborted before it was dispatched', async () => {
    const pending = sbx.dispatcher.exchange({ path: '/exchange/rate', method: 'POST', headers: json, body: '{}' }, AbortSignal.abort(new Error('early')));
    await expect(pending).rejects.toThrow('early');
  });
});

describe('the transport over the in-memory dispatcher', () => {
  it('sends as over a connection: the answer, --verbose, and one connection for the observer', async () => {
    const logs: string[] = [];
    const connects: object[] = [];
    const observer: TransportObserver = { onConnect: (info) => connects.push(info) };
    const transport = new Transport({ baseUrl: new URL(sbx.url), timeoutMs: 5000, exchanger: sbx.dispatcher, log: (line) => logs.push(line), observer });
    const answer = await transport.send({ method: 'POST', path: '/exchange/rate', json: '{"fromCurrency":"BTC","toCurrency":"USDT"}', idempotent: true });
    await transport.close();
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ result: 100 });
    expect(logs).toEqual([expect.stringMatching(new RegExp(`^gw: POST ${sbx.url}/exchange/rate → 200 \\(\\d+ ms, \\d+ bytes\\)$`))]);
    expect(connects).toEqual([{}]);
  });

  it('says a payment that timed out may have been created: the sandbox had the request', async () => {
    // An exchanger that takes the request and never answers: the deadline ends the send.
    const silent: Exchanger = { exchange: () => new Promise(() => undefined) };
    const transport = new Transport({ baseUrl: new URL(sbx.url), timeoutMs: 100, exchanger: silent });
    const error = await transport.send({ method: 'POST', path: '/merchants/request/whitelabel', json: '{}', idempotent: false }).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).delivery).toBe('maybe-sent');
    expect((error as TransportError).exitCode).toBe(ExitCode.TEMPFAIL);
  });

  it('refuses an answer over the size cap, as from a socket', async () => {
    const transport = new Transport({ baseUrl: new URL(sbx.url), timeoutMs: 5000, exchanger: sbx.dispatcher, maxResponseBytes: 100 });
    const error = await transport
      .send({ method: 'POST', path: '/merchants/allowedCoins', json: JSON.stringify({ merchant: SANDBOX_MERCHANT_KEY }), idempotent: true })
      .catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/^the gateway's answer is larger than/);
  });
});
