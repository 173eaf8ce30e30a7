// gw pay --wait and what arrived (issue 21): the versioned payment information has no pay amount,
// so what arrived is compared with the creation answer's; funds on an expired payment end the wait
// as LATE (exit 13), on the counter screen, in the plain lines and in the one JSON document.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, payRun, type PayOptions } from '../../src/commands/pay.js';
import type { GwError } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { bigText } from '../../src/output/big-text.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { FakeGateway, tronPayment } from '../support/fake-gateway.js';
import { VirtualTerminal } from '../support/terminal.js';
import { v1InfoOf, v1Tx } from '../support/v1-payment-info.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = T0 / 1000;

/** The v1 information of the 25 USD payment paid in USDT: no pay amount, its transfers in txs. */
function v1(status: string, txs: string[]): PaymentInfo {
  return v1InfoOf({ status, amount: '25', currency: 'USD', date: S, expired_at: S + 3600, order_id: 'ORD-7' }, txs);
}

function sequence(...infos: PaymentInfo[]): () => Promise<PaymentInfo> {
  let i = 0;
  return async () => infos[Math.min(i++, infos.length - 1)] as PaymentInfo;
}

async function run(infos: PaymentInfo[], io: TestIOOptions) {
  const t = IOStreams.test(io);
  // Created as 25 USD to pay 25.1 USDT (the creation answer's pay amount).
  const gateway = new FakeGateway({ payment: tronPayment(T0, { currency: 'USD', payAmount: '25.1' }), info: sequence(...infos) });
  const opts: PayOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock: new ManualClock(T0),
    request: buildPaymentRequest('25', 'USD', { orderId: 'ORD-7', payCurrency: 'USDT' }),
    qr: 'never',
    qrOut: undefined,
    wait: true,
    releaseDeadline: vi.fn(),
  };
  const error = await payRun(opts).then(
    () => undefined,
    (e: unknown) => e as GwError,
  );
  return { t, error };
}

const lateFull = () => v1('expired', [v1Tx('9f2c1e0b7a4d', '25.1', 'USDT')]);
const underpaid = () => v1('underpaid', [v1Tx('5be7a90c3d21', '20.1', 'USDT')]);

describe('gw pay --wait: funds on an expired payment', () => {
  it('--json: one document, status late, what arrived against the creation answer’s pay amount; exit 13', async () => {
    const { t, error } = await run([v1('waiting', []), lateFull()], { json: true });
    expect(error?.exitCode).toBe(13);
    expect(JSON.parse(t.stdout())).toMatchObject({
      trackId: '184729305',
      status: 'late',
      gatewayStatus: 'expired',
      payAmount: '25.1',
      received: { USDT: '25.1' },
      expected: { USDT: '25.1' },
      difference: { USDT: '0' },
      transactions: [{ hash: '9f2c1e0b7a4d', amount: '25.1', currency: 'USDT', counted: true, confirmed: true }],
    });
  });

  it('on a terminal: LATE in block letters, what arrived, and not to create a new payment', async () => {
    const { t, error } = await run([v1('waiting', []), lateFull()], { stdoutTTY: true, stderrTTY: true, width: 80, height: 24 });
    expect(error?.exitCode).toBe(13);
    const text = new VirtualTerminal(80, 24).write(`${t.stdout()}$ `).text();
    expect(text).toContain(bigText('LATE', 79, 12)?.[0]);
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /25\.1 USDT arrived after the payment expired \(the full 25\.1 USDT\)\. Do not create a new payment for this order: accept the funds or refund them\./,
    );
    expect(text).not.toMatch(/Nothing (was paid|arrived)/);
  });

  it('into a pipe: the final state with every transaction, exit 13, the hint', async () => {
    const { t, error } = await run([v1('waiting', []), lateFull()], {});
    expect(t.stdout()).toMatch(/● LATE {2}funds arrived for an expired payment/);
    expect(t.stdout()).toMatch(/^Received +25\.1 USDT · 1 transaction$/m);
    expect(t.stdout()).toMatch(/^Transaction 1 +25\.1 USDT · Tron Network · 3 confirmations · confirmed · 9f2c1e0b7a4d$/m);
    expect(error?.message).toBe('payment 184729305 is LATE: 25.1 USDT arrived after it expired (the full 25.1 USDT)');
    expect(error?.hint).toMatch(/^do not create another payment for this order/);
  });
});

describe('gw pay --wait: underpaid', () => {
  it('the difference with its coin, from the creation answer (the v1 information has no pay amount)', async () => {
    const { t, error } = await run([v1('waiting', []), underpaid()], {});
    expect(error?.exitCode).toBe(10);
    expect(t.stdout()).toMatch(/^Difference +5 USDT short of 25\.1 USDT$/m);
    expect(error?.message).toBe('payment 184729305 is UNDERPAID: 20.1 USDT received, 5 USDT short of 25.1 USDT');
  });

  it('on a terminal: how much arrived and how much is missing', async () => {
    const { t } = await run([v1('waiting', []), underpaid()], { stdoutTTY: true, stderrTTY: true, width: 80, height: 24 });
    const text = new VirtualTerminal(80, 24).write(`${t.stdout()}$ `).text();
    expect(text.replace(/\s+/g, ' ')).toMatch(/Only 20\.1 USDT arrived: 5 USDT short of 25\.1 USDT\./);
  });

  it('--json: difference {"USDT": "5"}', async () => {
    const { t } = await run([v1('waiting', []), underpaid()], { json: true });
    expect(JSON.parse(t.stdout())).toMatchObject({ status: 'underpaid', received: { USDT: '20.1' }, expected: { USDT: '25.1' }, difference: { USDT: '5' } });
  });
});

describe('gw pay --reuse-if-exists: an order whose expired payment received funds', () => {
  it('creates nothing: exit 13, names the payment and what arrived, never bills the order again', async () => {
    const t = IOStreams.test({});
    const late = v1InfoOf({ status: 'expired', amount: '25', currency: 'USDT', order_id: 'ORD-7', track_id: '444', date: S - 7200, expired_at: S - 3600 }, [
      v1Tx('9f2c', '25', 'USDT'),
    ]);
    const gateway = new FakeGateway({ payment: tronPayment(T0), page: () => ({ payments: [late], page: 1, pages: 1, total: 1 }) });
    const opts: PayOptions = {
      io: t.io,
      gateway: async () => gateway,
      clock: new ManualClock(T0),
      request: buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' }),
      qr: 'never',
      qrOut: undefined,
      reuseIfExists: true,
    };
    const error = await payRun(opts).then(
      () => undefined,
      (e: unknown) => e as GwError,
    );
    expect(gateway.calls.map((c) => c.method)).not.toContain('createPayment');
    expect(error).toMatchObject({
      exitCode: 13,
      trackId: '444',
      message: 'order "ORD-7" already received funds on payment 444 after it expired (25 USDT arrived): no new payment was created',
      hint: 'decide about those funds first (gw status 444): accept them, or refund them in the merchant panel',
    });
  });
});
