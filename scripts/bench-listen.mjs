// Benchmark of `gw listen`: how many notifications per second it verifies and prints against a
// bare floor, and whether its memory stays flat. Standalone: `node scripts/bench-listen.mjs`
// (builds dist/ if missing).
//
// Against the floor (first table): a bare node:http server (written below, no gw code) that takes
// the same POSTs, verifies the same HMAC-SHA512 over the raw body with the same keys (payout key
// for payouts), parses the JSON and writes one line per notification to its stdout (a pipe to this
// process), answering 200 "ok" in the write's callback, as gw listen answers only once its line is
// taken. Both run side by side, pinned to the same core; pairs of measured runs in alternating
// order (floor then gw, gw then floor, …) at 10 and at 100 concurrent senders, each run a warm-up
// then BENCH_LISTEN_PAIR_COUNT notifications (default 3000); reported: the median of the per-pair
// ratios gw / floor of throughput and of p99 latency, with their spread (min–max, IQR), over
// BENCH_LISTEN_PAIRS pairs (default 10), for the human lines and for --json.
//
// Starts the built gw (`gw listen`, human output, then --json) on 127.0.0.1 with a merchant and a
// payout key, pinned to one CPU core when `taskset` exists (the load generator runs on another),
// then POSTs signed notifications to it from this process over keep-alive connections: a warm-up,
// then a measured run, bounded in count and in time. Signatures are made here with
// crypto.createHmac over 200 different realistic bodies. Every answer must be HTTP 200 "ok" and
// every notification must come out as one line on the listener's stdout; the script checks both.
// Throughput is reported twice: per second of wall time, and per CPU-second the listener used
// (/proc/<pid>/stat), which is its capacity on one core whatever else the machine is doing.
// Memory is the listener's resident set (VmRSS from /proc) after start, after the warm-up and after
// each quarter of the measured run, plus its peak (VmHWM). Prints a table; exits 1 only when an
// answer was not HTTP 200 "ok" or a notification was not printed.
//
// Environment: BENCH_LISTEN_COUNT (measured requests per mode, default 20000), BENCH_LISTEN_WARMUP
// (default 3000), BENCH_LISTEN_CONCURRENCY (connections, default 16), BENCH_LISTEN_SECONDS (time
// bound per run, default 60).
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_GW=<path of a gw.cjs launcher> measures another build (one of `build.mjs --out=<dir>`).
const gwBin = path.resolve(process.env.BENCH_GW ?? path.join(root, 'bin', 'gw.cjs'));
const COUNT = Number(process.env.BENCH_LISTEN_COUNT ?? 20_000);
const WARMUP = Number(process.env.BENCH_LISTEN_WARMUP ?? 3_000);
const CONCURRENCY = Number(process.env.BENCH_LISTEN_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_LISTEN_SECONDS ?? 60);
const PAIRS = Number(process.env.BENCH_LISTEN_PAIRS ?? 10);
const PAIR_COUNT = Number(process.env.BENCH_LISTEN_PAIR_COUNT ?? 3_000);
const MERCHANT_KEY = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s-bench';
const PAYOUT_KEY = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd-bench';

if (!existsSync(path.join(root, 'dist', 'gw.cjs'))) {
  spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}

const taskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0 && cpus().length > 1 ? 'taskset' : undefined;
if (taskset) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });

/** 200 realistic notification bodies (both styles, both key kinds), each with its signature. */
function notifications() {
  const list = [];
  for (let i = 0; i < 200; i++) {
    const trackId = String(184_700_000 + i);
    const payout = i % 10 === 9;
    const v1 = i % 2 === 1;
    const body = v1
      ? JSON.stringify({
          track_id: trackId,
          status: i % 3 === 0 ? 'Paying' : 'Paid',
          type: payout ? 'payout' : 'invoice',
          amount: 25.5,
          value: 25.5,
          sent_value: 25.5,
          currency: 'USDT',
          order_id: `ORD-${i}`,
          email: 'payer@example.com',
          note: '',
          fee_paid_by_payer: 0,
          under_paid_coverage: 0,
          description: 'Order for bench',
          date: 1_750_000_000 + i,
          txs: [
            {
              tx_hash: 'ab'.repeat(32),
              sent_amount: 25.5,
              received_amount: 25.5,
              currency: 'USDT',
              network: 'Tron Network',
              address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
              confirmations: 12,
              status: 'confirmed',
            },
          ],
        })
      : JSON.stringify({
          status: 'Paid',
          trackId,
          type: payout ? 'payout' : 'payment',
          orderId: `ORD-${i}`,
          amount: '25.50',
          currency: 'USD',
          payAmount: '0.00038127',
          payCurrency: 'BTC',
          network: 'Bitcoin Network',
          address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          txID: 'cd'.repeat(32),
          date: String(1_750_000_000 + i),
          payDate: String(1_750_000_300 + i),
          email: '',
          description: '',
          feePaidByPayer: 0,
          underPaidCover: 0,
        });
    const bytes = Buffer.from(body);
    const hmac = createHmac('sha512', payout ? PAYOUT_KEY : MERCHANT_KEY)
      .update(bytes)
      .digest('hex');
    const head = `POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nHMAC: ${hmac}\r\n\r\n`;
    list.push(Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
  }
  return list;
}

/** CPU seconds the process has used (user + system), from /proc/<pid>/stat. */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / ticks;
  } catch {
    return NaN;
  }
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/** The floor: bare node:http, the same HMAC-SHA512 check and one line per notification (see the top). */
const FLOOR = `import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
const [merchant, payout, json] = [process.env.FLOOR_MERCHANT_KEY, process.env.FLOOR_PAYOUT_KEY, process.argv[2] === 'json'];
const pad = (n) => String(n).padStart(2, '0');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    let n;
    try { n = JSON.parse(body.toString('utf8')); } catch { res.writeHead(400).end('not json'); return; }
    const key = /payout/i.test(String(n.type)) ? payout : merchant;
    const given = Buffer.from(String(req.headers.hmac ?? ''), 'hex');
    const want = createHmac('sha512', key).update(body).digest();
    if (req.url !== '/hooks' || req.method !== 'POST' || given.length !== want.length || !timingSafeEqual(given, want)) { res.writeHead(403).end('refused'); return; }
    const d = new Date();
    const trackId = n.trackId ?? n.track_id;
    const line = json
      ? JSON.stringify({ event: 'notification', time: d.toISOString(), httpStatus: 200, verified: true, type: n.type, trackId, status: n.status, amount: String(n.amount), currency: n.currency, orderId: n.orderId ?? n.order_id, body: body.toString('utf8') }) + '\\n'
      : \`\${pad(d.getHours())}:\${pad(d.getMinutes())}:\${pad(d.getSeconds())}  verified       \${n.type} \${trackId}  \${n.status}  \${n.amount} \${n.currency}  order \${n.orderId ?? n.order_id}\\n\`;
    process.stdout.write(line, (error) => {
      if (error) res.writeHead(503).end('not recorded');
      else res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 2 }).end('ok');
    });
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.stderr.write('http://127.0.0.1:' + server.address().port + '/hooks\\n'));
`;

/** Starts the floor (FLOOR above), pinned like the listener; its URL on stderr, its lines on stdout. */
async function startFloor(json) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-bench-floor-'));
  const file = path.join(dir, 'floor.mjs');
  writeFileSync(file, FLOOR);
  const env = { ...process.env, FLOOR_MERCHANT_KEY: MERCHANT_KEY, FLOOR_PAYOUT_KEY: PAYOUT_KEY };
  const args = [file, ...(json ? ['json'] : [])];
  const child = taskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  });
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const url = await announcedUrl(child, () => stderr, 'the floor');
  return { child, url, lines: () => lines, stderr: () => stderr };
}

/** The receiver's URL once `text()` (its stderr or first output) announces it; rejects if it exits first. */
function announcedUrl(child, text, name, stderr = text) {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/hooks/.exec(text())?.[0];
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 10);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`${name} exited ${code}: ${stderr()}`));
    });
  });
}

async function startListener(json) {
  const home = mkdtempSync(path.join(tmpdir(), 'gw-bench-listen-'));
  const env = {
    ...process.env,
    NO_COLOR: '1',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    GATEWAY_MERCHANT_KEY: MERCHANT_KEY,
    GATEWAY_PAYOUT_KEY: PAYOUT_KEY,
  };
  for (const k of Object.keys(env)) if (k.startsWith('GATEWAY_') && !k.endsWith('_KEY')) delete env[k];
  const args = [gwBin, 'listen', '--port', '0', '--path', '/hooks', ...(json ? ['--json'] : [])];
  const child = taskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  let firstOut = '';
  child.stdout.on('data', (chunk) => {
    if (firstOut.length < 400) firstOut += String(chunk);
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  });
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const url = await announcedUrl(
    child,
    () => (json ? firstOut : stderr),
    'gw listen',
    () => stderr,
  );
  // With a taskset wrapper, the node process is its child; find the listener's own pid for /proc.
  let pid = child.pid;
  if (taskset) {
    const kids = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
    if (/^\d+$/.test(kids)) pid = Number(kids);
  }
  return { child, url, pid, lines: () => lines - (json ? 1 : 0), stderr: () => stderr };
}

/**
 * Sends `count` notifications over `concurrency` keep-alive connections, one request in flight
 * per connection, within `seconds`. A lean client on raw sockets (pre-built request bytes, a
 * minimal response parser), so the generator costs less than the listener it measures.
 */
function load(url, requests, count, concurrency, seconds) {
  const target = new URL(url);
  const latencies = [];
  let sent = 0;
  let ok = 0;
  let bad = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    let open = concurrency;
    const done = () => {
      if (--open > 0) return;
      resolve({ ok, bad, ms: Number(process.hrtime.bigint() - started) / 1e6, latencies, timedOut: sent < count });
    };
    for (let c = 0; c < concurrency; c++) {
      const socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let buffer = Buffer.alloc(0);
      let t0 = 0n;
      let closed = false;
      const finish = () => {
        if (closed) return;
        closed = true;
        socket.destroy();
        done();
      };
      const next = () => {
        if (sent >= count || Date.now() > deadline) return finish();
        const r = requests[sent % requests.length];
        sent++;
        t0 = process.hrtime.bigint();
        socket.write(r);
      };
      socket.on('connect', next);
      socket.on('error', () => {
        bad++;
        finish();
      });
      socket.on('close', finish);
      socket.on('data', (chunk) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buffer.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < end + 4 + length) return;
          const body = buffer.subarray(end + 4, end + 4 + length).toString('latin1');
          buffer = buffer.subarray(end + 4 + length);
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (head.startsWith('HTTP/1.1 200 ') && body === 'ok') ok++;
          else bad++;
          next();
        }
      });
    }
  });
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function waitFor(check, ms = 10_000) {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return check();
}

const bodies = notifications();

/** The quantile p (0..1) of numbers, linearly interpolated. */
const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
};

/** gw listen against the floor, pair by pair (see the top). */
const versus = [];
for (const json of [false, true]) {
  const floor = await startFloor(json);
  const listener = await startListener(json).catch((error) => {
    floor.child.kill();
    throw error;
  });
  try {
    for (const concurrency of [10, 100]) {
      const one = async (side) => {
        const before = side.lines();
        const run = await load(side.url, bodies, PAIR_COUNT, concurrency, SECONDS);
        if (run.bad > 0 || run.timedOut)
          throw new Error(`${side === floor ? 'floor' : 'gw listen'}: ${run.bad} bad answers${run.timedOut ? ', timed out' : ''}`);
        if (!(await waitFor(() => side.lines() - before >= run.ok))) throw new Error(`${side === floor ? 'floor' : 'gw listen'}: lines missing`);
        return { perSecond: run.ok / (run.ms / 1000), p99: percentile(run.latencies, 99) };
      };
      // Warm-up: each side's code optimised and its connections' buffers grown before measuring.
      await one(floor);
      await one(listener);
      const pairs = [];
      for (let i = 0; i < PAIRS; i++) {
        const [first, second] = i % 2 === 0 ? [floor, listener] : [listener, floor];
        const a = await one(first);
        const b = await one(second);
        const [f, g] = first === floor ? [a, b] : [b, a];
        pairs.push({ throughput: g.perSecond / f.perSecond, p99: g.p99 / f.p99, f, g });
      }
      versus.push({ mode: json ? 'gw listen --json' : 'gw listen', concurrency, pairs });
    }
  } finally {
    floor.child.kill();
    listener.child.kill('SIGINT');
    await new Promise((r) => listener.child.on('exit', r));
  }
}
const spread = (xs) =>
  `${quantile(xs, 0.5).toFixed(2)}× (IQR ${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}, min–max ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
console.log(
  `gw listen / bare node:http floor (same HMAC-SHA512 check, one line per notification to a pipe, 200 "ok" once written): median of ${PAIRS} per-pair ratios, alternating order, ${PAIR_COUNT} notifications per run; both ${taskset ? 'pinned to core 0, generator on core 1' : 'not pinned (no taskset)'}`,
);
console.log(
  '| mode | senders | throughput gw / floor | p99 latency gw / floor | gw / floor notifications per second (medians) | gw / floor p99 ms (medians) |',
);
console.log('|---|---|---|---|---|---|');
for (const v of versus) {
  const med = (side, key) =>
    quantile(
      v.pairs.map((p) => p[side][key]),
      0.5,
    );
  console.log(
    `| ${v.mode} | ${v.concurrency} | ${spread(v.pairs.map((p) => p.throughput))} | ${spread(v.pairs.map((p) => p.p99))} | ${Math.round(med('g', 'perSecond'))} / ${Math.round(med('f', 'perSecond'))} | ${med('g', 'p99').toFixed(1)} / ${med('f', 'p99').toFixed(1)} |`,
  );
}
console.log('');
if (process.env.BENCH_LISTEN_FLOOR_ONLY === '1') process.exit(0);

const rows = [];
for (const json of [false, true]) {
  const listener = await startListener(json);
  await new Promise((r) => setTimeout(r, 200));
  const atStart = rssOf(listener.pid);
  const warm = await load(listener.url, bodies, WARMUP, CONCURRENCY, SECONDS);
  await waitFor(() => listener.lines() >= warm.ok);
  const afterWarmup = rssOf(listener.pid);
  const cpuBefore = cpuSecondsOf(listener.pid);
  const generatorBefore = process.cpuUsage();
  // The measured run in four parts, RSS after each: flat memory means these stay level.
  const quarters = [];
  const run = { ok: 0, bad: 0, ms: 0, latencies: [], timedOut: false };
  for (let q = 0; q < 4; q++) {
    const part = await load(listener.url, bodies, Math.ceil(COUNT / 4), CONCURRENCY, SECONDS / 4);
    run.ok += part.ok;
    run.bad += part.bad;
    run.ms += part.ms;
    run.latencies.push(...part.latencies);
    run.timedOut ||= part.timedOut;
    quarters.push(rssOf(listener.pid).rss);
  }
  const printed = await waitFor(() => listener.lines() >= warm.ok + run.ok);
  const cpu = cpuSecondsOf(listener.pid) - cpuBefore;
  const generatorUsage = process.cpuUsage(generatorBefore);
  const generatorCpu = (generatorUsage.user + generatorUsage.system) / 1e6;
  const atEnd = rssOf(listener.pid);
  listener.child.kill('SIGINT');
  await new Promise((r) => listener.child.on('exit', r));
  const problems = [];
  if (run.bad > 0 || warm.bad > 0) problems.push(`${run.bad + warm.bad} answers were not HTTP 200 "ok"`);
  if (!printed) problems.push(`${listener.lines()} lines printed for ${warm.ok + run.ok} notifications`);
  if (run.timedOut) problems.push(`stopped at the ${SECONDS} s bound`);
  rows.push({
    mode: json ? 'gw listen --json' : 'gw listen',
    count: run.ok,
    perSecond: run.ok / (run.ms / 1000),
    p50: percentile(run.latencies, 50),
    p99: percentile(run.latencies, 99),
    cpu,
    generatorCpu,
    quarters,
    atStart,
    afterWarmup,
    atEnd,
    problems,
  });
}

const f1 = (n) => n.toFixed(1);
console.log(
  `gw listen benchmark: Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), listener ${taskset ? 'pinned to core 0 (taskset), load generator on core 1' : 'not pinned (no taskset)'}`,
);
console.log(
  `${WARMUP} warm-up + ${COUNT} measured notifications per mode, ${CONCURRENCY} keep-alive connections, 200 distinct signed bodies (legacy and v1, 10% payouts)\n`,
);
console.log(
  '| mode | notifications | per second (wall) | listener CPU | per CPU-second | generator CPU | p50 / p99 latency | RSS at start | RSS after warm-up | RSS during the run (each quarter) | peak RSS |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.mode} | ${r.count} | ${Math.round(r.perSecond)} | ${f1(r.cpu)} s (${Math.round((r.cpu / (r.count / r.perSecond)) * 100)}% of a core) | ${Math.round(r.count / r.cpu)} | ${Math.round((r.generatorCpu / (r.count / r.perSecond)) * 100)}% of a core | ${f1(r.p50)} / ${f1(r.p99)} ms | ${f1(r.atStart.rss)} MB | ${f1(r.afterWarmup.rss)} MB | ${r.quarters.map(f1).join(', ')} MB | ${f1(r.atEnd.peak)} MB |`,
  );
}
console.log('\nper second (wall): notifications answered 200 "ok" and printed, divided by the wall time of the measured run.');
console.log('per CPU-second: the same count divided by the CPU time the listener process used (user + system): its capacity on one core,');
console.log('  the figure to compare on a shared or busy machine. When the listener is below 100% of its core, the generator or the machine is the limit.');
console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const failures = rows.flatMap((r) => r.problems.map((p) => `${r.mode}: ${p}`));
if (failures.length > 0) {
  console.log(`\nPROBLEMS:\n${failures.join('\n')}`);
  process.exitCode = 1;
}
