// The user config file's lock (src/config/lock.ts): writers in separate processes editing the same
// file at once all land, a stale lock is broken, a live one that stays taken ends the wait with
// exit 75 and writes nothing. The parallel writers are real `node` processes running the write
// path (test/support/config-writer.ts, bundled here with esbuild): in-process concurrency could
// not show that the lock works across processes.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakStale, LOCK_NAME, withConfigLock } from '../../src/config/lock.js';
import { editConfigFile, type UserConfigFile } from '../../src/config/write.js';
import { GwError } from '../../src/errors.js';
import { runGw } from '../support/cli.js';
import { removeDir, tempDir } from '../support/gw.js';

const WRITERS = 20;
const here = path.dirname(fileURLToPath(import.meta.url));
let work: string;
let writer: string;

beforeAll(async () => {
  work = tempDir('gw-lock-');
  writer = path.join(work, 'config-writer.cjs');
  await build({
    entryPoints: [path.join(here, '../support/config-writer.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: writer,
    logLevel: 'error',
  });
});

afterAll(() => removeDir(work));

interface WriterOutcome {
  code: number | null;
  line: { ok: boolean; exitCode?: number; message?: string };
}

function runWriter(args: string[]): Promise<WriterOutcome> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [writer, ...args], { timeout: 25_000 }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      try {
        resolve({ code, line: JSON.parse(stdout.trim().split('\n').pop() ?? '') as WriterOutcome['line'] });
      } catch {
        reject(new Error(`writer printed no outcome (exit ${code}): ${stdout}`));
      }
    });
  });
}

const target = (file: string): UserConfigFile => ({ file, format: 'yaml', exists: existsSync(file) });

describe('parallel writers in separate processes', () => {
  it(`${WRITERS} processes each setting a different key at the same moment: every key lands, 0600, no lock or temp file left`, async () => {
    const dir = path.join(work, 'parallel', 'gateway');
    const file = path.join(dir, 'config.yaml');
    const startAt = String(Date.now() + 1500);
    const started = Date.now();
    const outcomes = await Promise.all(Array.from({ length: WRITERS }, (_, i) => runWriter([file, startAt, 'set', `key${i}`, `value-${i}`])));
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(outcomes.map((o) => o.code)).toEqual(Array(WRITERS).fill(0));
    expect(outcomes.every((o) => o.line.ok)).toBe(true);
    const text = readFileSync(file, 'utf8');
    for (let i = 0; i < WRITERS; i++) expect(text).toContain(`key${i}: "value-${i}"`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['config.yaml']);
  }, 30_000);

  it(`${WRITERS} processes unsetting ${WRITERS} different keys of one file: all removed, the others kept`, async () => {
    const dir = path.join(work, 'unset', 'gateway');
    const file = path.join(dir, 'config.yaml');
    const keep = '# my settings\nbaseUrl: "https://gateway.example"\n';
    await editConfigFile(target(file), (doc) => {
      for (let i = 0; i < WRITERS; i++) doc.set([`key${i}`], `value-${i}`);
    });
    writeFileSync(file, keep + readFileSync(file, 'utf8').replace(/^baseUrl.*\n/m, ''));
    const startAt = String(Date.now() + 1500);
    const outcomes = await Promise.all(Array.from({ length: WRITERS }, (_, i) => runWriter([file, startAt, 'unset', `key${i}`])));
    expect(outcomes.map((o) => o.code)).toEqual(Array(WRITERS).fill(0));
    expect(readFileSync(file, 'utf8')).toBe(keep);
    expect(readdirSync(dir).sort()).toEqual(['config.yaml']);
  }, 30_000);
});

describe('stale and live locks', () => {
  const fresh = (name: string): { dir: string; file: string; lock: string } => {
    const dir = path.join(work, name, 'gateway');
    return { dir, file: path.join(dir, 'config.yaml'), lock: path.join(dir, LOCK_NAME) };
  };

  it('a lock left by a process that has ended (this host) is broken at once', async () => {
    const { dir, file, lock } = fresh('dead-holder');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await editConfigFile(target(file), (doc) => doc.set(['a'], '1'));
    writeFileSync(lock, JSON.stringify({ pid: gone, host: hostname(), since: Date.now() }));
    const started = Date.now();
    await editConfigFile(target(file), (doc) => doc.set(['b'], '2'), { waitMs: 5000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readFileSync(file, 'utf8')).toBe('a: "1"\nb: "2"\n');
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('a lock older than 30 s is broken whatever it holds', async () => {
    const { file, lock } = fresh('old-lock');
    await editConfigFile(target(file), (doc) => doc.set(['a'], '1'));
    writeFileSync(lock, 'not json');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await editConfigFile(target(file), (doc) => doc.set(['b'], '2'), { waitMs: 5000 });
    expect(readFileSync(file, 'utf8')).toBe('a: "1"\nb: "2"\n');
    expect(existsSync(lock)).toBe(false);
  });

  it('a live holder keeps its lock: the wait ends at its bound with exit 75, nothing written, the lock left alone', async () => {
    const { file, lock } = fresh('live-holder');
    await editConfigFile(target(file), (doc) => doc.set(['a'], '1'));
    const before = readFileSync(file, 'utf8');
    let failure: unknown;
    await withConfigLock(file, async () => {
      const held = readFileSync(lock, 'utf8');
      const started = Date.now();
      failure = await editConfigFile(target(file), (doc) => doc.set(['b'], '2'), { waitMs: 300 }).catch((error: unknown) => error);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(readFileSync(lock, 'utf8')).toBe(held);
    });
    expect(failure).toBeInstanceOf(GwError);
    expect((failure as GwError).exitCode).toBe(75);
    expect((failure as GwError).message).toMatch(
      new RegExp(`^another gw \\(process ${process.pid}\\) is changing .*config\\.yaml: gave up waiting for it after 0\\.\\d s; nothing was written$`),
    );
    expect((failure as GwError).hint).toContain(LOCK_NAME);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(lock)).toBe(false);
  });

  it('gw config set while another gw holds the lock: one line, exit 75 at the --timeout deadline, never ✓', async () => {
    const home = tempDir('gw-lock-home-');
    const dir = path.join(home, '.config', 'gateway');
    const file = path.join(dir, 'config.yaml');
    await editConfigFile(target(file), (doc) => doc.set(['timeout'], 20));
    const before = readFileSync(file, 'utf8');
    const r = await withConfigLock(file, () =>
      runGw(['config', 'set', 'baseUrl', 'https://gateway.example', '--timeout', '0.5'], { home, env: { HOME: home } }),
    );
    expect(r.exitCode).toBe(75);
    expect(r.stderr).not.toContain('✓');
    expect(r.stderr).toMatch(
      /^gw: another gw \(process \d+\) is changing .*config\.yaml: gave up waiting for it after 0\.\d s; nothing was written\nhint: try again; if no other gw is running, remove .*\.config\.lock\n$/,
    );
    expect(r.ms).toBeLessThan(5000);
    expect(readFileSync(file, 'utf8')).toBe(before);
    removeDir(home);
  });

  it('gw init --yes writes under the lock too (waits for it, then lands)', async () => {
    const home = tempDir('gw-lock-init-');
    const file = path.join(home, '.config', 'gateway', 'config.yaml');
    await editConfigFile(target(file), (doc) => doc.set(['timeout'], 20));
    let r: Awaited<ReturnType<typeof runGw>> | undefined;
    await withConfigLock(file, async () => {
      const pending = runGw(['init', '--yes', '--no-verify', '--base-url', 'https://gateway.example', '--merchant-key', 'mk_1234567890abcd'], {
        home,
        env: { HOME: home },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Still waiting: the file is as it was.
      expect(readFileSync(file, 'utf8')).toBe('timeout: 20\n');
      r = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
      expect(r).toBeUndefined();
      void pending.then((done) => {
        r = done;
      });
    });
    await expect.poll(() => r?.exitCode, { timeout: 5000 }).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('timeout: 20');
    expect(text).toContain('baseUrl: "https://gateway.example"');
    removeDir(home);
  });
});

describe('nothing to change', () => {
  it('unset with no config directory: creates neither the directory nor a lock', async () => {
    const dir = path.join(work, 'absent', 'gateway');
    const result = await editConfigFile(target(path.join(dir, 'config.yaml')), (doc) => doc.delete(['merchantKey']));
    expect(result).toBeUndefined();
    expect(existsSync(path.dirname(dir))).toBe(false);
  });
});

describe('breaking a stale lock never removes a live one', () => {
  const deadHolder = (): string =>
    `${JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '0']).pid, host: hostname(), since: Date.now(), token: 'dead' })}\n`;

  it('the lock judged stale was released and a live writer took the lock since: it stays (whatever its inode)', async () => {
    const dir = path.join(work, 'break-race');
    mkdirSync(dir, { recursive: true });
    const lock = path.join(dir, LOCK_NAME);
    const judged = deadHolder();
    const live = `${JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now(), token: 'live' })}\n`;
    writeFileSync(lock, live);
    expect(await breakStale(lock, judged)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(live);
  });

  it('the same stale lock is removed; while another process is breaking it, nothing is done', async () => {
    const dir = path.join(work, 'break-once');
    mkdirSync(dir, { recursive: true });
    const lock = path.join(dir, LOCK_NAME);
    const judged = deadHolder();
    writeFileSync(lock, judged);
    writeFileSync(`${lock}.break`, '');
    expect(await breakStale(lock, judged)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(judged);
    // A breaker that died holding its file is cleared once it is 5 s old; the next try breaks the lock.
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${lock}.break`, old, old);
    expect(await breakStale(lock, judged)).toBe(false);
    expect(await breakStale(lock, judged)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
