// npm test: Biome (lint and format) first, which takes half a second and stops at the first slip;
// then the type check and the test suite side by side. tsc runs while Vitest is still starting
// (loading its config, building dist/ if needed, starting workers), which on a 2-core machine hides
// most of its 2-3 s. tsc's output is held back and printed after Vitest's, so the two never
// interleave. Exit status: Biome's if it failed, else the first failure of tsc and Vitest.
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

const lint = await run('biome', ['check', '.']);
if (lint.status !== 0) process.exit(lint.status);

const typecheck = run('tsc', ['--noEmit', '-p', 'tsconfig.json'], { capture: true });
const tests = await run('vitest', ['run', ...process.argv.slice(2)]);
const types = await typecheck;
if (types.status !== 0) process.stderr.write(`\ntsc --noEmit failed:\n${types.output}`);
process.exit(types.status !== 0 ? types.status : tests.status);
