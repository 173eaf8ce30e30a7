// gw currencies [--legacy]: the coins the merchant accepts.
import { Command } from 'commander';
import { cell } from '../output/table.js';
import { printJson, sandboxBanner, withExamples, type ActionFactory } from './shared.js';

export function currenciesCommand(action: ActionFactory): Command {
  const command = new Command('currencies')
    .description('list the currencies the merchant accepts')
    .option('--legacy', 'use the legacy endpoint (POST /merchants/allowedCoins) instead of /v1')
    .action(
      action(async (ctx) => {
        const gateway = await ctx.gateway();
        const legacy = command.opts<{ legacy?: boolean }>().legacy === true;
        const currencies = legacy ? await gateway.allowedCoins() : await gateway.acceptedCurrencies();
        if (ctx.io.json) return printJson(ctx, { currencies });
        let text = ctx.sandbox ? sandboxBanner(ctx) : '';
        text += currencies.map((c) => `${cell(c)}\n`).join('');
        if (currencies.length === 0) ctx.warn('the gateway lists no accepted currencies');
        ctx.io.out(text);
      }),
    );
  return withExamples(command, ['gw currencies', 'gw currencies --legacy', "gw currencies --json | jq -r '.currencies[]'"]);
}
