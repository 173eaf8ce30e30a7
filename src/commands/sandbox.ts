// gw sandbox [--port <n>] [--host <addr>] [--settle <seconds>]: serve the embedded sandbox gateway
// until interrupted.
import { Command } from 'commander';
import { parsePort } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { IOStreams } from '../output/iostreams.js';
import type { SandboxOptions } from '../sandbox/index.js';
import { DEFAULT_SETTLE_SECONDS, SETTLE_SECONDS } from '../sandbox/lifecycle.js';

export interface SandboxCommandOptions {
  io: IOStreams;
  signal: AbortSignal;
  releaseDeadline: () => void;
  server: SandboxOptions & { port: number; host: string };
}

interface SandboxFlags {
  port?: string;
  settle?: string;
  host: string;
  merchantKey?: string;
  payoutKey?: string;
}

export function newCmdSandbox(f: Factory, runF: (opts: SandboxCommandOptions) => Promise<void> = sandboxRun): Command {
  const command = new Command('sandbox')
    .description('serve the embedded sandbox gateway (test keys, fake addresses) until interrupted')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option(
      '--settle <seconds>',
      `seconds from a payment's creation to its final state, ${SETTLE_SECONDS.min}–${SETTLE_SECONDS.max} (default ${DEFAULT_SETTLE_SECONDS})`,
    )
    .action((_flags: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<SandboxFlags>();
      return runF({
        io: f.io,
        signal: f.signal,
        releaseDeadline: () => f.releaseDeadline(),
        server: {
          port: parsePort(flags.port),
          host: flags.host,
          ...(flags.settle !== undefined && { settleSeconds: parseSettle(flags.settle) }),
          ...(flags.merchantKey !== undefined && { merchantKey: flags.merchantKey }),
          ...(flags.payoutKey !== undefined && { payoutKey: flags.payoutKey }),
        },
      });
    });
  return withHelp(command, {
    examples: ['gw sandbox', 'gw sandbox --port 8080', 'gw sandbox --settle 60', 'gw sandbox --json'],
    json: '{"url": "http://127.0.0.1:8080", "merchantKey", "payoutKey", "sandbox": true} (one line, then it serves until Ctrl-C)',
  });
}

/** --settle: whole seconds within the lifecycle's bounds. */
export function parseSettle(text: string): number {
  const seconds = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || seconds < SETTLE_SECONDS.min || seconds > SETTLE_SECONDS.max) {
    throw new UsageError(`--settle must be a whole number of seconds from ${SETTLE_SECONDS.min} to ${SETTLE_SECONDS.max} (got "${text.slice(0, 20)}")`);
  }
  return seconds;
}

export async function sandboxRun(opts: SandboxCommandOptions): Promise<void> {
  const { io } = opts;
  opts.releaseDeadline();
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox(opts.server).catch((error: NodeJS.ErrnoException) => {
    const where = `${opts.server.host}:${opts.server.port}`;
    if (error.code === 'EADDRINUSE')
      throw new GwError(ExitCode.UNAVAILABLE, `cannot serve the sandbox on ${where}: the port is in use`, {
        hint: 'choose another --port, or leave it out for a free one',
      });
    if (error.code === 'EACCES')
      throw new GwError(ExitCode.UNAVAILABLE, `cannot serve the sandbox on ${where}: permission denied`, {
        hint: 'ports below 1024 need privileges: choose a higher --port',
      });
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
      throw new GwError(ExitCode.USAGE, `cannot serve the sandbox on ${where}: this machine has no such address`);
    throw error;
  });
  try {
    if (io.json) {
      io.out(`${JSON.stringify({ url: sandbox.url, merchantKey: sandbox.merchantKey, payoutKey: sandbox.payoutKey, sandbox: true })}\n`);
    } else {
      io.out(
        `${io.sandboxLabel(io.chalk)} gateway listening on ${sandbox.url}\n` +
          `  merchant key  ${sandbox.merchantKey}\n` +
          `  payout key    ${sandbox.payoutKey}\n` +
          `Try: GATEWAY_BASE_URL=${sandbox.url} GATEWAY_MERCHANT_KEY=${sandbox.merchantKey} gw pay 25 USDT\n` +
          'Press Ctrl-C to stop.\n',
      );
    }
    await new Promise<void>((resolve) => {
      if (opts.signal.aborted) resolve();
      else opts.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await sandbox.close();
  }
}
