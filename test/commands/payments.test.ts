import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentFilter, MAX_PAGES, paymentsRun, type PaymentsOptions } from '../../src/commands/payments.js';
import { ExitCode, GwError, UsageError } from '../../src/errors.js';
import type { HistoryFilterName, PaymentFilter, PaymentInfo, PaymentPage } from '../../src/gateway/gateway.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import type { OutStream } from '../../src/output/streams.js';
import { visibleWidth } from '../../src/output/table.js';
import { Decimal } from '../../src/money/decimal.js';
import { FakeGateway, paymentInfoOf } from '../support/fake-gateway.js';

const d = (text: string): Decimal => Decimal.fromLiteral(text) as Decimal;

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
        size: '50',
      },
      NOW,
    );
    // A range reads every page (test/commands/payments-totals.test.ts).
    expect(all).toBe(true);
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
      size: 50,
    });
  });

  it('--since yesterday --until today: from local midnight yesterday to the last second of today', () => {
    const { filter } = buildPaymentFilter({ since: 'yesterday', until: 'today' }, NOW);
    expect(filter.from).toEqual(new Date(2026, 10, 21));
    expect(filter.to).toEqual(new Date(2026, 10, 22, 23, 59, 59));
    expect(() => buildPaymentFilter({ since: 'today', until: 'yesterday' }, NOW)).toThrow(/--until is before --since/);
  });

  it('--all reads pages of 200 unless told', () => {
    expect(buildPaymentFilter({ all: true }, NOW)).toEqual({ filter: { size: 200 }, all: true, totals: false });
    expect(buildPaymentFilter({ all: true, size: '20' }, NOW)).toEqual({ filter: { size: 20 }, all: true, totals: false });
    expect(buildPaymentFilter({ page: '2' }, NOW)).toEqual({ filter: { page: 2 }, all: false, totals: false });
  });

  it.each([
    [{ status: 'sleeping' }, /--status must be one of new, waiting, confirming, paid/],
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
  it('--json: {"payments": [fields…], "page", "pages", "total", "complete"}, amounts exact', async () => {
    const x = (n: number) => row(n, { orderId: 'x' });
    const { t, opts, gateway } = setup(() => page(1, 3, 41, [x(1), x(2)]), { json: true }, { filter: { orderId: 'x' } });
    await paymentsRun(opts);
    expect(gateway.calls).toEqual([{ method: 'payments', args: [{ orderId: 'x' }] }]);
    const doc = JSON.parse(t.stdout()) as { payments: Array<Record<string, unknown>>; page: number; pages: number; total: number };
    expect(Object.keys(doc)).toEqual(['payments', 'page', 'pages', 'total', 'complete']);
    expect(doc).toMatchObject({ page: 1, pages: 3, total: 41, complete: true });
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
    expect(t.stdout()).toMatch(/Created +Track ID +Status +Amount +Pay amount +Received +Network +Order ID/);
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

  it(`--all stops after ${MAX_PAGES} pages and says so: the rows kept, complete false, exit 76`, async () => {
    const { t, opts, gateway } = setup((f) => page(f.page ?? 1, 10_000, 2_000_000), { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(gateway.calls).toHaveLength(MAX_PAGES);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe('the listing is incomplete: gw stopped after 50 pages of 10000; 50 payments shown');
    const doc = JSON.parse(t.stdout()) as { payments: unknown[]; complete: boolean };
    expect(doc.payments).toHaveLength(50);
    expect(doc.complete).toBe(false);
  });

  it('nothing found', async () => {
    const { t, opts } = setup(() => ({ payments: [], page: 1, pages: 1, total: 0 }));
    await paymentsRun(opts);
    expect(t.stdout()).toBe('No payments match.\n');
  });
});

async function catchAsync(fn: () => Promise<unknown>): Promise<GwError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof GwError) return error;
    throw error;
  }
  throw new Error('expected a GwError');
}

/** The versioned API's history: every filter but the order id is sent. */
const V1_SENT = new Set<HistoryFilterName>(['status', 'trackId', 'currency', 'payCurrency', 'network', 'from', 'to', 'minAmount', 'maxAmount']);

/** A history of `count` payments, newest first; payment n belongs to order `order-${n % orders}`. */
function history(count: number, orders: number): PaymentInfo[] {
  return Array.from({ length: count }, (_, i) => row(i + 1, { orderId: `order-${(i + 1) % orders}`, trackId: `9000${i + 1}` }));
}

/** A gateway that ignores every filter and pages `rows` by the size asked (default 10), as meta {page, last_page, total}. */
function ignoringFilters(rows: PaymentInfo[]): (f: PaymentFilter) => PaymentPage {
  return (f) => {
    const size = f.size ?? 10;
    const n = f.page ?? 1;
    const pages = Math.max(1, Math.ceil(rows.length / size));
    return { payments: rows.slice((n - 1) * size, n * size), page: n, pages, total: rows.length, declared: { page: n, pages, total: rows.length } };
  };
}

function v1Setup(answer: (filter: PaymentFilter) => PaymentPage | Promise<PaymentPage>, io: TestIOOptions = {}, extra: Partial<PaymentsOptions> = {}) {
  const s = setup(answer, io, extra);
  Object.assign(s.gateway, { historyFilters: V1_SENT });
  return s;
}

const orderIds = (stdout: string): unknown[] => (JSON.parse(stdout) as { payments: Array<{ orderId: unknown }> }).payments.map((p) => p.orderId);

describe('filters the gateway does not apply: gw applies them', () => {
  it('v1 has no order id filter: gw reads the pages at 200, shows only the order, exact counts', async () => {
    const rows = history(450, 50);
    const { t, opts, gateway } = v1Setup(ignoringFilters(rows), { json: true }, { filter: { orderId: 'order-7' } });
    await paymentsRun(opts);
    expect(gateway.calls.map((c) => c.args[0])).toEqual([
      { orderId: 'order-7', size: 200 },
      { orderId: 'order-7', size: 200, page: 2 },
      { orderId: 'order-7', size: 200, page: 3 },
    ]);
    const doc = JSON.parse(t.stdout()) as { payments: Array<{ orderId: string }>; page: number; pages: number; total: number; complete: boolean };
    expect(doc.payments.map((p) => p.orderId)).toEqual(Array(9).fill('order-7'));
    expect(doc).toMatchObject({ page: 1, pages: 1, total: 9, complete: true });
  });

  it('--page and --size apply to the filtered result; once gw has the page it stops reading (counts unknown: null)', async () => {
    const rows = history(1000, 10);
    const { t, opts, gateway } = v1Setup(ignoringFilters(rows), { json: true }, { filter: { orderId: 'order-3', page: 2, size: 5 } });
    await paymentsRun(opts);
    expect(gateway.calls).toHaveLength(1);
    const doc = JSON.parse(t.stdout()) as { payments: Array<{ trackId: string }>; page: number; pages: unknown; total: unknown; complete: boolean };
    expect(doc.payments.map((p) => p.trackId)).toEqual(['900053', '900063', '900073', '900083', '900093']);
    expect(doc).toMatchObject({ page: 2, pages: null, total: null, complete: true });
  });

  it('on a terminal, the next page is named even when the count is unknown', async () => {
    const { t, opts } = v1Setup(
      ignoringFilters(history(1000, 10)),
      { stdoutTTY: true, stderrTTY: true, width: 120 },
      { filter: { orderId: 'order-3', size: 5 } },
    );
    await paymentsRun(opts);
    expect(t.stdout().match(/order-3/g)).toHaveLength(5);
    expect(t.stderr()).toContain('--page 2 for the next');
  });

  it('a filter the gateway was sent but ignored: the contradicting rows are never shown (gw filters instead)', async () => {
    const rows = history(30, 3);
    const { t, opts, gateway } = setup(ignoringFilters(rows), { json: true }, { filter: { orderId: 'order-1' } });
    await paymentsRun(opts);
    expect(orderIds(t.stdout())).toEqual(Array(10).fill('order-1'));
    // The first page (the gateway's paging) showed the filter ignored; then gw read at 200.
    expect(gateway.calls.map((c) => c.args[0])).toEqual([{ orderId: 'order-1' }, { orderId: 'order-1', size: 200 }]);
    const status = setup(ignoringFilters(rows), { json: true }, { filter: { status: 'paid' } });
    await paymentsRun(status.opts);
    const statuses = (JSON.parse(status.t.stdout()) as { payments: Array<{ status: string }> }).payments.map((p) => p.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['paid']));
  });

  it('a row that does not say is kept for a filter the gateway applied, dropped for one gw applies alone', async () => {
    const silent = paymentInfoOf({ trackId: '1', status: 'Paid', amount: 5, currency: 'USD' });
    const gatewayApplied = setup(() => page(1, 1, 1, [silent]), { json: true }, { filter: { network: 'Tron Network', minAmount: d('1') } });
    await paymentsRun(gatewayApplied.opts);
    expect(orderIds(gatewayApplied.t.stdout())).toHaveLength(1);
    const gwApplied = v1Setup(() => page(1, 1, 1, [silent]), { json: true }, { filter: { orderId: 'A' } });
    await paymentsRun(gwApplied.opts);
    expect(orderIds(gwApplied.t.stdout())).toHaveLength(0);
  });

  it('--status expired: a payment gw calls late (the gateway says expired) is left out, and is no sign the gateway ignored the filter', async () => {
    const expired = row(1, { status: 'Expired' });
    const late: PaymentInfo = { ...row(3, { status: 'Expired' }), status: 'late' };
    const { t, opts, gateway } = setup(() => page(1, 1, 2, [expired, late]), { json: true }, { filter: { status: 'expired' } });
    await paymentsRun(opts);
    expect(gateway.calls).toHaveLength(1);
    expect((JSON.parse(t.stdout()) as { payments: Array<{ trackId: string }> }).payments.map((p) => p.trackId)).toEqual(['184729301']);
    // --status late: an expired payment whose transactions are not listed may be late: kept (the gateway applied "expired").
    const maybe = setup(() => page(1, 1, 2, [expired, late]), { json: true }, { filter: { status: 'late' } });
    await paymentsRun(maybe.opts);
    expect((JSON.parse(maybe.t.stdout()) as { payments: unknown[] }).payments).toHaveLength(2);
  });

  it('network names compare as the same network ("TRC20" asked, "Tron Network" sent)', async () => {
    const rows = [row(1, { network: 'Tron Network' }), row(2, { network: 'Bitcoin Network' })];
    const { t, opts } = v1Setup(() => page(1, 1, 2, rows), { json: true }, { filter: { network: 'TRC20', orderId: 'order-with-a-rather-long-name-1' } });
    await paymentsRun(opts);
    expect(orderIds(t.stdout())).toEqual(['order-with-a-rather-long-name-1']);
  });
});

describe('incomplete listings: the rows read are kept, "complete": false, exit 76, one line', () => {
  it('pages that repeat (--all): stops at the repeat', async () => {
    const { t, opts, gateway } = setup((f) => page(f.page ?? 1, 5, 5, [row(1)]), { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(gateway.calls).toHaveLength(2);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe("the listing is incomplete: the gateway's page 2 repeats payments of earlier pages; 1 payment shown");
    const doc = JSON.parse(t.stdout()) as { payments: unknown[]; complete: boolean };
    expect(doc.payments).toHaveLength(1);
    expect(doc.complete).toBe(false);
  });

  it('pages that repeat while gw filters (v1 order id): stops, says so', async () => {
    const { t, opts } = v1Setup(() => page(1, 4, 800, [row(1, { orderId: 'A' }), row(2)]), { json: true }, { filter: { orderId: 'A' } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toMatch(/^the listing is incomplete: the gateway's page 2 repeats payments of earlier pages \(gw filters these payments itself/);
    expect(JSON.parse(t.stdout())).toMatchObject({ payments: [{ orderId: 'A' }], complete: false, total: null });
  });

  it('a last page before the page sent', async () => {
    const { t, opts } = setup(() => ({ ...page(3, 3, 50), declared: { page: 3, pages: 1, total: 50 } }), { json: true }, { filter: { page: 3 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toContain("the gateway's page 3 says the last page is 1");
    expect(JSON.parse(t.stdout())).toMatchObject({ complete: false });
  });

  it('a page other than the one asked for', async () => {
    const { opts } = setup(() => ({ ...page(1, 3, 30), declared: { page: 1, pages: 3, total: 30 } }), { json: true }, { filter: { page: 2 } });
    expect((await catchAsync(() => paymentsRun(opts))).message).toContain('the gateway answered page 1 when asked for page 2');
  });

  it('a total of 50 whose pages end early (--all)', async () => {
    const answer = (f: PaymentFilter): PaymentPage => ({ ...page(f.page ?? 1, 2, 50), declared: { page: f.page ?? 1, pages: 2, total: 50 } });
    const { t, opts } = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(error.message).toBe('the listing is incomplete: the gateway counted 50 payments but its pages ended after 2; 2 payments shown');
    expect(JSON.parse(t.stdout())).toMatchObject({ complete: false, total: 50 });
  });

  it('a total of 50 on a page that is the only one and holds 1', async () => {
    const { opts } = setup(() => ({ ...page(1, 1, 50), declared: { page: 1, pages: 1, total: 50 } }), {});
    expect((await catchAsync(() => paymentsRun(opts))).message).toContain('the gateway counted 50 payments but its only page holds 1');
  });

  it('an empty page before the last one', async () => {
    const answer = (f: PaymentFilter): PaymentPage => (f.page === 2 ? page(2, 3, 30, []) : page(f.page ?? 1, 3, 30));
    const { opts } = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
    expect((await catchAsync(() => paymentsRun(opts))).message).toContain("the gateway's page 2 of 3 is empty");
  });

  it('the deadline in the middle of the reading: stops, the rows kept, says where', async () => {
    const rows = history(450, 50);
    const answer = (f: PaymentFilter): PaymentPage => {
      if ((f.page ?? 1) >= 2) throw new GwError(ExitCode.TEMPFAIL, 'no time was left to send the request to the gateway');
      return ignoringFilters(rows)(f);
    };
    const { t, opts, gateway } = v1Setup(answer, { json: true }, { filter: { orderId: 'order-0' } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(gateway.calls).toHaveLength(2);
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toMatch(/^the listing is incomplete: stopped before page 2 of 3: no time was left to send the request to the gateway/);
    expect(JSON.parse(t.stdout())).toMatchObject({ complete: false, total: null });
    expect(orderIds(t.stdout())).toEqual(Array(4).fill('order-0'));
  });

  it("another failure in the middle: the rows kept, that failure's exit code", async () => {
    const answer = (f: PaymentFilter): PaymentPage => {
      if (f.page === 2) throw new GwError(ExitCode.UNAVAILABLE, 'the gateway failed (HTTP 503)');
      return page(1, 2, 2);
    };
    const { t, opts } = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.message).toBe('the listing is incomplete: page 2 of 2 could not be read; 1 payment shown: the gateway failed (HTTP 503)');
    expect(JSON.parse(t.stdout())).toMatchObject({ complete: false });
  });

  it('--all --json, a failure on page 3 of 5: a valid document with pages 1 and 2, "complete": false, that failure\'s exit code', async () => {
    const answer = (f: PaymentFilter): PaymentPage => {
      const n = f.page ?? 1;
      if (n === 3) throw new GwError(ExitCode.UNAVAILABLE, 'the gateway failed (HTTP 503)');
      return page(n, 5, 10, [row(2 * n - 1), row(2 * n)]);
    };
    const { t, opts, gateway } = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(gateway.calls).toHaveLength(3);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.message).toBe('the listing is incomplete: page 3 of 5 could not be read; 4 payments shown: the gateway failed (HTTP 503)');
    const doc = JSON.parse(t.stdout()) as { payments: Array<{ trackId: string }>; complete: boolean };
    expect(doc.payments.map((p) => p.trackId)).toEqual(['184729301', '184729302', '184729303', '184729304']);
    expect(doc).toMatchObject({ page: 2, pages: 5, total: 10, complete: false });
  });

  it('--all: a page that repeats an earlier page, not the one before it, is noticed; a payment on two pages is shown once', async () => {
    const pages: Record<number, PaymentInfo[]> = { 1: [row(1), row(2)], 2: [row(2), row(3)], 3: [row(1), row(2)] };
    const { t, opts } = setup((f) => page(f.page ?? 1, 4, 8, pages[f.page ?? 1]), { json: true }, { all: true, filter: { size: 200 } });
    const error = await catchAsync(() => paymentsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe("the listing is incomplete: the gateway's page 3 repeats payments of earlier pages; 3 payments shown");
    expect((JSON.parse(t.stdout()) as { payments: Array<{ trackId: string }> }).payments.map((p) => p.trackId)).toEqual([
      '184729301',
      '184729302',
      '184729303',
    ]);
  });

  it('--all: a payment twice on one page is shown once, there and on later pages', async () => {
    const pages: Record<number, PaymentInfo[]> = { 1: [row(1), row(2), row(1)], 2: [row(3), row(3), row(2)] };
    for (const filter of [{ size: 200 }, { size: 200, orderId: 'order-with-a-rather-long-name-3' }]) {
      const { t, opts } = v1Setup((f) => page(f.page ?? 1, 2, 3, pages[f.page ?? 1]), { json: true }, { all: true, filter });
      await paymentsRun(opts);
      const doc = JSON.parse(t.stdout()) as { payments: Array<{ trackId: string }>; complete: boolean };
      expect(doc.payments.map((p) => p.trackId)).toEqual(filter.orderId === undefined ? ['184729301', '184729302', '184729303'] : ['184729303']);
      expect(doc.complete).toBe(true);
    }
  });

  it('a complete listing says so', async () => {
    const { t, opts } = setup(() => page(1, 1, 1), { json: true });
    await paymentsRun(opts);
    expect(JSON.parse(t.stdout())).toMatchObject({ complete: true });
  });
});

describe('--all writes each page as it is read', () => {
  it('--json: the same document printJson gives, written page by page', async () => {
    const answer = (f: PaymentFilter): PaymentPage => page(f.page ?? 1, 3, 3, [row(f.page ?? 1)]);
    const streamed = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
    await paymentsRun(streamed.opts);
    const doc = JSON.parse(streamed.t.stdout()) as { payments: Array<Record<string, unknown>> };
    const expected = IOStreams.test({ json: true });
    expected.io.printJson({ payments: doc.payments, page: 3, pages: 3, total: 3, complete: true });
    expect(streamed.t.stdout()).toBe(expected.stdout());
    const none = setup(() => ({ payments: [], page: 1, pages: 1, total: 0 }), { json: true }, { all: true, filter: { size: 200 } });
    await paymentsRun(none.opts);
    expect(JSON.parse(none.t.stdout())).toEqual({ payments: [], page: 1, pages: 1, total: 0, complete: true });
  });

  it('--json, pages of several payments: the same document printJson gives, and the sandbox flag at its end', async () => {
    const answer = (f: PaymentFilter): PaymentPage =>
      page(
        f.page ?? 1,
        3,
        9,
        [1, 2, 3].map((i) => row(3 * ((f.page ?? 1) - 1) + i)),
      );
    for (const sandbox of [false, true]) {
      const streamed = setup(answer, { json: true }, { all: true, filter: { size: 200 } });
      if (sandbox) streamed.t.io.setSandbox(true);
      await paymentsRun(streamed.opts);
      const doc = JSON.parse(streamed.t.stdout()) as { payments: Array<Record<string, unknown>> };
      expect(doc.payments).toHaveLength(9);
      const expected = IOStreams.test({ json: true });
      if (sandbox) expected.io.setSandbox(true);
      expected.io.printJson({ payments: doc.payments, page: 3, pages: 3, total: 9, complete: true });
      expect(streamed.t.stdout()).toBe(expected.stdout());
    }
  });

  it('a table: one header, the rows of every page under it', async () => {
    const answer = (f: PaymentFilter): PaymentPage => page(f.page ?? 1, 3, 3, [row(f.page ?? 1)]);
    const { t, opts } = setup(answer, {}, { all: true, filter: { size: 200 } });
    await paymentsRun(opts);
    const lines = t.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^Created +Track ID/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[1])).toEqual(['184729301', '184729302', '184729303']);
    expect(new Set(lines.slice(1).map((l) => l.indexOf('184729')))).toHaveProperty('size', 1);
  });

  it.each([
    ['EPIPE', 'stdout was closed (EPIPE)'],
    ['ENOSPC', 'the output could not be written to stdout (ENOSPC)'],
  ])('stdout failing with %s: gw stops reading pages, exit 74', async (code, message) => {
    const writes: string[] = [];
    const stdout: OutStream = {
      write(chunk, callback) {
        writes.push(chunk);
        const error = Object.assign(new Error(code), { code });
        queueMicrotask(() => callback?.(error));
        return false;
      },
    };
    const stderr: OutStream = { write: () => true };
    const io = new IOStreams({ stdout, stderr, env: {} });
    io.setJson(true);
    const gateway = new FakeGateway({ page: (f: PaymentFilter) => page(f.page ?? 1, 40, 40) });
    const error = await catchAsync(() => paymentsRun({ io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: { size: 200 }, all: true }));
    expect(error.exitCode).toBe(ExitCode.IOERR);
    expect(error.message).toContain(message);
    expect(gateway.calls).toHaveLength(1);
    expect(writes).toHaveLength(1);
  });

  it('a one-shot listing whose reader went away stays quiet (runCli flushes; EPIPE is no failure there)', async () => {
    const stdout: OutStream = {
      write(_chunk, callback) {
        queueMicrotask(() => callback?.(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })));
        return false;
      },
    };
    const io = new IOStreams({ stdout, stderr: { write: () => true }, env: {} });
    const gateway = new FakeGateway({ page: () => page(1, 1, 1) });
    await paymentsRun({ io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: {}, all: false });
    await io.flush();
  });
});
