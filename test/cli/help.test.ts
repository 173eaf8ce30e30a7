// Help that teaches, read at 60 and 120 columns: every command's help lists the global options in
// their own section, the JSON it prints and examples, wrapped to the terminal up to 100 columns;
// gw help <command> is the same and exits 0; a usage error shows the command's usage line and
// points to its own --help.
import { describe, expect, it } from 'vitest';
import { runGw } from '../support/cli.js';

const COMMANDS = ['init', 'currencies', 'pay', 'balance', 'rate', 'config', 'config set', 'config get', 'config unset', 'doctor', 'sandbox', 'completion'];

describe.each([60, 120])('help at %i columns', (columns) => {
  const limit = Math.min(columns, 100);

  it.each(COMMANDS)('gw %s --help: Global Options, JSON output (where there is one), Examples; prose within the width', async (command) => {
    const r = await runGw([...command.split(' '), '--help'], { width: columns, stdoutTTY: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toMatch(new RegExp(`^Usage: gw ${command} `));
    expect(out).toContain('\nGlobal Options:\n');
    expect(out).toMatch(/\n {2}--json(?: {2,}|\n {6})print one JSON document/); // two columns, or stacked when narrow
    expect(out).toContain('\nExamples:\n  $ ');
    if (command !== 'completion') expect(out).toContain('\nJSON output (--json):\n');
    const long = out.split('\n').filter((line) => [...line].length > limit && !line.startsWith('  $ '));
    expect(long).toEqual([]);
  });

  it('gw --help: commands, examples and exit codes within the width', async () => {
    const r = await runGw(['--help'], { width: columns, stdoutTTY: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\nCommands:\n {2}init \[options\](?: +|\n {6})set up gw/);
    expect(r.stdout).toMatch(/\nExit codes: 0 ok, 1 refused, 64 usage/);
    expect(r.stdout.split('\n').filter((line) => [...line].length > limit && !line.startsWith('  $ '))).toEqual([]);
  });
});

describe('the command a line names, wherever the global options are', () => {
  // gw builds only the command a line names; a global option's value that spells a command
  // (a profile called "pay") must not be taken for it.
  it.each([
    [['--sandbox', '--json', 'rate', 'BTC', 'USDT']],
    [['--timeout', '5', '--sandbox', '--json', 'rate', 'BTC', 'USDT']],
    [['--sandbox', '--qr-theme', 'light', '--json', 'rate', 'BTC', 'USDT']],
    [['rate', '--sandbox', 'BTC', 'USDT', '--json']],
    [['--sandbox', '--json', '--timeout=5', 'rate', 'BTC', 'USDT']],
  ])('gw %j', async (argv) => {
    const r = await runGw(argv);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ from: 'BTC', to: 'USDT' });
  });

  it('a profile named like a command is a value, not the command', async () => {
    const r = await runGw(['--profile', 'pay', 'rate', 'BTC', 'USDT']);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/^gw: profile "pay" was asked for/);
  });
});

describe('help and usage errors', () => {
  it('gw help <command> prints that command’s help and exits 0', async () => {
    const viaHelp = await runGw(['help', 'doctor'], { width: 80 });
    const viaFlag = await runGw(['doctor', '--help'], { width: 80 });
    expect(viaHelp.exitCode).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it.each([[[]], [['--json']], [['--sandbox', '--verbose']]])('no command (gw %j): the help on stderr, stdout empty, exit 64', async (argv) => {
    const r = await runGw(argv);
    expect(r.exitCode).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: gw \[options\] \[command\]/);
  });

  it('a usage error: one line, then the command’s usage and its own --help (nested commands too)', async () => {
    const r = await runGw(['doctor', 'now']);
    expect(r.exitCode).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("gw: too many arguments for 'doctor'. Expected 0 arguments but got 1.\nhint: usage: gw doctor [options]; see gw doctor --help\n");
    const nested = await runGw(['config', 'get']);
    expect(nested.exitCode).toBe(64);
    expect(nested.stderr).toMatch(/^gw: missing required argument 'key'\nhint: usage: gw config get \[options\] <key>; see gw config get --help\n$/);
    const shell = await runGw(['completion', 'powershell']);
    expect(shell.exitCode).toBe(64);
    expect(shell.stderr).toMatch(/gw completes bash, zsh, fish\nhint: usage: gw completion \[options\] <shell>; see gw completion --help/);
    // A check of gw's own in a nested command names that command, not its parent.
    const state = await runGw(['webhook', 'send', 'http://127.0.0.1:9/hooks', '--status', 'bogus']);
    expect(state.exitCode).toBe(64);
    expect(state.stderr).toMatch(/\nhint: usage: gw webhook send \[options\] <url>; see gw webhook send --help\n$/);
    // Its help names every state it can send, late and refunding included.
    const sendHelp = (await runGw(['webhook', 'send', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(sendHelp).toMatch(/paid, underpaid, expired \(nothing arrived\), late \(expired, with the full amount arrived after\), failed, refunding, refunded/);
    const typo = await runGw(['--timeout', '5', 'rat', 'BTC', 'USDT']);
    expect(typo.exitCode).toBe(64);
    expect(typo.stderr).toBe("gw: unknown command 'rat' (Did you mean rate?)\nhint: usage: gw [options] [command]; see gw --help\n");
    const theme = await runGw(['pay', '1', 'BTC', '--qr-theme', 'blue']);
    expect(theme.exitCode).toBe(64);
    expect(theme.stderr).toMatch(/option '--qr-theme <theme>' argument 'blue' is invalid\. Allowed choices are dark, light\./);
  });
});
