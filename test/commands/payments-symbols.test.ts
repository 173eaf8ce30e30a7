// The payments filters compare currency symbols by ASCII rules: a row the gateway labels "uſd"
// (long s) or "ＵＳＤ" (full width) is not a USD payment, whatever Unicode folding makes of it.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import type { PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';

const NOW = new Date(2026, 10, 22, 14, 0, 0).getTime();
const S = Math.floor(NOW / 1000);

const row = (trackId: string, currency: string) =>
  paymentInfoOf({ trackId, status: 'Paid', amount: 25, currency, payAmount: '25', payCurrency: 'USDT', network: 'Tron Network', date: S - 60 });

describe('payments --currency USD', () => {
  it.each(['uſd', 'ＵＳＤ'])('a row in %j is not listed as USD', async (hostile) => {
    const t = IOStreams.test({ json: true });
    const answer = (): PaymentPage => ({ payments: [row('1001', 'USD'), row('1002', hostile), row('1003', 'usd')], page: 1, pages: 1, total: 3 });
    const gateway = new FakeGateway({ page: answer });
    const opts: PaymentsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: { currency: 'USD' }, all: false };
    await paymentsRun(opts).catch(() => undefined);
    const listed = (t.stdout().match(/"trackId": ?"(\d+)"/g) ?? []).join(' ');
    expect(listed).toContain('1001');
    expect(listed).toContain('1003');
    expect(listed).not.toContain('1002');
  });
});
