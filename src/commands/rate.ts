// gw rate <from> <to>: the gateway's exchange rate; no key is sent.
import { Command } from 'commander';
import { parseSymbol } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import type { GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';

export interface RateOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  from: string;
  to: string;
}

export function newCmdRate(f: Factory, runF: (opts: RateOptions) => Promise<void> = rateRun): Command {
  return withHelp(
    new Command('rate')
      .argument('<from>', 'currency to convert from, e.g. BTC')
      .argument('<to>', 'currency to convert to, e.g. USDT')
      .action((from: string, to: string) => runF({ io: f.io, gateway: () => f.gateway(), from: parseSymbol(from, '<from>'), to: parseSymbol(to, '<to>') })),
    {
      examples: ['gw rate BTC USDT', 'gw rate ETH BTC --json | jq -r .rate'],
      json: '{"from": "BTC", "to": "USDT", "rate": "65573.55"}',
    },
  );
}

export async function rateRun(opts: RateOptions): Promise<void> {
  const gateway = await opts.gateway();
  const rate = await gateway.rate(opts.from, opts.to);
  const { io } = opts;
  if (io.json) return io.printJson({ from: opts.from, to: opts.to, rate });
  io.sandboxBanner();
  io.out(`1 ${opts.from} = ${io.chalk.bold(rate.toString())} ${opts.to}\n`);
}
