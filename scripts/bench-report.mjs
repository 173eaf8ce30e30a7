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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, KEYS, machine, node, quantile, quietness, root } from './bench-lib.mjs';

const gwBin = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));
const ROWS = (process.env.BENCH_ROWS ?? '1000,10000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
if (ROWS.some((n) => !Number.isInteger(n) || n < 0 || n > 200_000)) throw new Error('BENCH_ROWS: whole numbers up to 200000');
if (!existsSync('/usr/bin/time') || spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status !== 0) throw new Error('needs GNU time (/usr/bin/time)');

const fixture = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'gateway', 'legacy', 'payment-history.json'), 'utf8')).answer;
const entry = fixture.data[0];
const CURRENCIES = ['USD', 'EUR', 'USDT'];
const amountOf = (i) => `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`;

let total = 0;
let served = 0;
const send = (res, status, doc) => {
  const text = JSON.stringify(doc);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
};
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.method === 'GET' && req.url?.startsWith('/v1/payout')) {
      send(res, 200, { data: { list: [], meta: { page: 1, last_page: 1, total: 0 } }, message: 'ok', error: {}, status: 200, version: '1.0.0' });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/merchants/list') {
      send(res, 404, { result: 404, message: 'not served' });
      return;
    }
    served++;
    const asked = JSON.parse(body || '{}');
    const size = Math.min(200, Math.max(1, Number(asked.size) || 20));
    const page = Math.max(1, Number(asked.page) || 1);
    const lastPage = Math.max(1, Math.ceil(total / size));
    const data = [];
    for (let i = (page - 1) * size; i < Math.min(total, page * size); i++) {
      data.push({
        ...entry,
        trackId: String(100_000_000 + i),
        orderId: `ORD-${i}`,
        date: entry.date + 60 * i,
        amount: amountOf(i),
        currency: CURRENCIES[i % 3],
      });
    }
    send(res, 200, { result: 100, message: fixture.message, data, meta: { page, last_page: lastPage, total, size } });
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-report-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: url, TZ: 'UTC' };

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
function runOnce(args, rows) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'GW_BENCH_RSS %M', node, gwBin, ...args], { cwd: work, env: gwEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`gw ${args.join(' ')} exited ${code}: ${err}`));
      const doc = JSON.parse(Buffer.concat(out).toString('utf8'));
      if (doc.totals.count !== rows) return reject(new Error(`gw report counted ${doc.totals.count} payments, not ${rows}`));
      const asked = JSON.stringify(doc.totals.asked);
      if (asked !== JSON.stringify(Object.fromEntries(Object.entries(expectedAsked(rows)).sort())))
        return reject(new Error(`gw report's asked sums ${asked} are not the recomputed ones`));
      resolve({ ms, rss: Number(/GW_BENCH_RSS (\d+)/.exec(err)?.[1]) });
    });
  });
}

const day = (unix) => new Date(unix * 1000).toISOString().slice(0, 10);
const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    total = rows;
    const args = ['report', '--since', day(entry.date), '--until', day(entry.date + 60 * Math.max(0, rows - 1)), '--by', 'day', '--json', '--timeout', '600'];
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(args, rows));
    results.push({
      rows,
      ms: quantile(
        runs.map((r) => r.ms),
        0.5,
      ),
      rss:
        quantile(
          runs.map((r) => r.rss),
          0.5,
        ) / 1024,
    });
  }
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\n\`gw report --by day --json\` (${path.relative(root, gwBin)}) by payments in the range, median of ${REPEATS} runs; GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${served} history pages`);
console.log('| payments | pages | wall ms | peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${r.ms.toFixed(0)} | ${r.rss.toFixed(1)} |`);
