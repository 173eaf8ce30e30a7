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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, KEYS, machine, node, quantile, quietness, root } from './bench-lib.mjs';

const gwBin = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));
const ROWS = (process.env.BENCH_ROWS ?? '200,1000,10000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
if (ROWS.some((n) => !Number.isInteger(n) || n < 0 || n > 10_000))
  throw new Error('BENCH_ROWS: whole numbers up to 10000 (gw --all reads at most 50 pages of 200)');
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

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-listing-'));
const { env } = benchEnv(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: url, COLUMNS: '200' };

/** One run: its peak RSS in KB, after checking what it wrote. */
function runOnce(args, rows, json) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'GW_BENCH_RSS %M', node, gwBin, ...args], { cwd: work, env: gwEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`gw ${args.join(' ')} exited ${code}: ${err}`));
      const text = Buffer.concat(out).toString('utf8');
      const listed = json ? JSON.parse(text).payments.length : text.split('\n').filter((line) => /^\S.*\b1\d{8}\b/.test(line)).length;
      if (listed !== rows) return reject(new Error(`gw ${args.join(' ')} listed ${listed} payments, not ${rows}`));
      resolve(Number(/GW_BENCH_RSS (\d+)/.exec(err)?.[1]));
    });
  });
}

const before = machine();
const results = [];
try {
  for (const rows of ROWS) {
    total = rows;
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
  server.close();
  rmSync(work, { recursive: true, force: true });
}
const after = machine();

console.log(
  `\nPeak RSS of \`gw payments --all\` (${path.relative(root, gwBin)}) by payments listed, median of ${REPEATS} runs; GNU time %M. Node ${process.version}.`,
);
console.log(quietness(before, after));
console.log(`gateway (127.0.0.1, this process) served ${served} pages`);
console.log('| payments | pages | --json peak RSS MB | table peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${Math.max(1, Math.ceil(r.rows / 200))} | ${r.json.toFixed(1)} | ${r.table.toFixed(1)} |`);
