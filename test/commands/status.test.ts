import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { parseTrackId } from '../../src/cmdutil/args.js';
import { statusRun, type StatusOptions } from '../../src/commands/status.js';
import { ExitCode, GwError, interrupted, UsageError } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { FakeGateway, paymentInfoOf, type FakeAnswers } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = T0 / 1000;

function info(status: string, extra: Record<string, unknown> = {}): PaymentInfo {
  return paymentInfoOf({
    status,
    type: 'payment',
    amount: '25',
    currency: 'USD',
    payAmount: 25.000001,
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
    txID: status === 'Waiting' || status === 'Expired' ? '' : 'ab12cd',
    orderId: 'ORD-7',
    date: S,
    payDate: status === 'Paid' ? S + 60 : 0,
    expiredAt: S + 3600,
    ...extra,
  });
}

/** Answers `infos` in order, repeating the last. */
function sequence(...infos: Array<PaymentInfo | GwError>): () => Promise<PaymentInfo> {
  let i = 0;
  return async () => {
    const next = infos[Math.min(i++, infos.length - 1)]!;
    if (next instanceof GwError) throw next;
    return next;
  };
}

function setup(answer: NonNullable<FakeAnswers['info']>, io: TestIOOptions = {}, extra: Partial<StatusOptions> = {}) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ info: answer });
  const clock = new ManualClock(T0);
  const releaseDeadline = vi.fn();
  const opts: StatusOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock,
    signal: new AbortController().signal,
    releaseDeadline,
    trackId: '184729305',
    wait: false,
    waitTimeoutMs: undefined,
    ...extra,
  };
  return { t, gateway, clock, opts, releaseDeadline };
}

const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('gw status', () => {
  it('shows the state first, prominent and coloured, then amounts, network, address, transaction and dates', async () => {
    const { t, opts, gateway } = setup(info('Paid'), { color: true });
    await statusRun(opts);
    expect(gateway.calls).toEqual([{ method: 'paymentInfo', args: ['184729305'] }]);
    const out = t.stdout();
    expect(out.split('\n')[0]).toContain('\u001b[32m'); // green
    const text = plain(out);
    expect(text.split('\n')[0]).toBe('● PAID  paid: safe to hand over the goods  (gateway: Paid)');
    expect(text).toMatch(/^Amount +25 USD$/m);
    expect(text).toMatch(/^To pay +25\.000001 USDT$/m);
    expect(text).toMatch(/^Network +Tron Network$/m);
    expect(text).toMatch(/^Address +TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe$/m);
    expect(text).toMatch(/^Transaction +ab12cd$/m);
    expect(text).toMatch(/^Created +2026-11-22 \d\d:00:00$/m);
    expect(text).toMatch(/^Paid at +2026-11-22 \d\d:01:00$/m);
    expect(text).toMatch(/^Order ID +ORD-7$/m);
    expect(text).not.toMatch(/Expires/);
  });

  it('an open payment shows its time left', async () => {
    const { t, opts } = setup(info('Waiting'));
    await gwFailure(statusRun(opts));
    expect(t.stdout()).toMatch(/^Expires +60 min left, until \d\d:\d\d$/m);
  });

  it('--json: every field the gateway sent under its own name, amounts exact, status normalised beside gatewayStatus', async () => {
    const { t, opts } = setup(info('Paid', { extraField: 'kept' }), { json: true });
    await statusRun(opts);
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      trackId: '184729305',
      status: 'paid',
      gatewayStatus: 'Paid',
      type: 'payment',
      amount: '25',
      payAmount: '25.000001',
      payCurrency: 'USDT',
      txID: 'ab12cd',
      orderId: 'ORD-7',
      date: S,
      extraField: 'kept',
    });
    expect(t.stderr()).toBe('');
  });

  it.each([
    ['Paid', 0],
    ['Manual_accept', 0],
    ['New', ExitCode.STILL_OPEN],
    ['Waiting', ExitCode.STILL_OPEN],
    ['Confirming', ExitCode.STILL_OPEN],
    ['Paying', ExitCode.STILL_OPEN],
    ['Sleeping', ExitCode.STILL_OPEN],
    ['Underpaid', ExitCode.UNDERPAID],
    ['Expired', ExitCode.EXPIRED],
    ['Failed', ExitCode.FAILED],
    ['Refunded', ExitCode.FAILED],
  ])('%s: exit %i (0 only when paid)', async (status, code) => {
    const { opts } = setup(info(status));
    const error = await statusRun(opts).then(
      () => undefined,
      (e: unknown) => e as GwError,
    );
    expect(error?.exitCode ?? 0).toBe(code);
    if (code === ExitCode.STILL_OPEN) expect(error?.hint).toBe('wait for it: gw status 184729305 --wait');
  });

  it('the track id as typed: one word, no control characters', () => {
    expect(parseTrackId(' 184729305 ')).toBe('184729305');
    for (const bad of ['', '  ', 'a b', 'a\u001b[2Jb', 'x'.repeat(101)]) expect(() => parseTrackId(bad)).toThrow(UsageError);
  });
});

describe('gw status --wait', () => {
  it('on a terminal: a live line on stderr, then the final state; exit 0 when paid; the deadline lifted', async () => {
    const { t, opts, releaseDeadline, clock } = setup(
      sequence(info('Waiting'), info('Waiting'), info('Confirming'), info('Paid')),
      { stdoutTTY: true, stderrTTY: true },
      { wait: true },
    );
    await statusRun(opts);
    expect(releaseDeadline).toHaveBeenCalledOnce();
    expect(t.stderr()).toMatch(/\r\u001b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for payment · 60 min left, until \d\d:\d\d · checked/);
    expect(t.stderr()).toMatch(/Transaction seen: confirming/);
    expect(t.stderr().endsWith('\r\u001b[2K')).toBe(true); // the live line is gone at the end
    expect(plain(t.stdout()).split('\n')[0]).toMatch(/^● PAID/);
    expect(clock.sleeps.every((ms) => ms <= 250)).toBe(true);
  });

  it('into a pipe: no animation and no ticks, one line per change of state', async () => {
    const { t, opts, clock } = setup(sequence(info('Waiting'), info('Confirming'), info('Confirming'), info('Paid')), {}, { wait: true });
    await statusRun(opts);
    expect(t.stderr()).not.toContain('\r');
    expect(t.stderr()).toMatch(/^gw: \d\d:\d\d payment 184729305 is confirming\ngw: \d\d:\d\d payment 184729305 is paid\n$/);
    expect(clock.sleeps).toEqual([1000, 1500, 2250]);
  });

  it('--json: one document, the final state', async () => {
    const { t, opts } = setup(sequence(info('Waiting'), info('Paid')), { json: true, stderrTTY: true }, { wait: true });
    await statusRun(opts);
    expect(JSON.parse(t.stdout())).toMatchObject({ status: 'paid', gatewayStatus: 'Paid' });
    expect(t.stderr()).toBe('');
  });

  it.each([
    ['Underpaid', ExitCode.UNDERPAID],
    ['Expired', ExitCode.EXPIRED],
    ['Failed', ExitCode.FAILED],
  ])('ends %s: exit %i', async (status, code) => {
    const { opts } = setup(sequence(info('Waiting'), info(status)), {}, { wait: true });
    expect((await gwFailure(statusRun(opts))).exitCode).toBe(code);
  });

  it('--wait-timeout: exit 124, how to follow it again', async () => {
    const { opts } = setup(sequence(info('Waiting')), {}, { wait: true, waitTimeoutMs: 30_000 });
    const error = await gwFailure(statusRun(opts));
    expect(error).toMatchObject({ exitCode: 124, trackId: '184729305', hint: 'follow it again: gw status 184729305 --wait' });
    expect(error.message).toMatch(/^stopped waiting at --wait-timeout: payment 184729305 is still waiting$/);
  });

  it('a refused key ends the wait at once (77)', async () => {
    const refused = new GwError(ExitCode.NOPERM, 'the gateway refused: Invalid merchant API key (result 102)', { result: 102 });
    const { opts, gateway } = setup(sequence(info('Waiting'), refused), {}, { wait: true });
    expect((await gwFailure(statusRun(opts))).exitCode).toBe(77);
    expect(gateway.calls).toHaveLength(2);
  });

  it('Ctrl-C: exit 130, the payment is still open, how to resume', async () => {
    const controller = new AbortController();
    let calls = 0;
    const answer = async (): Promise<PaymentInfo> => {
      if (++calls === 2) controller.abort(interrupted());
      return info('Waiting');
    };
    const { t, opts } = setup(answer, {}, { wait: true, signal: controller.signal });
    const error = await gwFailure(statusRun(opts));
    expect(error).toMatchObject({
      exitCode: 130,
      message: 'interrupted: payment 184729305 is still open (waiting)',
      hint: 'follow it again: gw status 184729305 --wait',
    });
    expect(plain(t.stdout())).toMatch(/^● WAITING/);
  });
});
