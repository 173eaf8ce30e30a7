import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, type PayOptions, payRun } from '../../src/commands/pay.js';
import { ExitCode, GwError, UsageError } from '../../src/errors.js';
import { TransportError } from '../../src/gateway/transport.js';
import type { Decimal } from '../../src/money/decimal.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { decodeScreen } from '../support/qr-decode.js';
import { VirtualTerminal } from '../support/terminal.js';
import { FakeGateway, type FakeAnswers, tronPayment } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
const request = buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' });

function setup(answers: FakeAnswers, io: TestIOOptions = {}, extra: Partial<PayOptions> = {}) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway(answers);
  const opts: PayOptions = { io: t.io, gateway: async () => gateway, clock, request, qr: 'auto', qrOut: undefined, ...extra };
  return { t, gateway, opts };
}

describe('buildPaymentRequest: everything checked before a request', () => {
  it('keeps the amount exactly as typed and upper-cases symbols', () => {
    const r = buildPaymentRequest('25.50', 'usd', { payCurrency: 'usdt', lifeTime: '30', feePaidByPayer: '1', underPaidCover: '2.5' });
    expect({ ...r, amount: r.amount.toString(), underPaidCover: r.underPaidCover?.toString() }).toEqual({
      amount: '25.50',
      currency: 'USD',
      payCurrency: 'USDT',
      lifeTime: 30,
      feePaidByPayer: 1,
      underPaidCover: '2.5',
    });
  });

  it.each([
    ['abc', 'USDT', {}, /<amount> must be a plain positive decimal/],
    ['-5', 'USDT', {}, /<amount>/],
    ['1e3', 'USDT', {}, /<amount>/],
    ['0', 'USDT', {}, /<amount>/],
    ['25', 'USD', {}, /USD is not a coin a payer can send/],
    ['25', 'USDT', { lifeTime: '10' }, /--life-time must be a whole number of minutes from 15 to 2880/],
    ['25', 'USDT', { lifeTime: '2881' }, /--life-time/],
    ['25', 'USDT', { lifeTime: '30.5' }, /--life-time/],
    ['25', 'USDT', { underPaidCover: '60.01' }, /--under-paid-cover must be a percentage from 0 to 60/],
    ['25', 'USDT', { feePaidByPayer: '2' }, /--fee-paid-by-payer must be 0/],
    ['25', 'USDT', { callbackUrl: 'ftp://x' }, /--callback-url must be an http\(s\) URL/],
    ['25', 'USDT', { email: 'nope' }, /--email/],
    ['25', 'USDT', { orderId: 'a\nb' }, /--order-id must not contain control characters/],
    ['0.1234567890123456789', 'ETH', {}, /more decimal places than ETH has \(18\)/],
    ['0.123456789', 'BTC', {}, /more decimal places than BTC has \(8\)/],
    ['1.1234567', 'USDT', { network: 'Tron Network' }, /more decimal places than USDT has \(6\)/],
  ])('%s %s %j → usage error', (amount, currency, flags, message) => {
    expect(() => buildPaymentRequest(amount, currency, flags)).toThrow(UsageError);
    expect(() => buildPaymentRequest(amount, currency, flags)).toThrow(message);
  });

  it('an amount with more decimals is fine when gw cannot know the asset, or only trailing zeros are extra', () => {
    expect(buildPaymentRequest('1.1234567', 'USDT', {}).amount.toString()).toBe('1.1234567'); // BNB Smart Chain has 18
    expect(buildPaymentRequest('0.12345678000', 'BTC', {}).amount.toString()).toBe('0.12345678000'); // trailing zeros
    expect(buildPaymentRequest('0.123456789', 'USD', { payCurrency: 'BTC' }).amount.toString()).toBe('0.123456789'); // fiat
  });
});

describe('payRun', () => {
  it('on a terminal: the counter screen on a cleared screen, the amount, network, address, time left and a QR that decodes', async () => {
    const { t, gateway } = setup({ payment: tronPayment(clock.now()) }, { stdoutTTY: true, color: true, width: 100, height: 30 });
    await payRun({ ...setup({}).opts, io: t.io, gateway: async () => gateway });
    expect(gateway.calls).toHaveLength(1);
    expect(t.stdout().startsWith('\u001b[H\u001b[2J')).toBe(true);
    const term = new VirtualTerminal(100, 30).write(`${t.stdout()}$ `);
    const text = term.text();
    expect(text).toMatch(/Pay exactly 25 USDT/);
    expect(text).toMatch(/on Tron \(TRC-20\) \(Tron Network\)/);
    expect(text).toMatch(/to TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe/);
    expect(text).toMatch(/60 min left, until \d\d:\d\d/);
    expect(text).toMatch(/Order ID ORD-7/);
    expect(text).toMatch(/Rate +1 USDT = 1 USDT/);
    expect(term.scrollback).toEqual([]);
    // The whole screen as a camera sees it: the code is drawn at the highest level that fits.
    expect(decodeScreen(term.ansi(), 'light', 100)).toBe('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
    expect(decodeScreen(term.ansi(), 'dark', 100)).toBe('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
  });

  it('a code too wide under a locale without UTF-8 (TERM=dumb): the warning names the locale and its fix, not the window', async () => {
    const io = { stdoutTTY: true, stderrTTY: true, width: 60, env: { TERM: 'dumb', LANG: 'C' } };
    const { t, opts } = setup({ payment: tronPayment(clock.now()) }, io, { qr: 'always' });
    await payRun(opts);
    const warning = t.stderr().replace(/\n +/g, ' ');
    expect(warning).toMatch(/gw: warning: the QR code needs \d+ columns and the terminal has 60: LANG=C is not a UTF-8 locale/);
    expect(warning).toMatch(/run gw with LANG=C\.UTF-8 .*; or use --qr-out <file\.png>/);
    expect(warning).not.toMatch(/widen it/);
  });

  it('a code taller than the screen (TERM=dumb, 12 lines) is never drawn cut: not drawn, one warning with the way out', async () => {
    const io = { stdoutTTY: true, stderrTTY: true, width: 100, height: 12, env: { TERM: 'dumb', LANG: 'C.UTF-8' } };
    const { t, opts } = setup({ payment: tronPayment(clock.now()) }, io, { qr: 'always' });
    await payRun(opts);
    expect(t.stdout()).not.toMatch(/[\u2580-\u259f]/);
    expect(t.stderr().replace(/\n +/g, ' ')).toMatch(/the QR code needs \d+ lines and the terminal has 12: enlarge the window; or use --qr-out <file\.png>/);
    expect(t.stdout()).toContain('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
  });

  it('--no-clear leaves the screen as it is', async () => {
    const { t, opts } = setup({ payment: tronPayment(clock.now()) }, { stdoutTTY: true, width: 100, height: 30 }, { clear: false });
    await payRun(opts);
    expect(t.stdout()).not.toContain('\u001b[2J');
  });

  it('a payment that arrives already expired is not payable: no QR, exit 11, the clock named', async () => {
    const { t, opts } = setup(
      // Created an hour ago by the gateway's clock: this machine's clock looks ahead.
      { payment: tronPayment(clock.now(), { createdAt: Math.floor(clock.now() / 1000) - 3605, expiredAt: Math.floor(clock.now() / 1000) - 5 }) },
      { stdoutTTY: true, width: 100, height: 30 },
    );
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.EXPIRED, trackId: '184729305', payment: 'created' });
    expect(error.message).toMatch(/^payment 184729305 arrived already expired \(at 2026-11-22 \d\d:59:55\): it is not payable and no QR is shown$/);
    expect(error.hint).toMatch(/this machine's clock says 2026-11-22 \d\d:00:00: check it/);
    expect(t.stdout()).toContain('NOT PAYABLE');
    expect(t.stdout()).not.toMatch(/[▀▄█]|Pay exactly/);
  });

  it('into a pipe: no QR unless --qr', async () => {
    const piped = setup({ payment: tronPayment(clock.now()) });
    await payRun(piped.opts);
    expect(piped.t.stdout()).not.toMatch(/[▀▄█]/);
    const forced = setup({ payment: tronPayment(clock.now()) }, {}, { qr: 'always' });
    await payRun(forced.opts);
    expect(forced.t.stdout()).toMatch(/[▀▄█]/);
  });

  it('without --wait: one line on stderr with the command that follows the payment (shell-quoted; --sandbox on sandbox runs); none with --json', async () => {
    const plain = setup({ payment: tronPayment(clock.now()) });
    await payRun(plain.opts);
    expect(plain.t.stderr()).toBe('Follow it until it is paid: gw status 184729305 --wait\n');
    expect(plain.t.stdout()).not.toContain('gw status');

    const sandboxed = setup({ payment: tronPayment(clock.now(), { trackId: 'sbx 1' }) });
    sandboxed.t.io.setSandbox(true);
    await payRun(sandboxed.opts);
    expect(sandboxed.t.stderr()).toContain("Follow it until it is paid: gw status 'sbx 1' --wait --sandbox\n");

    const json = setup({ payment: tronPayment(clock.now()) }, { json: true });
    await payRun(json.opts);
    expect(json.t.stderr()).toBe('');

    // The counter screen fills the terminal: no line under it on the same terminal (it would scroll
    // the QR away); the command is on the screen itself, whole on a line, and the QR still scans.
    for (const [width, height] of [
      [80, 24],
      [100, 30],
    ] as const) {
      const counter = setup({ payment: tronPayment(clock.now()) }, { stdoutTTY: true, stderrTTY: true, width, height, color: true });
      await payRun(counter.opts);
      expect(counter.t.stderr()).not.toContain('gw status');
      const screen = new VirtualTerminal(width, height).write(`${counter.t.stdout()}${counter.t.stderr()}$ `);
      expect(screen.text()).toMatch(/^ *(\S+ +)?gw status 184729305 --wait$/m);
      expect(screen.text()).toContain('Follow it until it is paid:');
      for (const theme of ['dark', 'light'] as const) expect(decodeScreen(screen.ansi(), theme)).toBe('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
    }
  });

  it('--json: one document, every field under its own name, amounts as exact strings, plus the URI', async () => {
    const { t, opts } = setup({ payment: tronPayment(clock.now(), { payAmount: 25.000001 }) }, { json: true });
    await payRun(opts);
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(doc).toMatchObject({ trackId: '184729305', payAmount: '25.000001', payCurrency: 'USDT', memo: null, uri: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe' });
    expect(t.stderr()).toBe('');
  });

  it('a failure that may have reached the gateway: MAY HAVE BEEN CREATED, with the order id and the command that finds it', async () => {
    const { opts } = setup({ payment: new TransportError(ExitCode.TEMPFAIL, 'no complete answer from the gateway within 15 s', 'maybe-sent') });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(75);
    expect(error.message).toMatch(/MAY HAVE BEEN CREATED/);
    expect(error.hint).toBe(
      'look for order id "ORD-7" before trying again: gw payments --order-id ORD-7, or pay again with --order-id ORD-7 --reuse-if-exists',
    );
    expect(error.payment).toBe('unknown');
    expect(error.jsonFields()).toMatchObject({ payment: 'unknown', orderId: 'ORD-7' }); // a script need not read the hint
  });

  it.each([
    ['result 131 (the gateway failed inside)', new GwError(ExitCode.UNAVAILABLE, 'the gateway failed: An error occurred. (result 131)', { result: 131 })],
    ['result 500', new GwError(ExitCode.UNAVAILABLE, 'the gateway failed (result 500)', { result: 500 })],
    ['HTTP 502 with an error object', new GwError(ExitCode.UNAVAILABLE, 'the gateway refused: bad gateway (status 502)', { status: 502, type: 'api_error' })],
    ['an answer that could not be read', new GwError(ExitCode.PROTOCOL, "the gateway's answer is not valid JSON")],
  ])('%s is ambiguous: the payment may exist', async (_name, thrown) => {
    const { opts } = setup({ payment: thrown });
    const error = await gwFailure(payRun(opts));
    expect(error.payment).toBe('unknown');
    expect(error.message).toMatch(/MAY HAVE BEEN CREATED/);
  });

  it.each([
    ['a refusal (result 101)', new GwError(ExitCode.DATA, 'the gateway refused: bad (result 101)', { result: 101 })],
    ['a connection never made', new TransportError(ExitCode.UNAVAILABLE, 'cannot connect to the gateway: connection refused', 'not-sent')],
    ['a missing key', new GwError(ExitCode.CONFIG, 'no merchant API key is configured')],
  ])('%s is not: no payment exists', async (_name, thrown) => {
    const { opts } = setup({ payment: thrown });
    const error = await gwFailure(payRun(opts));
    expect(error).toBe(thrown);
    expect(error.payment).toBeUndefined();
  });

  it.each([
    ['priced at zero', { payAmount: '0' }, /priced it at 0/],
    ['without an amount', { payAmount: null }, /gave no amount to pay/],
    ['without an address', { address: '' }, /gave no address/],
    ['with an address not valid for the network', { address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZf' }, /not valid for Tron/],
  ])('a payment %s is shown as NOT PAYABLE, without amount or address, and exit 76 names it', async (_name, fields, reason) => {
    const { t, opts } = setup({ payment: tronPayment(clock.now(), fields) }, { stdoutTTY: true, color: false });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: 76, trackId: '184729305', payment: 'created' });
    expect(error.message).toMatch(reason);
    expect(t.stdout()).toContain('NOT PAYABLE');
    expect(t.stdout()).toMatch(/Track ID\s+184729305/);
    expect(t.stdout()).not.toMatch(/Pay exactly|Address|[▀▄█]/);
  });

  it('a memo the URI cannot carry (Tron): no QR and no URI, the memo shown as required', async () => {
    const { t, opts } = setup({ payment: tronPayment(clock.now(), { memo: '90215' }) }, { stdoutTTY: true, color: false }, { qr: 'always' });
    await payRun(opts);
    expect(t.stdout()).toMatch(/memo 90215 \(required\)/);
    expect(t.stdout()).toMatch(/No QR code/);
    expect(t.stdout()).not.toMatch(/[▀▄█]|^URI/m);
    const json = setup({ payment: tronPayment(clock.now(), { memo: '90215' }) }, { json: true });
    await payRun(json.opts);
    expect(JSON.parse(json.t.stdout())).toMatchObject({ memo: '90215', uri: null });
  });

  it('a memo on TON goes into the transfer link as text=', async () => {
    const ton = tronPayment(clock.now(), {
      payCurrency: 'TON',
      network: 'TON Network',
      payAmount: '1.5',
      address: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
      memo: 'order 42',
    });
    const { t, opts } = setup({ payment: ton }, { json: true });
    await payRun(opts);
    expect((JSON.parse(t.stdout()) as { uri: string }).uri).toMatch(/^ton:\/\/transfer\/.+\?amount=1500000000&text=order%2042$/);
  });

  it('--qr-out into a folder that does not exist: exit 73 before anything is created', async () => {
    const { opts, gateway } = setup({ payment: tronPayment(clock.now()) }, {}, { qrOut: '/nonexistent-dir/qr.png' });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.CANTCREAT);
    expect(error.message).toMatch(/no payment was created/);
    expect(gateway.calls).toHaveLength(0);
  });

  it('--qr-out writes the image after the payment exists', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-pay-'));
    const { t, opts } = setup({ payment: tronPayment(clock.now()) }, {}, { qrOut: path.join(dir, 'qr.png') });
    await payRun(opts);
    expect(t.stdout()).toContain(`QR image written to ${path.join(dir, 'qr.png')}`);
  });

  it('a stdout that loses the document (disk full) is exit 74 naming the payment that was created', async () => {
    const stdout = {
      write: (_s: string, cb?: (e?: Error | null) => void): boolean => {
        cb?.(Object.assign(new Error('full'), { code: 'ENOSPC' }));
        return false;
      },
    };
    const io = new IOStreams({ stdout, stderr: { write: () => true }, env: {} });
    const gateway = new FakeGateway({ payment: tronPayment(clock.now()) });
    const error = await gwFailure(payRun({ io, gateway: async () => gateway, clock, request, qr: 'never', qrOut: undefined }));
    expect(error).toMatchObject({ exitCode: ExitCode.IOERR, trackId: '184729305', payment: 'created' });
    expect(error.message).toMatch(/^payment 184729305 was created, but the output could not be written/);
  });

  it('sends the request as built: amount digits untouched', async () => {
    const { opts, gateway } = setup({ payment: tronPayment(clock.now()) }, {}, { request: buildPaymentRequest('25.50', 'USD', { payCurrency: 'USDT' }) });
    await payRun(opts);
    const sent = gateway.calls[0]?.args[0] as { amount: Decimal };
    expect(sent.amount.toString()).toBe('25.50');
  });
});

describe('payRun: --qr-out carries a caption', () => {
  it('the SVG names the amount, network and track id under the code', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-pay-caption-'));
    const file = path.join(dir, 'qr.svg');
    const { opts } = setup({ payment: tronPayment(clock.now()) }, {}, { qrOut: file });
    await payRun(opts);
    const { readFileSync } = await import('node:fs');
    const svg = readFileSync(file, 'utf8');
    expect(svg).toContain('25 USDT');
    expect(svg).toContain('Tron (TRC-20)');
    expect(svg).toContain('track 184729305');
  });
});
