// What `gw report` shows: a table with one row per period (a bar per period on a terminal), the
// range's totals under it (the same footer as `gw payments --since …`, then refunds, payouts and
// the net), the value in a fiat when asked (always labelled as at the gateway's current prices,
// with their time), the statistics cross-check; or the --json document, amounts as exact decimal
// strings (docs/json-and-exit-codes.md).
import { amountsWords } from '../domain/arrival.js';
import { type Grouping, netOf, type PeriodTakings, type PeriodValue, periodValue, type PriceTable } from '../domain/report.js';
import { amountsJson, byKey, totalsFooter, totalsJson } from '../domain/takings.js';
import type { Decimal } from '../money/decimal.js';
import type { PaymentStats } from '../operations/payment-stats.js';
import { padVisible, truncateVisible, visibleWidth } from '../output/cells.js';
import type { IOStreams } from '../output/iostreams.js';
import { localDateTime } from '../output/time.js';

export interface ReportDocument {
  since: Date;
  until: Date;
  by: Grouping;
  timeZone: string;
  periods: PeriodTakings[];
  total: PeriodTakings;
  payouts: { included: boolean; count?: number; note?: string; incomplete?: string };
  prices?: PriceTable;
  stats?: PaymentStats;
  /** What is missing, when the history or payout pages could not all be read. */
  incomplete: string[];
}

const PRICE_BASIS = "valued at the gateway's current prices, not at the time of each payment";

/** Where the history and the statistics differ, per coin received (the history is the source of truth). */
export function statsDifferences(total: PeriodTakings, stats: PaymentStats): Array<{ coin: string; history: Decimal | null; stats: Decimal | null }> {
  const fromStats = new Map(stats.rows.map((r) => [r.payCurrency, r.received]));
  const coins = new Set([...fromStats.keys(), ...total.totals.received.keys()]);
  const out: Array<{ coin: string; history: Decimal | null; stats: Decimal | null }> = [];
  for (const coin of [...coins].sort()) {
    const h = total.totals.received.get(coin) ?? null;
    const s = fromStats.get(coin) ?? null;
    const zero = (d: Decimal | null): boolean => d === null || d.isZero;
    if ((h === null || s === null) && zero(h) && zero(s)) continue;
    if (h === null || s === null || !h.equals(s)) out.push({ coin, history: h, stats: s });
  }
  return out;
}

function valueJson(v: PeriodValue, payouts: boolean): Record<string, unknown> {
  return {
    asked: v.asked,
    received: v.received,
    refunds: v.refunds,
    payouts: payouts ? v.payouts : null,
    net: v.net,
    unpriced: v.unpriced,
  };
}

function periodJson(t: PeriodTakings, doc: ReportDocument): Record<string, unknown> {
  const byCurrency = Object.fromEntries(
    byKey(t.byCurrency).map(([c, line]) => [c, { count: line.count, byState: Object.fromEntries(byKey(line.byState)), asked: line.amount }]),
  );
  const byCoin = Object.fromEntries(
    byKey(t.byCoin).map(([c, line]) => [c, { payments: line.payments, byState: Object.fromEntries(byKey(line.byState)), received: line.amount }]),
  );
  const payouts = Object.fromEntries(byKey(t.payouts).map(([c, line]) => [c, { count: line.count, amount: line.amount, fee: line.fee }]));
  return {
    ...totalsJson(t.totals),
    byCurrency,
    byCoin,
    refunds: amountsJson(t.refunds),
    payouts: doc.payouts.included ? payouts : null,
    net: amountsJson(netOf(t)),
    ...(doc.prices && { value: valueJson(periodValue(t, doc.prices), doc.payouts.included) }),
  };
}

/** The --json document. */
export function reportJson(doc: ReportDocument): Record<string, unknown> {
  const { payouts, prices, stats } = doc;
  return {
    range: { since: doc.since.toISOString(), until: doc.until.toISOString(), by: doc.by, timeZone: doc.timeZone },
    periods: doc.periods.map((t) => ({
      period: t.period?.key ?? null,
      start: t.period?.start.toISOString() ?? null,
      end: t.period?.end.toISOString() ?? null,
      ...periodJson(t, doc),
    })),
    totals: periodJson(doc.total, doc),
    payouts: {
      included: payouts.included,
      ...(payouts.count !== undefined && { count: payouts.count }),
      ...(payouts.note !== undefined && { note: payouts.note }),
    },
    ...(prices && { prices: { currency: prices.fiat, at: prices.at.toISOString(), basis: 'current', note: PRICE_BASIS } }),
    ...(stats && {
      stats: {
        rows: stats.rows.map((r) => ({ payCurrency: r.payCurrency, count: r.count, received: r.received })),
        onePage: stats.more,
        differences: statsDifferences(doc.total, stats),
      },
    }),
    complete: doc.incomplete.length === 0,
  };
}

const BAR_WIDTH = 12;
const PERIOD_TITLE: Readonly<Record<Grouping, string>> = { day: 'Day', week: 'Week of', month: 'Month' };

/** A bar of `n` out of `max`, at most BAR_WIDTH cells; at least one cell for anything above zero. */
function bar(n: number, max: number): string {
  if (n <= 0 || max <= 0) return '';
  return '█'.repeat(Math.max(1, Math.round((n / max) * BAR_WIDTH)));
}

/** A Decimal as a rough number, only for a bar's length (never for a sum). */
const roughly = (d: Decimal): number => Number(d.toString());

const lines = (map: ReadonlyMap<string, Decimal>): string[] => byKey(map).map(([c, v]) => `${v} ${c}`);

/** The human report, each line at most `width` cells. */
export function reportText(doc: ReportDocument, width: number, chalk: IOStreams['chalk'], bars = true): string {
  const { prices } = doc;
  const values = prices === undefined ? undefined : doc.periods.map((t) => periodValue(t, prices));
  const rows = doc.periods.map((t, i) => {
    const v = values?.[i];
    const asked = v === undefined ? lines(t.totals.asked) : [v.asked.total.toString()];
    const received = v === undefined ? lines(t.totals.received) : [v.received.total.toString()];
    const measure = v === undefined ? t.totals.count : roughly(v.received.total);
    return { label: t.period?.key ?? 'undated', count: String(t.totals.count), asked, received, measure };
  });
  const max = Math.max(0, ...rows.map((r) => r.measure));
  const unit = prices === undefined ? '' : ` (${prices.fiat})`;
  const head = [PERIOD_TITLE[doc.by], 'Payments', `Asked${unit}`, `Received${unit}`];
  const w0 = Math.max(visibleWidth(head[0] ?? ''), ...rows.map((r) => r.label.length));
  const wBar = bars ? BAR_WIDTH + 2 : 0;
  const w1 = Math.max(visibleWidth(head[1] ?? '') - wBar, ...rows.map((r) => r.count.length));
  const w2 = Math.max(visibleWidth(head[2] ?? ''), ...rows.flatMap((r) => r.asked.map((a) => visibleWidth(a))));
  const fitted = (text: string): string => truncateVisible(text.trimEnd(), width);
  const out: string[] = [];
  out.push(
    `Report by ${doc.by}, ${localDateTime(doc.since).slice(0, 16)} to ${localDateTime(doc.until).slice(0, 16)} (${doc.timeZone})`,
    '',
    fitted(chalk.bold(`${padVisible(head[0] ?? '', w0)}  ${padVisible(head[1] ?? '', w1 + wBar)}  ${padVisible(head[2] ?? '', w2)}  ${head[3]}`)),
  );
  for (const r of rows) {
    const n = Math.max(1, r.asked.length, r.received.length);
    for (let k = 0; k < n; k++) {
      const first = k === 0;
      const label = padVisible(first ? r.label : '', w0);
      const count = first ? r.count.padStart(w1) : ' '.repeat(w1);
      const barCell = bars ? `  ${padVisible(first ? chalk.green(bar(r.measure, max)) : '', BAR_WIDTH)}` : '';
      out.push(fitted(`${label}  ${count}${barCell}  ${padVisible(r.asked[k] ?? '', w2)}  ${r.received[k] ?? ''}`));
    }
  }
  // An incomplete report says so above its totals (stdout may be a file read without stderr).
  out.push(
    ...totalsFooter(doc.total.totals, doc.incomplete.length === 0)
      .trimEnd()
      .split('\n'),
  );
  const t = doc.total;
  out.push(fitted(`Refunds   ${t.refunds.size === 0 ? 'nothing' : amountsWords(new Map(byKey(t.refunds)))}`));
  if (doc.payouts.included) {
    const payouts = byKey(t.payouts).map(([c, line]) => `${line.amount} ${c} (fee ${line.fee} ${c})`);
    const count = [...t.payouts.values()].reduce((sum, line) => sum + line.count, 0);
    out.push(fitted(`Payouts   ${payouts.length === 0 ? 'nothing' : `${payouts.join(' + ')}, ${count} payout${count === 1 ? '' : 's'}`}`));
  }
  const net = netOf(t);
  out.push(
    fitted(
      `Net       ${
        net.size === 0
          ? 'nothing'
          : byKey(net)
              .map(([c, v]) => `${v} ${c}`)
              .join(' + ')
      }${doc.payouts.included ? '' : ' (payouts not included)'}`,
    ),
  );
  if (prices !== undefined) {
    const v = periodValue(t, prices);
    const f = prices.fiat;
    out.push(
      '',
      fitted(`In ${f}    asked ${v.asked.total} (${v.asked.own} asked in ${f}, ${v.asked.atCurrentPrices} at current prices)`),
      fitted(`          received ${v.received.total} (${v.received.own} paid as asked in ${f}, ${v.received.atCurrentPrices} at current prices)`),
      fitted(`          net ${v.net}${doc.payouts.included ? '' : ' (payouts not included)'}`),
      fitted(`          at the gateway's current prices, read ${localDateTime(prices.at).slice(0, 16)}:`),
      fitted('          not the value at the time of each payment'),
    );
    if (v.unpriced.length > 0) out.push(fitted(`          no price for ${v.unpriced.join(', ')}: left out of these values`));
  }
  if (!doc.payouts.included && doc.payouts.note !== undefined) out.push('', fitted(doc.payouts.note));
  if (doc.stats !== undefined) {
    const diffs = statsDifferences(t, doc.stats);
    out.push('');
    if (diffs.length === 0) out.push(fitted("The gateway's statistics agree with the history on what arrived per coin."));
    else {
      for (const d of diffs)
        out.push(fitted(`note: ${d.coin} arrived: ${d.stats ?? 'nothing'} by the gateway's statistics, ${d.history ?? 'nothing'} by the history`));
      out.push(fitted('(the report follows the history: what the statistics count is not published)'));
    }
  }
  return `${out.join('\n')}\n`;
}
