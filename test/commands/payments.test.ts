import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/cmdutil/clock.js';
import { buildPaymentFilter, MAX_PAGES, paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import { UsageError } from '../../src/errors.js';
import type { PaymentFilter, PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { visibleWidth } from '../../src/output/table.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';

const NOW = new Date(2026, 10, 22, 14, 0, 0).getTime();
const S = Math.floor(NOW / 1000);

function row(n: number, extra: Record<string, unknown> = {}) {
  return paymentInfoOf({
    trackId: `18472930${n}`,
    status: n % 2 === 0 ? 'Paid' : 'Waiting',
    amount: 25.5,
    currency: 'USD',
    payAmount: '0.00038875',
    payCurrency: 'BTC',
    network: 'Bitcoin Network',
    orderId: `order-with-a-rather-long-name-${n}`,
    date: S - n * 60,
    ...extra,
  });
}

function page(n: number, pages: number, total: number, rows = [row(n)]): PaymentPage {
  return { payments: rows, page: n, pages, total };
}

function setup(answer: (filter: PaymentFilter) => PaymentPage | Promise<PaymentPage>, io: TestIOOptions = {}, extra: Partial<PaymentsOptions> = {}) {
  const t = IOStreams.test(io);
  const gateway = new FakeGateway({ page: answer });
  const opts: PaymentsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: {}, all: false, ...extra };
  return { t, gateway, opts };
}

describe('filters, checked before any request', () => {
  it('turns every flag into the filter', () => {
    const { filter, all } = buildPaymentFilter(
      {
        status: 'Paid',
        orderId: '1042',
        trackId: '184729305',
        currency: 'usd',
        payCurrency: 'usdt',
        network: 'Tron Network',
        since: '7d',
        until: '2026-11-22',
        min: '10',
        max: '100.50',
        page: '2',
        size: '50',
      },
      NOW,
    );
    expect(all).toBe(false);
    expect({ ...filter, minAmount: filter.minAmount?.toString(), maxAmount: filter.maxAmount?.toString() }).toEqual({
      status: 'paid',
      orderId: '1042',
      trackId: '184729305',
      currency: 'USD',
      payCurrency: 'USDT',
      network: 'Tron Network',
      from: new Date(NOW - 7 * 86_400_000),
      to: new Date(2026, 10, 22, 23, 59, 59),
      minAmount: '10',
      maxAmount: '100.50',
      page: 2,
      size: 50,
    });
  });

  it('--all reads pages of 200 unless told', () => {
    expect(buildPaymentFilter({ all: true }, NOW)).toEqual({ filter: { size: 200 }, all: true });
    expect(buildPaymentFilter({ all: true, size: '20' }, NOW)).toEqual({ filter: { size: 20 }, all: true });
  });

  it.each([
    [{ status: 'sleeping' }, /--status must be one of new, waiting, confirming, paid, underpaid, expired, failed, refunded/],
    [{ status: 'unknown' }, /--status/],
    [{ size: '0' }, /--size must be a whole number from 1 to 200/],
    [{ size: '201' }, /--size/],
    [{ page: '0' }, /--page/],
    [{ page: '1.5' }, /--page/],
    [{ min: '-1' }, /--min must be a plain decimal/],
    [{ max: '1e3' }, /--max/],
    [{ min: '10', max: '5' }, /--max is below --min/],
    [{ since: '2026-11-20', until: '2026-11-10' }, /--until is before --since/],
    [{ since: 'last week' }, /--since must be a date/],
    [{ all: true, page: '2' }, /--all reads every page: leave out --page/],
    [{ currency: 'U S D' }, /--currency/],
    [{ orderId: 'a\nb' }, /--order-id must not contain control characters/],
  ])('%j is a usage error', (flags, message) => {
    expect(() => buildPaymentFilter(flags, NOW)).toThrow(UsageError);
    expect(() => buildPaymentFilter(flags, NOW)).toThrow(message);
  });
});

describe('gw payments', () => {
  it('--json: {"payments": [fields…], "page", "pages", "total"}, amounts exact', async () => {
    const { t, opts, gateway } = setup(() => page(1, 3, 41, [row(1), row(2)]), { json: true }, { filter: { orderId: 'x' } });
    await paymentsRun(opts);
    expect(gateway.calls).toEqual([{ method: 'payments', args: [{ orderId: 'x' }] }]);
    const doc = JSON.parse(t.stdout()) as { payments: Array<Record<string, unknown>>; page: number; pages: number; total: number };
    expect(Object.keys(doc)).toEqual(['payments', 'page', 'pages', 'total']);
    expect(doc).toMatchObject({ page: 1, pages: 3, total: 41 });
    expect(doc.payments[0]).toMatchObject({ trackId: '184729301', status: 'waiting', gatewayStatus: 'Waiting', amount: '25.5', payAmount: '0.00038875' });
  });

  it('on a terminal: a table that fits the width, the next page named', async () => {
    const { t, opts } = setup(() => page(1, 3, 41, [row(1), row(2), row(3)]), { stdoutTTY: true, stderrTTY: true, width: 80 });
    await paymentsRun(opts);
    const lines = t
      .stdout()
      .replace(/\u001b\[[0-9;]*m/g, '')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThan(80);
    expect(lines[0]).toMatch(/Track ID +Status +Amount/);
    expect(lines[1]).toMatch(/184729301 +waiting +25\.5 USD/);
    expect(t.stderr()).toContain('page 1 of 3 (41 payments): --page 2 for the next, --all for every one');
  });

  it('a narrow terminal drops the less needed columns first', async () => {
    const { t, opts } = setup(() => page(1, 1, 1), { stdoutTTY: true, width: 50 });
    await paymentsRun(opts);
    const header = t
      .stdout()
      .split('\n')[0]!
      .replace(/\u001b\[[0-9;]*m/g, '');
    expect(header).toMatch(/Track ID/);
    expect(header).toMatch(/Status/);
    expect(header).not.toMatch(/Network|Pay amount/);
    for (const line of t.stdout().trimEnd().split('\n')) expect(visibleWidth(line)).toBeLessThan(50);
  });

  it('into a pipe: every column, nothing cut', async () => {
    const { t, opts } = setup(() => page(1, 1, 1));
    await paymentsRun(opts);
    expect(t.stdout()).toMatch(/Created +Track ID +Status +Amount +Pay amount +Network +Order ID/);
    expect(t.stdout()).toContain('order-with-a-rather-long-name-1');
  });

  it('--all follows every page', async () => {
    const { t, opts, gateway } = setup((f) => page(f.page ?? 1, 3, 3, [row(f.page ?? 1)]), { json: true }, { all: true, filter: { size: 200 } });
    await paymentsRun(opts);
    expect(gateway.calls.map((c) => (c.args[0] as PaymentFilter).page)).toEqual([undefined, 2, 3]);
    const doc = JSON.parse(t.stdout()) as { payments: unknown[]; page: number; pages: number };
    expect(doc.payments).toHaveLength(3);
    expect(doc).toMatchObject({ page: 3, pages: 3 });
  });

  it(`--all stops after ${MAX_PAGES} pages and says so`, async () => {
    const { t, opts, gateway } = setup((f) => page(f.page ?? 1, 10_000, 2_000_000), { json: true }, { all: true, filter: { size: 200 } });
    await paymentsRun(opts);
    expect(gateway.calls).toHaveLength(MAX_PAGES);
    expect(t.stderr()).toMatch(/"warning".*stopped after 50 pages \(50 of 2000000 payments\): narrow the filters/);
  });

  it('nothing found', async () => {
    const { t, opts } = setup(() => ({ payments: [], page: 1, pages: 1, total: 0 }));
    await paymentsRun(opts);
    expect(t.stdout()).toBe('No payments match.\n');
  });
});
