// `node scripts/bench-listing.mjs`: the peak memory of gw's streamed listings against the number of
// rows they list, which should stay flat (each page is written as it is read, no row is kept, and
// V8's heap is kept from growing with the rows: src/cmdutil/stream-heap.ts).
//
// A local gateway in this process (127.0.0.1) serves N of each, paged as asked (at most 200 a
// page): the legacy payment history (POST /merchants/list), each payment the published history
// entry (test/fixtures/gateway/legacy/payment-history.json) under its own track id; the payout
// history (GET /v1/payout) and the static address list (GET /v1/payment/static-address), each row
// the published one (test/fixtures/gateway/v1/) under its own track id. For each N and each
// listing the built gw (bin/gw.cjs, BENCH_GW=<launcher> for another) runs once per repeat; its
// peak RSS is GNU time's %M (Linux). stdout goes to this process, which checks it as it comes and
// keeps none of it: the JSON documents parse and hold N rows, the table N lines, the CSV exports N
// records after their header. `--all` reads at most 50 pages of 200 (gw payments, gw address
// list): those run up to 10,000 rows; the CSV exports have no page cap. Prints a table of the
// median peak RSS per N; asserts nothing. BENCH_ROWS=1000,10000,100000 (at most 100,000) and
// BENCH_REPEATS=3 change what it runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, benchGw, benchSizes, KEYS, machine, quantile, quietness, root, startHistoryGateway, timedGw } from './bench-lib.mjs';

const { ROWS, REPEATS } = benchSizes({ rows: '1000,10000,100000', repeats: 3, max: 100_000 });
/** What `--all` reads at most (gw payments, gw address list: 50 pages of 200). */
const ALL_MAX = 10_000;

const v1Row = (name) => JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'gateway', 'v1', `${name}.json`), 'utf8')).answer.data.list[0];
const payoutRow = v1Row('payout-history');
const addressRow = v1Row('static-address-list');

/** GET /v1/payout and /v1/payment/static-address: `total` rows, paged as asked, in the versioned envelope. */
function versionedLists(req, res, send) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const row = url.pathname === '/v1/payout' ? payoutRow : url.pathname === '/v1/payment/static-address' ? addressRow : undefined;
  if (req.method !== 'GET' || row === undefined) return false;
  const size = Math.min(200, Math.max(1, Number(url.searchParams.get('size')) || 10));
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const { total } = gateway;
  const list = [];
  for (let i = (page - 1) * size; i < Math.min(total, page * size); i++) list.push({ ...row, track_id: String(300_000_000 + i), date: row.date + i });
  const meta = { page, last_page: Math.max(1, Math.ceil(total / size)), total };
  send(res, 200, { data: { list, meta }, message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });
  return true;
}

const gateway = await startHistoryGateway({ other: versionedLists });
const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-listing-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url, COLUMNS: '200' };

/** A reader of stdout that keeps nothing: counts newlines, or parses a JSON document and counts its rows. */
function counter(kind, key) {
  let lines = 0;
  const chunks = [];
  return {
    onStdout: (chunk) => {
      if (kind === 'json') chunks.push(chunk);
      else for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    },
    // The JSON document is the one thing held, here in the bench's own process, to parse it.
    count: () => (kind === 'json' ? JSON.parse(Buffer.concat(chunks).toString('utf8'))[key].length : lines - 1),
  };
}

/** The listings measured: their arguments, what their output is, and the most rows they list. */
const LISTINGS = [
  { name: 'payments --all --json', args: ['payments', '--all', '--json'], kind: 'json', key: 'payments', max: ALL_MAX },
  { name: 'payments --all (table)', args: ['payments', '--all'], kind: 'table', max: ALL_MAX },
  { name: 'payments --format csv', args: ['payments', '--format', 'csv'], kind: 'csv', max: Number.POSITIVE_INFINITY },
  { name: 'payouts --format csv', args: ['payouts', '--format', 'csv'], kind: 'csv', max: Number.POSITIVE_INFINITY },
  {
    name: 'address list --all --json',
    args: ['address', 'list', '--all', '--json'],
    kind: 'json',
    key: 'addresses',
    max: ALL_MAX,
    env: { GATEWAY_API: 'v1' },
  },
];

/** One run: its peak RSS in KB, after checking what it wrote. */
async function runOnce(listing, rows) {
  const seen = counter(listing.kind, listing.key);
  const { rss } = await timedGw(listing.args, { cwd: work, env: { ...gwEnv, ...listing.env }, onStdout: seen.onStdout });
  const listed = seen.count();
  if (listed !== rows) throw new Error(`gw ${listing.args.join(' ')} listed ${listed} rows, not ${rows}`);
  return rss;
}

const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    gateway.total = rows;
    const row = { rows, rss: {} };
    for (const listing of LISTINGS) {
      if (rows > listing.max) continue;
      const rss = [];
      for (let i = 0; i < REPEATS; i++) rss.push(await runOnce(listing, rows));
      row.rss[listing.name] = quantile(rss, 0.5) / 1024;
    }
    results.push(row);
  }
} finally {
  gateway.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\nPeak RSS MB of gw's streamed listings (${path.relative(root, benchGw)}) by rows listed, median of ${REPEATS} runs; GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${gateway.served} payment history pages (and the payout and address pages)`);
console.log(`| rows | pages | ${LISTINGS.map((l) => `\`${l.name}\``).join(' | ')} |`);
console.log(`|---|---|${LISTINGS.map(() => '---|').join('')}`);
for (const r of results)
  console.log(
    `| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${LISTINGS.map((l) => (r.rss[l.name] === undefined ? '—' : r.rss[l.name].toFixed(1))).join(' | ')} |`,
  );
