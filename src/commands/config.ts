// gw config: the resolved configuration, each value with its source; keys masked to their last 4 characters.
import { Command } from 'commander';
import { describeSource, maskKey, type Setting } from '../config/resolve.js';
import { renderTable } from '../output/table.js';
import { printJson, withExamples, type ActionFactory } from './shared.js';

export function configCommand(action: ActionFactory): Command {
  const command = new Command('config')
    .description('show the resolved configuration and where each value came from (keys masked)')
    .action(
      action(async (ctx) => {
        const c = ctx.config;
        const row = <T>(name: string, setting: Setting<T> | undefined, show: (v: T) => string): [string, string, string] =>
          setting === undefined ? [name, '(not set)', ''] : [name, show(setting.value), describeSource(setting.source)];
        const rows = [
          row('baseUrl', c.baseUrl, (u) => u.href),
          row('merchantKey', c.merchantKey, maskKey),
          row('payoutKey', c.payoutKey, maskKey),
          row('timeout', c.timeoutMs, (ms) => `${ms / 1000} s`),
          row('profile', c.profile, (p) => p),
        ];
        if (ctx.io.json) {
          const settings = Object.fromEntries(rows.map(([name, value, source]) => [name, source === '' ? null : { value, source }]));
          return printJson(ctx, { file: c.file ?? null, settings });
        }
        ctx.io.out(`config file: ${c.file ?? '(none found)'}\n${renderTable(['Setting', 'Value', 'Source'], rows)}`);
      }),
    );
  return withExamples(command, ['gw config', 'gw config --profile staging', 'gw config --json']);
}
