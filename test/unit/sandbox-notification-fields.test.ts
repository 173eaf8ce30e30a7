// What the sandbox POSTs for a payment made on the versioned API carries every field of the
// gateway's published Paying and Paid samples (docs/gateway.md §7), with the samples' JSON types,
// signed over the exact bytes sent (issue 23): for a paid, an underpaid and a mixed payment, end to
// end over HTTP on 127.0.0.1 (src/notifications/payload.ts builds the bodies).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/payment-uri/addresses.js';
import { matchNetwork } from '../../src/payment-uri/networks.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { startReceiver, type Receiver } from '../support/notifications.js';

const TOP: ReadonlyArray<readonly [string, string]> = [
  ['track_id', 'string'],
  ['status', 'string'],
  ['type', 'string'],
  ['module_name', 'string'],
  ['amount', 'number'],
  ['value', 'number'],
  ['sent_value', 'number'],
  ['currency', 'string'],
  ['order_id', 'string'],
  ['email', 'string'],
  ['note', 'string'],
  ['fee_paid_by_payer', 'number'],
  ['under_paid_coverage', 'number'],
  ['description', 'string'],
  ['date', 'number'],
  ['txs', 'array'],
];
const TX: ReadonlyArray<readonly [string, string]> = [
  ['status', 'string'],
  ['tx_hash', 'string'],
  ['sent_amount', 'number'],
  ['received_amount', 'number'],
  ['value', 'number'],
  ['sent_value', 'number'],
  ['currency', 'string'],
  ['network', 'string'],
  ['sender_address', 'string'],
  ['address', 'string'],
  ['rate', 'number'],
  ['confirmations', 'number'],
  ['auto_convert_amount', 'number'],
  ['auto_convert_currency', 'string'],
  ['date', 'number'],
];
const jsonType = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
const shape = (o: Record<string, unknown>): Array<[string, string]> => Object.entries(o).map(([k, v]) => [k, jsonType(v)]);

interface Tx extends Record<string, unknown> {
  currency: string;
  network: string;
  address: string;
  sender_address: string;
  sent_amount: number;
  value: number;
  rate: number;
}
interface Body extends Record<string, unknown> {
  track_id: string;
  status: string;
  amount: number;
  sent_value: number;
  txs: Tx[];
}

let sbx: RunningSandbox;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('/hooks');
  sbx = await startSandbox({ host: '127.0.0.1', port: 0, settleSeconds: 1, notifications: { retryDelaysMs: [] } });
});
afterAll(async () => {
  await sbx?.close();
  await receiver?.close();
});

async function create(orderId: string, payCurrency: string): Promise<string> {
  const res = await fetch(`${sbx.url}/v1/payment/white-label`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', merchant_api_key: sbx.merchantKey },
    body: JSON.stringify({ amount: 25, currency: 'USD', pay_currency: payCurrency, order_id: orderId, callback_url: receiver.url }),
    signal: AbortSignal.timeout(5000),
  });
  const answer = (await res.json()) as { data: { track_id: string } };
  return answer.data.track_id;
}

/** The notifications about `trackId`, once one says `final`; each checked against its signature over the raw bytes. */
async function notified(trackId: string, final: string): Promise<Body[]> {
  const about = (): Body[] =>
    receiver.requests
      .filter((r) => {
        expect(r.headers.hmac).toBe(createHmac('sha512', sbx.merchantKey).update(r.body).digest('hex'));
        return (JSON.parse(r.body.toString('utf8')) as Body).track_id === trackId;
      })
      .map((r) => JSON.parse(r.body.toString('utf8')) as Body);
  await expect.poll(() => about().map((b) => b.status), { timeout: 5000, interval: 50 }).toContain(final);
  return about();
}

function checkFields(body: Body): void {
  expect(shape(body)).toEqual(TOP);
  for (const tx of body.txs) {
    expect(shape(tx)).toEqual(TX);
    expect(tx).toMatchObject({ auto_convert_amount: 0, auto_convert_currency: '' });
    const network = matchNetwork(tx.network, tx.currency);
    expect(network).toBeDefined();
    if (network !== undefined) expect(validateAddress(network, tx.sender_address)).toEqual({ ok: true });
    expect(tx.sender_address).not.toBe(tx.address);
    expect(Math.abs(tx.sent_amount * tx.rate - tx.value)).toBeLessThan(0.01);
  }
}

describe("v1 notifications from the sandbox: the samples' fields and types", () => {
  it('paid: Paying then Paid, one transaction worth the amount', async () => {
    const trackId = await create('fields-paid', 'BTC');
    const bodies = await notified(trackId, 'Paid');
    const withTx = bodies.filter((b) => b.txs.length > 0);
    expect(withTx.map((b) => b.status)).toEqual(['Paying', 'Paid']);
    for (const body of bodies) checkFields(body);
    const paid = withTx.at(-1) as Body;
    expect(paid.sent_value).toBe(25);
    expect(paid.txs[0]?.value).toBe(25);
    expect(paid.txs[0]?.sender_address).toMatch(/^tb1q/);
    expect(withTx[0]?.txs[0]?.sender_address).toBe(paid.txs[0]?.sender_address);
  });

  it('underpaid: 90 % seen, its value 22.5', async () => {
    const trackId = await create('fields-underpay', 'USDT');
    const bodies = await notified(trackId, 'Underpaid');
    for (const body of bodies) checkFields(body);
    const underpaid = bodies.find((b) => b.status === 'Underpaid') as Body;
    expect(underpaid.sent_value).toBe(22.5);
    expect(underpaid.txs.map((t) => t.value)).toEqual([22.5]);
  });

  it('mixed: two coins, each at its own rate, together worth the amount', async () => {
    const trackId = await create('fields-mixed', 'USDT');
    const bodies = await notified(trackId, 'Paid');
    for (const body of bodies) checkFields(body);
    const paid = bodies.find((b) => b.status === 'Paid') as Body;
    expect(new Set(paid.txs.map((t) => t.currency)).size).toBe(2);
    expect(paid.txs.reduce((sum, t) => sum + t.value, 0)).toBeCloseTo(25, 2);
  });
});
