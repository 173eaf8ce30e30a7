// Benchmark of the sandbox journal (src/sandbox/journal.ts) behind `gw payments --sandbox`: what
// one history page costs with 10 entries and with 10,000 (and past the rotation, with 25,000 lines
// in two files), against a filter that has to read every entry. Standalone:
// `node scripts/bench-journal.mjs`; not a test, nothing is asserted.
//
// The sandbox's gateway and journal modules are bundled from src/ with esbuild into a temporary
// folder (dist/ is left alone), journals are written there with realistic entries (sandbox track
// ids 30 s apart, generated order ids), and each operation runs on a fresh gateway and journal, as
// a new `--sandbox` process would: the median and the 90th percentile of BENCH_JOURNAL_RUNS runs
// (default 200) are printed in milliseconds.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_JOURNAL_RUNS ?? 200);
const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-journal-'));

const entry = path.join(work, 'entry.ts');
writeFileSync(
  entry,
  [
    `export { SandboxGateway } from ${JSON.stringify(path.join(root, 'src/sandbox/gateway.ts'))};`,
    `export { SandboxJournal } from ${JSON.stringify(path.join(root, 'src/sandbox/journal.ts'))};`,
    `export { encodeTrackId } from ${JSON.stringify(path.join(root, 'src/sandbox/track-id.ts'))};`,
    `export { serveOperation } from ${JSON.stringify(path.join(root, 'src/sandbox/routes.ts'))};`,
  ].join('\n'),
);
const bundle = path.join(work, 'sandbox.mjs');
await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
const { SandboxGateway, SandboxJournal, encodeTrackId, serveOperation } = await import(pathToFileURL(bundle).href);

const NOW_MS = Date.UTC(2026, 10, 25, 12, 0, 0);
const KEY = 'sandbox-merchant-key';

/** A journal folder holding `count` entries, newest now, 30 s apart (past 1 MiB: rotated into a segment, as appends would). */
function makeJournal(count) {
  const dir = path.join(work, `j-${count}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'sandbox-payments.jsonl');
  const lines = [];
  for (let i = 0; i < count; i++) {
    const createdAt = Math.floor(NOW_MS / 1000) - (count - i) * 30;
    const trackId = encodeTrackId({
      createdAt,
      lifeTime: 60,
      offering: 2,
      outcome: 'paid',
      settleSeconds: 10,
      currency: 'USDT',
      amount: '25',
      nonce: i % 65536,
    });
    const d = new Date(createdAt * 1000);
    const orderId = `gw-${d.toISOString().slice(0, 10).replaceAll('-', '')}-${d.toISOString().slice(11, 19).replaceAll(':', '')}-${(i % 1000).toString(32).padStart(4, '0')}`;
    lines.push(`${JSON.stringify({ trackId, orderId })}\n`);
  }
  // Written through the journal's own rotation bound: what is over 1 MiB goes to a segment first.
  let cut = 0;
  let bytes = 0;
  for (; cut < lines.length && bytes + lines[lines.length - 1 - cut].length <= 1024 * 1024; cut++) bytes += lines[lines.length - 1 - cut].length;
  const older = lines.slice(0, lines.length - cut);
  if (older.length > 0) writeFileSync(`${file}.${String(NOW_MS * 1000).padStart(19, '0')}-00000000`, older.join(''));
  writeFileSync(file, lines.slice(lines.length - cut).join(''));
  return { file, oldest: JSON.parse(lines[0]).trackId, someOrder: JSON.parse(lines[Math.floor(count / 2)]).orderId };
}

/** A fresh sandbox gateway on `file`, asked as its legacy endpoints are (key, codec, behaviour: what an HTTP request costs but the socket). */
function gatewayOn(file) {
  const gateway = new SandboxGateway({
    merchantKey: KEY,
    payoutKey: 'p',
    now: () => NOW_MS,
    baseUrl: () => 'http://127.0.0.1:1',
    journal: new SandboxJournal(file),
  });
  return {
    list: (fields) => serveOperation(gateway, 'paymentHistory', 'legacy', fields),
    inquiry: (fields) => serveOperation(gateway, 'paymentInfo', 'legacy', fields),
  };
}

function measure(fn) {
  for (let i = 0; i < Math.min(20, RUNS); i++) fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

const check = (reply) => {
  if (reply.body.result !== 100) throw new Error(`unexpected answer: ${JSON.stringify(reply.body).slice(0, 200)}`);
  return reply.body;
};

const rows = [];
for (const count of [10, 10_000, 25_000]) {
  const j = makeJournal(count);
  const page1 = check(gatewayOn(j.file).list({ merchant: KEY }));
  if (page1.meta.total !== count || page1.data.length !== Math.min(20, count)) throw new Error(`page 1 of ${count}: ${JSON.stringify(page1.meta)}`);
  const ops = {
    'history page 1 (20)': () => check(gatewayOn(j.file).list({ merchant: KEY })),
    'history page 5 (20)': () => check(gatewayOn(j.file).list({ merchant: KEY, page: '5' })),
    'by order id': () => check(gatewayOn(j.file).list({ merchant: KEY, orderId: j.someOrder })),
    'status of the oldest': () => check(gatewayOn(j.file).inquiry({ merchant: KEY, trackId: j.oldest })),
    'filter by status (reads all)': () => check(gatewayOn(j.file).list({ merchant: KEY, status: 'Paid' })),
  };
  for (const [name, fn] of Object.entries(ops)) rows.push({ entries: count, operation: name, ...measure(fn) });
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`sandbox journal, ${RUNS} runs each, fresh gateway and journal per run (ms)`);
console.log(`${pad('entries', 9)}${pad('operation', 32)}${pad('median', 10)}p90`);
for (const r of rows) console.log(`${pad(r.entries, 9)}${pad(r.operation, 32)}${pad(r.median.toFixed(3), 10)}${r.p90.toFixed(3)}`);
rmSync(work, { recursive: true, force: true });
