// gw listen's records carry what arrived, in the same fields as gw status --json (received,
// expected, difference, transactions; src/domain/notification-arrival.ts), and call an expired
// payment whose notification lists funds `late`. A real receiver on 127.0.0.1, signed requests.
import { afterEach, describe, expect, it } from 'vitest';
import { listenRun } from '../../src/commands/listen.js';
import { ManualClock } from '../../src/cmdutil/clock.js';
import { IOStreams, type TestIO } from '../../src/output/iostreams.js';
import { hmacOf, send as post } from '../support/notifications.js';

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';

// The v1 webhook's shape (docs.oxapay.com/webhook): an invoice of 0.0005 BTC that expired, with its
// one transfer of the full amount.
const V1_LATE =
  '{"track_id":"151811887","status":"Expired","type":"invoice","amount":0.0005,"value":0.0005,"sent_value":0.0005,"currency":"BTC","order_id":"ORD-12345","fee_paid_by_payer":0,' +
  '"txs":[{"tx_hash":"9f2c1e0b7a4d","sent_amount":0.0005,"received_amount":0.0005,"value":0.0005,"sent_value":0.0005,"currency":"BTC","network":"Bitcoin Network","address":"bc1q","confirmations":3,"status":"confirmed","sender_address":null,"rate":1,"auto_convert_amount":0,"auto_convert_currency":null}]}';
const V1_UNDERPAID =
  '{"track_id":"151811888","status":"Underpaid","type":"invoice","amount":0.0005,"currency":"BTC","order_id":"ORD-12346",' +
  '"txs":[{"tx_hash":"5be7a90c3d21","sent_amount":0.0004,"received_amount":0.0004,"currency":"BTC","network":"Bitcoin Network","address":"bc1q","confirmations":1,"status":"confirmed"}]}';
const LEGACY_EXPIRED =
  '{"status":"Expired","trackId":"184729305","type":"payment","orderId":"ORD-7","amount":"25","currency":"USD","payAmount":"25","payCurrency":"USDT","txID":""}';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function listen(): Promise<{ url: string; t: TestIO }> {
  const t = IOStreams.test({ json: true, color: false });
  const abort = new AbortController();
  const done = listenRun({
    io: t.io,
    clock: new ManualClock(),
    signal: abort.signal,
    releaseDeadline: () => undefined,
    keys: async () => ({ merchant: { value: MERCHANT, from: 'env GATEWAY_MERCHANT_KEY' } }),
    host: '127.0.0.1',
    port: 0,
    path: '/hooks',
  });
  stop = async () => {
    abort.abort();
    await done;
  };
  await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(t.stdout())?.[0]).toBeTruthy();
  return { url: (/http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(t.stdout()) as RegExpExecArray)[0], t };
}

async function record(body: string): Promise<Record<string, unknown>> {
  const { url, t } = await listen();
  expect((await post(url, body, { HMAC: hmacOf(MERCHANT, body) })).status).toBe(200);
  await expect
    .poll(
      () =>
        t
          .stdout()
          .split('\n')
          .filter((l) => l.includes('"notification"')).length,
    )
    .toBe(1);
  return JSON.parse(
    t
      .stdout()
      .split('\n')
      .find((l) => l.includes('"notification"')) as string,
  ) as Record<string, unknown>;
}

describe('gw listen --json: what arrived', () => {
  it('an expired payment whose notification lists the full amount: status late, received, difference 0, the transaction', async () => {
    expect(await record(V1_LATE)).toMatchObject({
      status: 'late',
      gatewayStatus: 'Expired',
      received: { BTC: '0.0005' },
      expected: { BTC: '0.0005' },
      difference: { BTC: '0' },
      transactions: [
        {
          hash: '9f2c1e0b7a4d',
          amount: '0.0005',
          currency: 'BTC',
          network: 'Bitcoin Network',
          confirmations: 3,
          status: 'confirmed',
          counted: true,
          confirmed: true,
        },
      ],
    });
  });

  it('underpaid: the difference in the coin paid', async () => {
    expect(await record(V1_UNDERPAID)).toMatchObject({ status: 'underpaid', received: { BTC: '0.0004' }, difference: { BTC: '0.0001' } });
  });

  it('a legacy notification lists no transactions: not reported (null), and expired stays expired', async () => {
    expect(await record(LEGACY_EXPIRED)).toMatchObject({ status: 'expired', received: null, difference: null, transactions: null });
  });
});
