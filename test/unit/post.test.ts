// src/gateway/post.ts: one POST on the Transport, with the failure values and the bounded answer
// the notification callers (webhook send, listen --forward-to, the sandbox) rely on. Servers on
// 127.0.0.1 only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_LIMIT, postBytes } from '../../src/gateway/post.js';
import { freePort } from '../support/notifications.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: URL; count: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    handler?.(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?x=1`), count: () => count };
}

const HEADERS = { 'content-type': 'application/json' };

describe('postBytes', () => {
  it('sends the exact bytes and headers once; the answer, its status and time', async () => {
    let got: { body: string; hmac: unknown; path: unknown } | undefined;
    const s = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got = { body: Buffer.concat(chunks).toString('utf8'), hmac: req.headers.hmac, path: req.url };
        res.end('ok');
      });
    });
    const r = await postBytes(s.url, Buffer.from('{"a":1}'), { ...HEADERS, hmac: 'abc' }, { timeoutMs: 2000 });
    expect(r).toMatchObject({ ok: true, status: 200, body: 'ok', truncated: false });
    expect(got).toEqual({ body: '{"a":1}', hmac: 'abc', path: '/hooks?x=1' });
    expect(s.count()).toBe(1);
  });

  it('keeps the first 16 KiB of a long answer (truncated), and stops reading past 1 MiB', async () => {
    const long = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.end('x'.repeat(40 * 1024)));
    });
    const r = await postBytes(long.url, '{}', HEADERS, { timeoutMs: 2000 });
    expect(r).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(r.ok && r.body.length).toBe(ANSWER_LIMIT);
    const huge = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-length': String(4 * 1024 * 1024) });
        res.write('y'.repeat(2 * 1024 * 1024));
      });
    });
    const h = await postBytes(huge.url, '{}', HEADERS, { timeoutMs: 3000 });
    expect(h).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(h.ok && h.body.length).toBe(ANSWER_LIMIT);
  });

  it('failures keep their kinds and words: refused, timeout, aborted; never retried', async () => {
    const port = await freePort();
    expect(await postBytes(new URL(`http://127.0.0.1:${port}/`), '{}', HEADERS, { timeoutMs: 2000 })).toMatchObject({
      ok: false,
      kind: 'refused',
      message: 'connection refused (is the receiver running?)',
    });
    const silent = await serve(() => undefined);
    const started = Date.now();
    expect(await postBytes(silent.url, '{}', HEADERS, { timeoutMs: 200 })).toMatchObject({ ok: false, kind: 'timeout', message: 'no answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(silent.count()).toBe(1);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    expect(await postBytes(silent.url, '{}', HEADERS, { timeoutMs: 5000, signal: stop.signal })).toMatchObject({ ok: false, kind: 'aborted' });
    expect(silent.count()).toBe(2);
  });

  it('--verbose: one line, no query, no headers', async () => {
    const s = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const lines: string[] = [];
    await postBytes(s.url, '{}', { ...HEADERS, hmac: 'secret-hmac' }, { timeoutMs: 2000, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^gw: POST http://127\\.0\\.0\\.1:${s.url.port}/hooks → 200 \\(\\d+ ms, 2 bytes\\)$`));
  });
});
