// What only a process shows, run as the built binary against a misbehaving server on 127.0.0.1:
// Ctrl-C during a request, a stdout closed early, and memory while a huge answer streams in.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GW_BIN, gw, removeDir, startGw, tempDir, type GwResult } from '../support/gw.js';
import { hang, huge, json, startMisbehavingGateway, type MisbehavingGateway, TEST_MERCHANT_KEY, TEST_PAYOUT_KEY } from '../support/misbehaving-gateway.js';
import { expectCleanFailure } from '../support/failure-output.js';

const MERCHANT_KEY = TEST_MERCHANT_KEY;
const PAYOUT_KEY = TEST_PAYOUT_KEY;

const envFor = (url: string, keys: { merchant?: string; payout?: string } = {}): Record<string, string> => ({
  GATEWAY_BASE_URL: url,
  GATEWAY_MERCHANT_KEY: keys.merchant ?? MERCHANT_KEY,
  GATEWAY_PAYOUT_KEY: keys.payout ?? PAYOUT_KEY,
});

let server: MisbehavingGateway;

beforeAll(async () => {
  server = await startMisbehavingGateway();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
});

/** The harness's clean environment, for the tests that spawn gw themselves. */
function cleanEnv(home: string, extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GATEWAY_') || k === 'NO_COLOR' || k === 'FORCE_COLOR' || k === 'GW_DEBUG') continue;
    env[k] = v;
  }
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...extra };
}

describe('memory', () => {
  it.runIf(existsSync('/usr/bin/time'))('a 200 MB body: the peak RSS of gw stays far below the body size (/usr/bin/time -f %M)', async () => {
    server.program([huge(200 * 1024 * 1024)]);
    const home = tempDir();
    const rssFile = path.join(home, 'rss');
    try {
      const result = await execa('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, GW_BIN, 'balance', '--timeout', '20'], {
        cwd: home,
        env: cleanEnv(home, envFor(server.url)),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 30_000,
      });
      expect(result.exitCode).toBe(76);
      const peakKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
      expect(peakKiB).toBeGreaterThan(0);
      expect(peakKiB).toBeLessThan(150 * 1024);
    } finally {
      removeDir(home);
    }
  });
});

describe('process hygiene', () => {
  it.runIf(existsSync('/dev/full'))('a stdout that refuses the output (> /dev/full) is exit 74 with one line; gw --version too', async () => {
    for (const args of [['--version'], ['rate', 'BTC', 'USDT', '--sandbox']]) {
      const home = tempDir();
      const r = await execa('sh', ['-c', 'exec "$@" > /dev/full', 'sh', process.execPath, GW_BIN, ...args], {
        cwd: home,
        env: cleanEnv(home, {}),
        reject: false,
      });
      removeDir(home);
      expect(r.exitCode, args.join(' ')).toBe(74);
      // (gw rate --sandbox says SANDBOX on stderr first.)
      expect(r.stderr.split('\n').filter((line) => line.startsWith('gw: '))).toEqual(['gw: the output could not be written to stdout (ENOSPC)']);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('colour is drawn where asked for (FORCE_COLOR), and nowhere else: chalk loads only then', async () => {
    const ESC = '\u001b';
    const coloured = await gw(['rate', 'BTC', 'USDT', '--sandbox'], { env: { FORCE_COLOR: '1' } });
    expect(coloured.exitCode).toBe(0);
    // Black on yellow, in either order.
    expect(coloured.stderr).toMatch(/\u001b\[(30|43)m\u001b\[(30|43)m SANDBOX \u001b\[/);
    const plain = await gw(['rate', 'BTC', 'USDT', '--sandbox']);
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toContain(' SANDBOX  test gateway');
    expect(plain.stderr + plain.stdout).not.toContain(ESC);
  });

  it('gw --version into a pipe whose reader is gone: exit 0, nothing on stderr', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expands PIPESTATUS
    const r = await execa('bash', ['-c', '"$@" | true; echo "exit=${PIPESTATUS[0]}" >&2', 'bash', process.execPath, GW_BIN, '--version'], { reject: false });
    expect(r.stderr).toBe('exit=0');
  });

  it('a stdout closed early (gw balance | head -c 1) → no stack trace, exit 0, quiet', async () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) data[`C${i}`] = `${i}.5`;
    server.program([json({ result: 100, message: 'OK', data })]);
    const home = tempDir();
    const child = spawn(process.execPath, [GW_BIN, 'balance'], { cwd: home, env: cleanEnv(home, envFor(server.url)), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    removeDir(home);
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('a slow reader of a large output (gw balance --json, ~600 KB) gets all of it before gw exits 0', async () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) data[`C${i}`] = `${i}.5`;
    server.program([json({ result: 100, message: 'OK', data })]);
    const home = tempDir();
    const child = spawn(process.execPath, [GW_BIN, 'balance', '--json'], {
      cwd: home,
      env: cleanEnv(home, envFor(server.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    // Nothing is read for a while: gw's writes fill the pipe and wait in its buffer.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    const [code] = await new Promise<[number | null]>((resolve) => child.on('close', (c) => resolve([c])));
    removeDir(home);
    const stdout = Buffer.concat(chunks).toString('utf8');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.length).toBeGreaterThan(256 * 1024);
    const balances = (JSON.parse(stdout) as { balances: Record<string, string> }).balances;
    expect(Object.keys(balances)).toHaveLength(20_000);
    expect(balances.C19999).toBe('19999.5');
  });

  for (const args of [
    ['rate', 'BTC', 'USDT'],
    ['pay', '25', 'USDT', '--no-qr', '--order-id', 'sig-1'],
  ]) {
    it(`${args[0]}: SIGINT during a request that never answers → exit 130 quickly, one line, no stack`, async () => {
      server.program([hang()]);
      const child = startGw([...args, '--timeout', '30'], { env: envFor(server.url) });
      await server.waitForRequests(1);
      const sentAt = Date.now();
      child.kill('SIGINT');
      const result = await child;
      const r: GwResult = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr), ms: Date.now() - sentAt };
      const stderr = expectCleanFailure(r, 130);
      expect(r.ms).toBeLessThan(3000);
      expect(server.requests).toHaveLength(1);
      if (args[0] === 'pay') {
        expect(stderr).toMatch(/may have been created/i);
        expect(stderr).toContain('sig-1');
      }
    });
  }
});
