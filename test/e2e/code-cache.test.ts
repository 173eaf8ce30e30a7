// The launcher's V8 code cache (bin/gw.cjs) is only ever an optimisation: gw gives the same
// answers with it, without it (GW_CODE_CACHE=0), and with a cache V8 rejects (corrupt, or made by
// another Node), which it then replaces. Run on a private copy of the built package, so that
// corrupting its cache cannot disturb the other tests.
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  copy = tempDir('gw-cache-');
  for (const part of ['bin', 'dist', 'package.json']) cpSync(path.join(ROOT, part), path.join(copy, part), { recursive: true });
  // The copy starts with the build's caches only, whatever other tests' runs of gw added since.
  for (const file of cacheFiles()) if (!BUILT.map(cacheOf).includes(file)) rmSync(path.join(copy, 'dist', file));
});

afterAll(async () => {
  await sandbox.close();
});

/** The caches the build writes (scripts/build.mjs, writeCodeCaches). */
const BUILT = ['config', 'pay-sandbox', 'pay', 'status', 'payments', 'rate', 'currencies', 'balance', 'doctor'];
const cacheOf = (variant: string): string => `gw.cjs.${buildId()}.${process.version}-${process.arch}.${variant}.cache`;

/**
 * The build's id in the bundle's first line: a hash of the rest of the bundle, so a cache is named
 * after the very bundle it was made from (V8 checks a cache against the source's length only, and
 * every build is padded to the same length).
 */
function buildId(): string {
  const bundle = readFileSync(path.join(ROOT, 'dist', 'gw.cjs'), 'latin1');
  const newline = bundle.indexOf('\n');
  const id = (JSON.parse(bundle.slice('//gw-commands '.length, newline)) as Record<string, string>)['#build'] ?? '';
  expect(id).toBe(createHash('sha256').update(bundle.slice(newline), 'latin1').digest('hex').slice(0, 16));
  return id;
}

const cacheFiles = (): string[] => readdirSync(path.join(copy, 'dist')).filter((f) => f.endsWith('.cache'));

async function run(args: string[], extraEnv: Record<string, string> = {}): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const home = tempDir();
  const r = await execa(process.execPath, [path.join(copy, 'bin', 'gw.cjs'), ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...sandboxEnv(sandbox), ...extraEnv },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 20_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('the code cache', () => {
  const RATE = ['rate', 'BTC', 'USDT', '--json'];

  it('the build wrote one per common command for this Node, and gw gives the same answer with it and without it', async () => {
    // (Other tests running the shared dist/ meanwhile may have added caches of other commands.)
    expect(cacheFiles()).toEqual(expect.arrayContaining(BUILT.map(cacheOf)));
    const withCache = await run(RATE);
    const without = await run(RATE, { GW_CODE_CACHE: '0' });
    expect(withCache).toEqual({ exitCode: 0, stdout: without.stdout, stderr: '' });
    expect(JSON.parse(without.stdout)).toMatchObject({ from: 'BTC', to: 'USDT' });
  });

  it('flags given through NODE_OPTIONS get a cache of their own: runs with and without them keep each theirs', async () => {
    const plain = path.join(copy, 'dist', cacheOf('rate'));
    const made = statSync(plain).ino;
    const flagged = { NODE_OPTIONS: '--max-semi-space-size=8' };
    expect((await run(RATE, flagged)).exitCode).toBe(0);
    const own = cacheFiles().filter((f) => f.includes('max-semi-space-size=8') && f.endsWith('.rate.cache'));
    expect(own).toHaveLength(1);
    const ownMade = statSync(path.join(copy, 'dist', own[0]!)).ino;
    expect((await run(RATE)).exitCode).toBe(0);
    expect((await run(RATE, flagged)).exitCode).toBe(0);
    // Neither was rejected and written again (V8 stamps a cache with its flags).
    expect(statSync(plain).ino).toBe(made);
    expect(statSync(path.join(copy, 'dist', own[0]!)).ino).toBe(ownMade);
  });

  it('a corrupt cache is rejected, gw works as usual, and the cache is written anew', async () => {
    const full = path.join(copy, 'dist', cacheOf('rate'));
    writeFileSync(full, Buffer.alloc(4096, 0x5a));
    const r = await run(RATE);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const renewed = readFileSync(full);
    expect(renewed.equals(Buffer.alloc(4096, 0x5a))).toBe(false);
    expect(statSync(full).size).toBeGreaterThan(10_000);
    // The new cache is one V8 accepts: the next run keeps it instead of writing it again.
    const renewedFile = statSync(full).ino;
    expect((await run(RATE)).exitCode).toBe(0);
    expect(statSync(full).ino).toBe(renewedFile);
  });

  it('a command without a cache writes its own on first use, and the next run keeps it', async () => {
    const before = new Set(cacheFiles());
    const first = await run(['completion', 'bash']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(cacheFiles().filter((f) => !before.has(f))).toEqual([cacheOf('completion')]);
    const made = statSync(path.join(copy, 'dist', cacheOf('completion'))).ino;
    const second = await run(['completion', 'bash']);
    expect(second.stdout).toBe(first.stdout);
    expect(statSync(path.join(copy, 'dist', cacheOf('completion'))).ino).toBe(made);
  });

  it('a JavaScript config (a real import()) loads through the cached bundle', async () => {
    const home = tempDir();
    writeFileSync(path.join(home, '.gatewayrc.mjs'), `export default { baseUrl: ${JSON.stringify(sandbox.url)}, timeout: 4 };\n`);
    const r = await execa(process.execPath, [path.join(copy, 'bin', 'gw.cjs'), 'config', '--json'], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect((JSON.parse(String(r.stdout)) as { settings: { timeout: { value: string } } }).settings.timeout.value).toBe('4 s');
  });
});
