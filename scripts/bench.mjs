// npm run bench (first of three scripts): gw's start-up and one-request cost against bare Node,
// the project's benchmark standard: the median of per-pair ratios, pairs in alternating order
// (floor then gw, gw then floor, …; ≥ 30 pairs after 3 warm-up pairs, BENCH_PAIRS=n to change),
// against a separate local gateway (scripts/bench-gateway.mjs: canned answers on 127.0.0.1, not
// gw's sandbox), with the ratios' spread, each side's CPU seconds and the machine's load average.
//
// The floor is a bare Node process making one node:http request to the same gateway endpoint the
// command calls and printing the answer; `gw pay --sandbox` (served in its own process) is compared
// with the same floor on the create-payment endpoint, and `gw --version` with `node -e 0`. Both
// sides run with the same environment (scripts/bench-lib.mjs: benchEnv).
//
// BENCH_GW=<path of a gw.cjs launcher> measures another build or launcher; BENCH_BASE_GW=<another>
// replaces the floor by that gw running the same command line (two builds or launchers compared
// pair by pair, e.g. under another Node: `<that node> scripts/bench.mjs`);
// BENCH_ONLY=rate,version,status,payments,pay-sandbox runs some of the comparisons.
// Prints a table; asserts nothing (speed is never a test).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, KEYS, machine, method, node, pairs, quietness, range, ratio, root, startGateway, summarise, writeFloor } from './bench-lib.mjs';

const gwBin = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));
const count = Number(process.env.BENCH_PAIRS ?? 30);
if (!Number.isInteger(count) || count < 1) throw new Error(`BENCH_PAIRS must be a positive whole number, not ${process.env.BENCH_PAIRS}`);
const only = process.env.BENCH_ONLY?.split(',');
const baseGw = process.env.BENCH_BASE_GW === undefined ? undefined : path.resolve(process.env.BENCH_BASE_GW);

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const { env, extraCaCerts } = benchEnv(work);
const before = machine();
const gateway = await startGateway(env);
const floor = writeFloor(work);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url };
const TRACK_ID = '184729305'; // the payment of the published inquiry answer the gateway serves

const floorOn = (route, body) => ({ argv: [node, floor, `${gateway.url}${route}`, JSON.stringify(body)], env, cwd: work });
// The one-file executable (npm run build:sea; BENCH_SEA=<path> for another).
const seaBin = path.resolve(process.env.BENCH_SEA ?? path.join(root, 'dist', 'sea', 'gw'));
const gw = (args, e = gwEnv) => ({ argv: [node, gwBin, ...args], env: e, cwd: work });
const COMPARISONS = [
  {
    id: 'rate',
    name: '`gw rate BTC USDT --json`',
    gw: gw(['rate', 'BTC', 'USDT', '--json']),
    base: floorOn('/exchange/rate', { fromCurrency: 'BTC', toCurrency: 'USDT' }),
  },
  { id: 'status', name: '`gw status <id> --json`', gw: gw(['status', TRACK_ID, '--json']), base: floorOn('/merchants/inquiry', { trackId: TRACK_ID }) },
  { id: 'payments', name: '`gw payments --json`', gw: gw(['payments', '--json']), base: floorOn('/merchants/list', {}) },
  {
    id: 'pay-sandbox',
    name: '`gw pay 25 USDT --json --sandbox`',
    gw: gw(['pay', '25', 'USDT', '--json', '--sandbox'], env),
    base: floorOn('/merchants/request/whitelabel', { amount: 25, currency: 'USDT' }),
  },
  { id: 'version', name: '`gw --version` vs `node -e 0`', gw: gw(['--version'], env), base: { argv: [node, '-e', '0'], env, cwd: work } },
  // The one-file executable (npm run build:sea), when built: the same floors.
  ...(existsSync(seaBin) && baseGw === undefined
    ? [
        {
          id: 'sea-rate',
          name: '`dist/sea/gw rate BTC USDT --json`',
          gw: { argv: [seaBin, 'rate', 'BTC', 'USDT', '--json'], env: gwEnv, cwd: work },
          base: floorOn('/exchange/rate', { fromCurrency: 'BTC', toCurrency: 'USDT' }),
        },
        {
          id: 'sea-version',
          name: '`dist/sea/gw --version` vs `node -e 0`',
          gw: { argv: [seaBin, '--version'], env, cwd: work },
          base: { argv: [node, '-e', '0'], env, cwd: work },
        },
      ]
    : []),
]
  .filter((c) => only === undefined || only.includes(c.id))
  .map((c) => (baseGw === undefined ? c : { ...c, base: { ...c.gw, argv: c.gw.argv.map((arg) => (arg === gwBin ? baseGw : arg)) } }));

const rows = [];
let served = {};
try {
  for (const c of COMPARISONS) {
    rows.push({ ...c, ...summarise(pairs(c.gw, c.base, { count })) });
  }
} finally {
  served = await gateway.counts().catch(() => ({}));
  gateway.stop();
}
const after = machine();

console.log(
  `\nStart-up: gw (${path.relative(root, gwBin)}) / ${baseGw === undefined ? 'floor' : `gw (${path.relative(root, baseGw)})`}, median of ${count} per-pair ratios (alternating order, after 3 warm-up pairs). Node ${process.version}, ${before.model}.`,
);
console.log(`${method}${extraCaCerts ? '; NODE_EXTRA_CA_CERTS removed for both sides' : ''}.`);
console.log(quietness(before, after));
if (rows.some((r) => r.id.startsWith('sea-'))) console.log(`one-file executable dist/sea/gw: ${(statSync(seaBin).size / 1e6).toFixed(1)} MB`);
console.log(`gateway (127.0.0.1, canned answers) served: ${JSON.stringify(served)}`);
console.log(
  '| comparison | time ratio, median | IQR | p10–p90 | min–max | gw / floor ms (medians) | RSS ratio, median | RSS p10–p90 | gw / floor MB | CPU s per run, gw / floor (ratio) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${ratio(r.time.median)} | ${range(r.time.p25, r.time.p75)} | ${range(r.time.p10, r.time.p90)} | ${range(r.time.min, r.time.max)} | ${r.subject.ms.toFixed(1)} / ${r.base.ms.toFixed(1)} | ${ratio(r.rss.median)} | ${range(r.rss.p10, r.rss.p90)} | ${(r.subject.rss / 1024).toFixed(1)} / ${(r.base.rss / 1024).toFixed(1)} | ${r.subject.cpu.toFixed(3)} / ${r.base.cpu.toFixed(3)} (${(r.subject.cpu / r.base.cpu).toFixed(2)}×) |`,
  );
}
if (process.env.BENCH_JSON) console.log(`BENCH_JSON ${JSON.stringify(rows.map(({ gw: _g, base: _b, ...r }) => r))}`);
