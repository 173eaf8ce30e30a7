// Receipts for a thermal printer (src/views/receipt.ts): at 32, 42 and 48 columns every line fits,
// long values are wrapped whole, gateway text cannot drive the printer, amounts are the exact sums
// per coin, and the state is the counter screen's words.
import { describe, expect, it } from 'vitest';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { RECEIPT_WIDTHS, receiptText, receiptWidthOf, renderReceipt, wrapColumns } from '../../src/views/receipt.js';
import { STATE_WORDS } from '../../src/views/status-view.js';
import { paymentInfoOf } from '../support/fake-gateway.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const NOW = Date.UTC(2026, 10, 25, 14, 30, 5);
const HASH = '0x7d3c1f0e9b8a76543210fedcba9876543210fedcba9876543210fedcba98765432';
const ADDRESS = '0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
const LONG_ORDER = 'order-2026-11-25-counter-3-customer-0042-with-a-very-long-reference';

const SAMPLES: Record<string, () => PaymentInfo> = {
  /** Paid in full, long order id, long hash and address. */
  paid: () =>
    v1InfoOf(
      {
        status: 'paid',
        currency: 'USDT',
        amount: '25.000001',
        order_id: LONG_ORDER,
        pay_amount: '25.000001',
        pay_currency: 'USDT',
        network: 'Ethereum Network',
        address: ADDRESS,
      },
      [v1Tx(HASH, '25.000001', 'USDT', { network: 'Ethereum Network' })],
    ),
  /** A mixed payment: BTC and USDT, the second still confirming, ended underpaid. */
  mixed: () =>
    v1InfoOf({ status: 'underpaid', currency: 'USD', amount: '25', mixed_payment: true }, [
      v1Tx('aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44', '0.00000001', 'BTC'),
      v1Tx(HASH, '10.5', 'USDT', { status: 'confirming', confirmations: 0 }),
    ]),
  /** Expired, nothing arrived (an empty list). */
  nothing: () => v1InfoOf({ status: 'expired', currency: 'BTC', amount: '0.0005' }, []),
  /** Underpaid in the coin asked: the shortfall is stated. */
  underpaid: () =>
    v1InfoOf({ status: 'underpaid', currency: 'BTC', amount: '0.0005', pay_amount: '0.0005', pay_currency: 'BTC' }, [v1Tx(HASH, '0.0004', 'BTC')]),
  /** Funds after the expiry: late. */
  late: () => v1InfoOf({ status: 'expired', currency: 'BTC', amount: '0.0005' }, [v1Tx(HASH, '0.0005', 'BTC')]),
};

/**
 * The value column's text of the lines from `label` on, continuations joined where they broke (a
 * hash broken mid-word comes back whole; words lose the space they broke at).
 */
function valueAfter(text: string, label: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(label.padEnd(10)));
  if (start < 0) return '';
  let out = lines[start]?.slice(10) ?? '';
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(' '.repeat(10)) || line.trim() === '') break;
    out += line.slice(10);
  }
  return out;
}

describe('renderReceipt: every width, every situation', () => {
  const cases = RECEIPT_WIDTHS.flatMap((width) => Object.keys(SAMPLES).map((name) => ({ width, name })));
  it.each(cases)('$name at $width columns: every line fits, ASCII only, nothing cut', ({ width, name }) => {
    const info = (SAMPLES[name] as () => PaymentInfo)();
    const text = renderReceipt(info, { width, now: NOW, merchantName: 'Café Zoë — Corner Shop & Espresso Bar of Long Street' });
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.slice(0, -1).split('\n')) expect(receiptWidthOf(line), line).toBeLessThanOrEqual(width);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    // Every character of the long values is on paper, across lines.
    const joined = text.replace(/\n {10}/g, '');
    if (info.arrival.transactions?.some((tx) => tx.hash?.raw() === HASH)) expect(joined).toContain(HASH);
    expect(valueAfter(text, 'Track ID')).toBe('184729305');
    expect(text).toContain('Cafe Zoe - Corner');
    expect(text.split('\n')[0]).toBe('='.repeat(width));
    // The state in the counter screen's words.
    expect(valueAfter(text, 'State').replace(/\s+/g, '')).toBe(
      `${info.status.toUpperCase()}${(info.status === 'expired' ? STATE_WORDS.expired : STATE_WORDS[info.status]).replace(/\s+/g, '')}`,
    );
  });
});

describe('renderReceipt: what it says', () => {
  it('a paid payment: date in local time, order, amounts, network, address and hash whole', () => {
    const text = renderReceipt(SAMPLES.paid?.() as PaymentInfo, { width: 32, now: NOW });
    expect(valueAfter(text, 'Order')).toBe(LONG_ORDER);
    expect(valueAfter(text, 'Amount')).toBe('25.000001 USDT');
    expect(valueAfter(text, 'Received')).toBe('25.000001 USDT');
    expect(valueAfter(text, 'Address')).toBe(ADDRESS);
    expect(valueAfter(text, 'Tx')).toBe(`25.000001 USDT${HASH}`);
    expect(valueAfter(text, 'Date')).toMatch(/^2026-11-25 \d\d:30:05$/);
    expect(text).not.toMatch(/Short|Over/);
  });

  it('what arrived per coin, exact: one line per coin, the unconfirmed part said', () => {
    const text = renderReceipt(SAMPLES.mixed?.() as PaymentInfo, { width: 42, now: NOW });
    expect(text).toContain('Received  0.00000001 BTC\n          10.5 USDT\n          (10.5 USDT not confirmed)\n');
    expect(valueAfter(text, 'Amount')).toBe('25 USD');
    expect(text).toContain('Tx 1      0.00000001 BTC');
    expect(text).toContain('Tx 2      10.5 USDT');
  });

  it('nothing arrived: "nothing", no transaction lines', () => {
    const text = renderReceipt(SAMPLES.nothing?.() as PaymentInfo, { width: 42, now: NOW });
    expect(valueAfter(text, 'Received')).toBe('nothing');
    expect(text).not.toMatch(/^Tx/m);
    expect(text).toContain('EXPIRED');
  });

  it('underpaid: the shortfall in the coin owed', () => {
    const text = renderReceipt(SAMPLES.underpaid?.() as PaymentInfo, { width: 42, now: NOW });
    expect(valueAfter(text, 'Received')).toBe('0.0004 BTC');
    expect(valueAfter(text, 'Short')).toBe('0.0001 BTC');
    expect(valueAfter(text, 'State').replace(/ /g, '')).toBe(`UNDERPAID${STATE_WORDS.underpaid}`.replace(/ /g, ''));
  });

  it('late: what arrived after the expiry, and what to do', () => {
    const text = renderReceipt(SAMPLES.late?.() as PaymentInfo, { width: 48, now: NOW });
    expect(valueAfter(text, 'Received')).toBe('0.0005 BTC');
    expect(valueAfter(text, 'State').replace(/ /g, '')).toBe(`LATE${STATE_WORDS.late}`.replace(/ /g, ''));
  });

  it('the legacy API (no transaction list): "not reported", its one txID', () => {
    const info = paymentInfoOf({ status: 'Paid', amount: '25', currency: 'USDT', txID: HASH });
    const text = renderReceipt(info, { width: 32, now: NOW });
    expect(text).toContain('Received  not reported by the');
    expect(valueAfter(text, 'Tx')).toBe(HASH);
  });

  it('a sandbox payment says it is no real payment', () => {
    const text = renderReceipt(SAMPLES.paid?.() as PaymentInfo, { width: 32, now: NOW, sandbox: true });
    expect(text).toContain('SANDBOX - NOT A REAL PAYMENT');
  });
});

describe('renderReceipt: gateway text cannot drive a printer or a terminal', () => {
  // ESC/POS: ESC @ (reset), GS V (cut paper), ESC p (open the drawer); a terminal's clear screen,
  // an OSC title, a form feed, a carriage return, bidi overrides.
  const hostile = 'ORD\u001b@\u001dV\u0000\u001bp\u0000\u0019\u001b[2J\u001b]0;pwned\u0007\f\r\n\u202eEVIL\u200b-1';
  it.each(RECEIPT_WIDTHS)('at %i columns: only printable characters and line breaks', (width) => {
    const info = v1InfoOf({ status: 'paid', currency: 'USDT', amount: '5', order_id: hostile, description: hostile }, [
      v1Tx(`${HASH}\u001b[31m`, '5', 'USDT', { network: 'Tron\u001b[0m\nNetwork', status: 'confirmed' }),
    ]);
    const text = renderReceipt(info, { width, now: NOW, merchantName: `Shop\u001b@\u001dV\u0000` });
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(text).not.toContain('pwned\n');
    // ESC @, GS V, ESC p, CSI, OSC and the controls are gone whole; the line breaks are one space.
    expect(valueAfter(text, 'Order')).toBe('ORDV EVIL-1');
    for (const line of text.slice(0, -1).split('\n')) expect(receiptWidthOf(line)).toBeLessThanOrEqual(width);
  });

  it('with unicode, accents and wide characters are kept and still fit', () => {
    const info = SAMPLES.paid?.() as PaymentInfo;
    const text = renderReceipt(info, { width: 32, now: NOW, unicode: true, merchantName: '東京のカフェ Zoë 東京のカフェ Zoë 東京のカフェ' });
    expect(text).toContain('Zoë');
    expect(text).toContain('東京');
    expect(text.split('\n')[0]).toBe('═'.repeat(32));
    for (const line of text.slice(0, -1).split('\n')) expect(receiptWidthOf(line), line).toBeLessThanOrEqual(32);
  });
});

describe('receipt text helpers', () => {
  it.each([
    ['Café “Zoë” – 5…', false, 'Cafe "Zoe" - 5...'],
    ['a\tb\nc\u001b[1md', false, 'a b cd'],
    ['東京', false, '??'],
    ['東京', true, '東京'],
  ])('receiptText(%j, unicode %s) = %j', (input, unicode, expected) => {
    expect(receiptText(input, unicode)).toBe(expected);
  });

  it.each([
    ['one two three four', 9, ['one two', 'three', 'four']],
    ['abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['ab cdefghij', 4, ['ab', 'cdef', 'ghij']],
    ['東京東京東', 4, ['東京', '東京', '東']],
  ])('wrapColumns(%j, %i)', (text, width, expected) => {
    expect(wrapColumns(text, width)).toEqual(expected);
  });
});
