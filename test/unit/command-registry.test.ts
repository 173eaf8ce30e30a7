// The command registry (src/commands/registry.ts): one row per module of src/commands/, each
// module reached only through its row (no command imports another: a command's module loads only
// when a line names it), and the launcher's words for it (scripts/build.mjs writes them into the
// bundle's first line for bin/gw.cjs).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandRow, commandNamed, launcherCommands } from '../../src/commands/registry.js';
import { ROOT } from '../support/gw.js';

const DIR = path.join(ROOT, 'src', 'commands');

const MODULES = readdirSync(DIR)
  .filter((file) => file.endsWith('.ts') && file !== 'registry.ts')
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

/** The modules of src/commands/ that export what the row's loader gives. */
async function modulesOf(row: CommandRow): Promise<string[]> {
  const newCmd = await row.load();
  const found: string[] = [];
  for (const name of MODULES) {
    const exports = (await import(path.join(DIR, `${name}.ts`))) as Record<string, unknown>;
    if (Object.values(exports).includes(newCmd)) found.push(name);
  }
  return found;
}

describe('the command registry', () => {
  it('has one row per module of src/commands/, each loading its own, named as its command', async () => {
    const loaded = await Promise.all(COMMANDS.map(modulesOf));
    expect(loaded).toEqual(COMMANDS.map((row) => [row.name]));
    expect(loaded.flat().sort()).toEqual(MODULES);
  });

  it('each summary is one line', () => {
    for (const row of COMMANDS) expect(row.summary).toMatch(/^[a-z][^\n]{9,150}$/);
  });

  it('names a command by its name or an alias; the launcher gets every such word', () => {
    expect(commandNamed('rate')?.name).toBe('rate');
    expect(commandNamed('nope')).toBeUndefined();
    expect(launcherCommands()).toEqual(Object.fromEntries(COMMANDS.map((row) => [row.name, row.name])));
    const load = COMMANDS[0]?.load ?? (async () => undefined as never);
    expect(
      launcherCommands([
        { name: 'status', aliases: ['st'], summary: 'x', load },
        { name: 'pay', summary: 'y', load },
      ]),
    ).toEqual({
      status: 'status',
      st: 'status',
      pay: 'pay',
    });
  });
});

describe('a command module', () => {
  // Each loads only when a line names it (src/cli.ts): a command importing another would load it
  // too, and couple them. What two commands share lives in src/cmdutil/ or the module owning it.
  it.each(MODULES)('%s imports no other command (statically or dynamically)', (name) => {
    const source = readFileSync(path.join(DIR, `${name}.ts`), 'utf8');
    const imports = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
    expect(imports.filter((specifier) => specifier.startsWith('./'))).toEqual([]);
  });
});
