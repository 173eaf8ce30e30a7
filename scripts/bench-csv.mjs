// `node scripts/bench-csv.mjs`: time and peak memory of `gw payments --format csv` against the
// number of rows it exports, which should stay flat in memory (each page is written, and stdout has
// taken it, before the next is read; no row is kept).
//
// A local gateway in this process (127.0.0.1) serves the legacy history (POST /merchants/list) with
// N payments, each the published history entry (test/fixtures/gateway/legacy/payment-history.json)
// under its own track id, 200 a page. For each N the built gw (bin/gw.cjs, BENCH_GW=<launcher> for
// another) runs BENCH_REPEATS times (default 1); its peak RSS is GNU time's %M (Linux), its time
// the wall clock around it. stdout goes to this process, which counts the CSV records as they come
// (one per payment: the legacy history lists no transactions) and keeps none. Prints a table of the
// medians; asserts nothing. BENCH_ROWS=1000,10000,100000 changes the sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, benchGw, benchSizes, KEYS, machine, medianOf, quietness, root, startHistoryGateway, timedGw } from './bench-lib.mjs';

const { ROWS, REPEATS } = benchSizes({ rows: '1000,10000,100000', repeats: 1, max: 1_000_000 });
const gateway = await startHistoryGateway();

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-csv-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url };

/** One run: its peak RSS in KB and wall time in ms, after counting the records it wrote. */
async function runOnce(rows) {
  const args = ['payments', '--format', 'csv'];
  let records = 0;
  const run = await timedGw(args, {
    cwd: work,
    env: gwEnv,
    onStdout: (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) records++;
    },
  });
  // The header, then one record per payment (no field of the fixture holds a line break).
  if (records !== rows + 1) throw new Error(`gw ${args.join(' ')} wrote ${records - 1} records, not ${rows}`);
  return run;
}

const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    gateway.total = rows;
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(rows));
    results.push({ rows, rss: medianOf(runs, 'rss') / 1024, ms: medianOf(runs, 'ms') });
  }
} finally {
  gateway.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\n\`gw payments --format csv\` (${path.relative(root, benchGw)}) by rows exported, median of ${REPEATS} run(s); peak RSS: GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${gateway.served} pages`);
console.log('| rows | pages | time s | peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${(r.ms / 1000).toFixed(1)} | ${r.rss.toFixed(1)} |`);
