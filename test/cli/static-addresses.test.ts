// Fixed (static) addresses through the whole CLI, in process: what gw sends to a strict recording
// server on 127.0.0.1 (exact paths, the merchant key in the header merchant_api_key, snake_case
// JSON, the versioned API although `api` is legacy), and the sandbox flow a newcomer follows:
// gw address new → gw sandbox deposit → gw payments --address finds the payment, gw status follows
// it, and the address's callback URL receives the signed notification of type static_address.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import path from 'node:path';
import { emptyDir, runGw as gw } from '../support/cli.js';
import {
  json,
  startMisbehavingGateway,
  TEST_MERCHANT_KEY,
  TRON_ADDRESS,
  type MisbehavingGateway,
  type RecordedRequest,
} from '../support/misbehaving-gateway.js';
import { startReceiver, type Receiver } from '../support/notifications.js';
import { decodeTerminalQr } from '../support/qr-decode.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';

const ok = (data: unknown) => json({ data, message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });

describe('what gw sends for fixed addresses (a strict recording server), under api legacy', () => {
  let server: MisbehavingGateway;
  const env = (): Record<string, string> => ({ GATEWAY_BASE_URL: server.url, GATEWAY_API: 'legacy', GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY });
  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server.close();
  });

  /** A strict v1 server: only these paths, only with the merchant key header, else a 404/401 envelope. */
  const strict = (answer: unknown) => (req: RecordedRequest) => {
    const known = ['POST /v1/payment/static-address', 'POST /v1/payment/static-address/revoke', 'GET /v1/payment/static-address', 'GET /v1/payment'];
    if (req.headers.merchant_api_key !== TEST_MERCHANT_KEY) return json({ data: {}, message: 'key', error: {}, status: 401, version: '1.0.0' }, 401);
    if (!known.includes(`${req.method} ${req.path.split('?')[0]}`))
      return json({ data: {}, message: 'not found', error: {}, status: 404, version: '1.0.0' }, 404);
    return ok(answer);
  };
  const one = (): RecordedRequest => {
    expect(server.requests).toHaveLength(1);
    return server.requests[0] as RecordedRequest;
  };

  it('gw address new: POST /v1/payment/static-address, merchant_api_key header, snake_case JSON in the documented order', async () => {
    server.program(strict({ track_id: '151811887', network: 'Tron Network', address: TRON_ADDRESS, date: 1736500000 }));
    const r = await gw(
      [
        'address',
        'new',
        'usdt',
        '--network',
        'TRON',
        '--to-currency',
        'USDT',
        '--auto-withdrawal',
        '--callback-url',
        'https://shop.example/cb',
        '--email',
        'payer@example.com',
        '--order-id',
        'c-42',
        '--description',
        'top-ups',
        '--json',
      ],
      { env: env() },
    );
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const req = one();
    expect([req.method, req.path, req.headers['content-type']]).toEqual(['POST', '/v1/payment/static-address', 'application/json']);
    expect(req.headers.merchant).toBeUndefined();
    expect(req.body).toBe(
      '{"network":"TRON","to_currency":"USDT","auto_withdrawal":1,"callback_url":"https://shop.example/cb","email":"payer@example.com","order_id":"c-42","description":"top-ups"}',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ trackId: '151811887', address: TRON_ADDRESS, network: 'Tron Network', currency: 'USDT' });
  });

  it('gw address list: GET /v1/payment/static-address with the filters and a size in the query', async () => {
    server.program(strict({ list: [], meta: { page: 1, last_page: 1, total: 0 } }));
    const r = await gw(['address', 'list', '--network', 'TRON', '--order-id', 'c-42', '--with-payments', '--page', '2', '--size', '50'], { env: env() });
    expect([r.exitCode, r.stdout]).toEqual([0, 'No addresses match.\n']);
    const req = one();
    expect([req.method, req.path, req.body]).toEqual(['GET', '/v1/payment/static-address?network=TRON&have_tx=true&order_id=c-42&page=2&size=50', '']);
  });

  it('gw address revoke --yes: POST /v1/payment/static-address/revoke {"address"}', async () => {
    server.program(strict({}));
    const r = await gw(['address', 'revoke', TRON_ADDRESS, '--yes'], { env: env() });
    expect(r.exitCode).toBe(0);
    const req = one();
    expect([req.method, req.path, req.body]).toEqual(['POST', '/v1/payment/static-address/revoke', `{"address":"${TRON_ADDRESS}"}`]);
  });

  it('gw address revoke without --yes and no terminal: exit 64, nothing sent', async () => {
    server.program(strict({}));
    const r = await gw(['address', 'revoke', TRON_ADDRESS], { env: env() });
    expect(r.exitCode).toBe(64);
    expect(server.requests).toHaveLength(0);
  });

  it('gw payments --address (api v1): the address filter goes to the gateway', async () => {
    server.program(strict({ list: [], meta: { page: 1, last_page: 1, total: 0 } }));
    const r = await gw(['payments', '--address', TRON_ADDRESS], { env: { ...env(), GATEWAY_API: 'v1' } });
    expect(r.exitCode).toBe(0);
    expect(one().path).toBe(`/v1/payment?address=${TRON_ADDRESS}`);
  });
});

describe('the sandbox flow: gw address new → gw sandbox deposit → gw payments --address, gw status, the notification', () => {
  let sbx: RunningSandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    sbx = await withSandbox();
    receiver = await startReceiver('/hooks');
  });
  afterAll(async () => {
    await receiver.close();
    await sbx.close();
  });

  it('a fixed address receives a payment that every listing finds, with its signed notification', async () => {
    const env = sandboxEnv(sbx);
    const made = await gw(['address', 'new', 'USDT', '--network', 'TRON', '--order-id', 'cust-42', '--callback-url', receiver.url, '--json'], { env });
    expect([made.exitCode, made.stderr]).toEqual([0, '']);
    const created = JSON.parse(made.stdout) as { address: string; trackId: string; network: string; uri: string };
    expect(created.network).toBe('Tron Network');
    expect(created.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);

    const listed = await gw(['address', 'list', '--network', 'TRON', '--json'], { env });
    expect(JSON.parse(listed.stdout).addresses.map((a: { address: string }) => a.address)).toEqual([created.address]);

    const deposit = await gw(['sandbox', 'deposit', created.address, 'full', '--url', sbx.url, '--json'], { env });
    expect([deposit.exitCode, deposit.stderr]).toEqual([0, '']);
    const paid = JSON.parse(deposit.stdout) as { trackId: string; address: string };
    expect(paid.address).toBe(created.address);

    for (const api of ['legacy', 'v1']) {
      const found = await gw(['payments', '--address', created.address, '--json'], { env: { ...env, GATEWAY_API: api } });
      expect(found.exitCode).toBe(0);
      const doc = JSON.parse(found.stdout) as { payments: Array<{ trackId: string; orderId: string; type: string }> };
      expect(doc.payments.map((p) => [p.trackId, p.orderId])).toEqual([[paid.trackId, 'cust-42']]);
      if (api === 'v1') expect(doc.payments[0]?.type).toBe('static_address');
    }
    const other = await gw(['payments', '--address', 'TNotThisOne1111111111111111111111', '--json'], { env });
    expect(JSON.parse(other.stdout).payments).toEqual([]);

    const status = await gw(['status', paid.trackId, '--json'], { env: { ...env, GATEWAY_API: 'v1' } });
    expect(JSON.parse(status.stdout)).toMatchObject({ trackId: paid.trackId, type: 'static_address', orderId: 'cust-42' });

    // The gateway's notification of the payment: to the address's callback URL, signed with the merchant key.
    for (let i = 0; i < 100 && receiver.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const note = receiver.requests[0];
    expect(note).toBeDefined();
    const text = note === undefined ? '{}' : note.body.toString();
    const body = JSON.parse(text) as { type: string; track_id: string };
    expect([body.type, body.track_id]).toEqual(['static_address', paid.trackId]);
    expect(note?.headers.hmac).toBe(
      createHmac('sha512', sbx.merchantKey)
        .update(note?.body ?? '')
        .digest('hex'),
    );

    const revoked = await gw(['address', 'revoke', created.address, '--yes'], { env });
    expect(revoked.exitCode).toBe(0);
    const after = await gw(['sandbox', 'deposit', created.address, '--url', sbx.url], { env });
    expect(after.exitCode).toBe(65);
    expect(after.stderr).toMatch(/is revoked: a payment to it would not be credited/);
  });

  it('the QR of a new sandbox address, drawn on a terminal, decodes to its address', async () => {
    const made = await gw(['address', 'new', '--network', 'Bitcoin Network'], { env: sandboxEnv(sbx), stdoutTTY: true, width: 120, height: 60, color: true });
    expect(made.exitCode).toBe(0);
    const address = /Address +(?:\u001b\[1m)?(tb1q[0-9a-z]+)/.exec(made.stdout)?.[1];
    expect(address).toBeDefined();
    expect(decodeTerminalQr(made.stdout, 'dark')).toBe(`bitcoin:${address}`);
  });

  it('--sandbox runs keep their fixed addresses beside the journal: a later run lists and revokes them', async () => {
    const home = emptyDir();
    const options = { home, env: { XDG_STATE_HOME: path.join(home, 'state') } };
    const made = await gw(['address', 'new', '--network', 'TRON', '--order-id', 'k-1', '--sandbox', '--json'], options);
    expect(made.exitCode).toBe(0);
    const { address } = JSON.parse(made.stdout) as { address: string };
    const listed = await gw(['address', 'list', '--sandbox', '--json'], options);
    expect(JSON.parse(listed.stdout).addresses.map((a: { address: string; orderId: string }) => [a.address, a.orderId])).toEqual([[address, 'k-1']]);
    expect((await gw(['address', 'revoke', address, '--yes', '--sandbox'], options)).exitCode).toBe(0);
    expect(JSON.parse((await gw(['address', 'list', '--sandbox', '--json'], options)).stdout).addresses).toEqual([]);
  });
});
