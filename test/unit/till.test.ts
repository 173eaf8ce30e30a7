// gw counter's pure parts: keys from raw terminal bytes, what each key does at the prompt, and the
// session's summary (exact sums per state, currency and coin; the open sales with their command).
import { describe, expect, it } from 'vitest';
import {
  amountLimit,
  EMPTY_PROMPT,
  orderPayment,
  promptKey,
  type PromptState,
  refusedPrompt,
  saleCoin,
  summarize,
  TillLedger,
  type Sale,
} from '../../src/cmdutil/till.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { Decimal } from '../../src/money/decimal.js';
import { type Key, parseKeys } from '../../src/output/keys.js';
import { paymentInfoOf } from '../support/fake-gateway.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';
import { PLAIN } from '../../src/output/palette.js';
import { visibleWidth } from '../../src/output/cells.js';
import { busyScreen, PROMPT_KEYS, promptScreen, recentScreen } from '../../src/views/till-view.js';

const d = (text: string): Decimal => Decimal.fromLiteral(text) as Decimal;

describe('parseKeys', () => {
  it.each<[string, Key[]]>([
    ['25\r', [{ name: 'char', ch: '2' }, { name: 'char', ch: '5' }, { name: 'enter' }]],
    ['\r\n', [{ name: 'enter' }]],
    ['\u007f\b', [{ name: 'backspace' }, { name: 'backspace' }]],
    ['\u001b', [{ name: 'escape' }]],
    ['\u001b[A\u001b[B\u001bOC\u001b[D', [{ name: 'up' }, { name: 'down' }, { name: 'right' }, { name: 'left' }]],
    ['\u001b[15~', [{ name: 'other' }]],
    ['\u001bq', [{ name: 'escape' }, { name: 'char', ch: 'q' }]],
    ['\u0003\u0004\t', [{ name: 'ctrl-c' }, { name: 'ctrl-d' }, { name: 'tab' }]],
    ['\u0007\u009b', [{ name: 'other' }, { name: 'other' }]],
    [
      'é€',
      [
        { name: 'char', ch: 'é' },
        { name: 'char', ch: '€' },
      ],
    ],
  ])('%j', (bytes, keys) => {
    expect(parseKeys(bytes)).toEqual(keys);
  });
});

/** The prompt after typing `text` (keys as a terminal sends them), and the last action. */
function type(text: string, from: PromptState = EMPTY_PROMPT): { state: PromptState; action: string } {
  let state = from;
  let action = 'none';
  for (const key of parseKeys(text)) ({ state, action } = promptKey(state, key));
  return { state, action };
}

describe('promptKey', () => {
  const DAY = { currency: 'EUR', payCurrency: 'USDT', network: 'Tron Network' };
  it.each<[string, string, Partial<PromptState>, string]>([
    ['digits and a dot', '12.50', { amount: '12.50' }, 'none'],
    ['a comma is a decimal point', '7,5', { amount: '7.5' }, 'none'],
    ['Backspace', '123\u007f', { amount: '12' }, 'none'],
    ['letters are not amounts', '1a2', { amount: '12' }, 'none'],
    ['Enter charges', '9\r', { amount: '9' }, 'create'],
    ['q ends the day', '5q', { amount: '5' }, 'end-day'],
    ['Q too', 'Q', {}, 'end-day'],
    ['Ctrl-C ends the day', '\u0003', {}, 'end-day'],
    ['Esc clears the sale', '5o42\r\u001b', { amount: '' }, 'none'],
    ['r shows the last payments; any key comes back', 'r', { recent: true }, 'none'],
    ['o gives an order id', 'o table-9\r', { orderId: 'table-9' }, 'none'],
    ['c then a coin then a network', 'cbtc\rBitcoin Network\r', { coin: { payCurrency: 'BTC', network: 'Bitcoin Network' } }, 'none'],
    ['c, a coin, Enter: the gateway chooses the network', 'csol\r\r', { coin: { payCurrency: 'SOL' } }, 'none'],
    ['Esc leaves a field unchanged', 'cbtc\u001b', {}, 'none'],
    ['a coin takes letters, digits and dots only', 'cu-s d\r\r', { coin: { payCurrency: 'USD' } }, 'none'],
  ])('%s', (_what, keys, expected, action) => {
    const r = type(keys);
    expect(r.action).toBe(action);
    expect(r.state).toMatchObject(expected);
    if (!('recent' in expected)) expect(r.state.recent).toBeUndefined();
  });

  it('the amount takes only what can become an amount: one point, no leading zeros, the coin’s decimals', () => {
    expect(type('1.2.3').state.amount).toBe('1.23');
    expect(type('1,2.3').state.amount).toBe('1.23');
    expect(type('.5').state.amount).toBe('0.5');
    expect(type('005').state.amount).toBe('5');
    expect(type('0.05').state.amount).toBe('0.05');
    expect(type('10.0').state.amount).toBe('10.0');
    const btc = amountLimit({ currency: 'BTC' });
    expect(btc.decimals).toBe(8);
    let state = EMPTY_PROMPT;
    for (const key of parseKeys('0.123456789')) state = promptKey(state, key, btc).state;
    expect(state.amount).toBe('0.12345678');
    expect(state.message).toEqual({ text: 'BTC amounts have at most 8 decimal places.', tone: 'error' });
    // A fiat currency's decimals are not known: not limited here (the gateway decides).
    expect(amountLimit({ currency: 'EUR' }).decimals).toBeUndefined();
  });

  it('a refused amount is cleared, its message stays: what is typed next is a new amount', () => {
    const refused = refusedPrompt(type('0').state, 'the amount must be a plain positive decimal such as 25');
    expect(refused.amount).toBe('');
    expect(refused.message).toEqual({ text: 'the amount must be a plain positive decimal such as 25', tone: 'error' });
    expect(type('1.2.3', refused).state.amount).toBe('1.23');
    // Too many decimals for the coin: refused by the request, cleared too.
    expect(refusedPrompt(type('0.123456789').state, '0.123456789 BTC has more decimal places than BTC has (8)').amount).toBe('');
    // Another field refused (the order id, the coin): the amount typed is kept.
    const order = refusedPrompt(type('25o bad id\r').state, 'the order id must be …');
    expect(order.amount).toBe('25');
    expect(order.message?.text).toBe('the order id must be …');
  });

  it('Enter with no amount says so and does nothing', () => {
    const r = type('\r');
    expect(r.action).toBe('none');
    expect(r.state.message).toEqual({ text: 'Type the amount first, then Enter.', tone: 'error' });
    // The next key clears the message.
    expect(type('1', r.state).state.message).toBeUndefined();
  });

  it('any key leaves the last payments, even q (the day never ends by accident)', () => {
    const shown = type('r').state;
    const r = type('q', shown);
    expect(r.action).toBe('none');
    expect(r.state.recent).toBeUndefined();
  });

  it('a retry offered: Enter creates it again; digits do not change it; Esc drops it', () => {
    const retry: PromptState = { amount: '', retry: { orderId: 'o-1', amount: '25', generated: true } };
    expect(type('\r', retry).action).toBe('create');
    expect(type('3', retry).state.retry?.amount).toBe('25');
    expect(type('\u001b', retry).state.retry).toBeUndefined();
  });

  it('saleCoin: the sale’s coin, else the day’s with its network', () => {
    expect(saleCoin(EMPTY_PROMPT, DAY)).toEqual({ payCurrency: 'USDT', network: 'Tron Network' });
    expect(saleCoin(type('cbtc\r\r').state, DAY)).toEqual({ payCurrency: 'BTC' });
  });
});

describe('summarize', () => {
  const S = Date.UTC(2026, 10, 25, 9) / 1000;
  const info = (status: string, fields: Record<string, unknown> = {}): PaymentInfo =>
    paymentInfoOf({ status, amount: '25', currency: 'EUR', payAmount: '26.1', payCurrency: 'USDT', date: S, ...fields });
  const sale = (orderId: string, amount: string, currency: string, extra: Partial<Sale> = {}): Sale => ({
    orderId,
    amount: d(amount),
    currency,
    payCurrency: 'USDT',
    at: S * 1000,
    state: 'new',
    ...extra,
  });

  it('counts and exact totals per state and currency; what arrived per coin; the open ones with their command', () => {
    const ledger = new TillLedger();
    ledger.ring(sale('a', '25', 'EUR', { trackId: '100000001', state: 'paid', info: v1InfoOf({ status: 'paid' }, [v1Tx('h1', '26.1', 'USDT')]) }));
    ledger.ring(sale('b', '0.1', 'EUR', { trackId: '100000002', state: 'paid', info: v1InfoOf({ status: 'paid' }, [v1Tx('h2', '0.104444', 'USDT')]) }));
    ledger.ring(
      sale('c', '10', 'USD', {
        trackId: '100000003',
        state: 'underpaid',
        info: v1InfoOf({ status: 'underpaid' }, [v1Tx('h3', '5', 'USDT'), v1Tx('h4', '4', 'USDT', { status: 'confirming' })]),
      }),
    );
    ledger.ring(sale('d', '0.2', 'EUR', { trackId: '100000004', state: 'waiting', info: info('Waiting') }));
    ledger.ring(sale('e', '3', 'EUR', { state: 'not-confirmed' }));
    const s = summarize(ledger, true);
    expect(s.count).toBe(5);
    expect(s.byState.map((r) => [r.state, r.count, [...r.asked].map(([c, t]) => `${t} ${c}`)])).toEqual([
      ['paid', 2, ['25.1 EUR']],
      ['underpaid', 1, ['10 USD']],
      ['waiting', 1, ['0.2 EUR']],
      ['not-confirmed', 1, ['3 EUR']],
    ]);
    expect([...s.asked].map(([c, r]) => `${r.total} ${c} (${r.count})`)).toEqual(['28.3 EUR (4)', '10 USD (1)']);
    expect([...s.arrived].map(([c, t]) => `${t} ${c}`)).toEqual(['35.204444 USDT']);
    expect([...s.unconfirmed].map(([c, t]) => `${t} ${c}`)).toEqual(['4 USDT']);
    expect(s.open.map((o) => o.command)).toEqual(['gw status 100000004 --wait --sandbox', 'gw payments --order-id e --sandbox']);
  });

  it('an order id typed again for another sale is another sale; updates go to the latest', () => {
    const ledger = new TillLedger();
    ledger.ring(sale('table-7', '5', 'EUR', { trackId: '100000001', state: 'paid' }));
    ledger.ring(sale('table-7', '8', 'EUR', { trackId: '100000002', state: 'new' }));
    ledger.update('table-7', { state: 'underpaid' });
    const s = summarize(ledger, false);
    expect(s.count).toBe(2);
    expect(s.byState.map((r) => [r.state, r.count, [...r.asked].map(([c, t]) => `${t} ${c}`)])).toEqual([
      ['paid', 1, ['5 EUR']],
      ['underpaid', 1, ['8 EUR']],
    ]);
  });

  it('a sale created again under its order id (after a look-up found nothing) is one sale', () => {
    const ledger = new TillLedger();
    ledger.ring(sale('x', '5', 'EUR', { state: 'not-confirmed' }));
    ledger.ring(sale('x', '5', 'EUR', { trackId: '100000009', state: 'paid' }));
    const s = summarize(ledger, false);
    expect(s.count).toBe(1);
    expect(s.open).toEqual([]);
    expect(s.byState.map((r) => r.state)).toEqual(['paid']);
  });
});

describe('orderPayment: what a look-up by order id found', () => {
  const S = Date.UTC(2026, 10, 25, 9) / 1000;
  const p = (trackId: string, date: number, amount = '25', currency = 'USD') =>
    paymentInfoOf({ trackId, status: 'Waiting', amount, currency, payCurrency: 'USDT', orderId: 'o-1', date });
  const request = { amount: Decimal.fromLiteral('25') as Decimal, currency: 'USD' };

  it.each([
    ['nothing: not created', [], 'none', undefined],
    ['one: this sale', [p('100000001', S)], 'found', '100000001'],
    ['several: the newest', [p('100000001', S), p('100000003', S + 60), p('100000002', S + 30)], 'found', '100000003'],
    ['another amount under the order id: not this sale', [p('100000001', S, '30')], 'other-terms', '100000001'],
    ['another currency: not this sale', [p('100000001', S, '25', 'EUR')], 'other-terms', '100000001'],
  ] as const)('%s', (_what, payments, kind, trackId) => {
    const match = orderPayment(payments, request);
    expect(match.kind).toBe(kind);
    if (match.kind !== 'none') expect(match.info.trackId.raw()).toBe(trackId);
  });
});

describe('till-view: every screen fits the terminal (width − 1 columns, height − 1 rows)', () => {
  const sizes = [
    [80, 24],
    [100, 30],
    [120, 40],
    [40, 12],
  ] as const;
  const long = 'x'.repeat(200);
  const ledger = new TillLedger();
  for (let i = 0; i < 30; i++)
    ledger.ring({ orderId: `o-${i}`, trackId: String(100000000 + i), amount: d('12.5'), currency: 'EUR', payCurrency: 'USDT', at: 0, state: 'paid' });
  it.each(sizes)('%i×%i', (width, height) => {
    const base = { width, height, chalk: PLAIN, sandbox: true };
    const screens = [
      promptScreen({
        ...base,
        prompt: { amount: '123.45', message: { text: `Not created: ${long}`, tone: 'error', command: 'gw status 123456789 --wait --sandbox' } },
        defaults: { currency: 'EUR', payCurrency: 'USDT', network: 'Tron Network' },
        sales: 30,
        open: 2,
      }),
      promptScreen({
        ...base,
        prompt: { amount: '', field: { kind: 'network', text: 'Tron', coin: 'USDT' } },
        defaults: { currency: 'EUR', payCurrency: 'USDT' },
        sales: 0,
        open: 0,
      }),
      recentScreen({ ...base, sales: ledger.recent(height) }),
      busyScreen({ ...base, what: 'looking for the payment', lines: [long, '', long], keys: [['Esc', 'give up looking']] }),
    ];
    for (const lines of screens) {
      expect(lines.length).toBeLessThanOrEqual(height - 1);
      for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width - 1);
    }
  });
});

describe('till-view: the keys under the prompt', () => {
  it.each([80, 100, 120, 60])('at %i columns each key stays on the line of what it does', (width) => {
    const lines = promptScreen({
      width,
      height: 24,
      chalk: PLAIN,
      sandbox: true,
      prompt: { amount: '' },
      defaults: { currency: 'USDT', payCurrency: 'USDT' },
      sales: 0,
      open: 0,
    });
    const keys = lines.slice(lines.findIndex((line) => line.startsWith('0-9 .')));
    expect(keys.join(' · ').split(' · ')).toEqual(PROMPT_KEYS.map(([key, what]) => `${key} ${what}`));
    for (const line of keys) expect(visibleWidth(line)).toBeLessThanOrEqual(width - 1);
  });
});

describe('till-view: the sandbox outcomes at the prompt', () => {
  it.each([80, 100])('at %i columns every ending the sandbox knows is shown whole (docs/sandbox.md)', (width) => {
    const text = promptScreen({
      width,
      height: 24,
      chalk: PLAIN,
      sandbox: true,
      prompt: { amount: '' },
      defaults: { currency: 'USDT', payCurrency: 'USDT' },
      sales: 0,
      open: 0,
    }).join('\n');
    for (const ending of ['-underpay', '-partial', '-expire', '-late', '-fail', '-mixed', '-refund'])
      expect(text).toMatch(new RegExp(`(^| )${ending}( |$)`, 'm'));
  });
});
