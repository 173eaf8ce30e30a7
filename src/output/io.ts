// The one object that knows the terminal (after gh's IOStreams): whether stdout/stderr are TTYs,
// whether colour is on, whether output is JSON, whether to draw the QR. Commands never look at
// process.stdout.isTTY or the environment themselves; they ask this object.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Writable } from 'node:stream';

export interface IOOptions {
  json: boolean;
  /** --no-color given. */
  noColorFlag: boolean;
  stdout?: Writable & { isTTY?: boolean };
  stderr?: Writable & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}

export interface IO {
  readonly json: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Colour on stdout (chalk level > 0). */
  readonly color: boolean;
  readonly chalk: ChalkInstance;
  /** Writes to stdout as is. */
  out(text: string): void;
  /** Writes to stderr as is. */
  err(text: string): void;
}

/**
 * Colour is on when stdout is a terminal, unless NO_COLOR (any non-empty value), --no-color, or
 * TERM=dumb says otherwise; FORCE_COLOR (1–3) turns it on even when piped, FORCE_COLOR=0 off.
 */
export function colorLevel(isTTY: boolean, noColorFlag: boolean, env: NodeJS.ProcessEnv): 0 | 1 | 2 | 3 {
  if (noColorFlag) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return env.TERM?.includes('256') ? 2 : 1;
}

export function createIO(options: IOOptions): IO {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const stdoutIsTTY = stdout.isTTY === true;
  const level = colorLevel(stdoutIsTTY, options.noColorFlag, env);
  return {
    json: options.json,
    stdoutIsTTY,
    stderrIsTTY: stderr.isTTY === true,
    color: level > 0,
    chalk: new Chalk({ level }),
    out: (text) => void stdout.write(text),
    err: (text) => void stderr.write(text),
  };
}
