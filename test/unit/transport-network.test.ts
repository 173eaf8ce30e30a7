// The Transport in process against real servers on 127.0.0.1: the deadline belongs to each send
// (and notAfter caps it), connection stages that stall end at the deadline as not-sent, TLS
// failures are reported once and never retried, proxies (CONNECT tunnel for https://, absolute
// form for http://) with their refusals, interim 1xx answers, and malformed HTTP framing.
// (The end-to-end suites test the same through the built binary.)
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, GwError } from '../../src/errors.js';
import { parseProxy } from '../../src/gateway/proxy.js';
import { Transport, TransportError, type TransportOptions, type TransportRequest } from '../../src/gateway/transport.js';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { hang, json, refusedPort, startMisbehavingGateway, type MisbehavingGateway } from '../support/misbehaving-gateway.js';
import { startTestProxy, type TestProxy } from '../support/proxy.js';
import { startSilentServer } from '../support/stalls.js';

const GET: TransportRequest = { method: 'GET', path: '/v1/payment/accepted-currencies', headers: { merchant_api_key: 'k' }, idempotent: true };
const PAY: TransportRequest = { method: 'POST', path: '/merchants/request/whitelabel', json: '{"merchant":"k","amount":1}', idempotent: false };
const OK = json({ result: 100, message: 'OK' });
const PASSWORD = 'pr0xy-Pa55word';

let dir: string;
let certs: TestCertificates;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gw-transport-'));
  certs = await makeCertificates(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined);
});

function transport(options: Partial<TransportOptions> & { baseUrl: URL }, logs?: string[]): Transport {
  const t = new Transport({
    timeoutMs: 3000,
    retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 100 },
    ...(logs && { log: (line: string) => logs.push(line) }),
    ...options,
  });
  cleanups.push(() => t.close());
  return t;
}

async function gateway(...args: Parameters<typeof startMisbehavingGateway>): Promise<MisbehavingGateway> {
  const g = await startMisbehavingGateway(...args);
  cleanups.push(() => g.close());
  return g;
}

async function proxyServer(...args: Parameters<typeof startTestProxy>): Promise<TestProxy> {
  const p = await startTestProxy(...args);
  cleanups.push(() => p.close());
  return p;
}

async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as TransportError;
  }
  throw new Error('did not reject');
}

/** A server that answers every request with these exact bytes, then closes. */
async function rawServer(bytes: string): Promise<{ url: URL; requests: () => number }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      requests += 1;
      socket.end(Buffer.from(bytes, 'latin1'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), requests: () => requests };
}

describe('a connection the gateway keeps open only briefly', () => {
  it('is not reused, and gw closes it itself: the next send opens another', async () => {
    const seen: Array<{ ended: boolean; closed: Promise<void> }> = [];
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{"result":100,"message":"OK"}'));
    });
    // "Keep-Alive: timeout=1": not more than gw's margin of a second, so gw closes the connection after the answer.
    server.keepAliveTimeout = 1000;
    server.on('connection', (socket: Socket) => {
      const entry = { ended: false, closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
      socket.once('end', () => (entry.ended = true));
      seen.push(entry);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const t = transport({ baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`) });
    expect((await t.send(GET)).status).toBe(200);
    expect((await t.send(GET)).status).toBe(200);
    expect(seen).toHaveLength(2);
    // The first connection was ended by gw (the server saw its end), not left for the server's timeout.
    await seen[0]!.closed;
    expect(seen[0]!.ended).toBe(true);
  });
});

describe('the deadline belongs to each send', () => {
  it('two sends through one Transport, further apart than timeoutMs, both succeed', async () => {
    const g = await gateway([OK]);
    const t = transport({ baseUrl: new URL(g.url), timeoutMs: 300 });
    expect((await t.send(GET)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await t.send(GET)).status).toBe(200);
    expect(g.requests).toHaveLength(2);
  });

  it('notAfter caps a send below timeoutMs', async () => {
    const g = await gateway([hang()]);
    const started = Date.now();
    const cap = Date.now() + 300;
    const error = await rejection(transport({ baseUrl: new URL(g.url), timeoutMs: 5000, notAfter: () => cap }).send(GET));
    expect(error.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(error.message).toMatch(/^no complete answer from the gateway within 0\.[23] s$/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('notAfter is read at each send: a cap lifted between sends no longer applies', async () => {
    const g = await gateway([OK]);
    let cap = Date.now() - 1;
    const t = transport({ baseUrl: new URL(g.url), notAfter: () => cap });
    await expect(t.send(GET)).rejects.toMatchObject({ exitCode: ExitCode.TEMPFAIL });
    cap = Number.POSITIVE_INFINITY;
    await expect(t.send(GET)).resolves.toMatchObject({ status: 200 });
  });

  it('a notAfter already past sends nothing', async () => {
    const g = await gateway([OK]);
    const past = Date.now() - 1;
    const error = await rejection(transport({ baseUrl: new URL(g.url), notAfter: () => past }).send(PAY));
    expect(error).toMatchObject({ exitCode: ExitCode.TEMPFAIL, delivery: 'not-sent' });
    expect(g.requests).toHaveLength(0);
  });
});

describe('a connection that stalls before the request is written ends at the deadline as not-sent', () => {
  it('TLS handshake never completes: exit 75, not-sent, one connection, on time', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const logs: string[] = [];
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: new URL(`https://127.0.0.1:${silent.port}`), timeoutMs: 500 }, logs).send(PAY));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ exitCode: ExitCode.TEMPFAIL, delivery: 'not-sent' });
    expect(error.message).toBe(`the TLS handshake with the gateway at 127.0.0.1:${silent.port} did not complete within 0.5 s`);
    expect(silent.connections).toBe(1);
    expect(silent.received.length).toBeGreaterThan(0); // a ClientHello arrived, nothing else could
    expect(logs.some((l) => l.includes('during the TLS handshake'))).toBe(true);
  });
});

describe('TLS verification failures: plain words, one attempt, never retried', () => {
  it('a self-signed certificate → exit 69, not-sent, one handshake even for a read; the next send on the same Transport settles too', async () => {
    const g = await gateway([OK], { tls: certs.selfSigned });
    const t = transport({ baseUrl: new URL(g.url) });
    for (let round = 1; round <= 2; round++) {
      const error = await rejection(t.send(GET));
      expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent', final: true });
      expect(error.message).toBe(`the gateway at 127.0.0.1:${g.port} presents a self-signed TLS certificate, which is not trusted`);
      expect(error.hint).toContain('NODE_EXTRA_CA_CERTS');
      expect(g.connections).toBe(round);
    }
    expect(g.requests).toHaveLength(0);
  });

  it('a certificate from an unknown authority → exit 69, one handshake', async () => {
    const g = await gateway([OK], { tls: certs.loopback });
    const error = await rejection(transport({ baseUrl: new URL(g.url) }).send(GET));
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent', final: true });
    expect(error.message).toMatch(/issued by a certificate authority this computer does not trust/);
    expect(g.connections).toBe(1);
  });

  it('https:// to a plain HTTP port → exit 69 at once, "does not answer in TLS"', async () => {
    const srv = await rawServer('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    const error = await rejection(transport({ baseUrl: new URL(`https://${srv.url.host}`) }).send(GET));
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent', final: true });
    expect(error.message).toMatch(/does not answer in TLS on that port/);
    expect(srv.requests()).toBe(1);
  });
});

describe('proxies', () => {
  it('http:// gateway through http_proxy: the request goes to the proxy in absolute form, with the gateway as Host', async () => {
    const g = await gateway([OK]);
    const p = await proxyServer();
    const logs: string[] = [];
    const t = transport({ baseUrl: new URL(g.url), proxy: parseProxy(p.url, 'http_proxy') }, logs);
    expect((await t.send(GET)).status).toBe(200);
    expect(p.seen).toEqual([expect.objectContaining({ method: 'GET', target: `${g.url}/v1/payment/accepted-currencies` })]);
    expect(p.seen[0]!.headers.host).toBe(`127.0.0.1:${g.port}`);
    expect(g.requests).toHaveLength(1);
    expect(logs[0]).toBe(`gw: proxy http://127.0.0.1:${p.port} (from http_proxy)`);
  });

  it('credentials in the proxy URL are sent as Proxy-Authorization and appear in no log line', async () => {
    const g = await gateway([OK]);
    const p = await proxyServer({ credentials: `alice:${PASSWORD}` });
    const logs: string[] = [];
    const t = transport({ baseUrl: new URL(g.url), proxy: parseProxy(`http://alice:${PASSWORD}@127.0.0.1:${p.port}`, 'http_proxy') }, logs);
    expect((await t.send(GET)).status).toBe(200);
    expect(p.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
    expect(logs.join('\n')).not.toContain(PASSWORD);
    expect(logs.join('\n')).not.toContain('alice');
  });

  it('http:// gateway, proxy answers 407 → exit 78, not-sent, never retried, the gateway saw nothing', async () => {
    const g = await gateway([OK]);
    const p = await proxyServer({ credentials: 'alice:right' });
    const error = await rejection(transport({ baseUrl: new URL(g.url), proxy: parseProxy(`http://alice:wrong@127.0.0.1:${p.port}`, 'http_proxy') }).send(GET));
    expect(error).toMatchObject({ exitCode: ExitCode.CONFIG, delivery: 'not-sent', final: true });
    expect(error.message).toMatch(/refused the user name and password given in http_proxy \(HTTP 407\)/);
    expect(p.seen).toHaveLength(1);
    expect(g.requests).toHaveLength(0);
  });

  it('https:// gateway through HTTPS_PROXY: a CONNECT tunnel to host:port, and TLS with the gateway inside it', async () => {
    const g = await gateway([OK], { tls: certs.selfSigned });
    const p = await proxyServer();
    const error = await rejection(transport({ baseUrl: new URL(g.url), proxy: parseProxy(p.url, 'HTTPS_PROXY') }).send(GET));
    // The test CA is not trusted in this process: the gateway's own certificate was checked through the tunnel.
    expect(error.message).toMatch(/self-signed/);
    expect(p.seen.map((s) => [s.method, s.target])).toEqual([['CONNECT', `127.0.0.1:${g.port}`]]);
    expect(g.connections).toBe(1);
  });

  it('CONNECT answered 407 → exit 78 with a hint about the credentials; one CONNECT, even for a payment', async () => {
    const p = await proxyServer({ credentials: 'alice:right' });
    const error = await rejection(transport({ baseUrl: new URL('https://127.0.0.1:9'), proxy: parseProxy(p.url, 'HTTPS_PROXY') }).send(PAY));
    expect(error).toMatchObject({ exitCode: ExitCode.CONFIG, delivery: 'not-sent', final: true });
    expect(error.hint).toBe('put them in HTTPS_PROXY: http://user:password@host:port (percent-encode special characters)');
    expect(p.seen).toHaveLength(1);
  });

  it('CONNECT answered 403 → exit 69, not-sent, not retried', async () => {
    const p = await proxyServer({ refuseWith: 403 });
    const error = await rejection(transport({ baseUrl: new URL('https://127.0.0.1:9'), proxy: parseProxy(p.url, 'HTTPS_PROXY') }).send(GET));
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent' });
    expect(error.message).toBe(`the proxy at ${p.url} (from HTTPS_PROXY) refused to open a connection to 127.0.0.1:9 (HTTP 403 Refused By Test Proxy)`);
    expect(p.seen).toHaveLength(1);
  });

  it('CONNECT answered 502 → retried (it was never sent), even a payment: 3 CONNECTs, then exit 69 not-sent', async () => {
    const p = await proxyServer({ refuseWith: 502 });
    const error = await rejection(transport({ baseUrl: new URL('https://127.0.0.1:9'), proxy: parseProxy(p.url, 'HTTPS_PROXY') }).send(PAY));
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent' });
    expect(p.seen).toHaveLength(3);
  });

  it('the proxy is down → exit 69, not-sent, naming the proxy', async () => {
    const port = await refusedPort();
    const error = await rejection(
      transport({ baseUrl: new URL('https://127.0.0.1:9'), proxy: parseProxy(`http://127.0.0.1:${port}`, 'https_proxy') }).send(PAY),
    );
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'not-sent' });
    expect(error.message).toBe(`cannot connect to the proxy at http://127.0.0.1:${port} (from https_proxy): connection refused`);
  });

  it('the proxy never answers CONNECT → exit 75 at the deadline, not-sent', async () => {
    const p = await proxyServer({ silent: true });
    const started = Date.now();
    const error = await rejection(transport({ baseUrl: new URL('https://127.0.0.1:9'), timeoutMs: 500, proxy: parseProxy(p.url, 'HTTPS_PROXY') }).send(PAY));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ exitCode: ExitCode.TEMPFAIL, delivery: 'not-sent' });
    expect(error.message).toBe(`the proxy at ${p.url} (from HTTPS_PROXY) did not open a connection to 127.0.0.1:9 within 0.5 s`);
  });
});

describe('HTTP framing', () => {
  const FINAL = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{"result":100}';

  it('interim 102 and 103 answers before the final one are read past', async () => {
    const srv = await rawServer(`HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n${FINAL}`);
    const answer = await transport({ baseUrl: srv.url }).send(PAY);
    expect(answer).toMatchObject({ status: 200, body: '{"result":100}' });
  });

  it.each([
    ['a bad header', 'HTTP/1.1 200 OK\r\nContent Type: x\r\nContent-Length: 2\r\n\r\n{}', /\(Invalid header token\)$/],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n', /\(Invalid character in chunk size\)$/],
    ['an invalid status line', 'HTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}', /could not be understood: it is not valid HTTP\/1\.1/],
    [
      'a 101 Switching Protocols no request asked for',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
      /not valid HTTP\/1\.1 \(a switch to another protocol \(101\) that gw did not ask for\)$/,
    ],
  ])('%s → exit 76, maybe-sent, not retried even for a read', async (_name, bytes, message) => {
    const srv = await rawServer(bytes);
    const error = await rejection(transport({ baseUrl: srv.url }).send(GET));
    expect(error).toMatchObject({ exitCode: ExitCode.PROTOCOL, delivery: 'maybe-sent' });
    expect(error.message).toMatch(message);
    expect(srv.requests()).toBe(1);
  });
});
