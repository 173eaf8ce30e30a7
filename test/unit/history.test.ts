import { describe, expect, it } from 'vitest';
import { HISTORY_FILTERS, type HistoryFilterName, type PaymentFilter } from '../../src/gateway/gateway.js';
import { givenFilters, rowContradicts, rowMatches } from '../../src/gateway/history.js';
import { decodeV1PaymentInfo } from '../../src/operations/payment-info.js';
import { parseLossless } from '../../src/util/json.js';
import type { JsonObject } from '../../src/operations/read.js';
import { Decimal } from '../../src/money/decimal.js';
import { paymentInfoOf } from '../support/fake-gateway.js';

const d = (text: string): Decimal => Decimal.fromLiteral(text) as Decimal;
const ALL = new Set<HistoryFilterName>(HISTORY_FILTERS);
const NONE = new Set<HistoryFilterName>();

/** A paid payment of 25.50 USD in USDT on Tron, order A-1, created 2023-11-14 22:13:20 UTC. */
const ROW = paymentInfoOf({
  trackId: '42',
  status: 'Paid',
  amount: '25.50',
  currency: 'USD',
  payCurrency: 'USDT',
  network: 'Tron Network',
  address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
  orderId: 'A-1',
  date: 1700000000,
});
/** The same as the versioned history gives it: the pay side in its transactions only. */
const V1_ROW = decodeV1PaymentInfo(
  parseLossless(
    '{"track_id":"42","status":"paid","amount":25.5,"currency":"usd","order_id":"A-1","date":1700000000,"txs":[{"tx_hash":"ab","amount":25.5,"currency":"USDT","network":"Tron Network","address":"TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe","status":"confirmed"}]}',
  ) as JsonObject,
  'x',
);
/** A row that says nothing but its track id. */
const SILENT = paymentInfoOf({ trackId: '42' });

describe('rowMatches: every filter against a row', () => {
  it.each<[string, PaymentFilter, boolean]>([
    ['status', { status: 'paid' }, true],
    ['another status', { status: 'expired' }, false],
    ['order id, exactly', { orderId: 'A-1' }, true],
    ['order id, another case', { orderId: 'a-1' }, false],
    ['track id', { trackId: '42' }, true],
    ['another track id', { trackId: '43' }, false],
    ['currency, any case', { currency: 'usd' }, true],
    ['another currency', { currency: 'EUR' }, false],
    ['pay currency', { payCurrency: 'USDT' }, true],
    ['another pay currency', { payCurrency: 'BTC' }, false],
    ['network, by its name', { network: 'Tron Network' }, true],
    ['network, by a key of it', { network: 'TRC20' }, true],
    ['another network', { network: 'Bitcoin Network' }, false],
    ['address (the payment’s, or a transaction’s), exactly', { address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe' }, true],
    ['address, another case', { address: 'txnwf7nfiycmzNYwJF3wgqRTyumiuhgBZe' }, false],
    ['another address', { address: 'TAnotherAddress' }, false],
    ['created at the bound', { from: new Date(1700000000_000) }, true],
    ['created before --since', { from: new Date(1700000001_000) }, false],
    ['created at --until', { to: new Date(1700000000_999) }, true],
    ['created after --until', { to: new Date(1699999999_000) }, false],
    ['--min at the amount', { minAmount: d('25.5') }, true],
    ['--min above', { minAmount: d('25.51') }, false],
    ['--max at the amount', { maxAmount: d('25.50') }, true],
    ['--max below', { maxAmount: d('25.49') }, false],
    ['all at once', { status: 'paid', orderId: 'A-1', currency: 'USD', minAmount: d('1'), maxAmount: d('100') }, true],
  ])('%s', (_name, filter, expected) => {
    for (const row of [ROW, V1_ROW]) {
      expect(rowMatches(row, filter, ALL, (t) => (/tron|trc20/i.test(t) ? 'tron' : undefined))).toBe(expected);
      expect(rowMatches(row, filter, NONE, (t) => (/tron|trc20/i.test(t) ? 'tron' : undefined))).toBe(expected);
      expect(rowContradicts(row, filter, (t) => (/tron|trc20/i.test(t) ? 'tron' : undefined))).toBe(!expected);
    }
  });

  it('a row that does not say: kept for a filter the gateway applied, dropped for one gw applies alone; never a contradiction', () => {
    const filters: PaymentFilter[] = [
      { status: 'paid' },
      { orderId: 'A-1' },
      { currency: 'USD' },
      { payCurrency: 'USDT' },
      { network: 'Tron Network' },
      { address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe' },
      { from: new Date(0) },
      { to: new Date() },
      { minAmount: d('1') },
      { maxAmount: d('1') },
    ];
    for (const filter of filters) {
      expect(rowMatches(SILENT, filter, ALL)).toBe(true);
      expect(rowMatches(SILENT, filter, NONE)).toBe(false);
      expect(rowContradicts(SILENT, filter)).toBe(false);
    }
  });

  it('givenFilters: the filters set, paging aside', () => {
    expect(givenFilters({ page: 2, size: 5, orderId: 'x', minAmount: d('1') })).toEqual(['orderId', 'minAmount']);
  });
});
