// Entry point: builds the Commander program, runs one command, and turns whatever happened into
// output and an exit code in one place. Heavy modules (config loaders, undici, QR, sandbox) are
// imported only by the commands that need them.
import { Command, CommanderError } from 'commander';
import { ExitCode, GwError } from './errors.js';
import { createIO, type IO } from './output/io.js';
import { scrubSecrets, terminalSafe } from './output/sanitize.js';
import { VERSION } from './version.js';
import type { Context, GlobalOptions, Resources } from './context.js';
import { balanceCommand } from './commands/balance.js';
import { configCommand } from './commands/config.js';
import { currenciesCommand } from './commands/currencies.js';
import { payCommand } from './commands/pay.js';
import { rateCommand } from './commands/rate.js';
import { sandboxCommand } from './commands/sandbox.js';

const interrupt = new AbortController();
const resources: Resources = { close: async () => undefined, secrets: [] };
let jsonMode = process.argv.includes('--json');

const scrub = (text: string): string => scrubSecrets(text, resources.secrets);

/** One line (and a hint line) on stderr, or one JSON document with --json. */
function reportFailure(io: Pick<IO, 'err'>, error: GwError): void {
  const message = scrub(terminalSafe(error.message));
  if (jsonMode) {
    const body: Record<string, unknown> = { message, exitCode: error.exitCode };
    if (error.result !== undefined) body.result = error.result;
    if (error.status !== undefined) body.status = error.status;
    if (error.type !== undefined) body.type = scrub(error.type);
    if (error.key !== undefined) body.key = scrub(error.key);
    if (error.hint !== undefined) body.hint = scrub(terminalSafe(error.hint));
    io.err(`${JSON.stringify({ error: body })}\n`);
  } else {
    io.err(`gw: ${message}\n`);
    if (error.hint !== undefined) io.err(`hint: ${scrub(terminalSafe(error.hint))}\n`);
  }
}

function asGwError(error: unknown): GwError {
  if (error instanceof GwError) return error;
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '');
    return new GwError(ExitCode.USAGE, message, { hint: 'see gw --help' });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GwError(ExitCode.SOFTWARE, `internal error: ${message}`, { hint: 'run with GW_DEBUG=1 to see the stack trace, and report it' });
}

/** The wrapper every command's action goes through: IO, context, run, close. */
export type CommandBody = (ctx: Context) => Promise<void>;

async function runWithContext(options: GlobalOptions, body: CommandBody): Promise<void> {
  const io = createIO({ json: jsonMode, noColorFlag: options.color === false });
  const { createContext } = await import('./context.js');
  const ctx = await createContext(io, options, interrupt.signal, resources);
  await body(ctx);
}

export function action(body: CommandBody, validate?: () => void): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const options = (args[args.length - 1] as Command).optsWithGlobals<GlobalOptions>();
    jsonMode = options.json === true;
    validate?.();
    await runWithContext(options, body);
  };
}

/** Usage errors and help go through our own output; Commander never exits the process itself. */
function configure(command: Command): Command {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => void process.stdout.write(s),
      writeErr: (s) => void process.stderr.write(s),
      // Commander's own errors are reported by reportFailure (one line, exit 64).
      outputError: () => undefined,
    });
  for (const sub of command.commands) configure(sub);
  return command;
}

export function buildProgram(): Command {
  const program = new Command('gw')
    .description("The merchant's command line for the crypto payment gateway: accepted coins, white-label payments with a scannable QR, balances, rates.")
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print one JSON document on stdout; failures as JSON on stderr')
    .option('--profile <name>', 'use a profile from the config file (env GATEWAY_PROFILE)')
    .option('--config <file>', 'read this config file instead of searching for one')
    .option('--base-url <url>', 'gateway base URL (env GATEWAY_BASE_URL)')
    .option('--merchant-key <key>', 'merchant API key (env GATEWAY_MERCHANT_KEY; prefer env or config: flags show in ps)')
    .option('--payout-key <key>', 'payout API key (env GATEWAY_PAYOUT_KEY)')
    .option('--timeout <seconds>', 'deadline for the whole command, retries included (env GATEWAY_TIMEOUT)', undefined)
    .option('--verbose', 'log each request (method, URL, status, time) on stderr; keys are never logged')
    .option('--sandbox', 'run against the embedded sandbox gateway (no account, no config)')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .addHelpText(
      'after',
      `
Examples:
  $ gw pay 25 USDT --sandbox                  try a payment on the embedded sandbox
  $ gw pay 25 USD --pay-currency USDT --order-id 1042
  $ gw currencies --json | jq -r '.currencies[]'
  $ gw balance BTC
  $ gw rate BTC USDT

Exit codes: 0 ok, 1 refused, 64 usage, 65 data rejected, 69 unavailable, 70 internal,
73 cannot write file, 75 temporary, 76 bad response, 77 key refused, 78 configuration, 130 interrupted.`,
    );
  program.addCommand(currenciesCommand(action));
  program.addCommand(payCommand(action));
  program.addCommand(balanceCommand(action));
  program.addCommand(rateCommand(action));
  program.addCommand(configCommand(action));
  program.addCommand(sandboxCommand(interrupt.signal));
  return configure(program);
}

export async function main(argv: readonly string[]): Promise<number> {
  const stderr = { err: (s: string) => void process.stderr.write(s) };
  try {
    await buildProgram().parseAsync(argv as string[], { from: 'user' });
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) {
      return error.code === 'commander.help' ? ExitCode.USAGE : ExitCode.OK;
    }
    if (process.env.GW_DEBUG === '1' && error instanceof Error) process.stderr.write(`${scrub(error.stack ?? '')}\n`);
    const failure = asGwError(error);
    reportFailure(stderr, failure);
    return failure.exitCode;
  } finally {
    await resources.close().catch(() => undefined);
  }
}

function installProcessHandlers(): void {
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(ExitCode.INTERRUPTED);
    interrupted = true;
    interrupt.abort(new Error('interrupted'));
  });
  process.on('SIGTERM', () => interrupt.abort(new Error('terminated')));
  // A closed stdout (gw balance | head -1) ends quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const crash = (error: unknown): void => {
    if (process.env.GW_DEBUG === '1') process.stderr.write(`${scrub(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    reportFailure({ err: (s) => void process.stderr.write(s) }, asGwError(error));
    process.exit(ExitCode.SOFTWARE);
  };
  process.on('unhandledRejection', crash);
  process.on('uncaughtException', crash);
}

installProcessHandlers();
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Nothing should keep the process alive now; if something does, do not hang a script.
  setTimeout(() => process.exit(code), 1500).unref();
});
