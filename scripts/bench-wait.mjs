// Cost of waiting for a payment (gw pay --wait, gw status --wait). Standalone: `node scripts/bench-wait.mjs`
// (builds dist/ when it is missing). Prints its numbers; asserts nothing (speed is never a test).
//
// 1. CPU over a real one-minute wait: the built gw against `gw sandbox --settle 3600` (so the
//    payment stays open), `gw pay … --wait --wait-timeout 60`, its CPU time read from the child's
//    own process.resourceUsage(); the same command without --wait is the start-up to subtract.
//    Into a pipe (no animation, no timer but the polls) and, where `script` gives a pseudo-terminal,
//    on a terminal (the counter screen redrawn four times a second). BENCH_WAIT_SECONDS=n changes
//    the length of the wait.
// 2. Memory over many polls: the wait loop and what shows it (the live line; the counter screen
//    redrawn in place), in process, with a clock whose sleeps take no time, over 10,000 polls
//    (BENCH_POLLS=n): the heap after a full GC at poll 1,000 and at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gwBin = path.join(root, 'bin', 'gw.cjs');
const waitSeconds = Number(process.env.BENCH_WAIT_SECONDS ?? 60);
const polls = Number(process.env.BENCH_POLLS ?? 10_000);

if (typeof globalThis.gc !== 'function') {
  // A full GC before each heap reading: run again with --expose-gc.
  const again = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-wait-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
if (!existsSync(path.join(root, 'dist', 'gw.cjs'))) spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });

// ---------------------------------------------------------------------------------------------
// 1. CPU over a real wait

const usageFile = path.join(work, 'usage.json');
const reporter = path.join(work, 'usage.cjs');
writeFileSync(
  reporter,
  `process.on('exit',()=>{const u=process.resourceUsage();require('fs').writeFileSync(${JSON.stringify(usageFile)},JSON.stringify({user:u.userCPUTime,system:u.systemCPUTime,maxRSS:u.maxRSS}))});\n`,
);

const env = { ...process.env, HOME: work, XDG_STATE_HOME: path.join(work, 'state'), NO_COLOR: '1' };
for (const k of Object.keys(env)) if (k.startsWith('GATEWAY_') || k === 'FORCE_COLOR') delete env[k];

const server = spawn(process.execPath, [gwBin, 'sandbox', '--json', '--port', '0', '--settle', '3600'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const sandbox = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c;
    if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
  });
  server.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
});
const gwEnv = { ...env, GATEWAY_BASE_URL: sandbox.url, GATEWAY_MERCHANT_KEY: sandbox.merchantKey };

/** Runs gw with the usage reporter; returns CPU ms, wall ms, peak RSS and the exit code. */
function runGw(args, { tty = false } = {}) {
  rmSync(usageFile, { force: true });
  const argv = [process.execPath, '-r', reporter, gwBin, ...args];
  const started = process.hrtime.bigint();
  const child = tty
    ? spawnSync('script', ['-qfec', argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null'], {
        env: { ...gwEnv, COLUMNS: '100', LINES: '30', TERM: 'xterm-256color' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawnSync(argv[0], argv.slice(1), { env: gwEnv, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  return { cpuMs: (usage.user + usage.system) / 1000, wallMs, rssMB: usage.maxRSS / 1024, exit: child.status };
}

const payArgs = (n) => ['pay', '25', 'USDT', '--order-id', `bench-wait-${n}`, '--timeout', String(waitSeconds + 60)];
const median3 = (run) => [run(1), run(2), run(3)].sort((a, b) => a.cpuMs - b.cpuMs)[1];
const hasScript = spawnSync('script', ['--version']).status === 0;
const modes = [
  { name: 'into a pipe', tty: false },
  ...(hasScript ? [{ name: 'on a terminal (script, 100×30: the counter screen, redrawn once a second)', tty: true }] : []),
];
const rows = modes.map((mode) => {
  const startup = median3((n) => runGw(payArgs(`start-${mode.tty}-${n}`), mode));
  const waited = runGw([...payArgs(`wait-${mode.tty}`), '--wait', '--wait-timeout', String(waitSeconds)], mode);
  return { ...mode, startup, waited };
});
server.kill('SIGINT');

console.log(`\ngw pay --wait for ${waitSeconds} s (Node ${process.version}; polls every ≤ 5 s; CPU from the child's process.resourceUsage())`);
console.log('| where | gw pay, no wait: CPU | with --wait: exit, wall | CPU | CPU − start-up | share of one core | peak RSS |');
console.log('|---|---|---|---|---|---|---|');
for (const { name, startup, waited } of rows) {
  const waitCpu = waited.cpuMs - startup.cpuMs;
  console.log(
    `| ${name} | ${startup.cpuMs.toFixed(0)} ms | ${waited.exit}, ${(waited.wallMs / 1000).toFixed(1)} s | ${waited.cpuMs.toFixed(0)} ms | ${waitCpu.toFixed(0)} ms | ${((waitCpu / waited.wallMs) * 100).toFixed(2)} % | ${waited.rssMB.toFixed(1)} MB |`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Memory over many polls, in process

const { build } = await import('esbuild');
const bundle = path.join(work, 'wait-bundle.mjs');
await build({
  stdin: {
    contents: `
      export { followPayment } from './src/cmdutil/follow.ts';
      export { IOStreams } from './src/output/iostreams.ts';
      export { decodePaymentInfo } from './src/operations/payment-info.ts';
      export { parseLossless } from './src/util/json.ts';
      export { counterScreen } from './src/views/counter-screen.ts';
      export { buildPaymentUri } from './src/payment-uri/index.ts';
      export { qrSymbol, renderTerminalQr } from './src/qr/index.ts';
      export { decodePayment } from './src/operations/create-payment.ts';
    `,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: bundle,
  define: { __GW_VERSION__: '"bench"' },
  logLevel: 'warning',
});
const m = await import(pathToFileURL(bundle).href);

const sink = () =>
  Object.assign(
    new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );

/**
 * A clock whose sleeps take no time: each resolves at the next turn of the event loop (as a timer
 * would, so what the process defers to it — stream callbacks — runs, as in a real wait).
 */
function instantClock() {
  let now = Date.UTC(2026, 10, 22, 12, 0, 0);
  return {
    now: () => now,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      now += ms;
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const heapMB = () => {
  globalThis.gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

async function memoryRun(screen) {
  const clock = instantClock();
  const io = new m.IOStreams({ stdout: sink(), stderr: sink(), env: { TERM: 'xterm-256color' } });
  await io.loadColor(); // as runCli does before a command: chalk, for a terminal's colours
  const expiredAt = Math.floor(clock.now() / 1000) + 10 * 365 * 86_400;
  const body = (status) =>
    `{"result":100,"message":"ok","trackId":"184729305","status":"${status}","amount":"25","currency":"USDT","payAmount":"25","payCurrency":"USDT","network":"Tron Network","address":"TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe","txID":"","orderId":"ORD-7","date":${Math.floor(clock.now() / 1000)},"payDate":0,"expiredAt":${expiredAt}}`;
  let calls = 0;
  let at1000;
  const gateway = {
    paymentInfo: async () => {
      calls++;
      if (calls === 1000) at1000 = heapMB();
      return m.decodePaymentInfo(m.parseLossless(body(calls >= polls ? 'Paid' : 'Waiting')), 'the bench');
    },
  };
  let draw;
  if (screen) {
    const payment = m.decodePayment(m.parseLossless(body('Waiting')), 'the bench');
    const uri = m.buildPaymentUri({ network: 'Tron Network', payCurrency: 'USDT', address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', payAmount: '25' });
    const columns = m.qrSymbol(uri.uri).size + 8;
    const qr = { text: m.renderTerminalQr(uri.uri, { color: true }), columns, rows: Math.ceil(columns / 2) };
    draw = (status) =>
      io.drawScreen(m.counterScreen({ payment, uri, qr, width: 100, height: 30, now: clock.now(), chalk: io.chalk, sandbox: false, status }), { clear: true });
  }
  const before = heapMB();
  const started = process.hrtime.bigint();
  const ending = await m.followPayment({
    io,
    clock,
    signal: new AbortController().signal,
    gateway,
    trackId: '184729305',
    ...(draw && { screen: draw }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const after = heapMB();
  return { ending: ending.kind, calls, before, at1000, after, ms, hours: (clock.now() - Date.UTC(2026, 10, 22, 12, 0, 0)) / 3_600_000 };
}

console.log(`\nMemory over ${polls} polls with a clock whose sleeps take no time (heap after a full GC)`);
console.log('| what shows it | polls | waited (virtual) | heap before | at poll 1,000 | at the end | end − poll 1,000 | run time |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, screen] of [
  ['live line on stderr (gw status --wait)', false],
  ['counter screen redrawn in place (gw pay --wait)', true],
]) {
  const r = await memoryRun(screen);
  console.log(
    `| ${name} | ${r.calls} (${r.ending}) | ${r.hours.toFixed(1)} h | ${r.before.toFixed(2)} MB | ${r.at1000.toFixed(2)} MB | ${r.after.toFixed(2)} MB | ${(r.after - r.at1000).toFixed(2)} MB | ${(r.ms / 1000).toFixed(1)} s |`,
  );
}
