// What every command's --help shows besides its options: the JSON document it prints, examples,
// and notes. (Global options are listed by Commander's showGlobalOptions, in their own "Global
// Options" section; see cli.ts.) Prose is wrapped when the help is printed, to the width the
// program's help was configured with (IOStreams.proseWidth(): the terminal's, at most 100);
// examples are never wrapped, so each stays one line to copy.
import type { Command } from 'commander';

export interface HelpExtras {
  examples: readonly string[];
  /** The shape of the --json document. */
  json?: string;
  /** A paragraph after the examples (what the exit code means, where to read more). */
  notes?: string;
}

/** The width this command's help is printed at. */
export function helpWidthOf(command: Command): number {
  const width = (command.configureHelp() as { helpWidth?: number }).helpWidth;
  return width !== undefined && width > 0 ? width : 80;
}

/**
 * Wraps `text` to `width` columns: words are kept whole (a word longer than the line stands
 * alone), the first line indented by `indent` spaces and the others by `hanging`.
 */
export function wrapText(text: string, width: number, indent = 0, hanging = indent): string {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    const words = paragraph.split(/ +/).filter((w) => w !== '');
    let line = '';
    let pad = out.length === 0 ? indent : hanging;
    for (const word of words) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && pad + [...candidate].length > width) {
        out.push(' '.repeat(pad) + line);
        pad = hanging;
        line = word;
      } else line = candidate;
    }
    out.push(line === '' ? '' : ' '.repeat(pad) + line);
  }
  return out.join('\n');
}

export function withHelp(command: Command, extras: HelpExtras): Command {
  return command.addHelpText('after', ({ command: cmd }) => {
    const width = helpWidthOf(cmd);
    let text = '';
    if (extras.json !== undefined) text += `\nJSON output (--json):\n${wrapText(extras.json, width, 2, 4)}\n`;
    text += `\nExamples:\n${extras.examples.map((e) => `  $ ${e}`).join('\n')}\n`;
    if (extras.notes !== undefined) text += `\n${wrapText(extras.notes, width)}\n`;
    return text;
  });
}
