// The gw process: the only module with side effects on import (it is the bundle's entry point).
// It owns what only a process has — signals, the exit code, the last-resort crash guard — and
// runs the command line through runCli().
//
// The exit code is 70 until a command finishes: no path can end the process with 0 by accident
// (an unsettled promise, an event loop that ran dry, a crash after output). Ctrl-C and SIGTERM
// abort the command's signal; if it has not unwound shortly after, the process ends anyway.
import { asGwError, runCli } from './cli.js';
import { createFactory } from './cmdutil/factory.js';
import { ExitCode, GwError, interrupted, terminated } from './errors.js';
import { outputFor } from './output/fd-stream.js';
import { IOStreams } from './output/iostreams.js';
import { scrubSecrets } from './output/sanitize.js';

/** How long a command may take to unwind after Ctrl-C, SIGTERM or its deadline. */
const UNWIND_GRACE_MS = 1000;

function main(): void {
  process.exitCode = ExitCode.SOFTWARE;
  // Pipes and files are written directly; process.stdout and process.stderr are created only for
  // a terminal or another kind of descriptor (src/output/fd-stream.ts).
  const stdout = outputFor(1, () => process.stdout);
  const stderr = outputFor(2, () => process.stderr);
  const io = new IOStreams({ stdout, stderr, stdin: () => process.stdin, env: process.env });
  const interrupt = new AbortController();
  const f = createFactory({ io, env: process.env, cwd: process.cwd(), home: homeDirectory(), interrupt: interrupt.signal });
  let finished = false;

  /** Ends the process now with one line, when the command could not unwind by itself. */
  const forceExit = (failure: GwError): void => {
    if (finished) return;
    finished = true;
    try {
      io.reportFailure(failure); // one line, terminal-safe, keys scrubbed, every detail the error has
    } finally {
      process.exit(failure.exitCode);
    }
  };
  const abortWith = (reason: GwError): void => {
    if (interrupt.signal.aborted) {
      forceExit(reason); // a second signal: stop now
      return;
    }
    interrupt.abort(reason);
    setTimeout(() => forceExit(reason), UNWIND_GRACE_MS).unref();
  };
  process.on('SIGINT', () => abortWith(interrupted()));
  process.on('SIGTERM', () => abortWith(terminated()));
  f.signal.addEventListener('abort', () => {
    const reason = f.signal.reason instanceof GwError ? f.signal.reason : asGwError(f.signal.reason);
    setTimeout(() => forceExit(reason), UNWIND_GRACE_MS).unref();
  });

  // Node's runtime warnings (deprecations, an insecure TLS setting…) as one sanitised line each
  // through IOStreams, for every command: Node's own handler would print raw multi-line text.
  // Node installs its handler unless told not to (--no-warnings, NODE_NO_WARNINGS=1): so does gw.
  if (process.listenerCount('warning') > 0) {
    process.removeAllListeners('warning');
    process.on('warning', (warning: Error) => io.runtimeWarning(warning));
  }
  // stdout errors are recorded by IOStreams; a listener must exist so they never crash the process.
  stdout.on?.('error', () => undefined);
  const crash = (error: unknown): void => {
    if (process.env.GW_DEBUG === '1')
      process.stderr.write(`${scrubSecrets(error instanceof Error ? (error.stack ?? error.message) : String(error), io.secrets)}\n`);
    forceExit(asGwError(error));
  };
  process.on('unhandledRejection', crash);
  process.on('uncaughtException', crash);
  // The event loop ran dry while the command was still pending: something it waited for can
  // never happen. That is a failure, never a silent success.
  process.on('beforeExit', () => {
    if (!finished)
      forceExit(
        new GwError(ExitCode.SOFTWARE, 'gw stopped before finishing: it was left waiting for something that cannot happen (a bug in gw; please report it)'),
      );
  });

  void runCli(process.argv.slice(2), f).then((code) => {
    finished = true;
    process.exitCode = code;
    // The command has ended and closed what it opened. With its output all handed to the system,
    // the process ends now, not after sockets finish closing; with some still buffered (a slow
    // pipe), it ends when that is written, and at the latest 1.5 s later: never hang a script.
    if ((stdout.writableLength ?? 0) === 0 && (stderr.writableLength ?? 0) === 0) process.exit(code);
    setTimeout(() => process.exit(code), 1500).unref();
  }, crash);
}

main();

/** os.homedir(), which reads HOME first on POSIX: node:os is loaded only when HOME is not set. */
function homeDirectory(): string {
  const home = process.env.HOME;
  return process.platform !== 'win32' && home !== undefined ? home : process.getBuiltinModule('node:os').homedir();
}
