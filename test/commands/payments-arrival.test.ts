// gw payments and what arrived (issue 21): each row shows the received total per coin and the
// number of transactions; --json rows carry the same received/expected/difference/transactions
// fields as gw status --json. The legacy history lists no transactions: "unreported", null.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';
import { T_DATE, V1_SAMPLES } from '../support/v1-payment-info.js';

async function run(payments: PaymentInfo[], io: TestIOOptions) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ page: () => ({ payments, page: 1, pages: 1, total: payments.length }) });
  const opts: PaymentsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(T_DATE * 1000), filter: {}, all: false };
  await paymentsRun(opts);
  return t.stdout();
}

const rows = () => [V1_SAMPLES.lateFull(), V1_SAMPLES.mixed(), V1_SAMPLES.expiredEmpty()];

describe('gw payments: what arrived in each row', () => {
  it('on a terminal: the received total per coin and the number of transactions; late and expired told apart', async () => {
    const out = await run(rows(), { stdoutTTY: true, color: false, width: 120 });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/Status +Amount +Pay amount +Received/);
    expect(out).toMatch(/late +0\.0005 BTC +0\.0005 BTC \(1 tx\)/);
    expect(out).toMatch(/underpaid +25 USD +0\.0002 BTC \+ 10\.5 USDT \(2 txs\)/);
    expect(out).toMatch(/expired +0\.0005 BTC +nothing/);
  });

  it('the legacy history: unreported, not nothing', async () => {
    const out = await run([paymentInfoOf({ status: 'Expired', amount: '25', currency: 'USD', payAmount: '25', payCurrency: 'USDT', txID: '' })], {
      stdoutTTY: true,
      color: false,
      width: 120,
    });
    expect(out).toMatch(/expired +25 USD +25 USDT +unreported/);
  });

  it('--json: every row carries received, expected, difference and transactions', async () => {
    const doc = JSON.parse(await run(rows(), { json: true })) as { payments: Array<Record<string, unknown>> };
    expect(doc.payments).toMatchObject([
      { status: 'late', gatewayStatus: 'expired', received: { BTC: '0.0005' }, difference: { BTC: '0' }, transactions: [{ hash: '9f2c1e0b7a4d' }] },
      { status: 'underpaid', received: { BTC: '0.0002', USDT: '10.5' }, difference: null, transactions: [{ currency: 'BTC' }, { currency: 'USDT' }] },
      { status: 'expired', received: {}, transactions: [] },
    ]);
  });
});
