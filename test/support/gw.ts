// Runs the BUILT gw binary (bin/gw.cjs → dist/gw.cjs) as a user would, with execa, in a clean
// environment: no GATEWAY_* variables leak in, HOME and XDG_CONFIG_HOME point at an empty
// temporary folder, and the working directory is a fresh temporary folder unless given.
import { execa } from 'execa';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GW_BIN = path.join(ROOT, 'bin', 'gw.cjs');

export interface GwResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Wall time in ms (reported, never asserted tightly). */
  ms: number;
}

export interface GwOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
  input?: string;
}

/** A fresh folder for a test: used as cwd and HOME so no real config is ever read. */
export function tempDir(prefix = 'gw-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function writeFile(dir: string, name: string, content: string, mode = 0o600): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function cleanEnv(home: string, extra: Record<string, string | undefined>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GATEWAY_') || k === 'NO_COLOR' || k === 'FORCE_COLOR' || k === 'GW_DEBUG') continue;
    // gw honours proxy variables as curl does, loopback included: a proxy configured on the
    // machine running the tests must not sit between gw and the test servers.
    if (/^(https?|all|no)_proxy$/i.test(k)) continue;
    // The machine's extra CA file is read by every Node process as it starts (tens of ms each on
    // some machines); the test servers are loopback, and a test that needs a CA passes its own.
    if (k === 'NODE_EXTRA_CA_CERTS') continue;
    env[k] = v;
  }
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...extra };
}

export function startGw(args: readonly string[], options: GwOptions = {}) {
  const cwd = options.cwd ?? tempDir();
  return execa('node', [GW_BIN, ...args], {
    cwd,
    env: cleanEnv(options.env?.HOME ?? cwd, options.env ?? {}),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs ?? 30_000,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
  });
}

export async function gw(args: readonly string[], options: GwOptions = {}): Promise<GwResult> {
  const started = Date.now();
  const result = await startGw(args, options);
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    ms: Date.now() - started,
  };
}

/**
 * Waits until process `pid` (a gw just started) waits in its event loop: its main thread is in
 * epoll_wait (Linux's /proc/<pid>/syscall), which it reaches only after the command has set itself
 * up, its signal handlers included. A test then sends a signal to gw itself, not to a process still
 * starting (which would simply die of it), however slow the machine. Rejects after `timeoutMs`.
 */
export async function waitUntilIdle(pid: number, timeoutMs = 10_000): Promise<void> {
  // epoll_wait and epoll_pwait on x86-64, epoll_pwait on arm64.
  const waiting = process.arch === 'arm64' ? ['22'] : ['232', '281'];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const syscall = (await readFile(`/proc/${pid}/syscall`, 'utf8').catch(() => '')).split(' ')[0] ?? '';
    if (waiting.includes(syscall)) return;
    if (Date.now() > until) throw new Error(`process ${pid} did not reach its event loop within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
