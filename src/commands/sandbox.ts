// gw sandbox [--port <n>] [--host <addr>]: serve the embedded sandbox gateway until interrupted.
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { createIO } from '../output/io.js';
import { sandboxLabel, withExamples } from './shared.js';

interface SandboxFlags {
  port?: string;
  host?: string;
  json?: boolean;
  color?: boolean;
  merchantKey?: string;
  payoutKey?: string;
}

export function sandboxCommand(signal: AbortSignal): Command {
  const command = new Command('sandbox')
    .description('serve the embedded sandbox gateway (test keys, fake addresses) until interrupted')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .action(async () => {
      const flags = command.optsWithGlobals<SandboxFlags>();
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!/^\d{1,5}$/.test(flags.port ?? '0') || port > 65535) throw new UsageError(`--port must be a port number 0–65535 (got "${flags.port}")`);
      const io = createIO({ json: flags.json === true, noColorFlag: flags.color === false });
      const { startSandbox } = await import('../sandbox/index.js');
      const sandbox = await startSandbox({
        port,
        host: flags.host ?? '127.0.0.1',
        ...(flags.merchantKey !== undefined && { merchantKey: flags.merchantKey }),
        ...(flags.payoutKey !== undefined && { payoutKey: flags.payoutKey }),
      });
      if (io.json) {
        io.out(`${JSON.stringify({ url: sandbox.url, merchantKey: sandbox.merchantKey, payoutKey: sandbox.payoutKey, sandbox: true })}\n`);
      } else {
        io.out(
          `${sandboxLabel(io)} gateway listening on ${sandbox.url}\n` +
            `  merchant key  ${sandbox.merchantKey}\n` +
            `  payout key    ${sandbox.payoutKey}\n` +
            `Try: GATEWAY_BASE_URL=${sandbox.url} GATEWAY_MERCHANT_KEY=${sandbox.merchantKey} gw pay 25 USDT\n` +
            'Press Ctrl-C to stop.\n',
        );
      }
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await sandbox.close();
    });
  return withExamples(command, ['gw sandbox', 'gw sandbox --port 8080', 'gw sandbox --json']);
}
