// gw currencies [--legacy]: the coins the merchant accepts.
import { Command } from 'commander';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import type { CurrenciesEndpoint, GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';

export interface CurrenciesOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  endpoint: CurrenciesEndpoint;
}

export function newCmdCurrencies(f: Factory, runF: (opts: CurrenciesOptions) => Promise<void> = currenciesRun): Command {
  return withHelp(
    new Command('currencies')
      .option('--legacy', 'use the legacy endpoint (POST /merchants/allowedCoins)')
      .action((flags: { legacy?: boolean }) => runF({ io: f.io, gateway: () => f.gateway(), endpoint: flags.legacy === true ? 'legacy' : 'default' })),
    {
      examples: ['gw currencies', 'gw currencies --legacy', "gw currencies --json | jq -r '.currencies[]'"],
      json: '{"currencies": ["BTC", "ETH", "USDT"]}',
    },
  );
}

export async function currenciesRun(opts: CurrenciesOptions): Promise<void> {
  const gateway = await opts.gateway();
  const currencies = await gateway.acceptedCurrencies(opts.endpoint);
  const { io } = opts;
  if (io.json) return io.printJson({ currencies });
  io.sandboxBanner();
  if (currencies.length === 0) io.warn('the gateway lists no accepted currencies');
  io.out(currencies.map((c) => `${c}\n`).join(''));
}
