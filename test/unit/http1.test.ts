// src/gateway/http1.ts against real servers on 127.0.0.1: the keep-alive rule (idleMsAfter), and
// the ConnectionPool keeping one connection between requests where the gateway keeps it alive, and
// never handing a request a connection that is being closed (its idle time over, or the gateway's
// side closed), which would cut a request that was written, or fail one that never left.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool, idleMsAfter, type OutgoingRequest } from '../../src/gateway/http1.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined);
});

const REQUEST: OutgoingRequest = { method: 'POST', path: '/merchants/inquiry', headers: { host: '127.0.0.1' }, body: '{"trackId":"1"}' };
const never = new AbortController().signal;

describe('idleMsAfter: how long an idle connection is kept after an answer', () => {
  it.each([
    [undefined, 10_000],
    ['timeout=5', 4000],
    ['timeout=5, max=100', 4000],
    ['max=100, timeout=30', 29_000],
    ['TIMEOUT = "3"', 2000],
    [['max=5', 'timeout=4'], 3000],
    ['timeout=2', 1000],
    ['timeout=1', 0],
    ['timeout=0', 0],
    ['timeout=600', 60_000],
    ['max=100', 10_000],
    ['notimeout=9', 10_000],
  ] as const)('Keep-Alive: %j → %d ms', (header, ms) => {
    expect(idleMsAfter(header as string | string[] | undefined)).toBe(ms);
  });
});

/** The body of an answer, read to its end. */
async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

interface Served {
  port: number;
  connections: number;
  requests: number;
  /** Each connection's server side, in order. */
  sockets: Socket[];
}

/** node:http answering `{}` with these headers (and its own Keep-Alive hint from keepAliveTimeout). */
async function httpServer(keepAliveTimeout: number, headers: Record<string, string> = {}): Promise<Served> {
  const served: Served = { port: 0, connections: 0, requests: 0, sockets: [] };
  const server: HttpServer = createHttpServer({ keepAliveTimeout }, (req, res) => {
    served.requests += 1;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2, ...headers }).end('{}'));
  });
  server.on('connection', (socket: Socket) => {
    served.connections += 1;
    served.sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  served.port = (server.address() as AddressInfo).port;
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return served;
}

/** A raw server: each request read is answered by `answer` with the socket. */
async function rawServer(answer: (socket: Socket) => void): Promise<Served> {
  const served: Served = { port: 0, connections: 0, requests: 0, sockets: [] };
  const server: Server = createServer((socket) => {
    served.connections += 1;
    served.sockets.push(socket);
    socket.on('error', () => undefined);
    let seen = '';
    socket.on('data', (data: Buffer) => {
      seen += data.toString('latin1');
      // Every request of these tests carries REQUEST's body, last.
      while (seen.includes(REQUEST.body as string)) {
        seen = seen.slice(seen.indexOf(REQUEST.body as string) + (REQUEST.body as string).length);
        served.requests += 1;
        answer(socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  served.port = (server.address() as AddressInfo).port;
  cleanups.push(() => {
    for (const socket of served.sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return served;
}

/** A pool connecting to 127.0.0.1:port; `opened` lists gw's side of each connection. */
function pool(port: number): { pool: ConnectionPool; opened: Socket[] } {
  const opened: Socket[] = [];
  const p = new ConnectionPool((callback) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    opened.push(socket);
    socket.once('connect', () => callback(null, socket));
    socket.once('error', (error) => callback(error));
  });
  cleanups.push(() => p.close());
  return { pool: p, opened };
}

describe('ConnectionPool: one connection kept between requests', () => {
  it("kept for the next request while the gateway's hint allows (node:http: Keep-Alive: timeout=5)", async () => {
    const served = await httpServer(5000);
    const { pool: p } = pool(served.port);
    for (let i = 0; i < 3; i++) {
      const answer = await p.exchange(REQUEST, never);
      expect(answer.headers['keep-alive']).toBe('timeout=5');
      expect(await text(answer.body)).toBe('{}');
    }
    expect(served.requests).toBe(3);
    expect(served.connections).toBe(1);
  });

  it.each([
    ['a hint of one second (Keep-Alive: timeout=1)', 1000, {}],
    ['Connection: close', 5000, { connection: 'close' }],
  ])('not kept after %s: each request on a connection of its own', async (_name, keepAlive, headers) => {
    const served = await httpServer(keepAlive, headers);
    const { pool: p } = pool(served.port);
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    expect(served.requests).toBe(2);
    expect(served.connections).toBe(2);
  });

  it("dropped when its idle time is over (the hint less a second, before the gateway's own timeout): the next request goes out once, on a new connection", async () => {
    // The server says timeout=2 and would close at 2 s; gw keeps it 1 s. The request follows the
    // idle timer in the same turn, as a poll whose wait ends then would.
    const served = await httpServer(2000);
    const { pool: p, opened } = pool(served.port);
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    await new Promise((resolve) => opened[0]!.once('timeout', resolve));
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    expect(served.requests).toBe(2);
    expect(served.connections).toBe(2);
  });

  it('a connection whose idle time ends in the same turn as the next request is not given to it: the request goes out once, on a new connection', async () => {
    const served = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=30\r\nContent-Length: 2\r\n\r\n{}'));
    const { pool: p, opened } = pool(served.port);
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    // What the idle timer (socket.setTimeout) does when it fires; the request follows at once.
    opened[0]!.emit('timeout');
    const answer = await p.exchange(REQUEST, never);
    expect(await text(answer.body)).toBe('{}');
    expect(served.requests).toBe(2);
    expect(served.connections).toBe(2);
  });

  it('a connection the gateway has closed (its end read, not yet closed here) is not given to the next request', async () => {
    const served = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
      setTimeout(() => socket.end(), 20);
    });
    const { pool: p, opened } = pool(served.port);
    expect(await text((await p.exchange(REQUEST, never)).body)).toBe('{}');
    await new Promise((resolve) => opened[0]!.once('end', resolve));
    const answer = await p.exchange(REQUEST, never);
    expect(await text(answer.body)).toBe('{}');
    expect(served.requests).toBe(2);
    expect(served.connections).toBe(2);
  });
});

describe('ConnectionPool: requests sent together take turns on one connection', () => {
  it('four at once: one connection, each answered', async () => {
    const served = await httpServer(5000);
    const { pool: p } = pool(served.port);
    const bodies = await Promise.all([1, 2, 3, 4].map(async () => text((await p.exchange(REQUEST, never)).body)));
    expect(bodies).toEqual(['{}', '{}', '{}', '{}']);
    expect(served.requests).toBe(4);
    expect(served.connections).toBe(1);
  });

  it('one whose signal fires while it waits for its turn fails with its reason, never sent; the next still goes', async () => {
    let hold: (() => void) | undefined;
    const served = await rawServer((socket) => {
      const answer = (): void => void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
      if (hold === undefined) hold = answer;
      else answer();
    });
    const { pool: p } = pool(served.port);
    const first = p.exchange(REQUEST, never);
    const stop = new AbortController();
    const second = p.exchange(REQUEST, stop.signal);
    const third = p.exchange(REQUEST, never);
    stop.abort(new Error('deadline'));
    await expect(second).rejects.toThrow('deadline');
    await expect.poll(() => hold).toBeDefined();
    hold!();
    expect(await text((await first).body)).toBe('{}');
    expect(await text((await third).body)).toBe('{}');
    expect(served.requests).toBe(2);
    expect(served.connections).toBe(1);
  });
});

describe('ConnectionPool: answers node:http would give up on without an error', () => {
  it('a 101 Switching Protocols nobody asked for fails at once (not at the deadline), as an answer that is not HTTP/1.1', async () => {
    const served = await rawServer((socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
    const { pool: p } = pool(served.port);
    await expect(p.exchange(REQUEST, never)).rejects.toMatchObject({ code: 'GW_UNREQUESTED_UPGRADE' });
    expect(served.requests).toBe(1);
  });
});
