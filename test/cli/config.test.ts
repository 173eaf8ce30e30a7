// Configuration, in process: files found by search (JSON, YAML, package.json, the user's config
// directory), --config, profiles, precedence flag > env > profile > file, the user and project
// files layered, and files gw must not trust or cannot read (skipped, or exit 78 without hanging
// and without printing what they hold). JavaScript configs: test/e2e/config.test.ts.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runGw as gw } from '../support/cli.js';
import { tempDir, writeFile } from '../support/gw.js';
import { withSandbox } from '../support/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

interface ConfigDoc {
  file: string | null;
  settings: Record<string, { value: string; source: string } | null>;
}

async function configJson(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<ConfigDoc> {
  const r = await gw(['config', '--json', ...args], options);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as ConfigDoc;
}

describe('config files', () => {
  it('reads .gatewayrc as JSON and talks to the gateway it names', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc', JSON.stringify({ baseUrl: sandbox.url, merchantKey: sandbox.merchantKey, payoutKey: sandbox.payoutKey }));
    const r = await gw(['balance', 'BTC', '--json'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ balances: { BTC: '0.00012345' } });
  });

  it('reads .gatewayrc as YAML', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc', `baseUrl: ${sandbox.url}\nmerchantKey: ${sandbox.merchantKey}\n`);
    const r = await gw(['currencies', '--json'], { cwd: dir });
    expect(r.exitCode).toBe(0);
  });

  it.each([
    ['.gatewayrc.json', (url: string) => JSON.stringify({ baseUrl: url })],
    ['.gatewayrc.yaml', (url: string) => `baseUrl: "${url}"\n`],
    ['.gatewayrc.yml', (url: string) => `baseUrl: ${url}\n`],
    ['gateway.config.mjs', (url: string) => `export default { baseUrl: ${JSON.stringify(url)} };\n`],
    ['gateway.config.cjs', (url: string) => `module.exports = { baseUrl: ${JSON.stringify(url)} };\n`],
    ['package.json', (url: string) => JSON.stringify({ name: 'shop', gateway: { baseUrl: url } })],
  ])('finds %s', async (name, content) => {
    const dir = tempDir();
    const file = writeFile(dir, name, content(sandbox.url));
    const doc = await configJson([], { cwd: dir });
    expect(doc.file).toBe(file);
    expect(doc.settings.baseUrl).toEqual({ value: `${sandbox.url}/`, source: file });
  });

  it('searches upwards from the working directory', async () => {
    const dir = tempDir();
    const file = writeFile(dir, '.gatewayrc.json', JSON.stringify({ baseUrl: sandbox.url }));
    const deep = path.join(dir, 'a', 'b');
    writeFile(deep, 'placeholder.txt', '');
    const doc = await configJson([], { cwd: deep, env: { HOME: dir } });
    expect(doc.file).toBe(file);
  });

  it("falls back to the user's config directory", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const file = writeFile(home, '.config/gateway/config.json', JSON.stringify({ baseUrl: sandbox.url }));
    const doc = await configJson([], { cwd, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
    expect(doc.file).toBe(file);
  });

  it('reads only the file named by --config', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', JSON.stringify({ baseUrl: 'https://found.example' }));
    const named = writeFile(dir, 'other.yaml', 'baseUrl: https://named.example\n');
    const doc = await configJson(['--config', named], { cwd: dir });
    expect(doc.settings.baseUrl?.value).toBe('https://named.example/');
  });

  it('a --config file that does not exist: a command exits 78 naming it; gw config still shows its table and names it', async () => {
    const r = await gw(['rate', 'BTC', 'USDT', '--config', '/nonexistent/gw.json']);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toContain('/nonexistent/gw.json');
    const shown = await gw(['config', '--config', '/nonexistent/gw.json']);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(/baseUrl\s+\(not set\)/);
    expect(shown.stdout).toMatch(/✗\s+\/nonexistent\/gw\.json\s+cannot be used/);
    expect(shown.stdout).toMatch(/Problems:\n\s+✗ config file \/nonexistent\/gw\.json cannot be read: ENOENT/);
  });

  it('exits 78 naming a malformed file and the line', async () => {
    const dir = tempDir();
    const file = writeFile(dir, '.gatewayrc.yaml', 'baseUrl: https://x.example\n  merchantKey: [unclosed\n');
    const r = await gw(['rate', 'BTC', 'USDT'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/\(2:\d+\)|line 2/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 78 for a setting of the wrong type', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', JSON.stringify({ baseUrl: 42 }));
    const r = await gw(['rate', 'BTC', 'USDT'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/baseUrl/);
  });

  it('shows keys masked to their last four characters', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', JSON.stringify({ merchantKey: 'mk_secret_value_WXYZ', payoutKey: 'pk_secret_value_ABCD' }));
    const r = await gw(['config'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('WXYZ');
    expect(r.stdout).toContain('ABCD');
    expect(r.stdout).not.toContain('mk_secret_value');
    expect(r.stdout).not.toContain('pk_secret_value');
  });
});

describe('profiles and precedence', () => {
  const fileContent = (url: string): string =>
    JSON.stringify({
      baseUrl: 'https://top.example',
      merchantKey: 'top-merchant-key',
      timeout: 20,
      profiles: {
        local: { baseUrl: url, merchantKey: 'profile-merchant-key' },
        slow: { timeout: '30' },
      },
    });

  it('uses the top level of the file without a profile', async () => {
    const dir = tempDir();
    const file = writeFile(dir, '.gatewayrc.json', fileContent(sandbox.url));
    const doc = await configJson([], { cwd: dir });
    expect(doc.settings.baseUrl).toEqual({ value: 'https://top.example/', source: file });
    expect(doc.settings.timeout).toEqual({ value: '20 s', source: file });
  });

  it('lets the selected profile override the top level, key by key', async () => {
    const dir = tempDir();
    const file = writeFile(dir, '.gatewayrc.json', fileContent(sandbox.url));
    const doc = await configJson(['--profile', 'slow'], { cwd: dir });
    expect(doc.settings.timeout).toEqual({ value: '30 s', source: `${file} (profile slow)` });
    expect(doc.settings.baseUrl?.source).toBe(file);
  });

  it('selects the profile from GATEWAY_PROFILE, and --profile wins over it', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', fileContent(sandbox.url));
    const fromEnv = await configJson([], { cwd: dir, env: { GATEWAY_PROFILE: 'local' } });
    expect(fromEnv.settings.baseUrl?.value).toBe(`${sandbox.url}/`);
    const flag = await configJson(['--profile', 'slow'], { cwd: dir, env: { GATEWAY_PROFILE: 'local' } });
    expect(flag.settings.baseUrl?.value).toBe('https://top.example/');
  });

  it('lets the environment override the profile, and flags override the environment', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', fileContent(sandbox.url));
    const env = { GATEWAY_PROFILE: 'local', GATEWAY_BASE_URL: 'https://env.example', GATEWAY_TIMEOUT: '5' };
    const fromEnv = await configJson([], { cwd: dir, env });
    expect(fromEnv.settings.baseUrl).toEqual({ value: 'https://env.example/', source: 'env GATEWAY_BASE_URL' });
    expect(fromEnv.settings.timeout).toEqual({ value: '5 s', source: 'env GATEWAY_TIMEOUT' });
    const fromFlag = await configJson(['--base-url', 'https://flag.example', '--timeout', '7'], { cwd: dir, env });
    expect(fromFlag.settings.baseUrl).toEqual({ value: 'https://flag.example/', source: '--base-url' });
    expect(fromFlag.settings.timeout).toEqual({ value: '7 s', source: '--timeout' });
  });

  it('a GATEWAY_TIMEOUT gw cannot use: gw config still prints everything and names it; a command that needs it exits 78', async () => {
    const env = { GATEWAY_BASE_URL: sandbox.url, GATEWAY_MERCHANT_KEY: sandbox.merchantKey, GATEWAY_TIMEOUT: 'soon' };
    const shown = await gw(['config'], { cwd: tempDir(), env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/timeout\s+soon\s+env GATEWAY_TIMEOUT\s+✗ timeout from env GATEWAY_TIMEOUT must be a number/);
    expect(shown.stdout).toContain(sandbox.url);
    const used = await gw(['rate', 'BTC', 'USDT'], { cwd: tempDir(), env });
    expect(used.exitCode).toBe(78);
    expect(used.stderr).toMatch(/^gw: timeout from env GATEWAY_TIMEOUT must be a number of seconds/);
  });

  it('sends the key of the selected profile (a wrong top-level key is not used)', async () => {
    const dir = tempDir();
    writeFile(
      dir,
      '.gatewayrc.json',
      JSON.stringify({ baseUrl: sandbox.url, merchantKey: 'wrong-top-level-key', profiles: { shop: { merchantKey: sandbox.merchantKey } } }),
    );
    expect((await gw(['currencies'], { cwd: dir })).exitCode).toBe(77);
    expect((await gw(['currencies', '--profile', 'shop'], { cwd: dir })).exitCode).toBe(0);
    const flagWins = await gw(['currencies', '--profile', 'shop', '--merchant-key', 'wrong-flag-key'], { cwd: dir });
    expect(flagWins.exitCode).toBe(77);
  });

  it('exits 78 for an unknown profile and lists the known ones', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', fileContent(sandbox.url));
    const r = await gw(['rate', 'BTC', 'USDT', '--profile', 'nope'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/profile "nope"/);
    expect(r.stderr).toMatch(/local, slow/);
  });

  it('names the profiles and how to pick one when the file has profiles but no default (not "run gw init")', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', JSON.stringify({ profiles: { staging: { baseUrl: sandbox.url, merchantKey: sandbox.merchantKey }, shop: {} } }));
    const r = await gw(['currencies'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/profiles staging, shop/);
    expect(r.stderr).toMatch(/--profile staging/);
    expect(r.stderr).toMatch(/GATEWAY_PROFILE=staging/);
    expect(r.stderr).not.toMatch(/run gw init to set up/);
    expect((await gw(['currencies', '--json'], { cwd: dir, env: { GATEWAY_PROFILE: 'staging' } })).exitCode).toBe(0);
  });

  it('exits 78 for plain http to a remote host', async () => {
    const r = await gw(['rate', 'BTC', 'USDT', '--base-url', 'http://gateway.example']);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/https/);
  });

  it('ignores config files entirely with --sandbox', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.json', '{ this is not json');
    const r = await gw(['rate', 'BTC', 'USDT', '--sandbox', '--json'], { cwd: dir });
    expect(r.exitCode).toBe(0);
  });
});

describe('layers: the user file and the project file', () => {
  it('a project file that sets only timeout keeps the keys of the user file', async () => {
    const home = tempDir();
    const user = writeFile(home, '.config/gateway/config.yaml', `baseUrl: ${sandbox.url}\npayoutKey: ${sandbox.payoutKey}\ntimeout: 20\n`);
    const project = writeFile(home, 'shop/.gatewayrc.json', JSON.stringify({ timeout: 9 }));
    const cwd = path.dirname(project);
    const doc = await configJson([], { cwd, env: { HOME: home } });
    expect(doc.file).toBe(project);
    expect(doc.settings.baseUrl).toEqual({ value: `${sandbox.url}/`, source: user });
    expect(doc.settings.timeout).toEqual({ value: '9 s', source: project });
    const r = await gw(['balance', 'BTC', '--json'], { cwd, env: { HOME: home } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ balances: { BTC: '0.00012345' } });
  });
});

describe('files gw does not trust or cannot read', () => {
  const SECRET = 'sk_live_E2E_SECRET_0123456789';
  const expectNoSecret = (r: { stdout: string; stderr: string }): void => {
    expect(r.stdout).not.toContain('E2E_SECRET');
    expect(r.stderr).not.toContain('E2E_SECRET');
  };

  it('a FIFO named .gatewayrc: exit 78 at once, without waiting for a writer', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', ['-m', '600', path.join(dir, '.gatewayrc')]);
    const r = await gw(['rate', 'BTC', 'USDT'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toBe(`gw: config file ${path.join(dir, '.gatewayrc')} is not a regular file (it is a FIFO)\n`);
  }, 5000);

  it('a config file over 64 KiB: exit 78', async () => {
    const dir = tempDir();
    const file = writeFile(dir, '.gatewayrc.json', JSON.stringify({ merchantKey: SECRET, padding: 'x'.repeat(70_000) }));
    const r = await gw(['balance'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toContain(`config file ${file} is larger than 64 KiB`);
    expectNoSecret(r);
    // gw config shows the table and the problem instead of failing, and never the key.
    const shown = await gw(['config'], { cwd: dir });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain(`✗ config file ${file} is larger than 64 KiB`);
    expectNoSecret(shown);
  });

  it('a malformed package.json without a gateway field: gw works', async () => {
    const home = tempDir();
    writeFile(home, '.config/gateway/config.json', JSON.stringify({ baseUrl: sandbox.url }));
    const cwd = path.join(home, 'shop');
    writeFile(cwd, 'package.json', '{ "name": "shop", "dependencies": { "gateway": "^1" }, }');
    const r = await gw(['rate', 'BTC', 'USDT', '--json'], { cwd, env: { HOME: home } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it.each([
    [
      'package.json with a gateway field',
      'package.json',
      `{\n  "name": "shop",\n  "gateway": { "merchantKey": "${SECRET}", }\n}\n`,
      /is malformed: invalid JSON, .* \(line 3, column \d+\)$/,
    ],
    [
      '.gatewayrc.json',
      '.gatewayrc.json',
      `{"merchantKey": "${SECRET}" "timeout": 5}`,
      /is malformed: invalid JSON, comma expected after a value \(line 1, column \d+\)$/,
    ],
    ['.gatewayrc.yaml', '.gatewayrc.yaml', `merchantKey: ${SECRET}\n  timeout: 5\n`, /is malformed: invalid YAML, .* \(line 2, column \d+\)$/],
    ['.gatewayrc (YAML with a tag)', '.gatewayrc', `merchantKey: !<${SECRET}> x\n`, /is malformed: invalid YAML, syntax error \(line 1, column \d+\)$/],
  ])('a malformed %s holding the key: exit 78 naming the file and the position, and the key is nowhere', async (_name, name, text, pattern) => {
    const dir = tempDir();
    const file = writeFile(dir, name, text);
    const r = await gw(['rate', 'BTC', 'USDT'], { cwd: dir });
    expect(r.exitCode).toBe(78);
    const line = r.stderr.trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    expect(line.startsWith(`gw: config file ${file} `)).toBe(true);
    expect(line).toMatch(pattern);
    expectNoSecret(r);
  });
});
