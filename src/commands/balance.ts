// gw balance [currency]: wallet balances, amounts aligned on the decimal point, digits exactly as sent.
import { Command } from 'commander';
import { parseSymbol } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import type { Balance, GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import { alignDecimals, renderTable, widest } from '../output/table.js';

export interface BalanceOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  currency: string | undefined;
}

export function newCmdBalance(f: Factory, runF: (opts: BalanceOptions) => Promise<void> = balanceRun): Command {
  return withHelp(
    new Command('balance')
      .argument('[currency]', 'only this currency, e.g. BTC')
      .action((currency: string | undefined) =>
        runF({ io: f.io, gateway: () => f.gateway(), currency: currency === undefined ? undefined : parseSymbol(currency, '[currency]') }),
      ),
    {
      examples: ['gw balance', 'gw balance BTC', "gw balance --json | jq -r '.balances.USDT'"],
      json: '{"balances": {"BTC": "0.00012345", "ETH": null, …}} (exact decimal strings; null: the gateway gave no amount)',
      notes:
        'A currency the gateway lists twice (on two networks, say) is one row per entry in the table, and their exact sum in "balances", with a warning. A balance the gateway sends as null is shown as unknown (null in JSON), never 0, with a warning.',
    },
  );
}

/** What the table shows for a balance the gateway did not give (null): never 0. */
export const UNKNOWN_BALANCE = 'unknown';

/**
 * Symbol → amount; a repeated symbol is the exact sum of its entries. A balance the gateway sent as
 * null is null (unknown), and so is the sum of a repeated symbol with an unknown entry.
 */
export function balanceMap(entries: readonly Balance[]): { map: Record<string, string | null>; repeated: string[]; unknown: string[] } {
  const sums = new Map<string, Balance['amount']>();
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  for (const { currency, amount } of entries) {
    const symbol = currency.raw();
    if (amount === null) unknown.add(symbol);
    if (sums.has(symbol)) {
      repeated.add(symbol);
      const before = sums.get(symbol) ?? null;
      sums.set(symbol, before === null || amount === null ? null : before.plus(amount));
    } else {
      sums.set(symbol, amount);
    }
  }
  const map: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
  for (const [symbol, amount] of sums) map[symbol] = amount === null ? null : amount.toString();
  return { map, repeated: [...repeated], unknown: [...unknown] };
}

const symbolList = (symbols: readonly string[]): string => symbols.map((s) => JSON.stringify(s).slice(0, 24)).join(', ');

export async function balanceRun(opts: BalanceOptions): Promise<void> {
  const gateway = await opts.gateway();
  const entries = await gateway.balances(opts.currency);
  const { io } = opts;
  const { map, repeated, unknown } = balanceMap(entries);
  if (repeated.length > 0) {
    io.warn(`the gateway lists ${symbolList(repeated)} more than once: each entry is a row of the table, and JSON "balances" holds their exact sum`);
  }
  if (unknown.length > 0) {
    io.warn(
      `the gateway gave no amount for ${symbolList(unknown)} (null): shown as ${UNKNOWN_BALANCE}${io.json ? ' (null in JSON)' : ''}, not 0; check again later or in the merchant panel`,
    );
  }
  if (io.json) return io.printJson({ balances: map });
  io.sandboxBanner();
  if (entries.length === 0) return io.out('no balances\n');
  const known = entries.flatMap((e) => (e.amount === null ? [] : [e.amount.toString()]));
  const aligned = alignDecimals(known);
  const width = widest(aligned.map((a) => a.length));
  let next = 0;
  io.out(
    renderTable(
      ['Currency', 'Balance'],
      entries.map((e) => [e.currency.toString(), e.amount === null ? UNKNOWN_BALANCE.padEnd(width) : (aligned[next++] ?? '')]),
    ),
  );
}
