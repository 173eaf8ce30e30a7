// The command registry (src/commands/registry.ts) is where a command is added: each row must be
// reachable through the whole CLI, as its row says: gw --help lists it with its summary, in the
// registry's order; completion offers it with that summary; its own help is its page; and a line
// naming it builds it alone (the row's loader) and parses its options. The launcher's list of
// commands, made from the registry by the build: test/e2e/launcher-commands.test.ts.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import { runGw } from '../support/cli.js';

const WIDE = 400;

describe('every registry row is a command of gw', () => {
  it('gw --help lists the rows, in their order, each with its summary', async () => {
    const r = await runGw(['--help'], { width: WIDE });
    expect(r.exitCode).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf('\nCommands:\n'), r.stdout.indexOf('\nExamples:'));
    expect([...section.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1])).toEqual([...COMMANDS.map((row) => row.name), 'help']);
    // Each item: the command, its arguments, then its summary (wrapped to the help's width).
    const items = section.split(/\n(?= {2}\S)/).map((item) => item.replace(/\s+/g, ' ').trim());
    for (const row of COMMANDS) expect(items.find((item) => item.startsWith(`${row.name} `))?.endsWith(` ${row.summary}`), row.name).toBe(true);
  });

  it('completion offers the rows, in their order, each with its summary', async () => {
    const r = await runGw(['__complete', '--', '']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.pop()).toBe(':none');
    expect(lines).toEqual([...COMMANDS.map((row) => `${row.name}\t${row.summary}`), 'help\tshow help for a command']);
  });

  it.each(COMMANDS.map((row) => [row.name, row] as const))('gw %s: its help page, and a line naming it alone builds it', async (name, row) => {
    const help = await runGw([name, '--help'], { width: WIDE });
    expect(help.exitCode, help.stderr).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: gw ${name} `));
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(` ${row.summary} `);
    // No --help on the line: only this row's command is built (src/cli.ts), and Commander parses it.
    const wrong = await runGw([name, '--no-such-option']);
    expect(wrong.exitCode).toBe(64);
    expect(wrong.stderr).toContain(`usage: gw ${name} `);
    // The module the row loads makes the command the row names.
    const newCmd = await row.load();
    expect(newCmd.name).toMatch(/^newCmd[A-Z]/);
  });
});
