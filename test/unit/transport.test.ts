// Tests for src/gateway/transport.ts: the pure retry helpers (retryAfterMs, backoffMs) and the
// Transport policy against a real node:http server on 127.0.0.1: which failures are retried for
// read-only and for creating requests, the deadline, the response size cap and Retry-After.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { ExitCode, GwError, ProtocolError } from '../../src/errors.js';
import {
  backoffMs,
  DEFAULT_RETRY,
  MAX_RESPONSE_BYTES,
  retryAfterMs,
  Transport,
  TransportError,
  type RetryPolicy,
  type TransportOptions,
  type TransportRequest,
} from '../../src/gateway/transport.js';

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

describe('retryAfterMs', () => {
  const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it.each([
    ['5', 5000],
    ['0', 0],
    ['120', 120_000],
    [' 7 ', 7000],
    [['3', '9'], 3000],
    ['Wed, 21 Oct 2015 07:28:10 GMT', 10_000],
    ['Wed, 21 Oct 2015 07:30:00 GMT', 120_000],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 0],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['Tue, 20 Oct 2015 07:28:00 GMT', 0],
  ] as const)('%j → %i ms', (value, ms) => {
    expect(retryAfterMs(value as string | string[], NOW)).toBe(ms);
  });

  it.each([[undefined], ['soon'], [''], ['5 s'], ['1e3'], ['0x10'], [[]]] as const)('%j → undefined', (value) => {
    expect(retryAfterMs(value as string | string[] | undefined, NOW)).toBeUndefined();
  });

  // A value that is neither delay-seconds (1*DIGIT) nor an HTTP date is ignored (the backoff is
  // used): Date.parse's legacy parser would read "1.5", "-5" or "+5" as dates in 2001, i.e. "retry
  // at once".
  it.each([['1.5'], ['-5'], ['+5']])('the malformed delay %j is ignored (undefined), not read as a date', (value) => {
    expect(retryAfterMs(value, NOW)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  const policy: RetryPolicy = { retries: 5, baseDelayMs: 300, maxDelayMs: 5000 };

  it.each([
    [1, 0, 150],
    [1, 0.5, 225],
    [1, 0.999999, 300],
    [1, 1, 300],
    [2, 0, 300],
    [2, 1, 600],
    [3, 0, 600],
    [3, 1, 1200],
    [4, 1, 2400],
    [5, 0, 2400],
    [5, 1, 4800],
    [6, 0, 2500],
    [6, 1, 5000],
    [30, 0.5, 3750],
  ])('attempt %i with random %d → %i ms', (attempt, random, ms) => {
    expect(backoffMs(attempt, policy, () => random)).toBe(ms);
  });

  it('always stays within 50–100% of the capped exponential ceiling', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      for (const r of [0, 0.1, 0.33, 0.5, 0.77, 0.99]) {
        const ms = backoffMs(attempt, policy, () => r);
        expect(ms).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(ms).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('uses Math.random by default, within bounds', () => {
    for (let i = 0; i < 50; i++) {
      const ms = backoffMs(1, DEFAULT_RETRY);
      expect(ms).toBeGreaterThanOrEqual(150);
      expect(ms).toBeLessThanOrEqual(300);
    }
  });

  it('has the documented defaults', () => {
    expect(DEFAULT_RETRY).toEqual({ retries: 2, baseDelayMs: 300, maxDelayMs: 5000 });
    expect(MAX_RESPONSE_BYTES).toBe(1024 * 1024);
  });
});

// ---------------------------------------------------------------------------------------------
// Transport against a real server
// ---------------------------------------------------------------------------------------------

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => void;

interface TestServer {
  server: Server;
  base: URL;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = seen.length;
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res, index);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return { server, base: new URL(`http://127.0.0.1:${actual}`), port: actual, seen, close };
}

function transport(options: Partial<TransportOptions> & { baseUrl: URL }, logs?: string[]): Transport {
  const t = new Transport({
    timeoutMs: 5000,
    retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 2000 },
    ...(logs && { log: (line: string) => logs.push(line) }),
    ...options,
  });
  cleanups.push(() => t.close());
  return t;
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

async function rejection(promise: Promise<unknown>): Promise<GwError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as GwError;
  }
  throw new Error('did not reject');
}

const GET: TransportRequest = { method: 'GET', path: '/v1/payment/accepted-currencies', headers: { merchant_api_key: 'k' }, idempotent: true };
const PAY: TransportRequest = { method: 'POST', path: '/merchants/request/whitelabel', json: '{"merchant":"k","amount":1}', idempotent: false };

describe('Transport: requests', () => {
  it('sends method, path under the base path, headers, form and JSON bodies', async () => {
    const srv = await startServer((_req, res) => reply(res, 200, { result: 100 }));
    const base = new URL(`${srv.base.href}gw/`);
    const t = transport({ baseUrl: base, userAgent: 'gw/9.9' });
    const a = await t.send({ method: 'POST', path: '/merchants/allowedCoins', form: { merchant: 'm k&=' }, idempotent: true });
    expect(a).toEqual({ status: 200, contentType: 'application/json', body: '{"result":100}' });
    await t.send({ method: 'POST', path: '/exchange/rate', json: '{"fromCurrency":"BTC","toCurrency":"USDT"}', idempotent: true });
    await t.send(GET);

    expect(srv.seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/gw/merchants/allowedCoins'],
      ['POST', '/gw/exchange/rate'],
      ['GET', '/gw/v1/payment/accepted-currencies'],
    ]);
    expect(srv.seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(srv.seen[0]!.body).toBe('merchant=m+k%26%3D');
    expect(srv.seen[1]!.headers['content-type']).toBe('application/json');
    expect(srv.seen[1]!.body).toBe('{"fromCurrency":"BTC","toCurrency":"USDT"}');
    expect(srv.seen[2]!.headers.merchant_api_key).toBe('k');
    expect(srv.seen[2]!.body).toBe('');
    for (const s of srv.seen) {
      expect(s.headers['user-agent']).toBe('gw/9.9');
      expect(s.headers.accept).toBe('application/json');
    }
  });

  it('keeps a query in the request path a query (not an escaped part of the path)', async () => {
    const srv = await startServer((_req, res) => reply(res, 200, { status: 200 }));
    const t = transport({ baseUrl: new URL(`${srv.base.href}gw/`) });
    await t.send({ method: 'GET', path: '/v1/payment?page=2&size=5&order_id=A%20B', idempotent: true });
    await t.send({ method: 'GET', path: '/v1/general/account/balance', idempotent: true });
    expect(srv.seen.map((s) => s.url)).toEqual(['/gw/v1/payment?page=2&size=5&order_id=A%20B', '/gw/v1/general/account/balance']);
  });

  it('returns any HTTP status as is, without retrying a 4xx', async () => {
    const srv = await startServer((_req, res) => reply(res, 404, '<html>no</html>', { 'content-type': 'text/html' }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer).toEqual({ status: 404, contentType: 'text/html', body: '<html>no</html>' });
    expect(srv.seen).toHaveLength(1);
  });

  it('logs one line per request and never a secret', async () => {
    const srv = await startServer((_req, res) => reply(res, 200, { ok: 1 }));
    const logs: string[] = [];
    const t = transport({ baseUrl: new URL(`${srv.base.href}SECRET-123/`), secrets: ['SECRET-123', ''] }, logs);
    await t.send(GET);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      new RegExp(`^gw: GET http://127\\.0\\.0\\.1:${srv.port}/\\*\\*\\*\\*/v1/payment/accepted-currencies → 200 \\(\\d+ ms, 8 bytes\\)$`),
    );
    expect(logs.join('\n')).not.toContain('SECRET-123');
  });
});

describe('Transport: retries', () => {
  it('retries an idempotent request 503 → 503 → 200 (3 requests)', async () => {
    const srv = await startServer((_req, res, i) => (i < 2 ? reply(res, 503, { result: 500 }) : reply(res, 200, { result: 100 })));
    const logs: string[] = [];
    const answer = await transport({ baseUrl: srv.base }, logs).send(GET);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"result":100}');
    expect(srv.seen).toHaveLength(3);
    expect(logs.filter((l) => l.startsWith('gw: retrying in ')).map((l) => l.replace(/\d+ ms/, 'N ms'))).toEqual([
      'gw: retrying in N ms (HTTP 503)',
      'gw: retrying in N ms (HTTP 503)',
    ]);
  });

  it('retries 429 and 500 too, for an idempotent request', async () => {
    const statuses = [429, 500, 200];
    const srv = await startServer((_req, res, i) => reply(res, statuses[i]!, { i }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer.status).toBe(200);
    expect(srv.seen).toHaveLength(3);
  });

  it('does not retry a status of 600 or more (not HTTP), even for an idempotent request', async () => {
    const srv = await startServer((_req, res, i) => reply(res, i === 0 ? 600 : 200, { i }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer.status).toBe(600);
    expect(srv.seen).toHaveLength(1);
  });

  it('gives up after retries + 1 requests and returns the last answer', async () => {
    const srv = await startServer((_req, res, i) => reply(res, 503, { i }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer.status).toBe(503);
    expect(answer.body).toBe('{"i":2}');
    expect(srv.seen).toHaveLength(3);
  });

  it('does not retry when retries is 0', async () => {
    const srv = await startServer((_req, res) => reply(res, 503, {}));
    const answer = await transport({ baseUrl: srv.base, retry: { retries: 0, baseDelayMs: 10, maxDelayMs: 100 } }).send(GET);
    expect(answer.status).toBe(503);
    expect(srv.seen).toHaveLength(1);
  });

  it.each([500, 502, 503, 429])('never retries a non-idempotent request after HTTP %i (1 request)', async (status) => {
    const srv = await startServer((_req, res) => reply(res, status, { result: 500 }));
    const answer = await transport({ baseUrl: srv.base }).send(PAY);
    expect(answer.status).toBe(status);
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]!.body).toBe('{"merchant":"k","amount":1}');
  });

  it('never retries a non-idempotent request whose connection broke after it was sent', async () => {
    const srv = await startServer((req) => req.socket.destroy());
    const error = await rejection(transport({ baseUrl: srv.base }).send(PAY));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).delivery).toBe('maybe-sent');
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(srv.seen).toHaveLength(1);
  });

  it('retries an idempotent request whose connection broke', async () => {
    const srv = await startServer((req, res, i) => (i < 2 ? req.socket.destroy() : reply(res, 200, { ok: true })));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer.status).toBe(200);
    expect(srv.seen).toHaveLength(3);
  });

  it('retries a non-idempotent request when the connection is refused, then fails with not-sent', async () => {
    const probe = await startServer(() => undefined);
    const port = probe.port;
    await probe.close();
    const logs: string[] = [];
    const error = await rejection(transport({ baseUrl: new URL(`http://127.0.0.1:${port}`) }, logs).send(PAY));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as TransportError).delivery).toBe('not-sent');
    expect(error.message).toBe(`cannot connect to the gateway at 127.0.0.1:${port}: connection refused`);
    expect(error.hint).toBe('check the base URL and that the gateway is up');
    expect(logs.filter((l) => l.includes('ECONNREFUSED'))).toHaveLength(3);
    expect(logs.filter((l) => l.startsWith('gw: retrying in '))).toHaveLength(2);
  });

  it('a non-idempotent request refused at first goes through once the gateway is up (1 request seen)', async () => {
    const probe = await startServer(() => undefined);
    const port = probe.port;
    await probe.close();
    let late: Promise<TestServer> | undefined;
    const logs: string[] = [];
    const t = new Transport({
      baseUrl: new URL(`http://127.0.0.1:${port}`),
      timeoutMs: 5000,
      retry: { retries: 2, baseDelayMs: 400, maxDelayMs: 2000 },
      log: (line) => {
        logs.push(line);
        // The first refusal: bring the gateway up during the backoff.
        if (line.startsWith('gw: retrying in ') && late === undefined) late = startServer((_req, res) => reply(res, 200, { result: 100 }), port);
      },
    });
    cleanups.push(() => t.close());
    const answer = await t.send(PAY);
    expect(answer.status).toBe(200);
    expect(late).toBeDefined();
    const srv = await late!;
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]!.body).toBe('{"merchant":"k","amount":1}');
  });
});

describe('Transport: Retry-After', () => {
  it('a Retry-After that does not fit before the deadline stops retrying (the answer keeps it, for the hint)', async () => {
    const srv = await startServer((_req, res) => reply(res, 503, { result: 500 }, { 'retry-after': '10' }));
    const logs: string[] = [];
    const started = Date.now();
    const answer = await transport({ baseUrl: srv.base, retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 5000 } }, logs).send(GET);
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('10');
    expect(srv.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(logs).toContain('gw: not retrying: the gateway asks to wait 10 s, past the deadline');
  });

  it('a Retry-After longer than the backoff cap but within the deadline is waited as asked: exactly 2 requests', async () => {
    const srv = await startServer((_req, res, i) => (i === 0 ? reply(res, 429, { result: 124 }, { 'retry-after': '4' }) : reply(res, 200, { result: 100 })));
    const clock = new ManualClock(Date.now());
    const options = { baseUrl: srv.base, timeoutMs: 10_000, retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 2000 }, sleep: clock.sleep.bind(clock) };
    const answer = await transport(options).send(GET);
    expect(answer.status).toBe(200);
    expect(srv.seen).toHaveLength(2);
    expect(clock.sleeps).toEqual([4000]);
  });

  it('every retry of a read waits its Retry-After: 3 requests for retries 2, then the last answer', async () => {
    const srv = await startServer((_req, res) => reply(res, 503, { status: 503, error: { message: 'down' } }, { 'retry-after': '1' }));
    const clock = new ManualClock(Date.now());
    const options = { baseUrl: srv.base, retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 2000 }, sleep: clock.sleep.bind(clock) };
    const answer = await transport(options).send(GET);
    expect(answer.status).toBe(503);
    expect(srv.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it.each([429, 503])(
    'a payment creation (POST, not idempotent) answered %i with Retry-After is never sent again: exactly 1 request, no wait',
    async (status) => {
      const srv = await startServer((_req, res) => reply(res, status, { result: status === 429 ? 124 : 500 }, { 'retry-after': '1' }));
      const clock = new ManualClock(Date.now());
      const answer = await transport({ baseUrl: srv.base, sleep: clock.sleep.bind(clock) }).send(PAY);
      expect(answer.status).toBe(status);
      expect(srv.seen).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    },
  );

  it('a Retry-After date too far away stops retrying too', async () => {
    const srv = await startServer((_req, res) => reply(res, 429, {}, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(answer.status).toBe(429);
    expect(srv.seen).toHaveLength(1);
  });

  it('waits as long as a Retry-After within maxDelayMs asks', async () => {
    const srv = await startServer((_req, res, i) => (i === 0 ? reply(res, 503, {}, { 'retry-after': '1' }) : reply(res, 200, { ok: 1 })));
    const logs: string[] = [];
    const clock = new ManualClock(Date.now());
    const options = { baseUrl: srv.base, retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 5000 }, sleep: clock.sleep.bind(clock) };
    const answer = await transport(options, logs).send(GET);
    expect(answer.status).toBe(200);
    expect(srv.seen).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]); // waited on the injected clock, exactly as asked
    expect(logs).toContain('gw: retrying in 1000 ms (HTTP 503)');
  });
});

describe('Transport: deadline', () => {
  it('a gateway that never answers ends at the deadline with exit 75, not retried', async () => {
    const srv = await startServer(() => undefined);
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: srv.base, timeoutMs: 400 }).send(GET));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(error.message).toBe('no complete answer from the gateway within 0.4 s');
    expect(error.hint).toBe('raise --timeout, or check the gateway and the network');
    expect((error as TransportError).delivery).toBe('maybe-sent');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(2500);
    expect(srv.seen).toHaveLength(1);
  });

  it('a body that stalls midway ends at the deadline', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"result":');
    });
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: srv.base, timeoutMs: 400 }).send(GET));
    expect(error.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('one deadline covers every retry', async () => {
    const srv = await startServer((_req, res, i) => setTimeout(() => reply(res, 503, { i }), 150));
    const started = Date.now();
    const t = transport({ baseUrl: srv.base, timeoutMs: 500, retry: { retries: 10, baseDelayMs: 100, maxDelayMs: 100 } });
    const outcome = await t.send(GET).then(
      (answer) => answer.status,
      (error: GwError) => error.exitCode,
    );
    const elapsed = Date.now() - started;
    expect([503, ExitCode.TEMPFAIL]).toContain(outcome);
    expect(elapsed).toBeLessThan(1500);
    expect(srv.seen.length).toBeGreaterThanOrEqual(1);
    expect(srv.seen.length).toBeLessThanOrEqual(3);
  });

  it('does not start a backoff that would end after the deadline', async () => {
    const srv = await startServer((_req, res) => reply(res, 503, {}));
    const started = Date.now();
    const answer = await transport({ baseUrl: srv.base, timeoutMs: 1000, retry: { retries: 3, baseDelayMs: 5000, maxDelayMs: 5000 } }).send(GET);
    expect(answer.status).toBe(503);
    expect(srv.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a caller abort (Ctrl-C) is exit 130', async () => {
    const srv = await startServer(() => undefined);
    const controller = new AbortController();
    const t = transport({ baseUrl: srv.base, timeoutMs: 5000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(t.send(GET));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.exitCode).toBe(ExitCode.INTERRUPTED);
    expect(error.message).toBe('interrupted');
  });

  it('an already aborted signal sends nothing', async () => {
    const srv = await startServer((_req, res) => reply(res, 200, {}));
    const t = transport({ baseUrl: srv.base, signal: AbortSignal.abort() });
    const error = await rejection(t.send(GET));
    expect(error.exitCode).toBe(ExitCode.INTERRUPTED);
    expect((error as TransportError).delivery).toBe('not-sent');
    expect(srv.seen).toHaveLength(0);
  });
});

describe('Transport: response size cap', () => {
  it('refuses a declared Content-Length over the cap with exit 76', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10_000) });
      res.write('x'.repeat(100));
      // Never sends the rest: the client must not wait for it.
    });
    const logs: string[] = [];
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: srv.base, maxResponseBytes: 1024, timeoutMs: 5000 }, logs).send(GET));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe("the gateway's answer is larger than 1 KiB; refused");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(srv.seen).toHaveLength(1);
    expect(logs.some((l) => l.endsWith('200, refused: 10000 bytes declared'))).toBe(true);
  });

  it('refuses a streamed body once it passes the cap, without reading it all', async () => {
    let written = 0;
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'y'.repeat(16 * 1024);
      // Streams without end: an answer read to the end would run into the deadline (exit 75).
      const timer = setInterval(() => {
        if (res.destroyed || written > 64 * 1024 * 1024) return clearInterval(timer);
        res.write(chunk);
        written += chunk.length;
      }, 1);
      res.on('close', () => clearInterval(timer));
    });
    const logs: string[] = [];
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: srv.base, maxResponseBytes: 64 * 1024, timeoutMs: 5000 }, logs).send(GET));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe("the gateway's answer is larger than 64 KiB; refused");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(srv.seen).toHaveLength(1);
    expect(logs.some((l) => /200, refused after \d+ bytes$/.test(l))).toBe(true);
  });

  it('a body exactly at the cap is accepted', async () => {
    const body = 'z'.repeat(1024);
    const srv = await startServer((_req, res) => reply(res, 200, body, { 'content-type': 'text/plain' }));
    const answer = await transport({ baseUrl: srv.base, maxResponseBytes: 1024 }).send(GET);
    expect(answer.body).toBe(body);
  });

  it('a body one byte over the cap is refused', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('z'.repeat(1025));
    });
    const error = await rejection(transport({ baseUrl: srv.base, maxResponseBytes: 1024 }).send(GET));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.exitCode).toBe(76);
  });

  it('decodes the body as UTF-8', async () => {
    const srv = await startServer((_req, res) => reply(res, 200, { city: 'Zürich 東京' }));
    const answer = await transport({ baseUrl: srv.base }).send(GET);
    expect(JSON.parse(answer.body)).toEqual({ city: 'Zürich 東京' });
  });
});
