import { describe, expect, it } from 'vitest';
import {
  computeArrival,
  differenceWords,
  expectedOf,
  stateOf,
  subtract,
  toArrivalJson,
  txCount,
  withExpected,
  type ArrivalInput,
} from '../../src/domain/arrival.js';
import type { PaymentTransaction } from '../../src/gateway/gateway.js';
import { Decimal } from '../../src/money/decimal.js';
import { Untrusted } from '../../src/output/untrusted.js';
import { paymentInfoOf } from '../support/fake-gateway.js';
import { V1_SAMPLES, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const d = (text: string): Decimal => Decimal.fromLiteral(text) as Decimal;
const u = (text: string | null): Untrusted | null => (text === null ? null : Untrusted.of(text));

function tx(amount: string | null, currency: string | null, status: string | null = 'confirmed', hash = 'h'): PaymentTransaction {
  return {
    txID: u(hash),
    amount: amount === null ? null : d(amount),
    currency: u(currency),
    network: u('Bitcoin Network'),
    address: null,
    status: u(status),
    confirmations: 3,
    date: null,
  };
}

const BTC_OWED = { amount: d('0.0005'), coin: 'BTC' };
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const map = (m: ReadonlyMap<string, Decimal> | null): Record<string, string> | null =>
  m === null ? null : Object.fromEntries([...m].map(([k, v]) => [k, `${v}`]));

describe('txCount: which transaction statuses count as received', () => {
  it.each([
    ['confirmed', 'confirmed'],
    ['Confirmed', 'confirmed'],
    ['paid', 'confirmed'],
    ['success', 'confirmed'],
    ['confirming', 'confirming'],
    ['pending', 'confirming'],
    ['Paying', 'confirming'],
    [null, 'confirming'],
    ['something new', 'confirming'],
    ['failed', 'not-counted'],
    ['Rejected', 'not-counted'],
    ['cancelled', 'not-counted'],
  ] as const)('%s → %s', (status, count) => {
    expect(txCount(status)).toBe(count);
  });
});

describe('subtract: exact, either sign', () => {
  it.each([
    ['0.0005', '0.0004', '0.0001'],
    ['0.0005', '0.0005', '0'],
    ['0.0005', '0.00051', '-0.00001'],
    ['25', '10.5', '14.5'],
    ['-1', '2', '-3'],
    ['0.1', '0.2', '-0.1'],
  ])('%s − %s = %s', (a, b, c) => {
    expect(subtract(d(a), d(b)).toString()).toBe(c);
  });
});

describe('computeArrival', () => {
  const cases: Array<
    [string, ArrivalInput, { source: string; received: Record<string, string> | null; difference: string | null; unconfirmed?: Record<string, string> }]
  > = [
    ['the legacy inquiry: nothing reported', { txs: null, payCurrency: 'BTC', expected: BTC_OWED }, { source: 'unreported', received: null, difference: null }],
    [
      'an empty list: nothing arrived, all of it owed',
      { txs: [], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: {}, difference: '0.0005' },
    ],
    [
      'one full transaction',
      { txs: [tx('0.0005', 'BTC')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0005' }, difference: '0' },
    ],
    [
      'two transactions add up exactly (no float: 0.1 + 0.2)',
      { txs: [tx('0.0001', 'btc'), tx('0.0002', 'BTC')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0003' }, difference: '0.0002' },
    ],
    [
      'a confirming one counts, labelled; a failed one does not',
      { txs: [tx('0.0003', 'BTC'), tx('0.0001', 'BTC', 'confirming'), tx('0.0005', 'BTC', 'failed')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0004' }, unconfirmed: { BTC: '0.0001' }, difference: '0.0001' },
    ],
    [
      'more than owed: a negative difference',
      { txs: [tx('0.0006', 'BTC')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0006' }, difference: '-0.0001' },
    ],
    [
      'two coins: never converted, no difference',
      { txs: [tx('0.0002', 'BTC'), tx('10.5', 'USDT')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0002', USDT: '10.5' }, difference: null },
    ],
    [
      'no amount owed known',
      { txs: [tx('0.0004', 'BTC')], payCurrency: 'BTC', expected: null },
      { source: 'transactions', received: { BTC: '0.0004' }, difference: null },
    ],
    [
      'a transaction without a coin is in the pay currency',
      { txs: [tx('0.0005', null)], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: { BTC: '0.0005' }, difference: '0' },
    ],
    [
      'an unreadable amount: no difference',
      { txs: [tx(null, 'BTC')], payCurrency: 'BTC', expected: BTC_OWED },
      { source: 'transactions', received: {}, difference: null },
    ],
    [
      'a received total without a list',
      { txs: null, payCurrency: 'USDT', reportedTotal: d('22.5'), expected: { amount: d('25'), coin: 'USDT' } },
      { source: 'total', received: { USDT: '22.5' }, difference: '2.5' },
    ],
  ];
  it.each(cases)('%s', (_name, input, want) => {
    const arrival = computeArrival(input);
    expect(arrival.source).toBe(want.source);
    expect(map(arrival.received)).toEqual(want.received);
    expect(arrival.difference?.toString() ?? null).toBe(want.difference);
    expect(map(arrival.unconfirmed)).toEqual(want.unconfirmed ?? {});
    if (want.difference === null) expect(arrival.noDifference).toBeTruthy();
  });

  it('says the difference with its coin', () => {
    const words = (txs: PaymentTransaction[]) => differenceWords(computeArrival({ txs, payCurrency: 'BTC', expected: BTC_OWED }));
    expect(words([tx('0.0004', 'BTC')])).toBe('0.0001 BTC short of 0.0005 BTC');
    expect(words([tx('0.0005', 'BTC')])).toBe('the full 0.0005 BTC');
    expect(words([tx('0.0006', 'BTC')])).toBe('0.0001 BTC more than the 0.0005 BTC owed');
    expect(words([tx('0.0006', 'USDT')])).toBeUndefined();
  });
});

describe('stateOf: the gateway word and what arrived', () => {
  const arrival = (input: Partial<ArrivalInput>) => computeArrival({ txs: [], payCurrency: 'BTC', expected: null, ...input });
  it.each([
    ['expired', arrival({ txs: [tx('0.0005', 'BTC')] }), 'late'],
    ['Expired', arrival({ txs: [tx('0.0001', 'BTC', 'confirming')] }), 'late'],
    ['expired', arrival({ txs: [] }), 'expired'],
    ['expired', arrival({ txs: [tx('0.0005', 'BTC', 'failed')] }), 'expired'],
    ['expired', arrival({ txs: null }), 'expired'],
    ['Expired', arrival({ txs: null, txID: 'ab12cd' }), 'late'],
    ['Expired', arrival({ txs: null, reportedTotal: d('0'), txID: '' }), 'expired'],
    ['refunding', arrival({ txs: [tx('0.0005', 'BTC')] }), 'refunding'],
    ['underpaid', arrival({ txs: [tx('0.0004', 'BTC')] }), 'underpaid'],
    ['paid', arrival({ txs: [tx('0.0005', 'BTC')] }), 'paid'],
  ] as const)('%s with %# → %s', (word, a, state) => {
    expect(stateOf(word, a)).toBe(state);
  });
});

describe('expectedOf: what was owed in the coin paid', () => {
  const base = { payAmount: null, payCurrency: null, amount: d('0.0005'), currency: u('BTC'), txs: [tx('0.0004', 'BTC')] };
  it('the pay amount, when the answer has one', () => {
    expect(plain(expectedOf({ ...base, payAmount: d('25.1'), payCurrency: u('usdt') }, 0))).toEqual({ amount: '25.1', coin: 'USDT' });
  });
  it('the requested amount, when it is in the coin paid and the fee is not the payer’s', () => {
    expect(plain(expectedOf(base, 0))).toEqual({ amount: '0.0005', coin: 'BTC' });
    expect(expectedOf(base, 1)).toBeNull();
    expect(expectedOf({ ...base, currency: u('USD') }, 0)).toBeNull();
    expect(expectedOf({ ...base, txs: [tx('0.0004', 'BTC'), tx('1', 'USDT')] }, 0)).toBeNull();
  });
});

describe('decoded answers carry what arrived: one JSON shape', () => {
  it('v1, expired with the full amount: late, received, difference 0, every transaction', () => {
    const info = V1_SAMPLES.lateFull();
    expect(info.status).toBe('late');
    expect(plain(toArrivalJson(info.arrival))).toEqual({
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
    expect(plain(info.fields)).toMatchObject({ status: 'late', gatewayStatus: 'expired', received: { BTC: '0.0005' }, difference: { BTC: '0' } });
  });

  it('v1 without a txs list: not reported (null), not "nothing"', () => {
    const info = v1InfoOf({ status: 'expired' }, undefined);
    expect(info.status).toBe('expired');
    expect(plain(info.fields)).toMatchObject({ received: null, transactions: null, difference: null });
  });

  it('legacy: no list, null; a txID on an expired payment makes it late', () => {
    expect(plain(paymentInfoOf({ status: 'Expired', txID: '' }).fields)).toMatchObject({ status: 'expired', received: null, transactions: null });
    expect(paymentInfoOf({ status: 'Expired', txID: 'ab12cd' }).status).toBe('late');
  });

  it('withExpected: what the creation answer said was owed gives the difference', () => {
    const info = v1InfoOf({ status: 'underpaid', currency: 'USD', amount: '20' }, [v1Tx('t', '0.0004', 'BTC')]);
    expect(info.arrival.difference).toBeNull();
    const known = withExpected(info, BTC_OWED);
    expect(plain(known.fields)).toMatchObject({ expected: { BTC: '0.0005' }, difference: { BTC: '0.0001' }, status: 'underpaid' });
  });
});
