// gw rate <from> <to>: the gateway's exchange rate; no key is sent.
import { Command } from 'commander';
import { cell } from '../output/table.js';
import { parseSymbol, printJson, sandboxBanner, withExamples, type ActionFactory } from './shared.js';

export function rateCommand(action: ActionFactory): Command {
  let from = '';
  let to = '';
  const command = new Command('rate')
    .description('show the exchange rate between two cryptocurrencies')
    .argument('<from>', 'currency to convert from, e.g. BTC')
    .argument('<to>', 'currency to convert to, e.g. USDT')
    .action(
      action(
        async (ctx) => {
          const gateway = await ctx.gateway();
          const rate = await gateway.rate(from, to);
          if (ctx.io.json) return printJson(ctx, { from, to, rate });
          const banner = ctx.sandbox ? sandboxBanner(ctx) : '';
          ctx.io.out(`${banner}1 ${cell(from)} = ${ctx.io.chalk.bold(rate)} ${cell(to)}\n`);
        },
        () => {
          const [fromText = '', toText = ''] = command.args;
          from = parseSymbol(fromText, '<from>');
          to = parseSymbol(toText, '<to>');
        },
      ),
    );
  return withExamples(command, ['gw rate BTC USDT', 'gw rate ETH BTC --json | jq -r .rate']);
}
