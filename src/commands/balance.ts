// gw balance [currency]: wallet balances, amounts aligned on the decimal point, digits exactly as sent.
import { Command } from 'commander';
import { alignDecimals, renderTable } from '../output/table.js';
import { parseSymbol, printJson, sandboxBanner, withExamples, type ActionFactory } from './shared.js';

export function balanceCommand(action: ActionFactory): Command {
  let currency: string | undefined;
  const command = new Command('balance')
    .description('show wallet balances (needs the payout key)')
    .argument('[currency]', 'only this currency, e.g. BTC')
    .action(
      action(
        async (ctx) => {
          const gateway = await ctx.gateway();
          const entries = await gateway.balances(currency);
          if (ctx.io.json) return printJson(ctx, { balances: Object.fromEntries(entries) });
          const amounts = alignDecimals(entries.map(([, amount]) => amount));
          const rows = entries.map(([symbol], i) => [symbol, amounts[i] ?? '']);
          const banner = ctx.sandbox ? sandboxBanner(ctx) : '';
          ctx.io.out(banner + (rows.length === 0 ? 'no balances\n' : renderTable(['Currency', 'Balance'], rows)));
        },
        () => {
          const [currencyText] = command.args;
          currency = currencyText === undefined ? undefined : parseSymbol(currencyText, '[currency]');
        },
      ),
    );
  return withExamples(command, ['gw balance', 'gw balance BTC', "gw balance --json | jq -r '.balances.USDT'"]);
}
