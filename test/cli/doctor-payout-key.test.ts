// gw doctor with the versioned API checks the payout key with a read-only request (one page of one
// payout from the payout history), never a payout; the key never appears in its report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGw as gw } from '../support/cli.js';
import { json, startMisbehavingGateway, type MisbehavingGateway, TEST_MERCHANT_KEY, TEST_PAYOUT_KEY } from '../support/misbehaving-gateway.js';

const ENVELOPE = (data: unknown) => json({ data, message: 'ok', error: {}, status: 200, version: '1.0.0' });

describe('gw doctor: the payout key (api v1)', () => {
  let server: MisbehavingGateway;
  const program = (): void =>
    server.program((req) => {
      const path = new URL(req.path, 'http://x').pathname;
      if (path === '/v1/payment/accepted-currencies') return ENVELOPE({ list: ['USDT'] });
      if (req.method === 'GET' && path === '/v1/payout') {
        return req.headers.payout_api_key === TEST_PAYOUT_KEY
          ? ENVELOPE({ list: [], meta: { page: 1, last_page: 1, total: 0 } })
          : json(
              {
                data: {},
                message: 'bad key',
                error: { type: 'authentication_error', key: 'invalid_payout_api_key', message: 'bad key' },
                status: 401,
                version: '1.0.0',
              },
              401,
            );
      }
      return json({ data: {}, message: 'no', error: { type: 'invalid_request_error', key: 'not_found', message: 'no' }, status: 404, version: '1.0.0' }, 404);
    });
  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  afterAll(async () => {
    await server.close();
  });
  const env = (payoutKey: string): Record<string, string> => ({
    GATEWAY_BASE_URL: server.url,
    GATEWAY_API: 'v1',
    GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
    GATEWAY_PAYOUT_KEY: payoutKey,
  });
  const payoutCheck = (stdout: string): Record<string, unknown> =>
    ((JSON.parse(stdout) as { checks: Array<Record<string, unknown>> }).checks.find((c) => c.name === 'payoutKey') ?? {}) as Record<string, unknown>;

  it('accepted: one GET /v1/payout?page=1&size=1 with the payout key header, no POST, the key never printed', async () => {
    server.reset();
    program();
    const r = await gw(['doctor', '--json'], { env: env(TEST_PAYOUT_KEY) });
    expect(payoutCheck(r.stdout)).toMatchObject({ status: 'ok' });
    const payoutRequests = server.requests.filter((q) => q.path.startsWith('/v1/payout'));
    expect(payoutRequests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/payout?size=1&page=1']);
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
    expect(r.stdout + r.stderr).not.toContain(TEST_PAYOUT_KEY);
  });

  it('refused: the check fails with exit 77, naming where the key came from', async () => {
    server.reset();
    program();
    const r = await gw(['doctor', '--json'], { env: env('pk_wrong_SECRET_0000') });
    expect(r.exitCode).toBe(77);
    expect(payoutCheck(r.stdout)).toMatchObject({ status: 'fail', exitCode: 77 });
    expect(String(payoutCheck(r.stdout).detail)).toContain('env GATEWAY_PAYOUT_KEY');
    expect(r.stdout + r.stderr).not.toContain('pk_wrong_SECRET_0000');
  });
});
