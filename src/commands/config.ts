// gw config: the resolved configuration, each value with its source; keys masked to their last 4 characters.
import { Command } from 'commander';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { describeSource, maskKey, type ResolvedConfig, type Setting } from '../config/resolve.js';
import type { IOStreams } from '../output/iostreams.js';
import { renderTable } from '../output/table.js';

export interface ConfigOptions {
  io: IOStreams;
  config: () => Promise<ResolvedConfig>;
}

export function newCmdConfig(f: Factory, runF: (opts: ConfigOptions) => Promise<void> = configRun): Command {
  return withHelp(
    new Command('config')
      .description('show the resolved configuration and where each value came from (keys masked)')
      .action(() => runF({ io: f.io, config: () => f.config() })),
    {
      examples: ['gw config', 'gw config --profile staging', 'gw config --json'],
      json: '{"file": "/home/me/.config/gateway/config.yaml", "settings": {"baseUrl": {"value", "source"} | null, …}}',
    },
  );
}

export async function configRun(opts: ConfigOptions): Promise<void> {
  const c = await opts.config();
  const row = <T>(name: string, setting: Setting<T> | undefined, show: (v: T) => string): [string, string, string] =>
    setting === undefined ? [name, '(not set)', ''] : [name, show(setting.value), describeSource(setting.source)];
  const rows = [
    row('baseUrl', c.baseUrl, (u) => u.href),
    row('api', c.api, (a) => a),
    row('merchantKey', c.merchantKey, maskKey),
    row('payoutKey', c.payoutKey, maskKey),
    row('generalKey', c.generalKey, maskKey),
    row('timeout', c.timeoutMs, (ms) => `${ms / 1000} s`),
    row('profile', c.profile, (p) => p),
  ];
  const { io } = opts;
  if (io.json) {
    const settings = Object.fromEntries(rows.map(([name, value, source]) => [name, source === '' ? null : { value, source }]));
    return io.printJson({ file: c.file ?? null, settings });
  }
  io.out(`config file: ${c.file ?? '(none found)'}\n${renderTable(['Setting', 'Value', 'Source'], rows)}`);
}
