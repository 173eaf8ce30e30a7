// npm test: Biome (lint and format), the type check and the test suite, side by side. Biome and
// tsc run while Vitest is still starting (loading its config, building dist/ if needed, starting
// workers), which on a 2-core machine hides most of their 3-4 s. Their output is held back and
// printed after Vitest's report, so nothing interleaves. Exit status: the first failure of Biome,
// tsc and Vitest, in that order. Arguments after `--` go to Vitest. (`npm run lint` alone answers
// in under a second.)
// The binaries come from node_modules/.bin, which npm puts on PATH for its scripts.
import { spawn } from 'node:child_process';

/** Runs a command; resolves with its exit status (1 for a signal) and, if captured, its output. */
function run(command, args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => resolve({ status: 127, output: `${command}: ${error.message}\n` }));
    child.on('close', (code) => resolve({ status: code ?? 1, output }));
  });
}

const lint = run('biome', ['check', '.'], { capture: true });
// One checker thread: beside vitest on two cores, tsc's own threads only compete with the tests
// (measured: 2.3 CPU-seconds instead of 2.7, for the same findings).
const typecheck = run('tsc', ['--noEmit', '-p', 'tsconfig.json', '--singleThreaded'], { capture: true });
const tests = await run('vitest', ['run', ...process.argv.slice(2)]);
const [style, types] = await Promise.all([lint, typecheck]);
if (style.status === 0) process.stdout.write(`\nbiome check: ${style.output.trim().split('\n').at(-1)}\n`);
else process.stderr.write(`\nbiome check failed:\n${style.output}`);
if (types.status !== 0) process.stderr.write(`\ntsc --noEmit failed:\n${types.output}`);
process.exit([style, types, tests].find((r) => r.status !== 0)?.status ?? 0);
