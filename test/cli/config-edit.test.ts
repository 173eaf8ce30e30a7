// gw config set / get / unset on the user's config file, in process on temporary homes: the file
// is created 0600 in a 0700 directory, its format (YAML with comments, JSON with its indentation)
// is kept, an existing file's permissions are narrowed and never widened, a symbolic link or a
// JavaScript config is refused and left alone, a file gw cannot parse is never rewritten, keys are
// asked for without echo or read from stdin and never printed, and nothing half-written remains.
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir, runGw, type CliOptions } from '../support/cli.js';
import { ScriptedPrompter } from '../support/prompter.js';

const KEY = 'mk_live_SECRET_0123456789wxyz';

function home(): { home: string; dir: string; file: string; run: (args: string[], options?: CliOptions) => ReturnType<typeof runGw> } {
  const home = emptyDir('gw-home-');
  const dir = path.join(home, '.config', 'gateway');
  return {
    home,
    dir,
    file: path.join(dir, 'config.yaml'),
    run: (args, options = {}) => runGw(args, { ...options, home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...options.env } }),
  };
}

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('gw config set', () => {
  it('creates $XDG_CONFIG_HOME/gateway/config.yaml with mode 0600 in a 0700 directory', async () => {
    const h = home();
    const r = await h.run(['config', 'set', 'baseUrl', 'https://gateway.example']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`✓ baseUrl = https://gateway.example in ${h.file} (created, mode 0600)`);
    expect(readFileSync(h.file, 'utf8')).toBe('baseUrl: "https://gateway.example"\n');
    expect(mode(h.file)).toBe(0o600);
    expect(mode(h.dir)).toBe(0o700);
    expect(readdirSync(h.dir)).toEqual(['config.yaml']); // no temporary file left
    const got = await h.run(['config', 'get', 'baseUrl']);
    expect(got.stdout).toBe('https://gateway.example/\n');
  });

  it('a key: asked without echo on a terminal, written, never printed; --profile writes under profiles', async () => {
    const h = home();
    const prompter = new ScriptedPrompter([{ ask: /merchantKey \(profile shop\)/, kind: 'secret', answer: KEY }]);
    const r = await h.run(['config', 'set', 'merchantKey', '--profile', 'shop'], { prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(prompter.done).toBe(true);
    expect(readFileSync(h.file, 'utf8')).toBe(`profiles:\n  shop:\n    merchantKey: "${KEY}"\n`);
    expect(r.stderr).toContain('merchantKey = ••••wxyz');
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const got = await h.run(['config', 'get', 'merchantKey', '--profile', 'shop', '--json']);
    expect(JSON.parse(got.stdout)).toEqual({ key: 'merchantKey', value: '••••wxyz', source: `${h.file} (profile shop)` });
  });

  it('a key piped to stdin (no terminal): the first line, trimmed', async () => {
    const h = home();
    const r = await h.run(['config', 'set', 'payout-key'], { stdin: `  ${KEY}  \nignored\n` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(h.file, 'utf8')).toBe(`payoutKey: "${KEY}"\n`);
  });

  it('a key on the command line works, with a warning about ps and shell history', async () => {
    const h = home();
    const r = await h.run(['config', 'set', 'merchantKey', KEY]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/visible to other users \(ps\) and stays in your shell history/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('keeps YAML comments and order, and JSON as JSON with its indentation', async () => {
    const h = home();
    mkdirSync(h.dir, { recursive: true, mode: 0o700 });
    writeFileSync(h.file, '# my gateway\nbaseUrl: https://old.example # production\nprofiles:\n  shop:\n    timeout: 20\n', { mode: 0o600 });
    expect((await h.run(['config', 'set', 'baseUrl', 'https://new.example'])).exitCode).toBe(0);
    expect((await h.run(['config', 'set', 'timeout', '30', '--profile', 'shop'])).exitCode).toBe(0);
    expect(readFileSync(h.file, 'utf8')).toBe('# my gateway\nbaseUrl: "https://new.example" # production\nprofiles:\n  shop:\n    timeout: 30\n');

    const j = home();
    mkdirSync(j.dir, { recursive: true, mode: 0o700 });
    const json = path.join(j.dir, 'config.json');
    writeFileSync(json, '{\n    "timeout": 20\n}\n', { mode: 0o600 });
    const r = await j.run(['config', 'set', 'api', 'V1', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ file: json, key: 'api', profile: null, value: 'v1', mode: '0600' });
    expect(readFileSync(json, 'utf8')).toBe('{\n    "timeout": 20,\n    "api": "v1"\n}\n');
  });

  it('narrows an existing file readable by others to 0600 (never widens)', async () => {
    const h = home();
    mkdirSync(h.dir, { recursive: true, mode: 0o700 });
    writeFileSync(h.file, 'timeout: 5\n');
    chmodSync(h.file, 0o644);
    const r = await h.run(['config', 'set', 'merchantKey', '--profile', 'p'], { stdin: KEY });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(mode(h.file)).toBe(0o600);
    expect(r.stderr).toContain('permissions narrowed from 0644 to 0600');
    chmodSync(h.file, 0o400);
    expect((await h.run(['config', 'set', 'timeout', '7'])).exitCode).toBe(0);
    expect(mode(h.file)).toBe(0o400);
  });

  it('refuses a symbolic link in the file’s place, and leaves both the link and its target alone', async () => {
    const h = home();
    mkdirSync(h.dir, { recursive: true, mode: 0o700 });
    const target = path.join(h.home, 'elsewhere.yaml');
    writeFileSync(target, 'timeout: 5\n', { mode: 0o644 });
    symlinkSync(target, h.file);
    const r = await h.run(['config', 'set', 'merchantKey', KEY]);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toContain(`config file ${h.file} is a symbolic link: gw does not write through links`);
    expect(lstatSync(h.file).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('timeout: 5\n');
    expect(mode(target)).toBe(0o644);
    expect(readdirSync(h.dir)).toEqual(['config.yaml']);
  });

  it('never rewrites a file it cannot parse, nor a JavaScript config', async () => {
    const h = home();
    mkdirSync(h.dir, { recursive: true, mode: 0o700 });
    writeFileSync(h.file, 'baseUrl: [unclosed\n', { mode: 0o600 });
    const r = await h.run(['config', 'set', 'timeout', '9']);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/is not valid YAML.*gw will not rewrite it/);
    expect(readFileSync(h.file, 'utf8')).toBe('baseUrl: [unclosed\n');

    const js = home();
    mkdirSync(js.dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(js.dir, 'config.js'), 'module.exports = {};\n', { mode: 0o600 });
    const r2 = await js.run(['config', 'set', 'timeout', '9']);
    expect(r2.exitCode).toBe(78);
    expect(r2.stderr).toMatch(/config\.js is JavaScript: gw does not edit code/);
  });

  it('checks the value as gw will read it, before writing: nothing is written for a bad one', async () => {
    const h = home();
    const http = await h.run(['config', 'set', 'baseUrl', 'http://gateway.example']);
    expect(http.exitCode).toBe(78);
    expect(http.stderr).toMatch(/plain http/);
    expect((await h.run(['config', 'set', 'timeout', 'soon'])).exitCode).toBe(78);
    expect((await h.run(['config', 'set', 'color', 'red'])).exitCode).toBe(64);
    expect(readdirSync(path.join(h.home))).not.toContain('.config');
  });

  it('says so when the environment still decides the value', async () => {
    const h = home();
    const r = await h.run(['config', 'set', 'baseUrl', 'https://file.example'], { env: { GATEWAY_BASE_URL: 'https://env.example' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('gw: baseUrl is still taken from env GATEWAY_BASE_URL, which comes before your user file');
  });
});

describe('gw config get / unset', () => {
  it('get: exit 78 for a setting that is not set; defaults are values', async () => {
    const h = home();
    const r = await h.run(['config', 'get', 'baseUrl']);
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/baseUrl is not set\nhint: set it with: gw config set baseUrl <value>/);
    expect((await h.run(['config', 'get', 'timeout'])).stdout).toBe('15\n');
  });

  it('get: a profile the files do not have is exit 78, as for every other command', async () => {
    const h = home();
    await h.run(['config', 'set', 'baseUrl', 'https://file.example']);
    const r = await h.run(['config', 'get', 'baseUrl', '--profile', 'nope']);
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^gw: .*profile "nope"/);
  });

  it('unset removes the value, then the empty profile and profiles; a second unset has nothing to remove', async () => {
    const h = home();
    await h.run(['config', 'set', 'timeout', '20']);
    await h.run(['config', 'set', 'merchantKey', '--profile', 'shop'], { stdin: KEY });
    const r = await h.run(['config', 'unset', 'merchantKey', '--profile', 'shop']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`✓ removed merchantKey from ${h.file} (profile shop)`);
    expect(readFileSync(h.file, 'utf8')).toBe('timeout: 20\n');
    const again = await h.run(['config', 'unset', 'merchantKey', '--profile', 'shop']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('merchantKey was not set');
    expect(mode(h.file)).toBe(0o600);
  });
});
