// What each start-up edit of scripts/build.mjs (its stubs and patches of dependencies, and the
// built-ins it replaces or defers) buys today: `node scripts/bench-patches.mjs [name…]`.
// Builds gw whole and once without each edit (`build.mjs --out=<temporary dir> --without=<name>`:
// dist/ is left alone), then runs `gw rate BTC USDT --json` against the separate local gateway
// (scripts/bench-gateway.mjs) as pairs in alternating order, the build without the edit against
// the whole build: the median of per-pair ratios (> 1: the edit saves that much), with its spread,
// for wall time and peak RSS, and each side's CPU seconds. A second whole build measured the same
// way ("none") shows what a ratio of builds that do not differ looks like on this machine.
// chalk's colour detection is measured with FORCE_COLOR=1 (chalk loads only when there is colour:
// MEASURED_ON).
// BENCH_PAIRS=n (default 40). Not part of npm run bench; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, KEYS, machine, method, node, pairs, quietness, range, ratio, root, startGateway, summarise } from './bench-lib.mjs';

const ALL = ['commander-child-process', 'chalk-detection', 'external-source'];
const names = process.argv.length > 2 ? process.argv.slice(2) : ALL;
const count = Number(process.env.BENCH_PAIRS ?? 40);

const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-patches-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function buildInto(name, without) {
  const out = path.join(work, name);
  const built = spawnSync(node, [path.join(root, 'scripts', 'build.mjs'), `--out=${out}`, ...(without ? [`--without=${without}`] : [])], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build without ${without} failed: ${built.stderr}`);
  return path.join(out, 'bin', 'gw.cjs');
}

const whole = buildInto('whole');
const variants = [{ name: 'none', gw: buildInto('whole-again') }, ...names.map((name) => ({ name, gw: buildInto(name, name) }))];

const { env, extraCaCerts } = benchEnv(work, { childUsage: true });
const before = machine();
const gateway = await startGateway(env);
const gwEnv = { ...env, ...KEYS, GATEWAY_BASE_URL: gateway.url };
const colourEnv = { ...gwEnv, FORCE_COLOR: '1' };
delete colourEnv.NO_COLOR;
/** What each edit is measured on: `gw rate`, but where the edit is for another command. */
const RATE = ['rate', 'BTC', 'USDT', '--json'];
const MEASURED_ON = {
  // chalk loads only when some output can have colour.
  'chalk-detection': { args: RATE, env: colourEnv, what: 'with FORCE_COLOR=1' },
};
const run = (gw, { args, env: e }) => ({ argv: [node, gw, ...args], env: e, cwd: work });

const rows = [];
try {
  for (const v of variants) {
    const on = MEASURED_ON[v.name] ?? { args: RATE, env: gwEnv };
    rows.push({ name: on.what ? `${v.name} (${on.what})` : v.name, ...summarise(pairs(run(v.gw, on), run(whole, on), { count })) });
  }
} finally {
  gateway.stop();
}
const after = machine();

console.log(
  `\n\`gw rate BTC USDT --json\`, built without one edit / the whole build: median of ${count} per-pair ratios (alternating order). Node ${process.version}.`,
);
console.log(
  `${method}; CPU per run: the child's resourceUsage() (a preload on both sides)${extraCaCerts ? '; NODE_EXTRA_CA_CERTS removed for both sides' : ''}.`,
);
console.log(quietness(before, after));
console.log(
  '| left out | time ratio, median | IQR | p10–p90 | ms without / whole (medians) | RSS ratio, median | RSS p10–p90 | MB without / whole | CPU ratio, median | CPU IQR | CPU ms without / whole (means) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${ratio(r.time.median)} | ${range(r.time.p25, r.time.p75)} | ${range(r.time.p10, r.time.p90)} | ${r.subject.ms.toFixed(1)} / ${r.base.ms.toFixed(1)} | ${ratio(r.rss.median)} | ${range(r.rss.p10, r.rss.p90)} | ${(r.subject.rss / 1024).toFixed(1)} / ${(r.base.rss / 1024).toFixed(1)} | ${ratio(r.cpu.median)} | ${range(r.cpu.p25, r.cpu.p75)} | ${(r.subject.cpu * 1000).toFixed(1)} / ${(r.base.cpu * 1000).toFixed(1)} |`,
  );
}
