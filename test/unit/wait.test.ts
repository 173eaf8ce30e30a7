// The wait loop (src/cmdutil/wait.ts) with a ManualClock and a scripted gateway: no real sleeps.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { endingFailure, failureKind, stateExitCode, stateFailure, waitForPayment, WAIT_POLICY, type WaitOptions } from '../../src/cmdutil/wait.js';
import { ExitCode, GwError, interrupted, terminated } from '../../src/errors.js';
import { TransportError } from '../../src/gateway/transport.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { paymentInfoOf } from '../support/fake-gateway.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = (ms: number): number => Math.floor(ms / 1000);

function info(status: string, extra: Record<string, unknown> = {}): PaymentInfo {
  return paymentInfoOf({ status, payAmount: '25', payCurrency: 'USDT', expiredAt: S(T0) + 3600, date: S(T0), ...extra });
}

const rateLimited = (): GwError => new GwError(ExitCode.TEMPFAIL, 'the gateway refused: limit (result 124)', { result: 124 });
const http429 = (): GwError => new GwError(ExitCode.TEMPFAIL, 'rate-limiting (HTTP 429)', { status: 429 });
const down = (): GwError => new TransportError(ExitCode.UNAVAILABLE, 'cannot connect to the gateway: connection refused', 'not-sent');
const slow = (): GwError => new TransportError(ExitCode.TEMPFAIL, 'no complete answer within 15 s', 'maybe-sent');
const garbled = (): GwError => new GwError(ExitCode.PROTOCOL, "the gateway's answer is not valid JSON");

type Step = PaymentInfo | GwError;

/** A poll that answers from `script` in order, repeating the last step forever; it records call times. */
function scripted(clock: ManualClock, script: Step[]) {
  const calls: number[] = [];
  const poll = async (): Promise<PaymentInfo> => {
    const step = script[Math.min(calls.length, script.length - 1)]!;
    calls.push(clock.now() - T0);
    if (step instanceof GwError) throw step;
    return step;
  };
  return { poll, calls };
}

async function run(script: Step[], extra: Partial<WaitOptions> = {}) {
  const clock = new ManualClock(T0);
  const { poll, calls } = scripted(clock, script);
  const ending = await waitForPayment({ clock, poll, signal: new AbortController().signal, ...extra });
  return { ending, calls, clock };
}

describe('polling', () => {
  it('polls at once, then 1 s apart, growing by half up to 5 s, until a final state', async () => {
    const { ending, calls } = await run([...Array(8).fill(info('Waiting')), info('Paid')]);
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'paid' } });
    expect(calls).toEqual([0, 1000, 2500, 4750, 8125, 13125, 18125, 23125, 28125]);
  });

  it('with the state already known (a payment just created), the first poll waits one interval', async () => {
    const { calls } = await run([info('Paid')], { initial: info('Waiting') });
    expect(calls).toEqual([1000]);
  });

  it.each(['Paid', 'paid', 'Underpaid', 'Failed', 'Refunded', 'Manual_accept'])('%s is final', async (status) => {
    const { ending, calls } = await run([info(status)]);
    expect(ending.kind).toBe('final');
    expect(calls).toHaveLength(1);
  });

  // Expired with nothing arrived is watched a while: late funds turn it into late, never "nothing".
  it('Expired with nothing arrived is watched for late funds for 1 min, then ends as expired', async () => {
    const { ending, calls, clock } = await run([info('Expired', { txs: [] })]);
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'expired' } });
    expect(calls[0]).toBe(0);
    expect(calls.at(-1)).toBe(WAIT_POLICY.lateWatchMs);
    expect(clock.now() - T0).toBe(60_000);
  });

  it('Expired, then the full amount listed while watched: ends as late', async () => {
    const at = { status: 'expired', amount: 25, currency: 'USDT', date: S(T0) - 3600, expired_at: S(T0) };
    const expired = v1InfoOf(at, []);
    const late = v1InfoOf(at, [v1Tx('ab12', '25', 'USDT')]);
    const { ending, calls } = await run([expired, expired, late]);
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'late' } });
    expect(calls).toEqual([0, 1000, 2500]);
  });

  it('a shorter watch (the sandbox: its settle time) ends sooner; --wait-timeout during the watch ends as expired, not a timeout', async () => {
    const short = await run([info('Expired', { txs: [] })], { policy: { lateWatchMs: 10_000 } });
    expect(short.ending).toMatchObject({ kind: 'final', info: { status: 'expired' } });
    expect(short.calls.at(-1)).toBe(10_000);
    const cut = await run([info('Expired', { txs: [] })], { until: T0 + 5000 });
    expect(cut.ending).toMatchObject({ kind: 'final', info: { status: 'expired' } });
    expect(cut.clock.now() - T0).toBe(5000);
  });

  it('a payment that expired long ago (past its expiry and the grace) ends at once: late funds would show already', async () => {
    const { ending, calls } = await run([info('Expired', { txs: [], expiredAt: S(T0) - 3600 })]);
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'expired' } });
    expect(calls).toEqual([0]);
  });

  it('an expired payment with a transaction (late) is final', async () => {
    const { ending, calls } = await run([info('Expired', { txID: 'ab12' })]);
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'late' } });
    expect(calls).toHaveLength(1);
  });

  // A refund under way is not the end: the wait follows it to refunded.
  it.each(['New', 'Waiting', 'Confirming', 'Paying', 'Sleeping', 'refunding', 'Refunding'])('%s is not', async (status) => {
    const { ending, calls } = await run([info(status), info('Paid')]);
    expect(ending.kind).toBe('final');
    expect(calls).toHaveLength(2);
  });
});

describe('the gateway’s rate limit slows polling down and never ends it', () => {
  it.each([
    ['result 124', rateLimited],
    ['HTTP 429', http429],
  ])('%s: at least 15 s between polls, doubling while it lasts, halving after, never under 15 s again', async (_name, limit) => {
    const { ending, calls } = await run([
      info('Waiting'),
      limit(),
      limit(),
      limit(),
      info('Waiting'),
      info('Waiting'),
      info('Waiting'),
      info('Waiting'),
      info('Paid'),
    ]);
    expect(ending.kind).toBe('final');
    const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(gaps).toEqual([1000, 15_000, 30_000, 60_000, 60_000, 30_000, 15_000, 15_000]);
  });

  it('the slow-down is capped at 2 min', async () => {
    const { calls } = await run([...Array(8).fill(rateLimited()), info('Paid')]);
    const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(Math.max(...gaps)).toBe(WAIT_POLICY.maxRateLimitedMs);
  });
});

describe('transient failures keep polling; others end the wait', () => {
  it('connection refused and timeouts (69, 75): 2 s, doubling up to 30 s, back to normal after an answer', async () => {
    const { ending, calls } = await run([down(), slow(), down(), down(), down(), down(), info('Waiting'), info('Paid')]);
    expect(ending.kind).toBe('final');
    const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(gaps).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 1000]);
  });

  it('an unreadable answer (76) three times in a row is tolerated, the fourth ends the wait', async () => {
    const ok = await run([garbled(), garbled(), garbled(), info('Paid')]);
    expect(ok.ending.kind).toBe('final');
    await expect(run([garbled(), garbled(), garbled(), garbled()])).rejects.toMatchObject({ exitCode: ExitCode.PROTOCOL });
  });

  it.each([
    ['key refused (77)', new GwError(ExitCode.NOPERM, 'invalid merchant API key (result 102)', { result: 102 })],
    ['invalid track id (65)', new GwError(ExitCode.DATA, 'invalid trackId (result 116)', { result: 116 })],
    ['no key configured (78)', new GwError(ExitCode.CONFIG, 'no merchant API key is configured')],
  ])('%s ends it at once with that failure', async (_name, error) => {
    const clock = new ManualClock(T0);
    const { poll, calls } = scripted(clock, [info('Waiting'), error]);
    await expect(waitForPayment({ clock, poll, signal: new AbortController().signal })).rejects.toBe(error);
    expect(calls).toHaveLength(2);
  });

  it('failure kinds', () => {
    expect(failureKind(rateLimited())).toBe('rate-limited');
    expect(failureKind(http429())).toBe('rate-limited');
    expect(failureKind(down())).toBe('transient');
    expect(failureKind(slow())).toBe('transient');
    expect(failureKind(garbled())).toBe('unreadable');
    expect(failureKind(new GwError(ExitCode.NOPERM, 'x'))).toBe('fatal');
  });
});

describe('where the wait ends without a final state', () => {
  it('at the expiry plus 10 min of grace while no transaction is seen, after one last poll at the limit', async () => {
    const { ending, calls, clock } = await run([info('Waiting', { expiredAt: S(T0) + 60 })]);
    expect(ending).toMatchObject({ kind: 'gave-up', reason: 'expiry', info: { status: 'waiting' } });
    expect(calls.at(-1)).toBe(60_000 + WAIT_POLICY.graceMs);
    expect(clock.now() - T0).toBe(60_000 + WAIT_POLICY.graceMs);
  });

  it('the gateway saying Expired at the expiry ends it as expired, not as a timeout', async () => {
    const clock = new ManualClock(T0);
    const poll = async (): Promise<PaymentInfo> => (clock.now() - T0 >= 60_000 ? info('Expired') : info('Waiting', { expiredAt: S(T0) + 60 }));
    const ending = await waitForPayment({ clock, poll, signal: new AbortController().signal });
    expect(ending).toMatchObject({ kind: 'final', info: { status: 'expired' } });
  });

  it('once a transaction is confirming, the expiry no longer ends it', async () => {
    const { ending, clock } = await run([
      info('Waiting', { expiredAt: S(T0) + 60 }),
      ...Array(300).fill(info('Confirming', { expiredAt: S(T0) + 60 })),
      info('Paid'),
    ]);
    expect(ending.kind).toBe('final');
    expect(clock.now() - T0).toBeGreaterThan(60_000 + WAIT_POLICY.graceMs);
  });

  it('without an expiry in the answer: what the caller knows, else creation + 2880 min', async () => {
    const known = await run([paymentInfoOf({ status: 'Waiting' })], { expiresAt: T0 + 120_000 });
    expect(known.calls.at(-1)).toBe(120_000 + WAIT_POLICY.graceMs);
    const fromDate = await run([paymentInfoOf({ status: 'Waiting', date: S(T0) })]);
    expect(fromDate.calls.at(-1)).toBe(2880 * 60_000 + WAIT_POLICY.graceMs);
  });

  it('at --wait-timeout, when it comes first', async () => {
    const { ending, calls } = await run([info('Confirming')], { until: T0 + 45_000 });
    expect(ending).toMatchObject({ kind: 'gave-up', reason: 'timeout', info: { status: 'confirming' } });
    expect(calls.at(-1)).toBe(45_000);
  });

  it('Ctrl-C: interrupted at once, with the last state, exit 130 (SIGTERM 143)', async () => {
    for (const reason of [interrupted(), terminated()]) {
      const clock = new ManualClock(T0);
      const controller = new AbortController();
      let polls = 0;
      const poll = async (): Promise<PaymentInfo> => {
        if (++polls === 3) controller.abort(reason);
        return info('Waiting');
      };
      const ending = await waitForPayment({ clock, poll, signal: controller.signal });
      expect(ending).toMatchObject({ kind: 'interrupted', reason, info: { status: 'waiting' } });
      expect(polls).toBe(3);
    }
  });

  it('Ctrl-C during a request (the transport fails with 130): interrupted, not a failure', async () => {
    const clock = new ManualClock(T0);
    const controller = new AbortController();
    const poll = async (): Promise<PaymentInfo> => {
      controller.abort(interrupted());
      throw new TransportError(ExitCode.INTERRUPTED, 'interrupted', 'maybe-sent');
    };
    const ending = await waitForPayment({ clock, poll, signal: controller.signal });
    expect(ending).toMatchObject({ kind: 'interrupted', info: undefined });
  });
});

describe('progress', () => {
  it('without ticks: one report per poll, and a change for each new state', async () => {
    const reports: Array<string | undefined> = [];
    const changes: string[] = [];
    await run([info('Waiting'), down(), info('Waiting'), info('Confirming'), info('Paid')], {
      onProgress: (p) => reports.push(p.problem === undefined ? p.info?.status : 'problem'),
      onChange: (i, prev) => changes.push(`${prev ?? '-'}→${i.status}`),
    });
    expect(reports).toEqual(['waiting', 'problem', 'waiting', 'confirming', 'paid']);
    expect(changes).toEqual(['-→waiting', 'waiting→confirming', 'confirming→paid']);
  });

  it('with ticks (a terminal): sleeps are cut into 250 ms ticks, each reported', async () => {
    let reports = 0;
    const { clock } = await run([info('Waiting'), info('Paid')], { tickMs: 250, onProgress: () => reports++ });
    expect(clock.sleeps).toEqual([250, 250, 250, 250]);
    expect(reports).toBe(4 + 2);
  });
});

describe('exit codes', () => {
  it.each([
    ['Paid', ExitCode.OK],
    ['Underpaid', ExitCode.UNDERPAID],
    ['Expired', ExitCode.EXPIRED],
    ['Failed', ExitCode.FAILED],
    ['Refunded', ExitCode.FAILED],
    ['Refunding', ExitCode.FAILED],
    ['Waiting', ExitCode.STILL_OPEN],
    ['Confirming', ExitCode.STILL_OPEN],
    ['Whatever', ExitCode.STILL_OPEN],
  ])('a payment %s: exit %i', (status, code) => {
    const i = info(status);
    expect(stateExitCode(i.status)).toBe(code);
    expect(stateFailure(i, false, false)?.exitCode ?? 0).toBe(code);
  });

  it('a payment expired with a transaction named (late): exit 13', () => {
    const i = info('Expired', { txID: 'ab12' });
    expect(stateExitCode(i.status)).toBe(ExitCode.LATE);
    expect(stateFailure(i, false, false)?.exitCode).toBe(13);
  });

  it('the codes are distinct and documented values', () => {
    expect([ExitCode.STILL_OPEN, ExitCode.UNDERPAID, ExitCode.EXPIRED, ExitCode.FAILED, ExitCode.LATE, ExitCode.WAIT_ENDED]).toEqual([8, 10, 11, 12, 13, 124]);
  });

  it('each ending of a wait', () => {
    const id = '184729305';
    expect(endingFailure({ kind: 'final', info: info('Paid') }, id, false)).toBeUndefined();
    expect(endingFailure({ kind: 'final', info: info('Underpaid', { receivedAmount: '22.5' }) }, id, false)).toMatchObject({
      exitCode: 10,
      message: 'payment 184729305 is UNDERPAID: 22.5 USDT received, 2.5 USDT short of 25 USDT',
      hint: 'do not hand over the goods for the full amount: ask the payer for the 2.5 USDT missing, accept it as it is, or refund it',
    });
    expect(endingFailure({ kind: 'final', info: info('Expired') }, id, false)?.exitCode).toBe(11);
    expect(endingFailure({ kind: 'final', info: info('Failed') }, id, false)?.exitCode).toBe(12);
    expect(endingFailure({ kind: 'final', info: info('Refunded') }, id, false)?.exitCode).toBe(12);
    expect(endingFailure({ kind: 'gave-up', reason: 'timeout', info: info('Waiting') }, id, false)).toMatchObject({
      exitCode: 124,
      hint: 'follow it again: gw status 184729305 --wait',
    });
    expect(endingFailure({ kind: 'gave-up', reason: 'expiry', info: undefined }, id, true)).toMatchObject({ exitCode: 124, trackId: id });
    expect(endingFailure({ kind: 'interrupted', reason: interrupted(), info: info('Waiting') }, id, true)).toMatchObject({
      exitCode: 130,
      message: 'interrupted: payment 184729305 is still open (waiting)',
      hint: 'follow it again: gw status 184729305 --wait --sandbox',
    });
  });
});
