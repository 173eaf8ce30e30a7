// gw listen's records carry what arrived, in the same fields as gw status --json (received,
// expected, difference, transactions; src/domain/notification-arrival.ts), and call an expired
// payment whose notification lists funds `late`. A real receiver on 127.0.0.1, signed requests.
import { afterEach, describe, expect, it } from 'vitest';
import { listenRun } from '../../src/commands/listen.js';
import { ManualClock } from '../../src/util/clock.js';
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

async function listen(json = true): Promise<{ url: string; t: TestIO }> {
  const t = IOStreams.test({ json, color: false });
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
  // The listening line: on stdout with --json, on stderr otherwise.
  await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(t.stdout() + t.stderr())?.[0]).toBeTruthy();
  return { url: (/http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(t.stdout() + t.stderr()) as RegExpExecArray)[0], t };
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
    // The v1 body states no pay amount: payAmount is null, never the transactions summed (that is `received`).
    expect(await record(V1_UNDERPAID)).toMatchObject({ status: 'underpaid', payAmount: null, received: { BTC: '0.0004' }, difference: { BTC: '0.0001' } });
  });

  it('a legacy notification lists no transactions: not reported (null), and expired stays expired', async () => {
    expect(await record(LEGACY_EXPIRED)).toMatchObject({ status: 'expired', received: null, difference: null, transactions: null });
  });
});

describe('gw listen: the line says what arrived', () => {
  async function line(body: string): Promise<string> {
    const { url, t } = await listen(false);
    expect((await post(url, body, { HMAC: hmacOf(MERCHANT, body) })).status).toBe(200);
    await expect
      .poll(
        () =>
          t
            .stdout()
            .split('\n')
            .filter((l) => l.includes('verified')).length,
      )
      .toBe(1);
    return t
      .stdout()
      .split('\n')
      .find((l) => l.includes('verified')) as string;
  }

  it('late: the state, then the received total read from its transactions', async () => {
    expect(await line(V1_LATE)).toMatch(/ {2}late \(Expired\) {2}0\.0005 BTC {2}received 0\.0005 BTC {2}order ORD-12345$/);
  });

  it('underpaid: what was received, not the amount asked (nor a "pay" amount that is the received one)', async () => {
    expect(await line(V1_UNDERPAID)).toMatch(/ {2}underpaid \(Underpaid\) {2}0\.0005 BTC {2}received 0\.0004 BTC {2}order ORD-12346$/);
  });

  it('legacy (no transactions listed): no received total is made up', async () => {
    expect(await line(LEGACY_EXPIRED)).not.toContain('received');
  });
});

describe('gw listen: a failed transaction is not received', () => {
  it('counts only the confirmed one', async () => {
    const body =
      '{"track_id":"151811889","status":"Paid","type":"invoice","amount":10,"currency":"USDT","order_id":"O-9",' +
      '"txs":[{"tx_hash":"a1","received_amount":10,"currency":"USDT","status":"confirmed"},{"tx_hash":"b2","received_amount":10,"currency":"USDT","status":"failed"}]}';
    const { url, t } = await listen(false);
    expect((await post(url, body, { HMAC: hmacOf(MERCHANT, body) })).status).toBe(200);
    await expect.poll(() => t.stdout().includes('verified')).toBe(true);
    expect(t.stdout()).toMatch(/ {2}paid \(Paid\) {2}10 USDT {2}received 10 USDT {2}order O-9\n$/);
  });
});
