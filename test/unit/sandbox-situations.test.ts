// The sandbox's order-id situations end to end over HTTP on 127.0.0.1: a payment whose order id
// ends in -late, -partial, -mixed or -refund goes through its timeline (src/sandbox/lifecycle.ts)
// on the sandbox's clock, and what arrived is visible where a merchant looks: the versioned
// payment information and history (`status`, `mixed_payment`, `txs[]`), the legacy inquiry (its
// status word and one `txID`, no list), and a signed notification for every change.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MERCHANT_KEY, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { startReceiver, type Receiver } from '../support/notifications.js';

const T0 = 1_750_000_000; // Unix seconds
let nowMs = T0 * 1000;
let sbx: RunningSandbox;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('/hooks');
  sbx = await startSandbox({ now: () => nowMs, notifications: { retryDelaysMs: [] } });
});
afterAll(async () => {
  await sbx.close();
  await receiver.close();
});

// Tests read arbitrary JSON shapes, field by field.
async function call(method: 'GET' | 'POST', path: string, body?: unknown, v1 = true): Promise<any> {
  const res = await fetch(sbx.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(v1 && { merchant_api_key: SANDBOX_MERCHANT_KEY }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return JSON.parse(await res.text()) as unknown;
}

async function createV1(orderId: string, payCurrency = 'USDT', amount = 25): Promise<{ trackId: string; address: string }> {
  nowMs = T0 * 1000;
  const answer = await call('POST', '/v1/payment/white-label', { amount, pay_currency: payCurrency, order_id: orderId, callback_url: receiver.url });
  expect(answer.status).toBe(200);
  return { trackId: answer.data.track_id as string, address: answer.data.address as string };
}

const info = async (trackId: string, atSeconds: number): Promise<any> => {
  nowMs = (T0 + atSeconds) * 1000;
  return (await call('GET', `/v1/payment/${trackId}`)).data;
};

const legacyInquiry = async (trackId: string): Promise<any> => call('POST', '/merchants/inquiry', { merchant: SANDBOX_MERCHANT_KEY, trackId }, false);

/** The notifications received about `trackId` (once there are `count`), each checked against its signature. */
async function notifications(trackId: string, count: number): Promise<any[]> {
  const about = (): any[] =>
    receiver.requests
      .map((r) => {
        expect(r.headers.hmac).toBe(createHmac('sha512', SANDBOX_MERCHANT_KEY).update(r.body).digest('hex'));
        return JSON.parse(r.body.toString()) as any;
      })
      .filter((n) => (n.track_id ?? n.trackId) === trackId);
  await expect.poll(() => about().length, { timeout: 3000 }).toBeGreaterThanOrEqual(count);
  return about();
}

const HASH = /^[0-9a-f]{64}$/;

describe('-late: the full amount arrives after the expiry', () => {
  it('expired with nothing, then expired WITH the transaction, dated after expired_at; a notification each time', async () => {
    const { trackId, address } = await createV1('order-1-late');
    expect(await info(trackId, 4)).toMatchObject({ status: 'waiting', txs: [], expired_at: T0 + 5 });
    expect(await info(trackId, 5)).toMatchObject({ status: 'expired', txs: [] });
    const late = await info(trackId, 10);
    expect(late).toMatchObject({ status: 'expired', mixed_payment: false, expired_at: T0 + 5 });
    expect(late.txs).toEqual([
      {
        tx_hash: expect.stringMatching(HASH),
        amount: 25,
        currency: 'USDT',
        network: 'Tron Network',
        address,
        status: 'confirmed',
        confirmations: 12,
        auto_convert: { processed: false, amount: 0, currency: 'USDT' },
        auto_withdrawal: { processed: false },
        date: T0 + 10,
      },
    ]);
    expect(late.txs[0].date).toBeGreaterThan(late.expired_at);

    // The legacy inquiry: the same status word, the transaction by its txID, no list.
    const legacy = await legacyInquiry(trackId);
    expect(legacy).toMatchObject({ result: 100, status: 'Expired', txID: late.txs[0].tx_hash, payDate: 0 });
    expect(legacy).not.toHaveProperty('txs');

    // The history lists it alike.
    const history = await call('GET', '/v1/payment?order_id=order-1-late');
    expect(history.data.list).toEqual([expect.objectContaining({ track_id: trackId, status: 'expired', txs: late.txs })]);

    const sent = await notifications(trackId, 3);
    expect(sent.map((n) => [n.status, n.txs.length])).toEqual([
      ['Waiting', 0],
      ['Expired', 0],
      ['Expired', 1],
    ]);
    expect(sent[2].txs[0]).toMatchObject({ tx_hash: late.txs[0].tx_hash, sent_amount: 25, received_amount: 25, currency: 'USDT', status: 'confirmed' });
    expect(sent[2].sent_value).toBe(25);
  });
});

describe('-partial: two transactions, together short', () => {
  it('paying with one, paying with two, underpaid at its expiry: 12.5 + 10 of 25', async () => {
    const { trackId } = await createV1('order-2-partial');
    expect(await info(trackId, 3)).toMatchObject({ status: 'paying', txs: [{ amount: 12.5, status: 'confirming', confirmations: 1 }] });
    expect(await info(trackId, 6)).toMatchObject({
      status: 'paying',
      txs: [
        { amount: 12.5, status: 'confirmed' },
        { amount: 10, status: 'confirming' },
      ],
    });
    const end = await info(trackId, 10);
    expect(end).toMatchObject({ status: 'underpaid', mixed_payment: false, expired_at: T0 + 10 });
    expect(end.txs.map((t: any) => [t.amount, t.currency, t.status])).toEqual([
      [12.5, 'USDT', 'confirmed'],
      [10, 'USDT', 'confirmed'],
    ]);
    expect(end.txs[0].tx_hash).not.toBe(end.txs[1].tx_hash);
    expect(await legacyInquiry(trackId)).toMatchObject({ status: 'Underpaid', txID: end.txs[1].tx_hash, receivedAmount: '22.5' });

    const sent = await notifications(trackId, 4);
    expect(sent.map((n) => [n.status, n.txs.map((t: any) => t.received_amount)])).toEqual([
      ['Waiting', []],
      ['Paying', [12.5]],
      ['Paying', [12.5, 10]],
      ['Underpaid', [12.5, 10]],
    ]);
    expect(sent[3].sent_value).toBe(22.5);
  });
});

describe('-mixed: paid in two coins', () => {
  it('half in USDT, the rest in BTC at the sandbox rate: mixed_payment true, paid', async () => {
    const { trackId, address } = await createV1('order-3-mixed');
    expect(await info(trackId, 3)).toMatchObject({ status: 'paying', mixed_payment: false });
    const end = await info(trackId, 10);
    expect(end).toMatchObject({ status: 'paid', mixed_payment: true });
    expect(end.txs).toHaveLength(2);
    expect(end.txs[0]).toMatchObject({ amount: 12.5, currency: 'USDT', network: 'Tron Network', address, status: 'confirmed' });
    expect(end.txs[1]).toMatchObject({ currency: 'BTC', network: 'Bitcoin Network', status: 'confirmed' });
    expect(end.txs[1].amount).toBeGreaterThan(0);
    expect(end.txs[1].amount).toBeLessThan(0.001);
    expect(end.txs[1].address).not.toBe(address);
    expect(await legacyInquiry(trackId)).toMatchObject({ status: 'Paid', receivedAmount: '25', txID: end.txs[1].tx_hash });

    const sent = await notifications(trackId, 4);
    expect(sent.map((n) => [n.status, n.txs.map((t: any) => t.currency).join('+')])).toEqual([
      ['Waiting', ''],
      ['Paying', 'USDT'],
      ['Paying', 'USDT+BTC'],
      ['Paid', 'USDT+BTC'],
    ]);
    expect(sent[3].sent_value).toBe(25);
  });

  it('a payment in BTC gets its second part in ETH', async () => {
    const { trackId } = await createV1('order-4-MIXED', 'BTC', 0.001);
    expect((await info(trackId, 10)).txs.map((t: any) => t.currency)).toEqual(['BTC', 'ETH']);
  });
});

describe('-refund: paid, then refunding, then refunded', () => {
  it('v1 words refunding/refunded, legacy Refunding/Refunded; the transaction and pay date stay', async () => {
    const { trackId } = await createV1('order-5-refund');
    expect(await info(trackId, 2)).toMatchObject({ status: 'paying' });
    expect(await info(trackId, 4)).toMatchObject({ status: 'paid', txs: [{ amount: 25, status: 'confirmed' }] });
    expect(await info(trackId, 7)).toMatchObject({ status: 'refunding', txs: [{ amount: 25 }] });
    expect(await legacyInquiry(trackId)).toMatchObject({ status: 'Refunding', payDate: T0 + 4 });
    expect(await info(trackId, 10)).toMatchObject({ status: 'refunded', txs: [{ amount: 25 }] });
    expect(await legacyInquiry(trackId)).toMatchObject({ status: 'Refunded', payDate: T0 + 4, receivedAmount: '25' });
    // The history filters by the new words too.
    const refunded = await call('GET', '/v1/payment?status=refunded&order_id=order-5-refund');
    expect(refunded.data.list.map((p: any) => p.track_id)).toEqual([trackId]);
    expect((await call('GET', '/v1/payment?status=refunding&order_id=order-5-refund')).data.list).toEqual([]);

    const sent = await notifications(trackId, 5);
    expect(sent.map((n) => n.status)).toEqual(['Waiting', 'Paying', 'Paid', 'Refunding', 'Refunded']);
  });

  it('through the legacy endpoints: legacy notifications say Refunding and Refunded', async () => {
    nowMs = T0 * 1000;
    const created = await call(
      'POST',
      '/merchants/request/whitelabel',
      { merchant: SANDBOX_MERCHANT_KEY, amount: 10, payCurrency: 'USDT', orderId: 'order-6-refund', callbackUrl: receiver.url },
      false,
    );
    const trackId = created.trackId as string;
    await info(trackId, 10);
    const sent = await notifications(trackId, 5);
    expect(sent.map((n) => [n.status, n.txID === '' ? '' : 'tx'])).toEqual([
      ['Waiting', ''],
      ['Confirming', 'tx'],
      ['Paid', 'tx'],
      ['Refunding', 'tx'],
      ['Refunded', 'tx'],
    ]);
  });
});

describe('gw sandbox trigger refunding', () => {
  it('forces the gateway word, with its transaction', async () => {
    const { trackId } = await createV1('order-7');
    const res = await fetch(`${sbx.url}/_sandbox/payments/${trackId}/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', merchant_api_key: SANDBOX_MERCHANT_KEY },
      body: JSON.stringify({ state: 'Refunding' }),
    });
    expect(await res.json()).toMatchObject({ ok: true, status: 'refunding' });
    expect(await info(trackId, 1)).toMatchObject({ status: 'refunding', txs: [{ amount: 25, status: 'confirmed' }] });
  });
});
