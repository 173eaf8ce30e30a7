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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, KEYS, machine, node, quantile, quietness, root } from './bench-lib.mjs';

const gwBin = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));
const ROWS = (process.env.BENCH_ROWS ?? '1000,10000,100000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1);
if (ROWS.some((n) => !Number.isInteger(n) || n < 0 || n > 1_000_000)) throw new Error('BENCH_ROWS: whole numbers up to 1000000');
if (!existsSync('/usr/bin/time') || spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status !== 0) throw new Error('needs GNU time (/usr/bin/time)');

const fixture = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'gateway', 'legacy', 'payment-history.json'), 'utf8')).answer;
const entry = fixture.data[0];

let total = 0;
let served = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/merchants/list') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"result":404,"message":"not served"}');
      return;
    }
    served++;
    const asked = JSON.parse(body || '{}');
    const size = Math.min(200, Math.max(1, Number(asked.size) || 20));
    const page = Math.max(1, Number(asked.page) || 1);
    const lastPage = Math.max(1, Math.ceil(total / size));
    const data = [];
    for (let i = (page - 1) * size; i < Math.min(total, page * size); i++) {
      data.push({ ...entry, trackId: String(100_000_000 + i), orderId: `ORD-${i}`, date: entry.date + i, amount: `${(i % 997) + 1}.25` });
    }
    const text = JSON.stringify({ result: 100, message: fixture.message, data, meta: { page, last_page: lastPage, total, size } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-csv-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: url };

/** One run: its peak RSS in KB and wall time in ms, after counting the records it wrote. */
function runOnce(rows) {
  const args = ['payments', '--format', 'csv'];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'GW_BENCH_RSS %M', node, gwBin, ...args], { cwd: work, env: gwEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let records = 0;
    let err = '';
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) records++;
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`gw ${args.join(' ')} exited ${code}: ${err}`));
      // The header, then one record per payment (no field of the fixture holds a line break).
      if (records !== rows + 1) return reject(new Error(`gw ${args.join(' ')} wrote ${records - 1} records, not ${rows}`));
      resolve({ rss: Number(/GW_BENCH_RSS (\d+)/.exec(err)?.[1]), ms });
    });
  });
}

const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    total = rows;
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(rows));
    results.push({
      rows,
      rss:
        quantile(
          runs.map((r) => r.rss),
          0.5,
        ) / 1024,
      ms: quantile(
        runs.map((r) => r.ms),
        0.5,
      ),
    });
  }
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\n\`gw payments --format csv\` (${path.relative(root, gwBin)}) by rows exported, median of ${REPEATS} run(s); peak RSS: GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${served} pages`);
console.log('| rows | pages | time s | peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${(r.ms / 1000).toFixed(1)} | ${r.rss.toFixed(1)} |`);
