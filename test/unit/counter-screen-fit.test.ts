// The counter screen's QR always scans or is not drawn (issue 24). Every sandbox offering, at
// 80×24, 100×30 and 120×40 and in a window too small, on a dark and a light theme: the screen
// (src/views/counter-screen.ts, with the QR's ways of drawing from src/qr qrChoices) is written
// into a model terminal with the shell's prompt after it, and the whole visible screen — the text
// beside the code included, as ink — is decoded as a camera would see it. The code must read back
// as the payment URI, nothing may scroll away or be wider than the window, and the SANDBOX mark,
// the amount, the network and the address must be on screen. A code that fits no way is not
// drawn at all, and a notice with the way out stays visible.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/gateway/gateway.js';
import { visibleWidth } from '../../src/output/cells.js';
import { buildPaymentUri } from '../../src/payment-uri/index.js';
import { asciiReason, qrChoices, type QrCharset } from '../../src/qr/index.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { counterScreen } from '../../src/views/counter-screen.js';
import { paymentOf } from '../support/fake-gateway.js';
import { decodeScreen, type Theme } from '../support/qr-decode.js';
import { FULL_PRECISION_AMOUNTS as AMOUNTS } from '../support/sandbox.js';
import { VirtualTerminal } from '../support/terminal.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const TRACK_ID = 'sbxtyzgsqjnn9ybzle8dw5ne3d';
const chalk = new Chalk({ level: 1 });

type Offering = (typeof SANDBOX_OFFERINGS)[number];

/** The screen `gw pay --wait` draws while waiting, on a terminal of this size, then the shell's prompt. */
function waitingScreen(offering: Offering, width: number, height: number, charset: QrCharset = 'unicode', locale?: string) {
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
    expiredAt: NOW / 1000 + 3540,
    createdAt: NOW / 1000,
  });
  const uri = buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount });
  const options = { color: true, charset, ...(locale !== undefined && { locale }) };
  const qr = { choices: qrChoices(uri.uri, options), ...(charset === 'ascii' && { asciiReason: asciiReason(locale) }) };
  const lines = counterScreen({
    payment,
    uri,
    qr,
    width,
    height,
    now: NOW,
    chalk,
    sandbox: true,
    orderIdGenerated: true,
    status: '⠋ Waiting for payment · checked just now',
  });
  const term = new VirtualTerminal(width, height).write(`${lines.join('\n')}\n$ `);
  return { lines, term, uri: uri.uri, payAmount, address, networkName: uri.networkName };
}

/** The screen's text without the code's cells and the spaces: wrapped values read whole. */
const squeezed = (text: string): string => text.replace(/[\s▀▄█#]/g, '');
const hasCode = (text: string): boolean => /[▀▄█]|##/.test(text);

const OFFERINGS = SANDBOX_OFFERINGS.map((o) => [`${o.payCurrency} on ${o.network}`, o] as const);
const THEMES: readonly Theme[] = ['dark', 'light'];

describe.each([
  [80, 24],
  [100, 30],
  [120, 40],
])('at %i×%i every offering scans with the amount, network, SANDBOX and address on screen', (width, height) => {
  describe.each(OFFERINGS)('%s', (_name, offering) => {
    it.each(THEMES)('on a %s theme', (theme) => {
      const { lines, term, uri, payAmount, address, networkName } = waitingScreen(offering, width, height);
      for (const line of lines) expect(visibleWidth(line), line).toBeLessThan(width);
      expect(term.scrollback).toEqual([]);
      expect(decodeScreen(term.ansi(), theme, width)).toBe(uri);
      const seen = term.text();
      expect(seen).toContain('SANDBOX');
      expect(squeezed(seen)).toContain('SANDBOXtestpayment:sendnothing'); // whole, not cut
      expect(squeezed(seen)).toContain(`Payexactly${payAmount}${offering.payCurrency}`);
      expect(seen).toContain(`on ${networkName}`);
      expect(squeezed(seen)).toContain(`to${address}`);
      expect(seen).toContain('Waiting for payment');
    });
  });
});

describe('a window too small for the code', () => {
  const hard = OFFERINGS.filter(([, o]) => ['USDC', 'XMR'].includes(o.payCurrency) || (o.payCurrency === 'USDT' && o.networkId !== 'tron'));

  it.each(hard)('%s at 80×22: no code drawn, the notice with the way out stays visible', (_name, offering) => {
    const { term, payAmount } = waitingScreen(offering, 80, 22);
    const seen = term.text();
    expect(hasCode(seen)).toBe(false);
    expect(term.scrollback.join('\n')).not.toMatch(/[▀▄█]/);
    expect(squeezed(seen)).toContain(
      squeezed('No QR code here: the smallest that scans, 45 columns by 23 rows, does not fit this 80×22 window with the amount and address.'),
    );
    expect(squeezed(seen)).toContain(squeezed('Enlarge the window, or write the code to a file with --qr-out <file.png>.'));
    expect(seen).toContain(`Pay exactly ${payAmount}`);
  });

  it('never a code cut: at any size, a code on screen reads back whole, or none is drawn and the notice says why', () => {
    let drawn = 0;
    let notDrawn = 0;
    const usdc = hard.find(([, o]) => o.payCurrency === 'USDC')!;
    const xmr = hard.find(([, o]) => o.payCurrency === 'XMR')!;
    for (const [, offering] of [OFFERINGS[0]!, usdc, xmr]) {
      for (let width = 40; width <= 130; width += 12) {
        for (let height = 12; height <= 44; height += 5) {
          const { term, uri } = waitingScreen(offering, width, height);
          const all = `${term.scrollback.join('\n')}\n${term.text()}`;
          if (hasCode(all)) {
            drawn++;
            expect(term.scrollback.join('\n'), `${width}×${height}`).not.toMatch(/[▀▄█]/);
            expect(decodeScreen(term.ansi(), 'dark', width), `${width}×${height}`).toBe(uri);
          } else {
            notDrawn++;
            expect(squeezed(term.text()), `${width}×${height}`).toContain(squeezed('--qr-out <file.png>'));
          }
        }
      }
    }
    expect(drawn).toBeGreaterThan(0);
    expect(notDrawn).toBeGreaterThan(0);
  });
});

describe('a locale without UTF-8', () => {
  const btc = SANDBOX_OFFERINGS[0]!;
  it('at 80×24 the notice names the locale and the fix, not the window', () => {
    const { term } = waitingScreen(btc, 80, 24, 'ascii', 'LANG=C');
    const seen = term.text();
    expect(hasCode(seen)).toBe(false);
    const words = squeezed(seen);
    expect(words).toContain(squeezed('LANG=C is not a UTF-8 locale'));
    expect(words).toContain(squeezed('run gw with LANG=C.UTF-8 (or GW_UTF8=1, or --qr-charset utf8, if this terminal shows UTF-8 anyway)'));
    expect(words).toContain(squeezed('--qr-out <file.png>'));
    expect(seen).not.toMatch(/this window is/);
  });

  it.each(THEMES)('where the ASCII code fits (120×40), it scans on a %s theme', (theme) => {
    const { term, uri } = waitingScreen(btc, 120, 40, 'ascii', 'LANG=C');
    expect(term.scrollback).toEqual([]);
    expect(decodeScreen(term.ansi(), theme, 120)).toBe(uri);
  });
});
