// gw status --wait polls over one connection while the gateway keeps it alive, and opens a new one
// when the gateway says it will not: connections and requests counted at local gateways on
// 127.0.0.1, one that keeps idle connections and gives no Keep-Alive hint (as nginx or a CDN), one
// whose hint is one second (Keep-Alive: timeout=1). Real time, on purpose: the polls are spaced by
// the wait loop's own intervals (1 s, then 1.5 s), longer than gw once kept an idle connection.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/util/clock.js';
import { runGw as gw } from '../support/cli.js';
import { TEST_MERCHANT_KEY } from '../support/misbehaving-gateway.js';

const published = JSON.parse(readFileSync(new URL('../fixtures/gateway/legacy/payment-info.json', import.meta.url), 'utf8')).answer as Record<string, unknown>;

interface Gateway {
  url: string;
  server: Server;
  paths: string[];
  connections: number;
}
const started: Gateway[] = [];

/** The inquiry answered Waiting, Waiting, then Paid; `keepAliveTimeout` 0: idle connections kept, no hint sent. */
async function gateway(keepAliveTimeout: number): Promise<Gateway> {
  const statuses = ['Waiting', 'Waiting', 'Paid'];
  const g: Gateway = { url: '', server: createServer({ keepAliveTimeout }), paths: [], connections: 0 };
  g.server.on('request', (req, res) => {
    req.resume();
    req.on('end', () => {
      g.paths.push(req.url ?? '');
      const body = JSON.stringify({ ...published, status: statuses[Math.min(g.paths.length, statuses.length) - 1] });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  g.server.on('connection', () => g.connections++);
  await new Promise<void>((resolve) => g.server.listen(0, '127.0.0.1', resolve));
  g.url = `http://127.0.0.1:${(g.server.address() as AddressInfo).port}`;
  started.push(g);
  return g;
}

afterAll(async () => {
  for (const g of started) {
    g.server.closeAllConnections();
    await new Promise((resolve) => g.server.close(resolve));
  }
});

const waitAt = (g: Gateway) =>
  gw(['status', '184729305', '--wait', '--json'], { env: { GATEWAY_BASE_URL: g.url, GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY }, clock: systemClock });

describe('gw status --wait: one connection for its polls where the gateway keeps it alive', () => {
  it('a gateway that keeps idle connections and gives no hint: three polls, spaced by the wait loop, over one TCP connection', async () => {
    const g = await gateway(0);
    const result = await waitAt(g);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ trackId: '184729305', status: 'paid' });
    expect(g.paths).toEqual(['/merchants/inquiry', '/merchants/inquiry', '/merchants/inquiry']);
    expect(g.connections).toBe(1);
  }, 20_000);

  it('a gateway that keeps them one second (its Keep-Alive hint): each poll on a new connection, none on one it closed', async () => {
    const g = await gateway(1000);
    const result = await waitAt(g);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(g.paths).toHaveLength(3);
    expect(g.connections).toBe(3);
  }, 20_000);
});
