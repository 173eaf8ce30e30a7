// gw pay --wait --receipt FILE: the file is checked before the payment exists (exit 73, nothing
// created), written atomically once the payment ends, never over an existing file, and a receipt
// that cannot be written after the end is exit 73 stating the payment's state.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReceiptRequest } from '../../src/cmdutil/receipts.js';
import { buildPaymentRequest, type PayOptions, payRun } from '../../src/commands/pay.js';
import { ExitCode } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { ManualClock } from '../../src/util/clock.js';
import { FakeGateway, paymentInfoOf, tronPayment } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = T0 / 1000;
const HASH = 'f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff';

function info(status: string, extra: Record<string, unknown> = {}): PaymentInfo {
  return paymentInfoOf({
    status,
    amount: '25',
    currency: 'USDT',
    payAmount: '25',
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
    orderId: 'ORD-7',
    date: S,
    expiredAt: S + 3600,
    txID: HASH,
    ...extra,
  });
}

const folder = (): string => mkdtempSync(path.join(tmpdir(), 'gw-receipt-'));

interface Setup {
  file: string;
  answer?: PaymentInfo | (() => Promise<PaymentInfo>);
  config?: Awaited<ReturnType<ReceiptRequest['config']>>;
  receipt?: Partial<ReceiptRequest>;
  extra?: Partial<PayOptions>;
}

function setup({ file, answer = info('Paid', { payDate: S + 60 }), config = {}, receipt = {}, extra = {}, tty = false }: Setup & { tty?: boolean }) {
  const t = IOStreams.test(tty ? { stdoutTTY: true, stderrTTY: true, width: 80, height: 24, color: false } : {});
  const gateway = new FakeGateway({ payment: tronPayment(T0), info: answer });
  const clock = new ManualClock(T0);
  const opts: PayOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock,
    request: buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' }),
    qr: 'never',
    qrOut: undefined,
    wait: true,
    receipt: { target: { kind: 'file', path: file, flag: '--receipt' }, unicode: false, config: async () => config, ...receipt },
    ...extra,
  };
  return { t, gateway, opts };
}

describe('gw pay --wait --receipt: written when the payment ends', () => {
  it('paid: the receipt is in the file, the exit is 0, one line says where', async () => {
    const dir = folder();
    const file = path.join(dir, 'receipt.txt');
    const { t, opts } = setup({ file, config: { merchantName: { value: 'Corner Shop', source: { kind: 'default' } } } });
    await payRun(opts);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Corner Shop');
    expect(text).toMatch(/^State {5}PAID$/m);
    expect(text).toContain('Track ID  184729305');
    expect(text).toContain('Order     ORD-7');
    expect(text.replace(/\n {10}/g, '')).toContain(HASH);
    // The default width, 42 columns.
    expect(text.split('\n')[0]).toBe('='.repeat(42));
    expect(t.stderr()).toContain(`Receipt written to ${file}`);
    // Nothing else in the folder: the temporary file is gone.
    expect(readdirSync(dir)).toEqual(['receipt.txt']);
  });

  it('on a terminal (the counter screen): the same receipt, the line after the final screen', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    const { t, opts } = setup({ file, tty: true, extra: { qr: 'auto' } });
    await payRun(opts);
    expect(readFileSync(file, 'utf8')).toMatch(/^State {5}PAID$/m);
    expect(t.stderr().trimEnd().split('\n').at(-1)).toBe(`Receipt written to ${file}`);
  });

  it('the width: the flag, else the configured receiptWidth', async () => {
    const dir = folder();
    const configured = { receiptWidth: { value: 32 as const, source: { kind: 'default' as const } } };
    const a = setup({ file: path.join(dir, 'a.txt'), config: configured });
    await payRun(a.opts);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8').split('\n')[0]).toBe('='.repeat(32));
    const b = setup({ file: path.join(dir, 'b.txt'), config: configured, receipt: { width: 48 } });
    await payRun(b.opts);
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8').split('\n')[0]).toBe('='.repeat(48));
  });

  it('underpaid: the receipt says so and the exit is still the state (10)', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    const { opts } = setup({ file, answer: info('Underpaid') });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.UNDERPAID);
    expect(readFileSync(file, 'utf8')).toMatch(/^State {5}UNDERPAID$/m);
  });

  it('a wait that ends without a final state (--wait-timeout): no receipt, a warning, exit 124', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    const { t, opts } = setup({ file, answer: info('Waiting'), extra: { waitTimeoutMs: 60_000 } });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.WAIT_ENDED);
    expect(existsSync(file)).toBe(false);
    expect(t.stderr()).toContain('no receipt was written: payment 184729305 did not reach a final state');
  });
});

describe('gw pay --receipt: checked before the payment is created', () => {
  it('a file already there: exit 73, no payment created, the file unchanged', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    writeFileSync(file, 'yesterday');
    const { opts, gateway } = setup({ file });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.CANTCREAT);
    expect(error.message).toBe(
      `--receipt ${file} cannot be written (EEXIST: a file is already there, and a receipt never replaces one); no payment was created`,
    );
    expect(gateway.calls).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('yesterday');
  });

  it('a folder that does not exist: exit 73, no payment created', async () => {
    const dir = folder();
    const { opts, gateway } = setup({ file: path.join(dir, 'missing', 'r.txt') });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.CANTCREAT);
    expect(error.message).toContain('ENOENT');
    expect(error.message).toContain('no payment was created');
    expect(gateway.calls).toEqual([]);
  });
});

describe('gw pay --receipt: a receipt that cannot be written after the end', () => {
  it('a file appears at the name during the wait: exit 73 stating PAID, that file left as it was', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    const { opts } = setup({
      file,
      answer: async () => {
        writeFileSync(file, 'someone else');
        return info('Paid');
      },
    });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.CANTCREAT, trackId: '184729305', payment: 'created' });
    expect(error.message).toBe(
      `payment 184729305 is PAID, but its receipt could not be written to ${file} (EEXIST: a file is already there, and it was left as it was)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('someone else');
    expect(readdirSync(dir)).toEqual(['r.txt']);
  });

  it('the folder is gone by then: exit 73 stating the state (underpaid), nothing written', async () => {
    const dir = folder();
    const file = path.join(dir, 'r.txt');
    const { opts } = setup({
      file,
      answer: async () => {
        rmSync(dir, { recursive: true });
        return info('Underpaid');
      },
    });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.CANTCREAT, payment: 'created' });
    expect(error.message).toMatch(/^payment 184729305 is UNDERPAID, but its receipt could not be written to .* \(ENOENT: nothing was written there\)$/);
  });
});
