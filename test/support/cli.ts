// Runs gw's command line IN PROCESS: the real program, factory, config loading, transport and
// sandbox, with in-memory stdout/stderr and an environment of the test's own. It is what the
// built binary does minus the process (signals, the launcher, the bundle), at a fraction of the
// cost; test/e2e keeps the cases only a process shows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { ManualClock, type Clock } from '../../src/util/clock.js';
import { createFactory } from '../../src/cmdutil/factory.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Wall time in ms (loose bounds only: speed is measured by npm run bench). */
  ms: number;
}

export interface CliOptions extends Omit<TestIOOptions, 'env'> {
  /** The whole environment gw sees (nothing of the test process's leaks in). */
  env?: Record<string, string | undefined>;
  /** Working directory; a fresh empty folder by default. */
  cwd?: string;
  /** Home directory; the working directory by default (so no real config is ever read). */
  home?: string;
  clock?: Clock;
  /** Aborts the run as Ctrl-C would. */
  interrupt?: AbortSignal;
  /** Handed what the run has written so far, before it starts (for a test that waits on a line of a running command). */
  live?: (sofar: { stdout(): string; stderr(): string }) => void;
}

export function emptyDir(prefix = 'gw-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export async function runGw(argv: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const cwd = options.cwd ?? emptyDir();
  const home = options.home ?? options.env?.HOME ?? cwd;
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...options.env };
  const { env: _ignored, cwd: _cwd, home: _home, clock, interrupt, live, ...io } = options;
  const t = IOStreams.test({ ...io, env });
  const f = createFactory({
    io: t.io,
    env,
    cwd,
    home,
    interrupt: interrupt ?? new AbortController().signal,
    // Waits (retries, polling) on a clock of the test's: starting at the real time, since servers
    // answer with real timestamps, but never sleeping. Deadlines stay real (they are timers).
    clock: clock ?? new ManualClock(Date.now()),
  });
  live?.({ stdout: () => t.stdout(), stderr: () => t.stderr() });
  const started = Date.now();
  const exitCode = await runCli(argv, f);
  return { exitCode, stdout: t.stdout(), stderr: t.stderr(), ms: Date.now() - started };
}

export { ManualClock };
