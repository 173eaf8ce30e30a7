// What every command's --help shows besides its options: the JSON document it prints, and
// examples. (Global options are listed by Commander's showGlobalOptions; see cli.ts.)
import type { Command } from 'commander';

export interface HelpExtras {
  examples: readonly string[];
  /** The shape of the --json document, one line. */
  json?: string;
  /** A paragraph after the examples (what the exit code means, where to read more). */
  notes?: string;
}

export function withHelp(command: Command, extras: HelpExtras): Command {
  let text = '';
  if (extras.json !== undefined) text += `\nJSON output (--json):\n  ${extras.json}\n`;
  text += `\nExamples:\n${extras.examples.map((e) => `  $ ${e}`).join('\n')}\n`;
  if (extras.notes !== undefined) text += `\n${extras.notes}\n`;
  return command.addHelpText('after', text);
}
