// Coins and status words are ASCII: gw compares them by ASCII rules only. Unicode's upper-casing
// (and NFKC) would read a transaction in "uſdt" (long s) as USDT, and a payment the gateway calls
// "ｐａｉｄ" (full width) as paid: both must stay what they are, something gw does not know.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { statusRun, type StatusOptions } from '../../src/commands/status.js';
import type { GwError } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { isFiat } from '../../src/domain/payment-rules.js';
import { parseSandboxStatus } from '../../src/sandbox/lifecycle.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

async function run(answer: PaymentInfo, json: boolean) {
  const t = IOStreams.test({ json });
  const opts: StatusOptions = {
    io: t.io,
    gateway: async () => new FakeGateway({ info: answer }),
    clock: new ManualClock(T_DATE * 1000),
    signal: new AbortController().signal,
    releaseDeadline: vi.fn(),
    trackId: '184729305',
    wait: false,
    waitTimeoutMs: undefined,
  };
  const error = await statusRun(opts).then(
    () => undefined,
    (e: unknown) => e as GwError,
  );
  return { out: t.stdout(), error, exit: error?.exitCode ?? 0 };
}

const usdt = (fields: Record<string, unknown>, txCurrency: string, txStatus = 'confirmed') =>
  v1InfoOf({ currency: 'USDT', amount: '25', pay_amount: 25, pay_currency: 'usdt', ...fields }, [v1Tx('7a1f', '25', txCurrency, { status: txStatus })]);

describe('a transaction in a coin only Unicode folding makes USDT', () => {
  it.each(['uſdt', 'ＵＳＤＴ', 'uﬅ'])('%j is not counted as USDT (--json)', async (coin) => {
    const { out } = await run(usdt({ status: 'paid' }, coin), true);
    const doc = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(doc.received as object)).not.toContain('USDT');
    expect(doc.expected).toEqual({ USDT: '25' });
    expect(doc.difference).toBeNull();
  });

  it('on screen: no "the full 25 USDT"; the difference is not computed', async () => {
    const { out } = await run(usdt({ status: 'paid' }, 'uſdt'), false);
    expect(out).not.toMatch(/the full 25 USDT/);
    expect(out).not.toMatch(/Received +25 USDT/);
  });

  it('the same transaction in "usdt" is USDT (ASCII letters still fold)', async () => {
    const doc = JSON.parse((await run(usdt({ status: 'paid' }, 'usdt'), true)).out) as Record<string, unknown>;
    expect(doc).toMatchObject({ received: { USDT: '25' }, difference: { USDT: '0' } });
  });
});

describe('status words are ASCII', () => {
  it('a payment the gateway calls "ｐａｉｄ" (full width) is not paid: exit 8, state unknown', async () => {
    const { out, exit } = await run(usdt({ status: 'ｐａｉｄ' }, 'USDT'), true);
    expect(exit).toBe(8);
    expect(JSON.parse(out)).toMatchObject({ status: 'unknown' });
  });

  it('a transaction whose status is "ｃｏｎｆｉｒｍｅｄ" is counted but not called confirmed', async () => {
    const doc = JSON.parse((await run(usdt({ status: 'paid' }, 'USDT', 'ｃｏｎｆｉｒｍｅｄ'), true)).out) as {
      transactions: { confirmed: boolean; counted: boolean }[];
    };
    expect(doc.transactions[0]).toMatchObject({ counted: true, confirmed: false });
  });

  it('the sandbox takes no Unicode-folded state ("ｐａｉｄ" stays unknown); "Paid" is paid', () => {
    expect(parseSandboxStatus('ｐａｉｄ')).toBeUndefined();
    expect(parseSandboxStatus('PAID')).toBe('paid');
  });

  it('"uſd" is no fiat currency', () => {
    expect(isFiat('uſd')).toBe(false);
    expect(isFiat('usd')).toBe(true);
  });
});
