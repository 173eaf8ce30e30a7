// `node scripts/bench-listing.mjs`: the peak memory of `gw payments --all` against the number of
// payments it lists, which should stay flat (the pages are written as they are read, none kept).
//
// A local gateway in this process (127.0.0.1) serves the legacy history (POST /merchants/list) with
// N payments, each the published history entry (test/fixtures/gateway/legacy/payment-history.json)
// under its own track id, paged as asked (200 a page for --all). For each N and each output (--json
// and the table), the built gw (bin/gw.cjs, BENCH_GW=<launcher> for another) runs once per repeat;
// its peak RSS is GNU time's %M (Linux). stdout goes to this process, which checks it: the JSON
// document parses and holds N payments, the table N lines. Prints a table of the median peak RSS
// per N; asserts nothing. BENCH_ROWS=200,1000,10000 and BENCH_REPEATS=3 change what it runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, benchGw, benchSizes, KEYS, machine, quantile, quietness, root, startHistoryGateway, timedGw } from './bench-lib.mjs';

const { ROWS, REPEATS } = benchSizes({
  rows: '200,1000,10000',
  repeats: 3,
  max: 10_000,
  tooLarge: 'whole numbers up to 10000 (gw --all reads at most 50 pages of 200)',
});
const gateway = await startHistoryGateway();

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-listing-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url, COLUMNS: '200' };

/** One run: its peak RSS in KB, after checking what it wrote. */
async function runOnce(args, rows, json) {
  const { stdout, rss } = await timedGw(args, { cwd: work, env: gwEnv });
  const text = stdout.toString('utf8');
  const listed = json ? JSON.parse(text).payments.length : text.split('\n').filter((line) => /^\S.*\b1\d{8}\b/.test(line)).length;
  if (listed !== rows) throw new Error(`gw ${args.join(' ')} listed ${listed} payments, not ${rows}`);
  return rss;
}

const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    gateway.total = rows;
    const row = { rows };
    for (const [name, args, json] of [
      ['json', ['payments', '--all', '--json'], true],
      ['table', ['payments', '--all'], false],
    ]) {
      const rss = [];
      for (let i = 0; i < REPEATS; i++) rss.push(await runOnce(args, rows, json));
      row[name] = quantile(rss, 0.5) / 1024;
    }
    results.push(row);
  }
} finally {
  gateway.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\nPeak RSS of \`gw payments --all\` (${path.relative(root, benchGw)}) by payments listed, median of ${REPEATS} runs; GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${gateway.served} pages`);
console.log('| payments | pages | --json peak RSS MB | table peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${r.json.toFixed(1)} | ${r.table.toFixed(1)} |`);
