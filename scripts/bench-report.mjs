// `node scripts/bench-report.mjs`: wall time and peak memory of `gw report` against the number of
// payments in its range, which should stay flat in memory (each history page is added to the sums
// and dropped: src/domain/report.ts, history keep:false).
//
// A local gateway in this process (127.0.0.1) serves the legacy history (POST /merchants/list) with
// N payments, each the published history entry (test/fixtures/gateway/legacy/payment-history.json)
// under its own track id, one a minute from the entry's date, in three currencies, paged as asked;
// and an empty payout history (GET /v1/payout). For each N the built gw (bin/gw.cjs, BENCH_GW=<launcher>
// for another) runs `gw report --by day --json` over the range once per repeat; its peak RSS is GNU
// time's %M (Linux). The document is checked: its totals count N payments, and the asked sums are
// recomputed here with BigInt. Prints a table of the medians; asserts nothing.
// BENCH_ROWS=1000,10000 and BENCH_REPEATS=3 change what it runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, benchGw, benchSizes, historyFixture, KEYS, machine, medianOf, quietness, root, startHistoryGateway, timedGw } from './bench-lib.mjs';

const { ROWS, REPEATS } = benchSizes({ rows: '1000,10000', repeats: 3, max: 200_000 });
const { entry } = historyFixture();
const CURRENCIES = ['USD', 'EUR', 'USDT'];
const amountOf = (i) => `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`;

const gateway = await startHistoryGateway({
  paymentAt: (i) => ({
    ...entry,
    trackId: String(100_000_000 + i),
    orderId: `ORD-${i}`,
    date: entry.date + 60 * i,
    amount: amountOf(i),
    currency: CURRENCIES[i % 3],
  }),
  // An empty payout history.
  other: (req, res, send) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/v1/payout')) return false;
    send(res, 200, { data: { list: [], meta: { page: 1, last_page: 1, total: 0 } }, message: 'ok', error: {}, status: 200, version: '1.0.0' });
    return true;
  },
});

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-report-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url, TZ: 'UTC' };

/** The asked sums of the first `rows` payments, per currency, recomputed with BigInt (hundredths). */
function expectedAsked(rows) {
  const sums = new Map(CURRENCIES.map((c) => [c, 0n]));
  for (let i = 0; i < rows; i++) {
    const [whole, cents] = amountOf(i).split('.');
    sums.set(CURRENCIES[i % 3], (sums.get(CURRENCIES[i % 3]) ?? 0n) + BigInt(whole) * 100n + BigInt(cents));
  }
  const text = (n) => {
    const s = `${n / 100n}.${String(n % 100n).padStart(2, '0')}`.replace(/\.?0+$/, '');
    return s === '' ? '0' : s;
  };
  return Object.fromEntries([...sums].filter(([, n]) => n > 0n).map(([c, n]) => [c, text(n)]));
}

/** One run: its wall time in ms and peak RSS in KB, after checking the document. */
async function runOnce(args, rows) {
  const { stdout, ms, rss } = await timedGw(args, { cwd: work, env: gwEnv });
  const doc = JSON.parse(stdout.toString('utf8'));
  if (doc.totals.count !== rows) throw new Error(`gw report counted ${doc.totals.count} payments, not ${rows}`);
  const asked = JSON.stringify(doc.totals.asked);
  if (asked !== JSON.stringify(Object.fromEntries(Object.entries(expectedAsked(rows)).sort())))
    throw new Error(`gw report's asked sums ${asked} are not the recomputed ones`);
  return { ms, rss };
}

const day = (unix) => new Date(unix * 1000).toISOString().slice(0, 10);
const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    gateway.total = rows;
    const args = ['report', '--since', day(entry.date), '--until', day(entry.date + 60 * Math.max(0, rows - 1)), '--by', 'day', '--json', '--timeout', '600'];
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(args, rows));
    results.push({ rows, ms: medianOf(runs, 'ms'), rss: medianOf(runs, 'rss') / 1024 });
  }
} finally {
  gateway.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\n\`gw report --by day --json\` (${path.relative(root, benchGw)}) by payments in the range, median of ${REPEATS} runs; GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${gateway.served} history pages`);
console.log('| payments | pages | wall ms | peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${r.ms.toFixed(0)} | ${r.rss.toFixed(1)} |`);
