// A streamed listing (gw payments --all) sets V8 heap flags as its second page is written, to keep
// its memory flat in the number of rows (src/cmdutil/stream-heap.ts), and puts them back as the
// process exits: the launcher (bin/gw.cjs) writes a command's code cache as it exits, V8 stamps
// the cache with its flags and refuses it under others. So a cache written by a streamed listing
// must be one the next run keeps. Run on a private copy of the built package, as the cache tests.
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { ROOT, tempDir } from '../support/gw.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';

let sandbox: RunningSandbox;
let copy: string;

beforeAll(async () => {
  sandbox = await withSandbox();
  copy = tempDir('gw-listing-heap-');
  for (const part of ['bin', 'dist', 'package.json']) cpSync(path.join(ROOT, part), path.join(copy, part), { recursive: true });
});

afterAll(async () => {
  await sandbox.close();
});

async function run(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const home = tempDir();
  const r = await execa(process.execPath, [path.join(copy, 'bin', 'gw.cjs'), ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...sandboxEnv(sandbox) },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 20_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const paymentsCache = (): string | undefined => {
  const file = readdirSync(path.join(copy, 'dist')).find((f) => f.endsWith('.payments.cache'));
  return file === undefined ? undefined : path.join(copy, 'dist', file);
};

describe('gw payments --all and the code cache', () => {
  it('the cache a streamed listing writes is kept by the next run', async () => {
    // Two payments, listed a page each: the flags are set from the second page on.
    for (const amount of ['25', '26']) {
      const paid = await run(['pay', amount, 'USDT', '--json']);
      expect(paid.exitCode, paid.stderr).toBe(0);
    }
    const old = paymentsCache();
    if (old !== undefined) rmSync(old);
    const listed = await run(['payments', '--all', '--size', '1', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { payments: unknown[]; complete: boolean }).payments.length).toBeGreaterThan(1);
    const written = paymentsCache();
    expect(written).toBeDefined();
    const made = statSync(written ?? '').ino;
    // The next run restores the cache instead of rejecting it and writing another.
    const again = await run(['payments', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(statSync(written ?? '').ino).toBe(made);
  });
});
