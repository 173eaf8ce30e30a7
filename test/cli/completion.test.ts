// The completion engine (gw __complete -- <words>) in process: commands, options with their
// descriptions, option values, setting names, profiles from the config files, and currencies from
// the cache that gw doctor fills, else the coins gw knows. The scripts in a real shell: test/e2e.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { emptyDir, runGw } from '../support/cli.js';
import { writeFile } from '../support/gw.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

async function complete(words: string[], options: Parameters<typeof runGw>[1] = {}): Promise<{ values: string[]; lines: string[]; directive: string }> {
  const r = await runGw(['__complete', '--', ...words], options);
  expect(r.exitCode, r.stderr).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  const directive = lines.pop() ?? '';
  return { lines, values: lines.map((l) => l.split('\t')[0] ?? ''), directive };
}

describe('gw __complete', () => {
  it('commands at the start, with descriptions; the hidden helper is not one of them', async () => {
    const c = await complete(['']);
    // Every row of the registry, in its order, then help.
    expect(c.values).toEqual([...COMMANDS.map((row) => row.name), 'help']);
    expect(c.values.slice(0, 3)).toEqual(['init', 'currencies', 'pay']);
    expect(c.lines).toContain('doctor\tcheck the set-up: configuration, proxy, gateway reachable, TLS, each key, clock (for CI and support)');
    expect(c.directive).toBe(':none');
    expect((await complete(['co'])).values).toEqual(COMMANDS.map((row) => row.name).filter((name) => name.startsWith('co')));
    expect((await complete(['co'])).values).toEqual(expect.arrayContaining(['config', 'completion']));
  });

  it('options: the command’s and the global ones; option values gw knows', async () => {
    const pay = await complete(['pay', '--qr']);
    expect(pay.values).toEqual(['--qr', '--qr-out', '--qr-theme', '--qr-charset']);
    expect((await complete(['--qr-theme', ''])).values).toEqual(['dark', 'light']);
    expect((await complete(['pay', '1', 'BTC', '--api', 'v'])).values).toEqual(['v1']);
    expect((await complete(['pay', '1', 'BTC', '--qr-out', ''])).directive).toBe(':files');
    expect((await complete(['--qr-theme', '=', 'l'])).values).toEqual(['light']); // bash's split of --qr-theme=l
    expect((await complete(['--qr-theme=d'])).values).toEqual(['--qr-theme=dark']);
  });

  it('subcommands and setting names for gw config; shells for gw completion', async () => {
    expect((await complete(['config', ''])).values).toEqual(['set', 'get', 'unset']);
    expect((await complete(['config', 'set', 'merch'])).values).toEqual(['merchantKey', 'merchantName']);
    expect((await complete(['config', 'set', 'api', ''])).values).toEqual(['legacy', 'v1']);
    expect((await complete(['config', 'set', 'receiptWidth', ''])).values).toEqual(['32', '42', '48']);
    expect((await complete(['completion', ''])).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete(['help', 'd'])).values).toEqual(['doctor']);
  });

  it('profile names from the user and project config files, without any request', async () => {
    const home = emptyDir('gw-complete-');
    writeFile(home, '.config/gateway/config.yaml', 'profiles:\n  shop: {}\n  staging: {}\n');
    const cwd = path.join(home, 'project');
    writeFile(cwd, '.gatewayrc.json', JSON.stringify({ profiles: { kiosk: {} } }));
    const c = await complete(['--profile', ''], { cwd, home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
    expect(c.values).toEqual(['kiosk', 'shop', 'staging']);
    expect((await complete(['balance', '--profile', 'st'], { cwd, home, env: { HOME: home } })).values).toEqual(['staging']);
  });

  it('currencies: the coins gw knows, then the merchant’s own list once gw doctor has seen it', async () => {
    const home = emptyDir('gw-complete-');
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), ...sandboxEnv(sandbox) };
    const before = await complete(['pay', '25', ''], { home, env });
    expect(before.values).toContain('DGB'); // gw knows DigiByte; the sandbox does not offer it
    const doctor = await runGw(['doctor'], { home, env });
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    const after = await complete(['pay', '25', ''], { home, env });
    expect(after.values).toContain('USDT');
    expect(after.values).not.toContain('DGB');
    expect((await complete(['rate', 'BTC', 'US'], { home, env })).values).toEqual(['USDC', 'USDT']);
    expect((await complete(['pay', '25', 'USD', '--pay-currency', 'X'], { home, env })).values).toEqual(['XMR']);
    expect((await complete(['balance', 'e'], { home, env })).values).toEqual(['ETH']);
  });
});
