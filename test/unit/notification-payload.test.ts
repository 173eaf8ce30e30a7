// Notification bodies in the gateway's two styles (src/notifications/payload.ts), and reading them
// back (src/notifications/decode.ts): field names and order, exact digits, status words, txs[].
import { describe, expect, it } from 'vitest';
import { SAMPLE_PAYMENT } from '../support/notifications.js';
import type { PaymentState } from '../../src/domain/payment-status.js';
import { readNotification } from '../../src/notifications/decode.js';
import { buildNotification, senderAddress, sentValue, statusText, type NotificationPayment } from '../../src/notifications/payload.js';
import { signBody } from '../../src/notifications/signature.js';
import { validateAddress } from '../../src/payment-uri/addresses.js';
import type { NetworkId } from '../../src/payment-uri/networks.js';

const PAYMENT: NotificationPayment = SAMPLE_PAYMENT;

describe('legacy style', () => {
  it('camelCase fields in the documented order, amounts and times as text with exactly their digits', () => {
    const n = buildNotification(PAYMENT, 'legacy');
    expect(n).toMatchObject({ style: 'legacy', type: 'payment' });
    const body = JSON.parse(n.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'status',
      'trackId',
      'type',
      'orderId',
      'amount',
      'currency',
      'payAmount',
      'payCurrency',
      'network',
      'address',
      'txID',
      'date',
      'payDate',
      'email',
      'description',
      'feePaidByPayer',
      'underPaidCover',
    ]);
    expect(body).toMatchObject({
      status: 'Paid',
      trackId: 'sbx4k2m9q1z7a',
      amount: '25.50',
      payAmount: '0.000390123456789012',
      txID: 'ab'.repeat(32),
      date: '1750000000',
      payDate: '1750000300',
      feePaidByPayer: 1,
      description: 'Order "7" – café',
    });
    // underPaidCover is a JSON number with its digits.
    expect(n.body).toContain('"underPaidCover":2.5}');
  });

  it('no transaction and no pay date before the payment is seen', () => {
    const body = JSON.parse(buildNotification({ ...PAYMENT, status: 'waiting', payDate: 0 }, 'legacy').body) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'Waiting', txID: '', payDate: '' });
  });

  it('a payout type is written as given', () => {
    expect(JSON.parse(buildNotification(PAYMENT, 'legacy', 'payout').body)).toMatchObject({ type: 'payout' });
  });

  it('the same payment gives the same bytes (compact JSON, no trailing newline)', () => {
    const a = buildNotification(PAYMENT, 'legacy').body;
    expect(buildNotification({ ...PAYMENT }, 'legacy').body).toBe(a);
    expect(a).not.toMatch(/\s"|\n/);
  });
});

describe('v1 style', () => {
  it('snake_case fields, amounts as JSON numbers with exactly their digits, txs[] with the transaction', () => {
    const n = buildNotification(PAYMENT, 'v1');
    expect(n).toMatchObject({ style: 'v1', type: 'white_label' });
    const body = JSON.parse(n.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'track_id',
      'status',
      'type',
      'module_name',
      'amount',
      'value',
      'sent_value',
      'currency',
      'order_id',
      'email',
      'note',
      'fee_paid_by_payer',
      'under_paid_coverage',
      'description',
      'date',
      'txs',
    ]);
    expect(n.body).toContain('"amount":25.50,');
    expect(n.body).toContain('"received_amount":0.000390123456789012,');
    expect(body).toMatchObject({ track_id: 'sbx4k2m9q1z7a', status: 'Paid', order_id: 'ORD-7', date: 1_750_000_000 });
    expect(body.txs).toEqual([
      {
        status: 'confirmed',
        tx_hash: 'ab'.repeat(32),
        sent_amount: 0.000390123456789012,
        received_amount: 0.000390123456789012,
        value: 25.5,
        sent_value: 25.5,
        currency: 'ETH',
        network: 'Ethereum Network',
        sender_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        rate: 65363.92405082,
        confirmations: 12,
        auto_convert_amount: 0,
        auto_convert_currency: '',
        date: 1_750_000_300,
      },
    ]);
  });

  it('confirming: "Paying", one unconfirmed transaction; waiting: no transaction', () => {
    const paying = JSON.parse(buildNotification({ ...PAYMENT, status: 'confirming' }, 'v1', 'invoice').body) as {
      status: string;
      type: string;
      txs: Array<{ status: string }>;
    };
    expect(paying).toMatchObject({ status: 'Paying', type: 'invoice' });
    expect(paying.txs[0]?.status).toBe('confirming');
    expect(JSON.parse(buildNotification({ ...PAYMENT, status: 'waiting' }, 'v1').body)).toMatchObject({ status: 'Waiting', txs: [], sent_value: 0 });
  });

  it('underpaid: sent_value is the share received, in exact decimals', () => {
    expect(sentValue('25.50', '0.0004', '0.0002')).toBe('12.75');
    expect(sentValue('10', '3', '1')).toBe('3.33');
    expect(sentValue('10', '3', '0')).toBe('0');
    expect(sentValue('10', '3', '4')).toBe('10');
  });
});

// docs/gateway.md §7: the gateway's published Paying and Paid samples, field by field and type by
// type (the order is the samples'). A strict client (one that checks every field's JSON type)
// must accept what the sandbox and `gw webhook send` send.
const SAMPLE_TOP: ReadonlyArray<readonly [string, string]> = [
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
const SAMPLE_TX: ReadonlyArray<readonly [string, string]> = [
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

type V1Tx = Record<string, unknown> & { value: number; sent_value: number; rate: number; sent_amount: number; sender_address: string };
type V1Body = Record<string, unknown> & { sent_value: number; txs: V1Tx[] };

describe('v1 style: every field of the published samples, with their JSON types', () => {
  const UNDERPAID = '0.000351111111110110'; // 90 %
  it.each([
    ['confirming', 'Paying', PAYMENT.receivedAmount, 25.5],
    ['paid', 'Paid', PAYMENT.receivedAmount, 25.5],
    ['underpaid', 'Underpaid', UNDERPAID, 22.95],
  ] as const)("%s → %s: the samples' fields in their order and types, value and rate consistent", (status, word, received, worth) => {
    const n = buildNotification({ ...PAYMENT, status, receivedAmount: received }, 'v1');
    const body = JSON.parse(n.body) as V1Body;
    expect(shape(body)).toEqual(SAMPLE_TOP);
    expect(body.status).toBe(word);
    expect(body.module_name).toBe('');
    expect(body.sent_value).toBe(worth);
    expect(body.txs).toHaveLength(1);
    const tx = body.txs[0] as V1Tx;
    expect(shape(tx)).toEqual(SAMPLE_TX);
    expect(tx).toMatchObject({ value: worth, sent_value: worth, rate: 65363.92405082, auto_convert_amount: 0, auto_convert_currency: '' });
    // value is what the transfer is worth in the payment's currency: sent amount × rate, to the cent.
    expect(Math.abs(tx.sent_amount * tx.rate - tx.value)).toBeLessThan(0.01);
    // The payer's address: a valid address of the transaction's network, not the receiving one.
    expect(validateAddress('ethereum', tx.sender_address)).toEqual({ ok: true });
    expect(tx.sender_address).not.toBe(PAYMENT.address);
    // Exact digits in the bytes; the signature is over exactly those bytes.
    expect(n.body).toContain('"rate":65363.92405082,');
    expect(signBody('k', n.body)).toBe(signBody('k', Buffer.from(n.body)));
    expect(signBody('k', JSON.stringify(JSON.parse(n.body)))).not.toBe(signBody('k', n.body));
  });

  it('paying then paid: the same transaction keeps its hash and sender; the bytes are the same every time', () => {
    const paying = JSON.parse(buildNotification({ ...PAYMENT, status: 'confirming' }, 'v1').body) as V1Body;
    const paid = JSON.parse(buildNotification({ ...PAYMENT, status: 'paid' }, 'v1').body) as V1Body;
    expect(paying.txs[0]?.sender_address).toBe(paid.txs[0]?.sender_address);
    expect(buildNotification({ ...PAYMENT }, 'v1').body).toBe(buildNotification({ ...PAYMENT }, 'v1').body);
  });

  it("a mixed payment: the pay coin at the payment's rate, the other coin at the rate that makes up what was received", () => {
    const body = JSON.parse(
      buildNotification(
        {
          ...PAYMENT,
          payCurrency: 'BTC',
          network: 'Bitcoin Network',
          payAmount: '0.0004',
          receivedAmount: '0.0004',
          txs: [
            { txHash: 'a', amount: '0.0002', currency: 'BTC', network: 'Bitcoin Network', address: 'x', confirmations: 3, status: 'confirmed', date: 1 },
            { txHash: 'b', amount: '0.005', currency: 'ETH', network: 'Ethereum Network', address: 'y', confirmations: 3, status: 'confirmed', date: 2 },
          ],
        },
        'v1',
      ).body,
    ) as V1Body;
    expect(body.txs.map((t) => [t.currency, t.rate, t.value])).toEqual([
      ['BTC', 63750, 12.75],
      ['ETH', 2550, 12.75],
    ]);
    expect(body.txs[0]?.sender_address).toMatch(/^tb1q/);
  });

  it('a rate or a sender the caller knows is written as given (null included)', () => {
    const body = JSON.parse(
      buildNotification(
        {
          ...PAYMENT,
          txs: [
            {
              txHash: 'a',
              amount: '0.0001',
              currency: 'ETH',
              network: 'Ethereum Network',
              address: 'x',
              confirmations: 1,
              status: 'confirming',
              date: 1,
              rate: '3000.5',
              senderAddress: null,
            },
          ],
        },
        'v1',
      ).body,
    ) as V1Body;
    expect(body.txs[0]).toMatchObject({ rate: 3000.5, value: 0.3, sender_address: null });
  });

  it.each([
    ['Bitcoin Network', 'BTC', 'bitcoin', /^tb1q/],
    ['Litecoin Network', 'LTC', 'litecoin', /^tltc1q/],
    ['Dogecoin Network', 'DOGE', 'dogecoin', /^n/],
    ['Bitcoin Cash Network', 'BCH', 'bitcoin-cash', /^bchtest:q/],
    ['Dash Network', 'DASH', 'dash', /^y/],
    ['Tron Network', 'USDT', 'tron', /^T/],
    ['Binance Smart Chain', 'BNB', 'bsc', /^0x/],
    ['Solana Network', 'SOL', 'solana', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/],
    ['TON Network', 'TON', 'ton', /^0Q/],
    ['Monero Network', 'XMR', 'monero', /^5/],
  ] as const)('sender address on %s: valid, in the testnet form where there is one', (network, coin, id, form) => {
    const address = senderAddress(network, coin, 'seed');
    expect(address).toMatch(form);
    expect(validateAddress(id as NetworkId, address ?? '')).toEqual({ ok: true });
  });

  it('sender address on a network gw does not know: null (as a captured test-mode notification has it)', () => {
    expect(senderAddress('Martian Network', 'MRS', 'seed')).toBeNull();
  });
});

describe('status words per style', () => {
  it.each([
    ['new', 'New', 'New'],
    ['waiting', 'Waiting', 'Waiting'],
    ['confirming', 'Confirming', 'Paying'],
    ['paid', 'Paid', 'Paid'],
    ['underpaid', 'Underpaid', 'Underpaid'],
    ['expired', 'Expired', 'Expired'],
    // The versioned API has no failed: expired there (its transaction says failed).
    ['failed', 'Failed', 'Expired'],
    ['refunded', 'Refunded', 'Refunded'],
  ] as const)('%s → legacy %s, v1 %s', (state, legacy, v1) => {
    expect(statusText(state, 'legacy')).toBe(legacy);
    expect(statusText(state, 'v1')).toBe(v1);
  });
});

describe('readNotification: both styles read back into one summary', () => {
  it.each(['legacy', 'v1'] as const)('%s', (style) => {
    for (const state of ['waiting', 'confirming', 'paid', 'underpaid', 'expired'] satisfies PaymentState[]) {
      const received = state === 'underpaid' ? '0.0002' : PAYMENT.receivedAmount;
      const read = readNotification(Buffer.from(buildNotification({ ...PAYMENT, status: state, receivedAmount: received }, style).body));
      if (!read.ok) throw new Error(read.problem);
      const s = read.summary;
      expect(s.style).toBe(style);
      expect(s.trackId?.raw()).toBe('sbx4k2m9q1z7a');
      expect(s.state).toBe(state);
      expect(s.orderId?.raw()).toBe('ORD-7');
      expect(String(s.amount)).toBe('25.50');
      expect(s.currency?.raw()).toBe('USD');
      if (style === 'legacy' || (state !== 'waiting' && state !== 'expired')) expect(s.payCurrency?.raw()).toBe('ETH');
    }
  });

  it('v1 payAmount adds up the transactions exactly', () => {
    const body =
      '{"track_id":"1","type":"invoice","status":"paid","txs":[{"received_amount":0.1,"currency":"BTC"},{"received_amount":"0.2","currency":"BTC"}]}';
    const read = readNotification(Buffer.from(body));
    expect(read.ok && String(read.summary.payAmount)).toBe('0.3');
  });

  it('liberal: exponent amounts expanded, numbers as ids, missing fields null, unknown status "unknown"', () => {
    const read = readNotification(Buffer.from('\uFEFF{"trackId":184729305,"status":"Mystery","amount":"1.5e-7","type":"payment"}'));
    if (!read.ok) throw new Error(read.problem);
    expect(read.summary.trackId?.raw()).toBe('184729305');
    expect(String(read.summary.amount)).toBe('0.00000015');
    expect(read.summary.state).toBe('unknown');
    expect(read.summary.orderId).toBeNull();
    expect(read.summary.payAmount).toBeNull();
  });

  it.each([
    ['', 'the body is not JSON'],
    ['garbage', 'the body is not JSON'],
    ['[1,2]', 'the body is not a JSON object'],
    ['"text"', 'the body is not a JSON object'],
    ['12', 'the body is not a JSON object'],
    ['['.repeat(100_000), 'the body is not JSON'],
  ])('%j → %s', (body, problem) => {
    expect(readNotification(Buffer.from(body))).toEqual({ ok: false, problem });
  });

  it('escape codes in every field stay in the text and are inert when printed', () => {
    const evil = '\u001b[31mX\u001b]0;owned\u0007\u202e';
    const body = JSON.stringify({ trackId: evil, status: evil, type: evil, orderId: evil, amount: evil, currency: evil });
    const read = readNotification(Buffer.from(body));
    if (!read.ok) throw new Error(read.problem);
    for (const value of [
      read.summary.trackId,
      read.summary.gatewayStatus,
      read.summary.type,
      read.summary.orderId,
      read.summary.amount,
      read.summary.currency,
    ]) {
      expect(String(value)).not.toMatch(/[\u001b\u0007\u202e]/);
      expect(JSON.stringify(value)).toContain('\\u001b');
    }
  });
});

describe('readNotification: a body that repeats a key', () => {
  it('reads the last value (as JSON.parse does) and names the repeated keys, nested ones with their path', () => {
    const body =
      '{"status":"Waiting","trackId":"184729305","type":"payment","amount":"25","currency":"USDT","status":"Paid","txs":[{"status":"a","status":"b"}]}';
    const read = readNotification(Buffer.from(body));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.repeatedKeys).toEqual(['status', 'txs[0].status']);
    expect(read.summary.gatewayStatus?.raw()).toBe((JSON.parse(body) as { status: string }).status);
    expect(read.summary.state).toBe('paid');
    expect(read.summary.trackId?.raw()).toBe('184729305');
  });

  it('keeps numbers exact, reads escapes, and takes __proto__ as a field like any other', () => {
    const body =
      '{"track_id":"1","amount":0.100000000000000000000001,"amount":12345678901234567890.5,"currency":"U\\u0053DT","__proto__":{"x":1},"type":"invoice","type":"invoice"}';
    const read = readNotification(Buffer.from(body));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(String(read.summary.amount)).toBe('12345678901234567890.5');
    expect(read.summary.currency?.raw()).toBe('USDT');
    expect(read.repeatedKeys).toEqual(['amount', 'type']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('a body repeating a key with the same value is read as before, with no repeated key reported', () => {
    const read = readNotification(Buffer.from('{"type":"payment","type":"payment","trackId":"9"}'));
    expect(read).toMatchObject({ ok: true, repeatedKeys: [] });
  });

  it.each([
    ['{"a":1,"a":2', 'not JSON'],
    ['{"a":1,"a":2,}', 'not JSON'],
    ['{"a":1,"a":02}', 'not JSON'],
    ['{"a":1,"a":"\u0001"}', 'not JSON'],
    ['{"a":1,"a":2} x', 'not JSON'],
    [`{"a":1,"a":${'['.repeat(1000)}${']'.repeat(1000)}}`, 'not JSON'],
  ])('still strict about everything else: %s', (body, problem) => {
    expect(readNotification(Buffer.from(body))).toEqual({ ok: false, problem: `the body is ${problem}` });
  });
});
