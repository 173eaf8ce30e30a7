// The counter screen's layout (src/views/counter-screen.ts) with one given way of drawing the QR,
// and the final screens. Every offering at every size, with the ways the QR can be drawn, is in
// counter-screen-fit.test.ts.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/gateway/gateway.js';
import { bigText, bigTextWidth } from '../../src/output/big-text.js';
import { counterScreen, outcomeScreen, rateWords, type CounterScreenInput } from '../../src/views/counter-screen.js';
import { buildPaymentUri } from '../../src/payment-uri/index.js';
import { qrSymbol, QUIET_ZONE, renderTerminalQr } from '../../src/qr/index.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { Decimal } from '../../src/money/decimal.js';
import { paymentInfoOf, paymentOf } from '../support/fake-gateway.js';
import { decodeTerminalQr } from '../support/qr-decode.js';
import { FULL_PRECISION_AMOUNTS as AMOUNTS } from '../support/sandbox.js';
import { leftColumns, VirtualTerminal } from '../support/terminal.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const chalk = new Chalk({ level: 1 });
const TRACK_ID = 'sbxtyzgsqjnn9ybzle8dw5ne3d';

function screenFor(offering: (typeof SANDBOX_OFFERINGS)[number], width: number, height: number, color = true, extra: Partial<CounterScreenInput> = {}) {
  const payAmount = AMOUNTS[offering.payCurrency] ?? '1';
  const address = deriveSandboxAddress(offering.networkId, TRACK_ID);
  const payment: Payment = paymentOf({
    trackId: TRACK_ID,
    amount: payAmount,
    currency: offering.payCurrency,
    payAmount,
    payCurrency: offering.payCurrency,
    network: offering.network,
    address,
    rate: '1',
    orderId: 'gw-20261122-120000-k7q3',
    expiredAt: NOW / 1000 + 3540,
    createdAt: NOW / 1000,
  });
  const uri = buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount });
  const columns = qrSymbol(uri.uri).size + 2 * QUIET_ZONE;
  const qr = { text: renderTerminalQr(uri.uri, { color }), columns, rows: Math.ceil(columns / 2) };
  const lines = counterScreen({
    payment,
    uri,
    qr,
    width,
    height,
    now: NOW,
    chalk: color ? chalk : new Chalk({ level: 0 }),
    sandbox: true,
    orderIdGenerated: true,
    ...extra,
  });
  // As the pay command leaves it: a cleared screen, the lines, then the shell's prompt.
  const term = new VirtualTerminal(width, height).write(`${lines.join('\n')}\n$ `);
  return { lines, term, uri, qr, payAmount };
}

describe('layout', () => {
  const tron = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'USDT' && o.networkId === 'tron')!;
  const usdc = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'USDC')!;

  it('beside the QR on a wide terminal: the customer block first, the merchant block under its heading', () => {
    const { lines, qr } = screenFor(tron, 100, 30);
    const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(plain[0]).toMatch(/^▀+ {3}SANDBOX {2}test payment/);
    expect(plain.slice(1, 5).map((l) => l.slice(qr.columns + 2))).toEqual([
      'Pay exactly 12.345678 USDT',
      'on Tron (TRC-20) (Tron Network)',
      `to ${deriveSandboxAddress('tron', TRACK_ID)}`,
      '59 min left, until 12:59'.replace('12:59', plain[4]!.slice(-5)),
    ]);
    const merchant = plain.findIndex((l) => l.includes('─ Merchant ─'));
    const customer = plain.findIndex((l) => l.includes('59 min left'));
    expect(customer).toBeGreaterThan(0);
    expect(merchant).toBeGreaterThan(customer);
    expect(plain.join('\n')).toMatch(/Rate {5}1 USDT = 1 USDT/);
    expect(plain.join('\n')).toMatch(/Order ID gw-20261122-120000-k7q3\s+\(generated\)|\(generated\)/);
    expect(plain.join('\n')).toContain('59 min left, until');
  });

  it('on a narrow terminal: the customer block above the QR, which still scans', () => {
    const { lines, term, uri, qr } = screenFor(tron, 60, 50);
    const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
    const qrStart = plain.findIndex((l) => /^[█▀▄ ]+$/.test(l) && /[█▀▄]/.test(l));
    expect(plain.findIndex((l) => l.startsWith('Pay exactly'))).toBeLessThan(qrStart);
    expect(plain.findIndex((l) => l.includes('─ Merchant ─'))).toBeGreaterThan(qrStart + qr.rows - 1);
    expect(decodeTerminalQr(term.ansi(), 'light')).toBe(uri.uri);
  });

  it('the last row is left for the prompt: a QR exactly as tall as the window does not fit', () => {
    const rows = screenFor(tron, 100, 30).qr.rows; // 19
    const fits = screenFor(tron, 100, rows + 1);
    expect(fits.term.scrollback).toEqual([]);
    expect(decodeTerminalQr(leftColumns(fits.term.ansi(), fits.qr.columns), 'light')).toBe(fits.uri.uri);
    const tight = screenFor(tron, 100, rows);
    expect(tight.term.text()).not.toMatch(/▀/);
    expect(tight.term.text()).toMatch(new RegExp(`No QR code here: the smallest that scans, 37 columns by ${rows} rows, does not fit this 100×${rows} window`));
  });

  it('a QR wider than the window is not drawn: the notice says so, under the amount', () => {
    const { lines, term } = screenFor(usdc, 50, 40);
    expect(lines.join('\n')).not.toMatch(/▀/);
    const visible = term.lines().join(' ').replace(/\s+/g, ' ');
    expect(visible).toMatch(/Pay exactly 12\.345678 USDC .*No QR code here: the smallest that scans, 57 columns by 29 rows, does not fit this 50×40 window/);
    expect(visible).toMatch(/Enlarge the window, or write the code to a file with --qr-out <file\.png>\./);
  });

  it('without colour the glyph QR scans on a dark theme, beside the text', () => {
    const { term, uri, qr, lines } = screenFor(tron, 100, 30, false);
    expect(lines.join('')).not.toContain('\u001b');
    expect(decodeTerminalQr(leftColumns(term.ansi(), qr.columns), 'dark')).toBe(uri.uri);
  });

  it('the state line while waiting sits under the customer block', () => {
    const wide = screenFor(tron, 100, 30, true, { status: '⠋ Waiting for payment · checked just now' });
    const plain = wide.lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(plain.findIndex((l) => l.includes('Waiting for payment'))).toBeLessThan(plain.findIndex((l) => l.includes('─ Merchant ─')));
  });

  it('a memo the URI cannot carry: no QR, the memo as required', () => {
    const payment = paymentOf({
      trackId: TRACK_ID,
      payAmount: '25',
      payCurrency: 'USDT',
      network: 'Tron Network',
      address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      memo: '90215',
    });
    const uri = buildPaymentUri({
      network: 'Tron Network',
      payCurrency: 'USDT',
      address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      payAmount: '25',
      memo: '90215',
    });
    const text = counterScreen({ payment, uri, qr: undefined, width: 80, height: 24, now: NOW, chalk, sandbox: false })
      .join('\n')
      .replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).toMatch(/memo 90215 \(required\)/);
    expect(text).toMatch(/No QR code/);
    expect(text).not.toMatch(/▀/);
  });
});

describe('rate with its units', () => {
  const rate = (amount: string, currency: string, payAmount: string, payCurrency: string, r: string): string | undefined =>
    rateWords({
      amount: Decimal.fromLiteral(amount)!,
      currency: paymentInfoOf({ currency }).currency,
      payAmount: Decimal.fromLiteral(payAmount)!,
      payCurrency: paymentInfoOf({ payCurrency }).payCurrency,
      rate: Decimal.fromLiteral(r)!,
    });
  it.each([
    [['25', 'USD', '0.00038125', 'BTC', '0.00001525'], '1 USD = 0.00001525 BTC'],
    [['25', 'USD', '0.00038125', 'BTC', '65573.55'], '1 BTC = 65573.55 USD'],
    [['25', 'USDT', '25', 'USDT', '1'], '1 USDT = 1 USDT'],
    [['100', 'EUR', '108', 'USDT', '1.08'], '1 EUR = 1.08 USDT'],
    [['100', 'EUR', '108', 'USDT', '0.9259'], '1 USDT = 0.9259 EUR'],
  ])('%j → %s', (args, words) => {
    expect(rate(...(args as [string, string, string, string, string]))).toBe(words);
  });
});

describe('the end of a payment', () => {
  const payment = paymentOf({ trackId: TRACK_ID, amount: '25', currency: 'USD', payAmount: '25', payCurrency: 'USDT', orderId: 'o-1' });
  it.each([
    ['paid', 'PAID', /25 USDT received/],
    ['underpaid', 'UNDERPAID', /Only 22\.5 of 25 USDT was received/],
    ['expired', 'EXPIRED', /can no longer be paid/],
    ['late', 'LATE', /arrived after the payment expired/],
    ['failed', 'FAILED', /failed/],
    ['not-paid', 'NOT PAID', /Treat it as unpaid/],
  ] as const)('%s: block letters that fit 80×24, and what to do', (outcome, word, headline) => {
    const lines = outcomeScreen({
      outcome,
      payment,
      info: paymentInfoOf({ trackId: TRACK_ID, status: outcome, payAmount: '25', payCurrency: 'USDT', payDate: NOW / 1000 }),
      received: Decimal.fromLiteral('22.5'),
      width: 80,
      height: 24,
      chalk,
      sandbox: true,
    });
    const term = new VirtualTerminal(80, 24).write(`${lines.join('\n')}\n$ `);
    expect(term.scrollback).toEqual([]);
    const text = term.text();
    expect(text).toMatch(headline);
    expect(text).toContain(TRACK_ID);
    expect(text).toContain(bigText(word, 79, 23)![0]!.trimEnd());
    expect(text.split('\n').filter((l) => l.includes('█')).length).toBeGreaterThanOrEqual(5);
  });
});

describe('block letters', () => {
  it('takes the largest size that fits', () => {
    expect(bigText('PAID', 100, 20)).toHaveLength(10);
    expect(bigText('PAID', 100, 20)![0]!.length).toBeLessThanOrEqual(100);
    expect(bigText('UNDERPAID', 79, 20)).toHaveLength(5);
    expect(bigTextWidth('UNDERPAID', 1)).toBe(53);
    expect(bigText('UNDERPAID', 40, 20)).toBeUndefined();
    expect(bigText('PAID', 79, 4)).toBeUndefined();
  });
});
