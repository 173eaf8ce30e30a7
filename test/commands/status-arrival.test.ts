// gw status and what arrived (issue 21): the words, the exit code and the JSON follow from the
// transactions the gateway reports, never from the status word alone. Realistic versioned answers
// (test/support/v1-payment-info.ts: the gateway's published payment-information shape) in both
// output modes, and the legacy inquiry, which lists no transactions.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { statusRun, type StatusOptions } from '../../src/commands/status.js';
import { ExitCode, type GwError } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';
import { T_DATE, V1_SAMPLES, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

async function run(answer: PaymentInfo | (() => Promise<PaymentInfo>), json: boolean, wait = false) {
  const t = IOStreams.test({ json });
  const gateway = new FakeGateway({ info: answer });
  const opts: StatusOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock: new ManualClock(T_DATE * 1000),
    signal: new AbortController().signal,
    releaseDeadline: vi.fn(),
    trackId: '184729305',
    wait,
    waitTimeoutMs: undefined,
  };
  const error: GwError | undefined = await statusRun(opts).then(
    () => undefined,
    (e: unknown) => e as GwError,
  );
  return { out: t.stdout(), error, exit: error?.exitCode ?? 0 };
}

describe('gw status: an expired payment whose transactions hold the full amount (v1)', () => {
  it('is LATE, exit 13, says what arrived and never to create a new payment', async () => {
    const { out, error, exit } = await run(V1_SAMPLES.lateFull(), false);
    expect(exit).toBe(ExitCode.LATE);
    expect(exit).toBe(13);
    expect(out.split('\n')[0]).toBe('● LATE  funds arrived for an expired payment: accept or refund them  (gateway: expired)');
    expect(out).toMatch(/^Received +0\.0005 BTC · 1 transaction$/m);
    expect(out).toMatch(/^Difference +none: the full 0\.0005 BTC arrived$/m);
    expect(out).toMatch(/^Transaction 1 +0\.0005 BTC · Bitcoin Network · 3 confirmations · confirmed · 9f2c1e0b7a4d$/m);
    expect(error?.message).toBe('payment 184729305 is LATE: 0.0005 BTC arrived after it expired (the full 0.0005 BTC)');
    expect(error?.hint).toMatch(/do not create another payment for this order/);
    expect(`${out}${error?.message}${error?.hint}`).not.toMatch(/nothing was paid|unpaid|create a new payment/i);
  });

  it('--json: status late, the gateway word kept, received/expected/difference/transactions', async () => {
    const { out, exit } = await run(V1_SAMPLES.lateFull(), true);
    expect(exit).toBe(13);
    const doc = JSON.parse(out) as Record<string, unknown>;
    expect(doc).toMatchObject({
      trackId: '184729305',
      status: 'late',
      gatewayStatus: 'expired',
      amount: '0.0005',
      received: { BTC: '0.0005' },
      expected: { BTC: '0.0005' },
      difference: { BTC: '0' },
      transactions: [
        {
          hash: '9f2c1e0b7a4d',
          amount: '0.0005',
          currency: 'BTC',
          network: 'Bitcoin Network',
          confirmations: 3,
          status: 'confirmed',
          counted: true,
          confirmed: true,
        },
      ],
    });
    // The gateway's own fields are kept as they were.
    expect((doc.txs as unknown[]).length).toBe(1);
  });

  it('--wait ends there: exit 13', async () => {
    let n = 0;
    const answer = async (): Promise<PaymentInfo> => (++n < 2 ? v1InfoOf({ status: 'waiting' }, []) : V1_SAMPLES.lateFull());
    expect((await run(answer, false, true)).exit).toBe(13);
  });
});

describe('gw status: an expired payment with nothing received (v1)', () => {
  it('is EXPIRED, exit 11: nothing arrived', async () => {
    const { out, error, exit } = await run(V1_SAMPLES.expiredEmpty(), false);
    expect(exit).toBe(ExitCode.EXPIRED);
    expect(out.split('\n')[0]).toBe('● EXPIRED  expired, nothing arrived  (gateway: expired)');
    expect(out).toMatch(/^Received +nothing · 0 transactions$/m);
    expect(error?.message).toBe('payment 184729305 EXPIRED: nothing arrived');
  });

  it('--json: received {} and transactions [] (reported, empty); no coin paid known, so no difference', async () => {
    const doc = JSON.parse((await run(V1_SAMPLES.expiredEmpty(), true)).out) as Record<string, unknown>;
    expect(doc).toMatchObject({ status: 'expired', received: {}, expected: null, difference: null, transactions: [] });
  });

  it('a failed transaction is not counted: still expired, the transaction listed as not counted', async () => {
    const info = v1InfoOf({ status: 'expired' }, [v1Tx('ffee', '0.0005', 'BTC', { status: 'failed', confirmations: 0 })]);
    const { out, exit } = await run(info, false);
    expect(exit).toBe(11);
    expect(out).toMatch(/^Transaction 1 +0\.0005 BTC · Bitcoin Network · 0 confirmations · failed \(not counted\) · ffee$/m);
  });
});

describe('gw status: underpaid (v1)', () => {
  it('states the difference with its coin', async () => {
    const { out, error, exit } = await run(V1_SAMPLES.underpaid(), false);
    expect(exit).toBe(ExitCode.UNDERPAID);
    expect(out).toMatch(/^Received +0\.0004 BTC · 1 transaction$/m);
    expect(out).toMatch(/^Difference +0\.0001 BTC short of 0\.0005 BTC$/m);
    expect(error?.message).toBe('payment 184729305 is UNDERPAID: 0.0004 BTC received, 0.0001 BTC short of 0.0005 BTC');
    expect(error?.hint).toBe('do not hand over the goods for the full amount: ask the payer for the 0.0001 BTC missing, accept it as it is, or refund it');
  });

  it('--json: difference {"BTC": "0.0001"}', async () => {
    const doc = JSON.parse((await run(V1_SAMPLES.underpaid(), true)).out) as Record<string, unknown>;
    expect(doc).toMatchObject({ status: 'underpaid', received: { BTC: '0.0004' }, expected: { BTC: '0.0005' }, difference: { BTC: '0.0001' } });
  });
});

describe('gw status: a mixed payment in two coins (v1)', () => {
  it('lists both transactions and both coins; says the difference cannot be computed (never converted)', async () => {
    const { out, error, exit } = await run(V1_SAMPLES.mixed(), false);
    expect(exit).toBe(ExitCode.UNDERPAID);
    expect(out).toMatch(/^Received +0\.0002 BTC \+ 10\.5 USDT \(10\.5 USDT not confirmed yet\) · 2 transactions$/m);
    expect(out).toMatch(/^Difference +cannot be computed: /m);
    expect(out).toMatch(/^Transaction 1 +0\.0002 BTC · Bitcoin Network · 3 confirmations · confirmed · aa11bb22cc33$/m);
    expect(out).toMatch(/^Transaction 2 +10\.5 USDT · Tron Network · 0 confirmations · confirming \(counted, not confirmed\) · dd44ee55ff66$/m);
    expect(error?.message).toMatch(
      /^payment 184729305 is UNDERPAID: 0\.0002 BTC \+ 10\.5 USDT received \(10\.5 USDT of it not confirmed yet\), the difference cannot be computed/,
    );
  });

  it('--json: received per coin, difference null, both transactions', async () => {
    const doc = JSON.parse((await run(V1_SAMPLES.mixed(), true)).out) as Record<string, unknown>;
    expect(doc).toMatchObject({
      status: 'underpaid',
      received: { BTC: '0.0002', USDT: '10.5' },
      expected: null,
      difference: null,
      transactions: [
        { hash: 'aa11bb22cc33', currency: 'BTC', counted: true, confirmed: true },
        { hash: 'dd44ee55ff66', currency: 'USDT', amount: '10.5', status: 'confirming', counted: true, confirmed: false },
      ],
    });
  });
});

describe('gw status: refunding is its own state', () => {
  it('REFUNDING, exit 12, not described as refunded', async () => {
    const { out, error, exit } = await run(v1InfoOf({ status: 'refunding' }, [v1Tx('9f2c', '0.0005', 'BTC')]), false);
    expect(exit).toBe(ExitCode.FAILED);
    expect(out.split('\n')[0]).toBe('● REFUNDING  a refund is under way: do not hand over the goods  (gateway: refunding)');
    expect(error?.message).toBe('payment 184729305 is being REFUNDED: the refund is not complete yet');
  });

  it('--json: status refunding', async () => {
    expect(JSON.parse((await run(v1InfoOf({ status: 'refunding' }, []), true)).out)).toMatchObject({ status: 'refunding', gatewayStatus: 'refunding' });
  });

  it('--wait does not end on refunding: it follows the refund to refunded', async () => {
    const answers = [v1InfoOf({ status: 'refunding' }, []), v1InfoOf({ status: 'refunding' }, []), v1InfoOf({ status: 'refunded' }, [])];
    let n = 0;
    const { error } = await run(async () => answers[Math.min(n++, 2)] as PaymentInfo, false, true);
    expect(n).toBe(3);
    expect(error?.message).toBe('payment 184729305 was REFUNDED');
  });
});

describe('gw status: the legacy inquiry lists no transactions', () => {
  const legacy = (extra: Record<string, unknown>) =>
    paymentInfoOf({ status: 'Expired', amount: '25', currency: 'USD', payAmount: '25', payCurrency: 'USDT', txID: '', date: T_DATE, ...extra });

  it('expired: says it does not know what arrived, and how to check, before any new payment', async () => {
    const { out, error, exit } = await run(legacy({}), false);
    expect(exit).toBe(ExitCode.EXPIRED);
    expect(out.split('\n')[0]).toBe('● EXPIRED  expired; the gateway does not say whether anything arrived  (gateway: Expired)');
    expect(out).toMatch(/^Received +not reported by the legacy API: gw status 184729305 --api v1$/m);
    expect(error?.message).toBe('payment 184729305 EXPIRED');
    expect(error?.hint).toBe('the legacy API does not report what arrived; check before creating another payment: gw status 184729305 --api v1');
    expect(`${out}${error?.hint}`).not.toMatch(/nothing was paid|unpaid/i);
  });

  it('--json: received, difference and transactions null (not reported), not empty', async () => {
    expect(JSON.parse((await run(legacy({}), true)).out)).toMatchObject({ status: 'expired', received: null, difference: null, transactions: null });
  });

  it('expired with a transaction named: LATE, exit 13', async () => {
    const { error, exit } = await run(legacy({ txID: 'ab12cd' }), false);
    expect(exit).toBe(13);
    expect(error?.message).toBe('payment 184729305 is LATE: a transaction (ab12cd) was reported for it, and it expired');
    expect(error?.hint).toMatch(/^do not create another payment for this order/);
  });

  it('underpaid: does not pretend to know the difference', async () => {
    const error = await gwFailure(run(legacy({ status: 'Underpaid', txID: 'ab12cd' }), false).then((r) => Promise.reject(r.error)));
    expect(error.message).toBe('payment 184729305 is UNDERPAID: less than the amount arrived');
    expect(error.hint).toMatch(/the legacy API does not report what arrived \(see gw status 184729305 --api v1\)/);
  });
});
