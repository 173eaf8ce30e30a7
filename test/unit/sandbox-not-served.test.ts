// The sandbox and the gateway's operations it does not serve (issue 23): every method of every such
// path answers HTTP 501 in the path's envelope naming the operation, never 404, 405 or a track-id
// refusal; the reference data it has (prices, currencies, networks, system status) and the
// merchant-key rate are served. On 127.0.0.1, in-process.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Endpoint } from '../../src/operations/codec.js';
import { SANDBOX_BEHAVIOURS } from '../../src/sandbox/gateway.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { NOT_SERVED, unservedPaths } from '../../src/sandbox/not-served.js';

let sbx: RunningSandbox;

beforeAll(async () => {
  sbx = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await sbx?.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(sbx.url + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('operations the sandbox does not serve: 501 from every method of every path', () => {
  const paths = unservedPaths().map((p) => p.replace(':track_id', '123456'));

  it('the table has the gateway operations of the brief', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/general/swap',
        '/v1/general/swap/pairs',
        '/v1/general/swap/calculate',
        '/merchants/request',
        '/merchants/request/staticaddress',
        '/merchants/revoke/staticaddress',
        '/api/send',
        '/api/list',
        '/api/inquiry',
      ]),
    );
  });

  it.each(['GET', 'POST', 'PUT', 'DELETE'])('%s: versioned paths answer the v1 envelope with status 501 and not_served_by_sandbox', async (method) => {
    for (const path of paths.filter((p) => p.startsWith('/v1/'))) {
      const reply = await call(method, path, method === 'GET' ? undefined : { amount: 1 }, { merchant_api_key: sbx.merchantKey });
      expect(reply.status, `${method} ${path}`).toBe(501);
      expect(reply.body).toEqual({
        data: {},
        message: expect.stringMatching(/ is not served by the gw sandbox$/),
        error: { type: 'api_error', key: 'not_served_by_sandbox', message: reply.body.message },
        status: 501,
        version: expect.any(String),
      });
    }
  });

  it.each(['POST', 'GET'])('%s: legacy paths answer {result, message} with HTTP 501', async (method) => {
    for (const path of paths.filter((p) => !p.startsWith('/v1/'))) {
      const reply = await call(method, path, method === 'POST' ? { merchant: sbx.merchantKey } : undefined);
      expect(reply.status, `${method} ${path}`).toBe(501);
      expect(reply.body).toEqual({ result: 501, message: expect.stringMatching(/ is not served by the gw sandbox$/) });
    }
  });

  it('names the operation the method asks for where two share a path; a body that is not JSON changes nothing', async () => {
    expect((await call('POST', '/merchants/request/staticaddress', {})).body.message).toBe('Static address creation is not served by the gw sandbox');
    expect((await call('POST', '/merchants/revoke/staticaddress', {})).body.message).toBe('Static address revocation is not served by the gw sandbox');
    expect((await call('POST', '/merchants/request', { amount: 5 })).body.message).toBe('Invoice creation is not served by the gw sandbox');
    const res = await fetch(`${sbx.url}/api/send`, { method: 'POST', body: '{not json', signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(501);
    expect(NOT_SERVED.every((o) => o.endpoints.length > 0)).toBe(true);
  });

  it('what is served is still served: a track id, the history, a path nobody has is still 404', async () => {
    expect((await call('GET', '/v1/payment/123', undefined, { merchant_api_key: sbx.merchantKey })).status).toBe(404);
    expect((await call('GET', '/v1/payment', undefined, { merchant_api_key: sbx.merchantKey })).status).toBe(200);
    expect((await call('GET', '/v1/nothing/here')).status).toBe(404);
  });
});

describe('reference data and the merchant rate: served', () => {
  it('POST /merchants/rate with the merchant key: result 100 and the rate as text; a wrong key 102', async () => {
    const reply = await call('POST', '/merchants/rate', { merchant: sbx.merchantKey, fromCurrency: 'BTC', toCurrency: 'USDT' });
    expect(reply).toEqual({ status: 200, body: { result: 100, message: expect.any(String), rate: '65573.55' } });
    expect((await call('POST', '/merchants/rate', { merchant: 'nope', fromCurrency: 'BTC', toCurrency: 'USDT' })).body.result).toBe(102);
    expect((await call('POST', '/merchants/rate', { merchant: sbx.merchantKey, fromCurrency: 'BTC', toCurrency: 'BTC' })).body.result).toBe(123);
  });

  it('prices: legacy POST /api/prices and GET /v1/common/prices, symbol → USD price as JSON numbers, no fiat', async () => {
    const legacy = await call('POST', '/api/prices', {});
    expect(legacy.body).toMatchObject({ result: 100, data: { BTC: 65573.55, USDT: 1 } });
    expect((legacy.body.data as Record<string, unknown>).USD).toBeUndefined();
    const v1 = await call('GET', '/v1/common/prices');
    expect(v1.body).toMatchObject({ status: 200, error: {}, data: legacy.body.data as object });
  });

  it('currencies: each coin with its networks and their figures (§12)', async () => {
    const v1 = await call('GET', '/v1/common/currencies');
    expect(v1.status).toBe(200);
    const usdt = (v1.body.data as Record<string, { networks: Record<string, unknown> }>).USDT;
    expect(usdt).toMatchObject({ symbol: 'USDT', name: 'Tether', status: true });
    expect(Object.keys(usdt?.networks ?? {})).toEqual(['Tron Network', 'Ethereum Network', 'Binance Smart Chain']);
    expect(usdt?.networks['Tron Network']).toEqual({
      network: 'Tron Network',
      name: 'Tron Network',
      required_confirmations: 12,
      withdraw_fee: 0,
      withdraw_min: 0,
      deposit_min: 0,
      static_fixed_fee: 0,
    });
    expect((await call('POST', '/api/currencies', {})).body).toMatchObject({ result: 100, data: v1.body.data as object });
  });

  it('networks and system status', async () => {
    const networks = await call('GET', '/v1/common/networks');
    expect((networks.body.data as { list: string[] }).list).toContain('Bitcoin Network');
    expect((await call('POST', '/api/networks', {})).body).toMatchObject({ result: 100, data: networks.body.data as object });
    expect((await call('GET', '/v1/common/monitor')).body).toMatchObject({ status: 200, data: { status: true } });
    expect((await call('POST', '/monitor', {})).body).toMatchObject({ result: 100, data: { status: true } });
  });

  it('fiats: GET /v1/common/fiats, code → {symbol, name, price (USD per unit, the prices table), display_precision} (§12); no longer 501', async () => {
    const v1 = await call('GET', '/v1/common/fiats');
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ status: 200, error: {} });
    expect(v1.body.data).toEqual({
      USD: { symbol: 'USD', name: 'US Dollar', price: 1, display_precision: '0.01' },
      EUR: { symbol: 'EUR', name: 'Euro', price: 1.08, display_precision: '0.01' },
      GBP: { symbol: 'GBP', name: 'British Pound', price: 1.27, display_precision: '0.01' },
    });
    expect(unservedPaths()).not.toContain('/v1/common/fiats');
  });
});

describe('docs/sandbox.md: its table of what is served comes from the same tables', () => {
  const doc = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
  const rows = doc.split('\n').filter((line) => line.startsWith('| '));
  const rowOf = (method: string, path: string): string | undefined => rows.find((r) => r.includes(`\`${method} ${path.replace(':track_id', '{track_id}')}\``));

  it('every not-served operation is a row naming its paths, "not served: 501"', () => {
    for (const operation of NOT_SERVED) {
      for (const endpoint of operation.endpoints) {
        const row = rowOf(endpoint.method, endpoint.path);
        expect(row, `${endpoint.method} ${endpoint.path}`).toBeDefined();
        expect(row?.startsWith(`| ${operation.name} |`), row).toBe(true);
        expect(row).toContain('not served: 501');
      }
    }
  });

  it('no path is both served and not served (the 501 routes come first and would hide it)', () => {
    const served = SANDBOX_BEHAVIOURS.flatMap((b) => Object.values(b.operation.endpoints as Partial<Record<Api, Endpoint>>).map((e) => e?.path));
    expect(unservedPaths().filter((p) => served.includes(p))).toEqual([]);
  });

  it('every endpoint the sandbox serves is a row that says served', () => {
    for (const behaviour of SANDBOX_BEHAVIOURS) {
      for (const endpoint of Object.values(behaviour.operation.endpoints as Partial<Record<Api, Endpoint>>)) {
        const row = rowOf(endpoint.method, endpoint.path.replace(':track_id', '{track_id}'));
        expect(row, `${endpoint.method} ${endpoint.path}`).toBeDefined();
        expect(row).toMatch(/\| served/);
      }
    }
  });
});
