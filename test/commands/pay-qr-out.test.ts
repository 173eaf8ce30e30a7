// --qr-out never says "written" when it was not. Every failure after the payment exists is exit
// 73 naming the payment that was created (the side effect), with nothing on the screen saying an
// image was written, and a file already at the path left as it was.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, type PayOptions, payRun } from '../../src/commands/pay.js';
import { ExitCode } from '../../src/errors.js';
import type { PaymentRequest } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { FakeGateway, tronPayment } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
const request = buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' });

/** A pay run whose gateway does `meanwhile` as it creates the payment (after --qr-out was checked). */
function setup(qrOut: string, meanwhile: () => void, io: TestIOOptions = {}, payment = tronPayment(clock.now())) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ payment });
  const create = gateway.createPayment.bind(gateway);
  gateway.createPayment = (r: PaymentRequest) => {
    meanwhile();
    return create(r);
  };
  const opts: PayOptions = { io: t.io, gateway: async () => gateway, clock, request, qr: 'never', qrOut };
  return { t, opts, gateway };
}

const folder = (): string => mkdtempSync(path.join(tmpdir(), 'gw-qr-out-'));

/** Exit 73, the payment named as created, and nothing anywhere saying the image was written. */
async function expectNotWritten(t: ReturnType<typeof IOStreams.test>, run: Promise<void>, code: string) {
  const error = await gwFailure(run);
  expect(error).toMatchObject({ exitCode: ExitCode.CANTCREAT, trackId: '184729305', payment: 'created' });
  expect(error.message).toMatch(
    new RegExp(`^payment 184729305 was created, but the QR image could not be written to .* \\(${code}\\): nothing was written there`),
  );
  expect(error.hint).toContain('gw pay 25 USDT --order-id ORD-7 --reuse-if-exists --qr-out <file>');
  expect(t.stdout() + t.stderr()).not.toMatch(/written to|QR image/);
  // The payment itself is still shown: the payer can be given the address.
  expect(t.stdout()).toContain('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe');
  return error;
}

describe('--qr-out: a write that fails after the payment exists', () => {
  it('the folder is gone by then (ENOENT): 73, created, nothing says written', async () => {
    const dir = folder();
    const { t, opts } = setup(path.join(dir, 'qr.png'), () => rmSync(dir, { recursive: true }));
    await expectNotWritten(t, payRun(opts), 'ENOENT');
  });

  it('a folder stands at the path by then (EISDIR): 73, the folder untouched', async () => {
    const dir = folder();
    const file = path.join(dir, 'qr.svg');
    const { t, opts } = setup(file, () => mkdirSync(file));
    await expectNotWritten(t, payRun(opts), 'EISDIR');
    expect(readdirSync(dir)).toEqual(['qr.svg']);
  });

  it('on the counter screen (a terminal): no "QR image" row for an image that was not written', async () => {
    const dir = folder();
    const { t, opts } = setup(path.join(dir, 'qr.png'), () => rmSync(dir, { recursive: true }), { stdoutTTY: true, width: 120, height: 60, color: false });
    await expectNotWritten(t, payRun(opts), 'ENOENT');
  });

  it('a memo no QR can carry: 73, and no line says an image was written', async () => {
    const dir = folder();
    const file = path.join(dir, 'qr.png');
    const { t, opts } = setup(file, () => undefined, {}, tronPayment(clock.now(), { memo: '90215' }));
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.CANTCREAT, payment: 'created' });
    expect(t.stdout()).not.toMatch(/written to/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an existing file is replaced whole when the write succeeds, and says so', async () => {
    const dir = folder();
    const file = path.join(dir, 'qr.svg');
    writeFileSync(file, 'old');
    const { t, opts } = setup(file, () => undefined);
    await payRun(opts);
    expect(readFileSync(file, 'utf8')).toMatch(/^<svg /);
    expect(t.stdout()).toContain(`QR image written to ${file}`);
    expect(readdirSync(dir)).toEqual(['qr.svg']);
  });
});

describe('--qr-out: checked before the payment is created', () => {
  it('a folder at the path: 73, no payment', async () => {
    const dir = folder();
    const file = path.join(dir, 'qr.png');
    mkdirSync(file);
    const { opts, gateway } = setup(file, () => undefined);
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.CANTCREAT);
    expect(error.message).toMatch(/\(EISDIR\); no payment was created/);
    expect(gateway.calls).toHaveLength(0);
  });
});
