// The counter screen's notes and state line (src/views/counter-screen.ts): a command to run is
// never cut or broken (gw pay's "Follow it until it is paid:" and its gw status line), the state
// line wraps instead of being cut where there is room, the till's key line is whole, and the
// notice when no QR fits names a way out that exists for the caller (gw counter has no --qr-out).
// Every offering at 80×24, 100×30 and 120×40, written into a model terminal with the shell's
// prompt after it; the code must still read back whole.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/gateway/gateway.js';
import { visibleWidth } from '../../src/output/cells.js';
import { buildPaymentUri } from '../../src/payment-uri/index.js';
import { asciiReason, qrChoices, type QrCharset } from '../../src/qr/index.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { type CounterScreenInput, counterScreen } from '../../src/views/counter-screen.js';
import { resumeCommand } from '../../src/views/follow-commands.js';
import { paymentOf } from '../support/fake-gateway.js';
import { decodeScreen } from '../support/qr-decode.js';
import { FULL_PRECISION_AMOUNTS as AMOUNTS } from '../support/sandbox.js';
import { VirtualTerminal } from '../support/terminal.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const TRACK_ID = 'sbxtyzgsqjnn9ybzle8dw5ne3d';
const chalk = new Chalk({ level: 1 });
const FOLLOW = resumeCommand(TRACK_ID, true);
const KEYS = 'Esc or Ctrl-C: back to the prompt (the payment stays open)';
const EXPIRED = '⠋ Expired, nothing arrived so far: watching for late funds · checked just now';

type Offering = (typeof SANDBOX_OFFERINGS)[number];

function screen(offering: Offering, width: number, height: number, extra: Partial<CounterScreenInput>, charset: QrCharset = 'unicode', locale?: string) {
  const payAmount = AMOUNTS[offering.payCurrency] ?? '1';
  const address = deriveSandboxAddress(offering.networkId, TRACK_ID);
  const payment: Payment = paymentOf({
    trackId: TRACK_ID,
    amount: '25',
    currency: 'USD',
    payAmount,
    payCurrency: offering.payCurrency,
    network: offering.network,
    address,
    rate: '1',
    orderId: 'gw-20261122-120000-k7q3',
    description: 'Two coffees and a croissant',
    expiredAt: NOW / 1000 + 3540,
    createdAt: NOW / 1000,
  });
  const uri = buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount });
  const options = { color: true, charset, ...(locale !== undefined && { locale }) };
  const qr = { choices: qrChoices(uri.uri, options), ...(charset === 'ascii' && { asciiReason: asciiReason(locale) }) };
  const lines = counterScreen({ payment, uri, qr, width, height, now: NOW, chalk, sandbox: true, orderIdGenerated: true, ...extra });
  const term = new VirtualTerminal(width, height).write(`${lines.join('\n')}\n$ `);
  return { lines, term, uri: uri.uri, payAmount, address, networkName: uri.networkName };
}

/** Every row the terminal holds, visible or scrolled away, as text: the code's cells beside it and the spaces around left out. */
const allRows = (term: VirtualTerminal): string[] => [...term.scrollback, ...term.text().split('\n')].map((l) => l.replace(/^[\s▀▄█]*/u, '').trimEnd());
const visibleRows = (term: VirtualTerminal): string[] =>
  term
    .text()
    .split('\n')
    .map((l) => l.replace(/^[\s▀▄█]*/u, '').trimEnd());
/** The screen's text without the code's cells and the spaces: wrapped words read whole. */
const squeezed = (text: string): string => text.replace(/[\s▀▄█#]/g, '');

const OFFERINGS = SANDBOX_OFFERINGS.map((o) => [`${o.payCurrency} on ${o.network}`, o] as const);
const SIZES = [
  [80, 24],
  [100, 30],
  [120, 40],
] as const;

describe.each(SIZES)('at %i×%i', (width, height) => {
  it.each(OFFERINGS)('gw pay, %s: the follow command whole on a line of its own, the code scanning, nothing cut', (_name, offering) => {
    const { lines, term, uri, payAmount, address, networkName } = screen(offering, width, height, {
      notes: ['Follow it until it is paid:', FOLLOW],
    });
    for (const line of lines) if (!line.includes(FOLLOW)) expect(visibleWidth(line), line).toBeLessThan(width);
    // The command is a row of its own, whole: not cut with "…", not its --sandbox on the next row.
    expect(allRows(term).filter((row) => row === FOLLOW)).toHaveLength(1);
    // Where the window has rows to spare under the code, it is on screen (at 80×24 the code of the
    // longest URIs takes every row: there the command is above it, whole, and scrolls away first).
    if (width >= 100) expect(visibleRows(term).filter((row) => row === FOLLOW)).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('…');
    expect(decodeScreen(term.ansi(), 'dark', width)).toBe(uri);
    const seen = term.text();
    expect(squeezed(seen)).toContain('SANDBOXtestpayment:sendnothing');
    expect(squeezed(seen)).toContain(`Payexactly${payAmount}${offering.payCurrency}`);
    expect(seen).toContain(`on ${networkName}`);
    expect(squeezed(seen)).toContain(`to${address}`);
  });

  it.each(OFFERINGS)('gw counter, %s: the state line wrapped, the key line whole, on screen', (_name, offering) => {
    const { lines, term, uri, payAmount, address } = screen(offering, width, height, { notes: [KEYS], status: EXPIRED, qrWayOut: null });
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThan(width);
    expect(term.scrollback).toEqual([]);
    expect(decodeScreen(term.ansi(), 'dark', width)).toBe(uri);
    const seen = term.text();
    expect(lines.join('\n')).not.toContain('…');
    expect(squeezed(seen)).toContain(squeezed(EXPIRED));
    expect(squeezed(seen)).toContain(squeezed(KEYS));
    expect(squeezed(seen)).toContain(`Payexactly${payAmount}${offering.payCurrency}`);
    expect(squeezed(seen)).toContain(`to${address}`);
    // What goes when the column is full: the merchant's least important rows, the track id last.
    expect(seen).toContain('Track ID');
  });
});

describe('when the column is full, the merchant rows go least important first', () => {
  const xmr = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'XMR')!;
  it('XMR at 80×24 with the state and the key line: the URI and the description go, the track and order ids stay', () => {
    const { term } = screen(xmr, 80, 24, { notes: [KEYS], status: EXPIRED });
    const seen = term.text();
    expect(seen).not.toContain('URI');
    expect(seen).not.toContain('Two coffees');
    expect(seen).toContain('Track ID');
    expect(seen).toContain('Order ID');
  });
  it('XMR at 120×40: room for every row', () => {
    const { term } = screen(xmr, 120, 40, { notes: [KEYS], status: EXPIRED });
    const seen = term.text();
    for (const label of ['Amount', 'Rate', 'Track ID', 'Order ID', 'Description', 'URI']) expect(seen).toContain(label);
  });
});

describe('no QR fits: the way out the caller has', () => {
  const usdc = SANDBOX_OFFERINGS.find((o) => o.payCurrency === 'USDC')!;
  const btc = SANDBOX_OFFERINGS[0]!;
  it('gw pay (no qrWayOut): a larger window, or --qr-out', () => {
    const seen = squeezed(screen(usdc, 80, 22, {}).term.text());
    expect(seen).toContain(squeezed('Enlarge the window, or write the code to a file with --qr-out <file.png>.'));
  });
  it('gw counter (qrWayOut null): a larger window only, no --qr-out it does not have', () => {
    const seen = squeezed(screen(usdc, 80, 22, { qrWayOut: null, notes: [KEYS] }).term.text());
    expect(seen).toContain(squeezed('does not fit this 80×22 window with the amount and address. Enlarge the window.'));
    expect(seen).not.toContain('--qr-out');
    expect(seen).toContain(squeezed(KEYS));
  });
  it('gw counter under a locale without UTF-8: the locale fix only', () => {
    const seen = squeezed(screen(btc, 80, 24, { qrWayOut: null }, 'ascii', 'LANG=C').term.text());
    expect(seen).toContain(squeezed('LANG=C is not a UTF-8 locale'));
    expect(seen).not.toContain('--qr-out');
    expect(seen).not.toContain(squeezed('this window'));
  });
  it('a way out given by the caller is named, its command whole', () => {
    const command = 'gw pay 25 USD --order-id sale-7 --reuse-if-exists --qr-out <file.png>';
    const { term } = screen(usdc, 80, 22, { qrWayOut: `write the code to a file with ${command}` });
    expect(allRows(term).some((row) => row === command)).toBe(true);
  });
});
