// The launcher (bin/gw.cjs) picks a command's V8 code cache by the list of commands the build
// writes into the bundle's first line from the command registry (scripts/build.mjs): that list is
// the registry's, and the launcher reads it (a command's run keeps a cache of its own).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, launcherCommands } from '../../src/commands/registry.js';
import { ROOT } from '../support/gw.js';

describe("the launcher's list of commands", () => {
  it("is the registry's: the built bundle's first line", () => {
    const bundle = readFileSync(path.join(ROOT, 'dist', 'gw.cjs'), 'utf8');
    const first = bundle.slice(0, bundle.indexOf('\n'));
    expect(first.startsWith('//gw-commands ')).toBe(true);
    const { '#build': build, ...listed } = JSON.parse(first.slice('//gw-commands '.length)) as Record<string, string>;
    // The build's id, which names the code caches (bin/gw.cjs): a hash of the rest of the bundle.
    expect(build).toMatch(/^[0-9a-f]{16}$/);
    expect(listed).toEqual(launcherCommands());
    expect(Object.values(listed).sort()).toEqual(COMMANDS.map((row) => row.name).sort());
  });
});
