// What the start-up benchmarks share (scripts/bench.mjs, scripts/bench-patches.mjs): the separate
// local gateway, the floor, one measured run of a process, paired runs in alternating order, and
// the statistics of per-pair ratios. Speed is never asserted: the scripts print what they measured.
//
// One run is a child process started with spawnSync; its wall time is taken around it (hrtime),
// its peak RSS from GNU time (`/usr/bin/time -f %M`, the kernel's maxrss of the Node process), its
// CPU time (user + system) from this process's own counters of waited-for children
// (/proc/self/stat cutime + cstime: kept by the kernel in nanoseconds and summed, so the mean over
// many runs is not biased by the 10 ms rounding of one reading). Without GNU time or /proc, the
// child reports both itself through a preload (NODE_OPTIONS=--require, on both sides alike), as it
// does with benchEnv(work, { childUsage: true }) for CPU times in microseconds (its own counters,
// read as it exits: scripts/bench-patches.mjs compares two builds' CPU pair by pair).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const node = process.execPath;

const gnuTime =
  existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0 ? '/usr/bin/time' : undefined;
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
const childCpuSeconds = () => {
  // Fields after the command's closing parenthesis: state is field 3, cutime 16 and cstime 17.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / clockTicks;
};
const procStat = (() => {
  try {
    return Number.isFinite(childCpuSeconds());
  } catch {
    return false;
  }
})();

/** How runs are measured, for the report's first line. */
export const method = `wall: hrtime around spawnSync; peak RSS: ${gnuTime ? 'GNU time %M' : "the child's resourceUsage()"}; CPU: ${procStat ? 'cutime+cstime of /proc/self/stat' : "the child's resourceUsage()"}`;

/**
 * The environment both sides run with: no colour, a home of its own (no config file), no gateway
 * settings inherited, and no NODE_EXTRA_CA_CERTS (Node reads and parses that file as every
 * process starts, a constant cost to both sides that would hide what is measured; neither uses TLS).
 */
export function benchEnv(work, { childUsage = false } = {}) {
  const env = { ...process.env, NO_COLOR: '1', HOME: work, XDG_STATE_HOME: path.join(work, 'state'), XDG_CONFIG_HOME: path.join(work, 'config') };
  for (const k of Object.keys(env)) if (k.startsWith('GATEWAY_') || k === 'FORCE_COLOR' || /_proxy$/i.test(k) || k === 'NODE_OPTIONS') delete env[k];
  const extraCaCerts = env.NODE_EXTRA_CA_CERTS !== undefined;
  delete env.NODE_EXTRA_CA_CERTS;
  if (!gnuTime || !procStat || childUsage) {
    const reporter = path.join(work, 'usage.cjs');
    writeFileSync(
      reporter,
      "process.on('exit',()=>{const u=process.resourceUsage();require('fs').writeSync(2,'\\nGW_BENCH_USAGE '+u.maxRSS+' '+(u.userCPUTime+u.systemCPUTime)/1e6+'\\n')});\n",
    );
    env.NODE_OPTIONS = `--require=${reporter}`;
  }
  return { env, extraCaCerts };
}

// Keys shaped like a real account's, not the sandbox's public test keys: gw scrubs a real key from
// everything it reads and writes, and the benchmark must pay for that as a real set-up does.
export const KEYS = { GATEWAY_MERCHANT_KEY: 'QX7ND2-KL9M4P-8RT3VW-6YB5HJ', GATEWAY_PAYOUT_KEY: 'PV4K8M-2NQ7XR-5TW9BC-3HJ6DF' };

/** Starts the separate local gateway (scripts/bench-gateway.mjs); resolves to { url, counts(), stop() }. */
export async function startGateway(env) {
  const { NODE_OPTIONS: _preload, ...gatewayEnv } = env;
  const child = spawn(node, [path.join(root, 'scripts', 'bench-gateway.mjs')], { env: gatewayEnv, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiting;
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n')) {
      lines.push(text.slice(0, i));
      text = text.slice(i + 1);
      waiting?.();
    }
  });
  const nextLine = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the bench gateway did not answer')), 10_000);
      const check = () => {
        if (lines.length === 0) return;
        clearTimeout(timer);
        waiting = undefined;
        resolve(lines.shift());
      };
      waiting = check;
      check();
    });
  const { url } = JSON.parse(await nextLine());
  return {
    url,
    counts: async () => {
      child.stdin.write('counts\n');
      return JSON.parse(await nextLine());
    },
    stop: () => child.stdin.end(),
  };
}

/**
 * The floor: a bare Node process making one node:http request to the gateway and printing the
 * answer. `floorArgv(file, url, path, body)` runs it; the file is written by writeFloor.
 */
export function writeFloor(work) {
  const file = path.join(work, 'floor.mjs');
  writeFileSync(
    file,
    `import http from 'node:http';
const [url, body] = process.argv.slice(2);
const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (text += c));
  res.on('end', () => console.log(JSON.stringify(JSON.parse(text))));
});
req.end(body);
`,
  );
  return file;
}

/** Exit codes a run may end with: 0, and 8 for `gw status` of a payment still open. */
const SUCCESS_CODES = [0, 8];

/** One run: wall ms, peak RSS in KB, CPU seconds (user + system). */
export function runOnce({ argv, env, cwd }) {
  const [cmd, ...args] = gnuTime ? [gnuTime, '-f', 'GW_BENCH_RSS %M', ...argv] : argv;
  const cpuBefore = procStat ? childCpuSeconds() : 0;
  const started = process.hrtime.bigint();
  const child = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = procStat ? childCpuSeconds() : 0;
  if (!SUCCESS_CODES.includes(child.status)) throw new Error(`${argv.join(' ')} exited ${child.status ?? child.signal}: ${child.stderr}`);
  const usage = /GW_BENCH_USAGE (\d+) ([\d.]+)/.exec(child.stderr);
  const rss = gnuTime ? Number(/GW_BENCH_RSS (\d+)/.exec(child.stderr)?.[1]) : Number(usage?.[1]);
  const cpu = usage ? Number(usage[2]) : cpuAfter - cpuBefore;
  return { ms, rss, cpu };
}

/**
 * Pairs in alternating order: pair 0 runs `base` then `subject`, pair 1 `subject` then `base`, …
 * after `warmup` pairs not counted. Returns both sides' runs, pair by pair.
 */
export function pairs(subject, base, { count, warmup = 3 }) {
  const runs = [];
  for (let i = 0; i < warmup + count; i++) {
    let s;
    let b;
    if (i % 2 === 0) {
      b = runOnce(base);
      s = runOnce(subject);
    } else {
      s = runOnce(subject);
      b = runOnce(base);
    }
    if (i >= warmup) runs.push({ s, b });
  }
  return runs;
}

/** The p-quantile (0..1) of numbers, linearly interpolated. */
export function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

/** The statistics of a list of per-pair ratios, and each side's medians and mean CPU. */
export function summarise(runs) {
  const spread = (xs) => ({
    median: quantile(xs, 0.5),
    p10: quantile(xs, 0.1),
    p25: quantile(xs, 0.25),
    p75: quantile(xs, 0.75),
    p90: quantile(xs, 0.9),
    min: Math.min(...xs),
    max: Math.max(...xs),
  });
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  /** One side's typical run: median time and peak memory, mean CPU. */
  const middle = (side) => ({
    ms: quantile(
      side.map((x) => x.ms),
      0.5,
    ),
    rss: quantile(
      side.map((x) => x.rss),
      0.5,
    ),
    cpu: mean(side.map((x) => x.cpu)),
  });
  return {
    n: runs.length,
    time: spread(runs.map((r) => r.s.ms / r.b.ms)),
    rss: spread(runs.map((r) => r.s.rss / r.b.rss)),
    cpu: spread(runs.map((r) => r.s.cpu / r.b.cpu)),
    subject: middle(runs.map((r) => r.s)),
    base: middle(runs.map((r) => r.b)),
  };
}

export const ratio = (x) => `${x.toFixed(3)}×`;
export const range = (a, b) => `${a.toFixed(2)}–${b.toFixed(2)}`;

/** The machine and how busy it is: load averages and the cores. */
export function machine() {
  const cpu = cpus();
  return { cores: cpu.length, model: cpu[0]?.model?.trim() ?? 'unknown CPU', load: loadavg() };
}

/** "quiet" when the 1-minute load average is under a quarter of the cores, else what it was. */
export function quietness(before, after) {
  const worst = Math.max(before.load[0], after.load[0]);
  const fmt = (m) => m.load.map((x) => x.toFixed(2)).join(' ');
  const quiet = worst < before.cores / 4;
  return `load average ${fmt(before)} before, ${fmt(after)} after (${before.cores} cores): ${quiet ? 'quiet' : 'NOT a quiet machine, ratios less certain'}`;
}

// ---------------------------------------------------------------------------------------------
// What the listing benchmarks share (scripts/bench-csv.mjs, bench-listing.mjs, bench-report.mjs):
// the built gw, the sizes asked for, a canned legacy history gateway in this process, and one run
// of gw under GNU time.

/** The gw the listing benchmarks run: bin/gw.cjs, or BENCH_GW. */
export const benchGw = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));

/** BENCH_ROWS (comma-separated, `rows` when unset, whole numbers up to `max`) and BENCH_REPEATS (`repeats` when unset). */
export function benchSizes({ rows, repeats, max, tooLarge = `whole numbers up to ${max}` }) {
  const ROWS = (process.env.BENCH_ROWS ?? rows).split(',').map(Number);
  const REPEATS = Number(process.env.BENCH_REPEATS ?? repeats);
  if (ROWS.some((n) => !Number.isInteger(n) || n < 0 || n > max)) throw new Error(`BENCH_ROWS: ${tooLarge}`);
  if (!gnuTime) throw new Error('needs GNU time (/usr/bin/time)');
  return { ROWS, REPEATS };
}

/** The published legacy history answer (test/fixtures/gateway/legacy/payment-history.json) and its first entry. */
export function historyFixture() {
  const fixture = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'gateway', 'legacy', 'payment-history.json'), 'utf8')).answer;
  return { fixture, entry: fixture.data[0] };
}

/** Payment i of the history: the published entry under its own track id and order id, a second apart. */
const nthPayment = (entry) => (i) => ({ ...entry, trackId: String(100_000_000 + i), orderId: `ORD-${i}`, date: entry.date + i, amount: `${(i % 997) + 1}.25` });

/**
 * A local gateway (127.0.0.1) serving the legacy history (POST /merchants/list) of `total`
 * payments, paged as asked (at most 200 a page), payment i being `paymentAt(i)` (by default the
 * published entry under its own track id, a second apart); `other(req, res, send)` may answer any
 * other request first (true when it did), the rest is a 404. `served` counts the history pages;
 * `total` may change between runs.
 */
export async function startHistoryGateway({ paymentAt, other = () => false } = {}) {
  const { fixture, entry } = historyFixture();
  const payment = paymentAt ?? nthPayment(entry);
  const state = { url: '', total: 0, served: 0, close: () => server.close() };
  const send = (res, status, doc) => {
    const text = JSON.stringify(doc);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (other(req, res, send)) return;
      if (req.method !== 'POST' || req.url !== '/merchants/list') {
        send(res, 404, { result: 404, message: 'not served' });
        return;
      }
      state.served++;
      const asked = JSON.parse(body || '{}');
      const size = Math.min(200, Math.max(1, Number(asked.size) || 20));
      const page = Math.max(1, Number(asked.page) || 1);
      const { total } = state;
      const lastPage = Math.max(1, Math.ceil(total / size));
      const data = [];
      for (let i = (page - 1) * size; i < Math.min(total, page * size); i++) data.push(payment(i));
      send(res, 200, { result: 100, message: fixture.message, data, meta: { page, last_page: lastPage, total, size } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${server.address().port}`;
  return state;
}

/**
 * One run of `gw args` (benchGw) under GNU time: its wall time in ms, peak RSS in KB and stdout
 * (a Buffer; undefined with `onStdout`, which sees each chunk instead and keeps none). A non-zero
 * exit rejects with its stderr.
 */
export function timedGw(args, { cwd, env, onStdout }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(gnuTime ?? '/usr/bin/time', ['-f', 'GW_BENCH_RSS %M', node, benchGw, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', onStdout ?? ((chunk) => out.push(chunk)));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`gw ${args.join(' ')} exited ${code}: ${err}`));
      resolve({ ms, rss: Number(/GW_BENCH_RSS (\d+)/.exec(err)?.[1]), stdout: onStdout ? undefined : Buffer.concat(out) });
    });
  });
}

/** The median of one measure (`ms`, `rss`) over runs. */
export const medianOf = (runs, key) =>
  quantile(
    runs.map((r) => r[key]),
    0.5,
  );
