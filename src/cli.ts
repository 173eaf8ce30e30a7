// The command line: builds the Commander program over a Factory and runs one command, turning
// whatever happened into output and an exit code in one place. Importing this module does nothing;
// src/main.ts is the process around it, and tests call runCli() with a test factory.
import { Command, type CommanderError, Help, Option } from 'commander';
import type { Factory, GlobalOptions } from './cmdutil/factory.js';
import { helpWidthOf, wrapText } from './cmdutil/help.js';
import { COMMANDS, type CommandRow, commandNamed } from './commands/registry.js';
import { ExitCode, GwError, UsageError } from './errors.js';
import { VERSION } from './version.js';

export const EXIT_CODES_HELP = `Exit codes: 0 ok, 1 refused, 64 usage, 65 data rejected, 69 unavailable, 70 internal,
73 cannot write file, 74 output lost, 75 temporary, 76 bad response, 77 key refused,
78 configuration, 130 interrupted, 143 terminated. A payment's state (gw status, --wait):
0 paid, 8 still open, 10 underpaid, 11 expired (nothing arrived), 12 failed, refunding or refunded,
13 late (funds arrived for an expired payment), 124 gave up waiting.`;

/**
 * The root command wired to `f`, with every command of the registry (src/commands/registry.ts), in
 * its order; or, given the command line, with only the command it names when that is all the parse
 * needs (importing and building them all is a few ms of every run). Help, completion, and a line
 * that names no known command get them all, so help pages and "did you mean" suggestions are whole.
 */
export async function newCmdRoot(f: Factory, argv?: readonly string[]): Promise<Command> {
  const program = new Command('gw')
    .description(
      "The merchant's command line for the crypto payment gateway: accepted coins, white-label payments with a scannable QR, their status and history, balances, rates.",
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print one JSON document on stdout; failures as JSON on stderr')
    .option('--profile <name>', 'use a profile from the config file (env GATEWAY_PROFILE)')
    .option('--config <file>', 'read this config file instead of searching for one')
    .option('--base-url <url>', 'gateway base URL (env GATEWAY_BASE_URL)')
    .option('--api <legacy|v1>', "which of the gateway's APIs to speak (env GATEWAY_API; default legacy)")
    .option('--merchant-key <key>', 'merchant API key (env GATEWAY_MERCHANT_KEY; prefer env or config: flags show in ps)')
    .option('--payout-key <key>', 'payout API key (env GATEWAY_PAYOUT_KEY)')
    .option('--general-key <key>', "the versioned API's general key, for balance and rate with --api v1 (env GATEWAY_GENERAL_KEY)")
    .option('--timeout <seconds>', 'deadline for the whole command, retries included (env GATEWAY_TIMEOUT; default 15)')
    .option('--verbose', 'log each request (method, URL, status, time) on stderr; keys are never logged')
    .option('--sandbox', 'run against the embedded sandbox gateway (no account, no config)')
    .addOption(new Option('--no-color', 'no colour for decoration (also NO_COLOR=1); a QR code keeps its black and white'))
    .addOption(
      new Option('--qr-theme <theme>', 'the background a QR code is drawn for where it cannot set its colours (a pipe, TERM=dumb); default dark').choices([
        'dark',
        'light',
      ]),
    )
    .addOption(
      new Option(
        '--qr-charset <charset>',
        'the characters a QR code is drawn with: utf8 half blocks whatever the locale says, or ascii (env GW_UTF8=1 or 0)',
      ).choices(['utf8', 'ascii']),
    )
    .addHelpText(
      'after',
      ({ command }) => `
Examples:
  $ gw init                                   set up: gateway, keys, profile
  $ gw pay 25 USDT --sandbox                  try a payment, no account
  $ gw pay 25 USD --pay-currency USDT --order-id 1042 --wait
  $ gw status 184729305 --wait
  $ gw payments --order-id 1042
  $ gw currencies --json | jq -r '.currencies[]'
  $ gw doctor                                 check the set-up

${wrapText(EXIT_CODES_HELP.replace(/\n/g, ' '), helpWidthOf(command))}
`,
    );
  program.hook('preAction', (_root, command) => f.applyGlobals(command.optsWithGlobals<GlobalOptions>()));
  const word = argv === undefined ? undefined : soleCommand(program, argv);
  const only = word === undefined ? undefined : commandNamed(word);
  if (only !== undefined && only.name !== 'completion') {
    program.addCommand(await commandOf(only, f));
  } else {
    const [commands, { newCmdComplete }] = await Promise.all([Promise.all(COMMANDS.map((row) => commandOf(row, f))), import('./commands/completion.js')]);
    for (const command of commands) program.addCommand(command);
    program.addCommand(newCmdComplete(f, program), { hidden: true });
  }
  configure(program, f);
  return program;
}

/**
 * A registry row's command (src/commands/registry.ts), its module imported now: the row's summary
 * is its line in the root help and in completion, and its description unless the module gives a
 * longer one for its own help.
 */
async function commandOf(row: CommandRow, f: Factory): Promise<Command> {
  const command = (await row.load())(f).summary(row.summary);
  if (command.description() === '') command.description(row.summary);
  if (row.aliases !== undefined) command.aliases(row.aliases);
  return command;
}

/**
 * The first word of a command line that is not an option or a global option's value: the command
 * it names, if any. Undefined when the line asks for help anywhere.
 */
function soleCommand(root: Command, argv: readonly string[]): string | undefined {
  if (argv.some((arg) => arg === '-h' || arg === '--help')) return undefined;
  const takesValue = new Set(root.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((name) => name !== undefined)));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) return arg;
    if (takesValue.has(arg)) i++;
  }
  return undefined;
}

/**
 * Every command: Commander never exits the process or prints errors itself; usage errors become
 * one line with the command's usage and a pointer to its own --help; help follows the terminal's
 * width and lists the global options.
 */
function configure(command: Command, f: Factory): void {
  command
    .exitOverride((error) => {
      throw usageFrom(error, command);
    })
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, helpWidth: f.io.proseWidth(), minWidthToWrap: 24, sortSubcommands: false, formatItem } as Partial<Help>)
    .configureOutput({
      writeOut: (s) => f.io.out(s),
      writeErr: (s) => f.io.err(s),
      outputError: () => undefined,
      getOutHelpWidth: () => f.io.proseWidth(),
      getErrHelpWidth: () => f.io.proseWidth(),
    });
  for (const sub of command.commands) configure(sub, f);
}

/**
 * One option, argument or command in the help: Commander's two columns while the description has
 * room (30 columns); on a narrow terminal the description goes under the term instead, so nothing
 * runs past the width.
 */
function formatItem(term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  if (!description || width - termWidth - 4 >= 30) return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
  const indent = '      ';
  return `  ${term}\n${helper
    .boxWrap(description, width - indent.length)
    .split('\n')
    .map((line) => indent + line)
    .join('\n')}`;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function usageFrom(error: CommanderError, command: Command): GwError {
  // Help printed because no command was given (gw --json): a usage error, as for a bare gw.
  if (error.code === 'commander.help' && command.parent === null && command.args.length === 0) return new HelpShown(error.code, ExitCode.USAGE);
  if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return new HelpShown(error.code);
  // Commander puts its "(Did you mean rate?)" on a line of its own: one line, words apart.
  const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
  const path = commandPath(command);
  return new UsageError(message, `usage: ${path} ${command.usage()}; see ${path} --help`);
}

/** Help or version was printed: success when asked for, 64 when no command was given. (Bare `gw` is handled by runCli.) */
class HelpShown extends GwError {
  constructor(
    readonly code: string,
    exitCode: ExitCode = ExitCode.OK,
  ) {
    super(exitCode, 'help shown');
  }
}

/** A usage error thrown by a command's own argument checks gets the command's usage line too. */
function addUsage(error: unknown, argv: readonly string[], program: Command): unknown {
  if (!(error instanceof UsageError) || error.hint !== undefined) return error;
  // The deepest command named on the line (gw webhook send, not gw webhook).
  let command: Command | undefined;
  for (let next = program.commands.find((c) => argv.includes(c.name())); next !== undefined; next = next.commands.find((c) => argv.includes(c.name())))
    command = next;
  if (command === undefined) return error;
  const path = commandPath(command);
  return error.with({ hint: `usage: ${path} ${command.usage()}; see ${path} --help` });
}

export function asGwError(error: unknown): GwError {
  if (error instanceof GwError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GwError(ExitCode.SOFTWARE, `internal error: ${message}`, { hint: 'run with GW_DEBUG=1 to see the stack trace, and report it' });
}

/**
 * Runs one command line and returns the exit code: 0 only when the command did its job and its
 * output reached stdout. Every failure is one line on stderr (or one JSON line with --json).
 */
export async function runCli(argv: readonly string[], f: Factory): Promise<number> {
  await f.io.loadColor();
  // Messages keep a command to run whole (src/output/wrap.ts): gw's commands are the registry's.
  f.io.setCommandWords(COMMANDS.flatMap((row) => [row.name, ...(row.aliases ?? [])]));
  const program = await newCmdRoot(f, argv);
  try {
    if (argv.length === 0) {
      f.io.err(program.helpInformation());
      return ExitCode.USAGE;
    }
    await program.parseAsync([...argv], { from: 'user' });
    await f.io.flush();
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof HelpShown) {
      await f.io.flush().catch(() => undefined);
      return error.exitCode;
    }
    // A usage error can come before Commander has read --json: a script still gets a JSON line.
    const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
    if (!f.io.json && options.includes('--json')) f.io.setJson(true);
    if (f.io.env('GW_DEBUG') === '1' && error instanceof Error) f.io.err(`${error.stack ?? ''}\n`);
    const failure = asGwError(addUsage(error, argv, program));
    f.io.reportFailure(failure);
    return failure.exitCode;
  } finally {
    await f.close();
  }
}
