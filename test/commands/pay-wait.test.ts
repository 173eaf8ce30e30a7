// gw pay --wait and --reuse-if-exists, with a fake gateway and a ManualClock.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, payRun, type PayOptions } from '../../src/commands/pay.js';
import { ExitCode, GwError, interrupted } from '../../src/errors.js';
import type { PaymentFilter, PaymentInfo, PaymentPage } from '../../src/gateway/gateway.js';
import { bigText } from '../../src/output/big-text.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { FakeGateway, paymentInfoOf, tronPayment, type FakeAnswers } from '../support/fake-gateway.js';
import { VirtualTerminal } from '../support/terminal.js';
import { gwFailure } from '../support/rejection.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = T0 / 1000;
const ADDRESS = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';

function info(status: string, extra: Record<string, unknown> = {}): PaymentInfo {
  return paymentInfoOf({
    status,
    amount: '25',
    currency: 'USDT',
    payAmount: '25',
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: ADDRESS,
    orderId: 'ORD-7',
    date: S,
    expiredAt: S + 3600,
    ...extra,
  });
}

function sequence(...infos: Array<PaymentInfo | GwError>): () => Promise<PaymentInfo> {
  let i = 0;
  return async () => {
    const next = infos[Math.min(i++, infos.length - 1)]!;
    if (next instanceof GwError) throw next;
    return next;
  };
}

function setup(answers: FakeAnswers, io: TestIOOptions = {}, extra: Partial<PayOptions> = {}) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ payment: tronPayment(T0), ...answers });
  const clock = new ManualClock(T0);
  const releaseDeadline = vi.fn();
  const opts: PayOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock,
    request: buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' }),
    qr: 'auto',
    qrOut: undefined,
    wait: true,
    releaseDeadline,
    ...extra,
  };
  return { t, gateway, clock, opts, releaseDeadline };
}

const page = (...payments: PaymentInfo[]): PaymentPage => ({ payments, page: 1, pages: 1, total: payments.length });

describe('gw pay --wait', () => {
  it('on a terminal: the counter screen updates in place and ends on PAID in block letters, without the QR', async () => {
    const { t, opts, releaseDeadline, gateway } = setup(
      { info: sequence(info('Waiting'), info('Waiting'), info('Confirming', { txID: 'ab12' }), info('Paid', { txID: 'ab12', payDate: S + 9 })) },
      { stdoutTTY: true, stderrTTY: true, color: true, width: 80, height: 24 },
    );
    await payRun(opts);
    expect(releaseDeadline).toHaveBeenCalledOnce();
    expect(gateway.calls.map((c) => c.method)).toEqual(['createPayment', 'paymentInfo', 'paymentInfo', 'paymentInfo', 'paymentInfo']);
    // Along the way: the state line, redrawn in place.
    expect(t.stdout()).toMatch(/Transaction seen: confirming/);
    const term = new VirtualTerminal(80, 24).write(`${t.stdout()}$ `);
    const text = term.text();
    expect(text).toContain(bigText('PAID', 79, 12)![0]); // block letters, as large as fit
    expect(text.split('\n').filter((l) => l.includes('█')).length).toBe(10);
    expect(text).toMatch(/25 USDT received\. The payment is complete\./);
    expect(text).toMatch(/Track ID +184729305/);
    expect(text).toMatch(/Transaction +ab12/);
    expect(text).not.toMatch(/▀/); // the QR is gone: nobody pays it twice
    expect(text).not.toMatch(/Waiting for payment/);
    expect(term.scrollback).toEqual([]);
    expect(t.stderr()).toBe('');
  });

  it('a QR too tall for the window: the state line is redrawn at the bottom, the notice stays', async () => {
    const usdc = tronPayment(T0, {
      payCurrency: 'USDC',
      network: 'Ethereum Network',
      address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      payAmount: '12.345678',
    });
    const { t, opts } = setup(
      { payment: usdc, info: sequence(info('Waiting'), info('Waiting'), info('Waiting'), info('Waiting'), info('Waiting'), info('Expired')) },
      { stdoutTTY: true, stderrTTY: true, width: 80, height: 24 },
      { wait: true },
    );
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.EXPIRED);
    const term = new VirtualTerminal(80, 24).write(t.stdout());
    expect(term.text()).toMatch(/EXPIRED|█████/);
    expect(term.text()).toMatch(/can no longer be paid/);
  });

  it('into a pipe: the payment, then one line per change on stderr, then the final state', async () => {
    const { t, opts, clock } = setup({ info: sequence(info('Waiting'), info('Confirming'), info('Paid')) });
    await payRun(opts);
    expect(t.stdout()).toMatch(/^Pay exactly +25 USDT$/m);
    expect(t.stdout()).toMatch(/● PAID/);
    expect(t.stderr()).toMatch(/payment 184729305 is confirming\n.*payment 184729305 is paid\n$/);
    expect(clock.sleeps.every((ms) => ms >= 1000)).toBe(true); // no ticks: nothing animates
  });

  it('--json: one document, the payment with its final status', async () => {
    const { t, opts } = setup({ info: sequence(info('Waiting'), info('Paid', { txID: 'ab12' })) }, { json: true });
    await payRun(opts);
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      trackId: '184729305',
      uri: ADDRESS,
      status: 'paid',
      gatewayStatus: 'Paid',
      txID: 'ab12',
      payAmount: '25',
      expiredAt: S + 3600,
    });
    expect(t.stderr()).toBe('');
  });

  it.each([
    ['Underpaid', ExitCode.UNDERPAID, 'underpaid'],
    ['Expired', ExitCode.EXPIRED, 'expired'],
    ['Failed', ExitCode.FAILED, 'failed'],
    ['Refunded', ExitCode.FAILED, 'refunded'],
  ])('ends %s: exit %i, the document says so', async (status, code, normalised) => {
    const { t, opts } = setup({ info: sequence(info('Waiting'), info(status)) }, { json: true });
    expect((await gwFailure(payRun(opts))).exitCode).toBe(code);
    expect(JSON.parse(t.stdout())).toMatchObject({ status: normalised });
  });

  it('ends at the expiry plus the grace when the gateway never says: exit 124, the screen says NOT PAID', async () => {
    const { t, opts, clock } = setup({ info: sequence(info('Waiting')) }, { stdoutTTY: true, width: 100, height: 30 });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.WAIT_ENDED);
    expect(clock.now() - T0).toBe(3600_000 + 600_000);
    expect(new VirtualTerminal(100, 30).write(t.stdout()).text()).toMatch(/Treat it as unpaid/);
  });

  it('--wait-timeout: exit 124, the QR stays (the payment may still be paid), how to follow it', async () => {
    const { t, opts } = setup({ info: sequence(info('Waiting')) }, { stdoutTTY: true, width: 100, height: 30 }, { waitTimeoutMs: 60_000 });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: 124, hint: 'follow it again: gw status 184729305 --wait' });
    const text = new VirtualTerminal(100, 30).write(t.stdout()).text();
    expect(text).toMatch(/▀/);
    expect(text).toMatch(/Stopped waiting: the payment is still waiting/);
  });

  it('Ctrl-C: exit 130, still open, how to resume (with --sandbox on sandbox runs)', async () => {
    const controller = new AbortController();
    let calls = 0;
    const answer = async (): Promise<PaymentInfo> => {
      if (++calls === 2) controller.abort(interrupted());
      return info('Waiting');
    };
    const { t, opts } = setup({ info: answer }, {}, { signal: controller.signal });
    t.io.setSandbox(true);
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({
      exitCode: 130,
      message: 'interrupted: payment 184729305 is still open (waiting)',
      hint: 'follow it again: gw status 184729305 --wait --sandbox',
    });
  });

  it('transient failures while waiting do not end it', async () => {
    const down = new GwError(ExitCode.UNAVAILABLE, 'cannot connect to the gateway: connection refused');
    const limited = new GwError(ExitCode.TEMPFAIL, 'rate limit exceeded (result 124)', { result: 124 });
    const { opts, t } = setup({ info: sequence(info('Waiting'), down, down, limited, info('Paid')) });
    await payRun(opts);
    expect(t.stderr()).toMatch(/gw: warning: cannot connect to the gateway: connection refused; still waiting for payment 184729305\n/);
    expect(t.stderr()).toMatch(/the gateway answers again/);
  });
});

describe('gw pay --reuse-if-exists', () => {
  it('an open payment of the order is shown and followed; none is created', async () => {
    const open = info('Waiting', { trackId: '555', expiredAt: S + 1800 });
    const { t, opts, gateway } = setup(
      { page: page(info('Expired', { trackId: '444' }), open), info: sequence(info('Paid', { trackId: '555' })) },
      { stdoutTTY: true, width: 100, height: 30 },
      { reuseIfExists: true },
    );
    await payRun(opts);
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments', 'paymentInfo']);
    expect(gateway.calls[0]!.args[0]).toEqual({ orderId: 'ORD-7', size: 200 });
    expect(gateway.calls[1]!.args[0]).toBe('555');
    expect(t.stderr()).toMatch(/order "ORD-7" already has an open payment, 555: showing it; no new payment was created/);
    expect(t.stdout()).toMatch(/Reusing payment 555 of this order/);
    expect(t.stdout()).toMatch(/30 min left/);
  });

  it('a paid one: shown, exit 0, nothing created', async () => {
    const { t, opts, gateway } = setup({ page: page(info('Paid', { trackId: '555' })) }, { json: true }, { reuseIfExists: true });
    await payRun(opts);
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments']);
    expect(JSON.parse(t.stdout())).toMatchObject({ trackId: '555', status: 'paid', reused: true });
  });

  it('only an expired, failed or other order’s payment: a new one is created', async () => {
    const { opts, gateway } = setup(
      {
        page: page(
          info('Expired', { trackId: '1' }),
          info('Waiting', { trackId: '2', orderId: 'ORD-70' }),
          info('Waiting', { trackId: '3', expiredAt: S - 1 }),
        ),
        info: sequence(info('Paid')),
      },
      { json: true },
      { reuseIfExists: true },
    );
    await payRun(opts);
    // Another order's payment shows the gateway ignored the order id: gw reads the history again and filters it.
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments', 'payments', 'createPayment', 'paymentInfo']);
  });

  it('an order whose payments are on a later page of a history that ignores the order id (api v1): found, none created', async () => {
    const others = Array.from({ length: 200 }, (_, i) => info('Waiting', { trackId: String(1000 + i), orderId: `other-${i}`, expiredAt: S + 1800 }));
    const pages = [others, [info('Paid', { trackId: '555' })]];
    const { t, opts, gateway } = setup(
      { page: (f: PaymentFilter) => ({ payments: pages[(f.page ?? 1) - 1] ?? [], page: f.page ?? 1, pages: 2, total: 201 }) },
      { json: true },
      { reuseIfExists: true },
    );
    Object.assign(gateway, { historyFilters: new Set(['status', 'trackId', 'currency', 'payCurrency', 'network', 'from', 'to', 'minAmount', 'maxAmount']) });
    await payRun(opts);
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments', 'payments']);
    expect(JSON.parse(t.stdout())).toMatchObject({ trackId: '555', status: 'paid', reused: true });
  });

  it('a history that cannot be read to its end (pages repeat): nothing is created, exit 76', async () => {
    const { opts, gateway } = setup(
      { page: (f: PaymentFilter) => ({ payments: [info('Expired', { trackId: '1' })], page: f.page ?? 1, pages: 3, total: 3 }) },
      {},
      { reuseIfExists: true },
    );
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.PROTOCOL, hint: 'nothing was created: try again, or leave out --reuse-if-exists' });
    expect(error.message).toContain('could not read every payment of order "ORD-7": the gateway\'s page 2 repeats payments of earlier pages');
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments', 'payments']);
  });

  it('an open payment for another amount is never reused, and no second one is created', async () => {
    const { opts, gateway } = setup({ page: page(info('Waiting', { trackId: '555', amount: '30' })) }, {}, { reuseIfExists: true });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.DATA, trackId: '555' });
    expect(error.message).toBe('order "ORD-7" already has a waiting payment 555 for 30 USDT, not 25 USDT: no second payment was created');
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments']);
  });

  it('when the lookup fails, nothing is created', async () => {
    const { opts, gateway } = setup({ page: new GwError(ExitCode.UNAVAILABLE, 'the gateway is failing: HTTP 502') }, {}, { reuseIfExists: true });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: 69, hint: 'nothing was created: try again, or leave out --reuse-if-exists' });
    expect(gateway.calls.map((c) => c.method)).toEqual(['payments']);
  });
});

describe('gw pay --wait --json when the payment cannot be followed', () => {
  it('a payment that is not payable still gets its document, and no wait starts', async () => {
    const { t, opts, gateway } = setup({ payment: tronPayment(T0, { address: '' }) }, { json: true });
    const error = await gwFailure(payRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(JSON.parse(t.stdout())).toMatchObject({ trackId: '184729305', uri: null });
    expect(gateway.calls.map((c) => c.method)).toEqual(['createPayment']);
  });
});
