// npm run bench: start-up and one-request cost of gw against bare Node, as medians of paired runs.
// Starts the sandbox gateway (`gw sandbox`) on 127.0.0.1, then runs each comparison A B A B …
// after a warm-up. Wall time is measured around each child; peak RSS comes from GNU time
// (`/usr/bin/time -f %M`) when present, else from the child's own process.resourceUsage().
// Prints a table; asserts nothing (speed is never a test).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gwBin = path.join(root, 'bin', 'gw.cjs');
const pairs = Number(process.env.BENCH_PAIRS ?? 21);
const warmup = 3;
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-'));

// A preload that reports peak RSS when GNU time is missing (added to both sides of a pair alike).
const rssReporter = path.join(work, 'rss.cjs');
writeFileSync(rssReporter, "process.on('exit',()=>{require('fs').writeSync(2,'\\nRSS_KB='+process.resourceUsage().maxRSS+'\\n')});\n");

/** Exit codes a run may end with: 0, and 8 for `gw status` of a payment still open. */
const SUCCESS_CODES = [0, 8];

function run(argv, env) {
  const [cmd, ...args] = gnuTime ? [gnuTime, '-f', 'RSS_KB=%M', ...argv] : [argv[0], '-r', rssReporter, ...argv.slice(1)];
  const started = process.hrtime.bigint();
  const child = spawnSync(cmd, args, { cwd: work, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const rss = Number(/RSS_KB=(\d+)/.exec(child.stderr)?.[1] ?? NaN);
  if (!SUCCESS_CODES.includes(child.status)) throw new Error(`${argv.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, rss };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function compare(name, a, b) {
  for (let i = 0; i < warmup; i++) {
    run(a.argv, a.env);
    run(b.argv, b.env);
  }
  const ra = [];
  const rb = [];
  for (let i = 0; i < pairs; i++) {
    ra.push(run(a.argv, a.env));
    rb.push(run(b.argv, b.env));
  }
  const row = {
    name,
    a: { ms: median(ra.map((r) => r.ms)), rss: median(ra.map((r) => r.rss)) },
    b: { ms: median(rb.map((r) => r.ms)), rss: median(rb.map((r) => r.rss)) },
  };
  row.timeRatio = row.a.ms / row.b.ms;
  row.rssRatio = row.a.rss / row.b.rss;
  return row;
}

// The sandbox gateway, served by gw itself. A home of its own: the sandbox journal and any
// configuration lookup stay inside the bench's temporary directory.
const env = {
  ...process.env,
  NO_COLOR: '1',
  HOME: work,
  XDG_STATE_HOME: path.join(work, 'state'),
  XDG_CONFIG_HOME: path.join(work, 'config'),
};
for (const k of Object.keys(env)) if (k.startsWith('GATEWAY_')) delete env[k];
// NODE_EXTRA_CA_CERTS makes every Node process read and parse that CA file as it starts (on the
// machine this was written on, 55 ms of every run, gw and floor alike): a constant that would only
// hide the differences measured here. Neither side uses TLS. Removed for both sides.
const extraCaCerts = env.NODE_EXTRA_CA_CERTS !== undefined;
delete env.NODE_EXTRA_CA_CERTS;
// Keys shaped like a real account's, not the sandbox's public test keys: gw scrubs a real key from
// everything it reads and writes, and the benchmark must pay for that as a real set-up does.
const merchantKey = 'QX7ND2-KL9M4P-8RT3VW-6YB5HJ';
const payoutKey = 'PV4K8M-2NQ7XR-5TW9BC-3HJ6DF';
const server = spawn(process.execPath, [gwBin, 'sandbox', '--json', '--port', '0', '--merchant-key', merchantKey, '--payout-key', payoutKey], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c;
    const line = out.split('\n')[0];
    if (out.includes('\n')) resolve(JSON.parse(line).url);
  });
  server.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
});

const floor = path.join(work, 'floor.mjs');
writeFileSync(
  floor,
  `import http from 'node:http';
const req = http.request(process.argv[2] + '/exchange/rate', { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  res.on('end', () => console.log(JSON.parse(body).rate));
});
req.end(JSON.stringify({ fromCurrency: 'BTC', toCurrency: 'USDT' }));
`,
);

const gwEnv = { ...env, GATEWAY_BASE_URL: url, GATEWAY_MERCHANT_KEY: merchantKey, GATEWAY_PAYOUT_KEY: payoutKey };
const node = process.execPath;

// A payment to ask about (gw status) and to find (gw payments), made on the running sandbox.
const created = spawnSync(node, [gwBin, 'pay', '25', 'USDT', '--json', '--order-id', 'bench-1'], { cwd: work, env: gwEnv, encoding: 'utf8' });
if (created.status !== 0) throw new Error(`could not create the payment to ask about: ${created.stderr}`);
const trackId = JSON.parse(created.stdout).trackId;
const rows = [
  compare(
    'gw rate BTC USDT --json  vs  node:http floor',
    { argv: [node, gwBin, 'rate', 'BTC', 'USDT', '--json'], env: gwEnv },
    { argv: [node, floor, url], env },
  ),
  compare('gw --version  vs  node -e 0', { argv: [node, gwBin, '--version'], env }, { argv: [node, '-e', '0'], env }),
  compare(`gw status <id> --json  vs  node:http floor`, { argv: [node, gwBin, 'status', trackId, '--json'], env: gwEnv }, { argv: [node, floor, url], env }),
  compare('gw payments --json  vs  node:http floor', { argv: [node, gwBin, 'payments', '--json'], env: gwEnv }, { argv: [node, floor, url], env }),
  compare(
    'gw pay 25 USDT --json --sandbox  vs  node:http floor',
    { argv: [node, gwBin, 'pay', '25', 'USDT', '--json', '--sandbox'], env },
    { argv: [node, floor, url], env },
  ),
];
server.kill('SIGINT');

const cpu = spawnSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' }).stdout.trim();
console.log(
  `node ${process.version}, ${cpu || 'unknown CPU'}, ${pairs} pairs after ${warmup} warm-up pairs, RSS via ${gnuTime ? 'GNU time' : 'resourceUsage'}${extraCaCerts ? ', NODE_EXTRA_CA_CERTS removed for both sides' : ''}`,
);
console.log('| comparison | gw median ms | base median ms | time ratio | gw peak RSS MB | base peak RSS MB | RSS ratio |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.a.ms.toFixed(1)} | ${r.b.ms.toFixed(1)} | ${r.timeRatio.toFixed(2)}× | ${(r.a.rss / 1024).toFixed(1)} | ${(r.b.rss / 1024).toFixed(1)} | ${r.rssRatio.toFixed(2)}× |`,
  );
}
