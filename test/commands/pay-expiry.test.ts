// An expiry that is no possible time (expiredAt -1, 10^20, "1") is the gateway's broken value: the
// payment shows "Expires unknown (the gateway sent …)", with a warning, and is never called
// "already expired" with a hint to check this machine's clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, type PayOptions, payRun } from '../../src/commands/pay.js';
import { ExitCode } from '../../src/errors.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { PLAIN } from '../../src/output/palette.js';
import { statusText } from '../../src/views/status-view.js';
import { FakeGateway, paymentInfoOf, tronPayment } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
const request = buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' });
const nowSeconds = Math.floor(clock.now() / 1000);

function setup(extra: Record<string, unknown>, io: TestIOOptions = {}) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ payment: tronPayment(clock.now(), extra) });
  const opts: PayOptions = { io: t.io, gateway: async () => gateway, clock, request, qr: 'never', qrOut: undefined };
  return { t, opts };
}

describe('pay: an impossible expiry from the gateway', () => {
  it.each([
    [-1, '-1'],
    ['-1', '-1'],
    [1e20, '100000000000000000000'],
    ['1', '1'],
  ])('expiredAt %j → shown as unknown with a warning, exit 0, no clock hint', async (expiredAt, shown) => {
    const { t, opts } = setup({ expiredAt });
    await payRun(opts);
    expect(t.stdout()).toMatch(new RegExp(`Expires +unknown \\(the gateway sent "${shown}", which is not a time\\)`));
    expect(t.stderr()).toContain(`the gateway sent an expiry that is not a time ("${shown}"): when payment 184729305 expires is unknown`);
    expect(t.stdout() + t.stderr()).not.toMatch(/clock|2001|1969|1970|already expired/);
  });

  it('on the counter screen too', async () => {
    const { t, opts } = setup({ expiredAt: -1 }, { stdoutTTY: true, width: 120, height: 60, color: false });
    await payRun(opts);
    expect(t.stdout()).toContain('unknown (the gateway sent "-1", which is not a time)');
    expect(t.stdout()).not.toMatch(/2001|1969|expired/);
  });

  it('an expiry before the creation time the gateway gave: its own times disagree, not this clock', async () => {
    const { opts } = setup({ createdAt: nowSeconds - 600, expiredAt: nowSeconds - 3600 });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.EXPIRED);
    expect(error.hint).toMatch(/^the gateway's own times disagree: it expires no later than it was created/);
    expect(error.hint).not.toMatch(/clock/);
  });

  it('a real expiry in the past after a sensible creation time still points at the clock', async () => {
    const { opts } = setup({ createdAt: nowSeconds - 7200, expiredAt: nowSeconds - 3600 });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.EXPIRED);
    expect(error.hint).toMatch(/this machine's clock says/);
  });
});

describe('status: an impossible expiry', () => {
  it('an open payment with expiredAt -1 → "Expires unknown (…)", never a date', () => {
    const info = paymentInfoOf({ status: 'Waiting', amount: 25, currency: 'USDT', expiredAt: -1, date: nowSeconds });
    const text = statusText(info, clock.now(), PLAIN);
    expect(text).toMatch(/Expires +unknown \(the gateway sent "-1", which is not a time\)/);
    expect(text).not.toMatch(/2001|1969/);
  });
});
