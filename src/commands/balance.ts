// gw balance [currency]: wallet balances, amounts aligned on the decimal point, digits exactly as sent.
import { Command } from 'commander';
import { parseSymbol } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import type { Balance, GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { alignDecimals, renderTable } from '../output/table.js';

export interface BalanceOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  currency: string | undefined;
}

export function newCmdBalance(f: Factory, runF: (opts: BalanceOptions) => Promise<void> = balanceRun): Command {
  return withHelp(
    new Command('balance')
      .description('show wallet balances (needs the payout key)')
      .argument('[currency]', 'only this currency, e.g. BTC')
      .action((currency: string | undefined) =>
        runF({ io: f.io, gateway: () => f.gateway(), currency: currency === undefined ? undefined : parseSymbol(currency, '[currency]') }),
      ),
    {
      examples: ['gw balance', 'gw balance BTC', "gw balance --json | jq -r '.balances.USDT'"],
      json: '{"balances": {"BTC": "0.00012345", …}} (exact decimal strings)',
      notes: 'A currency the gateway lists twice (on two networks, say) is one row per entry in the table, and their exact sum in "balances", with a warning.',
    },
  );
}

/** Symbol → amount; a repeated symbol is the exact sum of its entries. */
export function balanceMap(entries: readonly Balance[]): { map: Record<string, string>; repeated: string[] } {
  const sums = new Map<string, Balance['amount']>();
  const repeated = new Set<string>();
  for (const { currency, amount } of entries) {
    const symbol = currency.raw();
    const before = sums.get(symbol);
    if (before !== undefined) repeated.add(symbol);
    sums.set(symbol, before === undefined ? amount : before.plus(amount));
  }
  const map: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [symbol, amount] of sums) map[symbol] = amount.toString();
  return { map, repeated: [...repeated] };
}

export async function balanceRun(opts: BalanceOptions): Promise<void> {
  const gateway = await opts.gateway();
  const entries = await gateway.balances(opts.currency);
  const { io } = opts;
  const { map, repeated } = balanceMap(entries);
  if (repeated.length > 0) {
    io.warn(
      `the gateway lists ${repeated.map((s) => JSON.stringify(s).slice(0, 24)).join(', ')} more than once: each entry is a row of the table, and JSON "balances" holds their exact sum`,
    );
  }
  if (io.json) return io.printJson({ balances: map });
  io.sandboxBanner();
  if (entries.length === 0) return io.out('no balances\n');
  const amounts = alignDecimals(entries.map((e) => e.amount.toString()));
  io.out(
    renderTable(
      ['Currency', 'Balance'],
      entries.map((e, i) => [e.currency.toString(), amounts[i] ?? '']),
    ),
  );
}
