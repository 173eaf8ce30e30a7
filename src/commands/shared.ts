// Small pieces every command uses: how a command hands its body to the runner, the symbol
// check, and the SANDBOX banner.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { IO } from '../output/io.js';
import { UsageError } from '../errors.js';
import { toJson } from '../output/json.js';

/**
 * Wraps a command body: `validate` runs first (usage errors cost nothing: no config is read, no
 * request is made), then the context is built and the body runs.
 */
export type ActionFactory = (body: (ctx: Context) => Promise<void>, validate?: () => void) => (...args: unknown[]) => Promise<void>;

/** Currency symbols as the gateway writes them: letters and digits (BTC, USDT, USDC.e, 1INCH). */
export function parseSymbol(text: string, what: string): string {
  const symbol = text.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(symbol)) {
    throw new UsageError(`${what} must be a currency symbol such as BTC or USDT (got "${text.slice(0, 30)}")`);
  }
  return symbol;
}

/** The label every human output of the sandbox carries. */
export function sandboxLabel(io: Pick<IO, 'chalk'>): string {
  return io.chalk.bgYellow.black(' SANDBOX ');
}

export function sandboxBanner(ctx: Context): string {
  return `${sandboxLabel(ctx.io)} test gateway on this machine: nothing here is real money\n`;
}

/** Every command's help shows at least one example. */
export function withExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/** Writes the JSON document, adding "sandbox": true on sandbox runs. */
export function printJson(ctx: Context, value: Record<string, unknown>): void {
  ctx.io.out(`${toJson(ctx.sandbox ? { ...value, sandbox: true } : value)}\n`);
}
