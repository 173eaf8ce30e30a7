// Finding and reading config files (src/config/load.ts) in real temporary directories: formats,
// the search (nearest project file, user file always, where the walk stops), trust (files in
// directories others can write to are skipped, never executed), refusals (FIFOs, directories,
// oversized files: exit 78 before opening), messages that never quote the file, and abandoning
// the load with an AbortSignal.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, GwError } from '../../src/errors.js';
import { loadConfigFiles, type LoadOptions, type LoadResult } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';

const SECRET = 'sk_live_SECRET0123456789abcdef';
const POSIX = process.platform !== 'win32';

let root: string;
let count = 0;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'gw-load-unit-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Entry = string | { content?: string; mode?: number; fifo?: true; dir?: true; link?: string };

/** A fresh directory holding `files` (paths relative to it; directories are made 0755, files 0600). */
async function tree(files: Record<string, Entry> = {}): Promise<string> {
  const base = path.join(root, `t${++count}`);
  await mkdir(base, { recursive: true, mode: 0o755 });
  await chmod(base, 0o755);
  for (const [name, entry] of Object.entries(files)) {
    const file = path.join(base, name);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    const e = typeof entry === 'string' ? { content: entry } : entry;
    if (e.dir) await mkdir(file, { recursive: true, mode: 0o755 });
    else if (e.fifo) execFileSync('mkfifo', [file]);
    else if (e.link !== undefined) await symlink(e.link, file);
    else await writeFile(file, e.content ?? '');
    if (e.link === undefined) await chmod(file, e.mode ?? (e.dir ? 0o755 : 0o600));
  }
  return base;
}

/** Options with `home` as HOME and an XDG_CONFIG_HOME that does not exist unless given. */
function options(cwd: string, home: string, extra: Partial<LoadOptions> & { xdg?: string; env?: NodeJS.ProcessEnv } = {}): LoadOptions {
  const { xdg, env, ...rest } = extra;
  return { cwd, home, env: { XDG_CONFIG_HOME: xdg ?? path.join(root, 'no-xdg'), ...env }, ...rest };
}

async function failure(run: () => Promise<unknown>): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as GwError).exitCode).toBe(78);
    return error as ConfigError;
  }
  throw new Error('did not throw');
}

function expectNoSecret(text: string): void {
  for (let i = 0; i + 8 <= SECRET.length; i++) expect(text).not.toContain(SECRET.slice(i, i + 8));
}

const files = (r: LoadResult): Array<[string, string]> => r.layers.map((l) => [l.level, l.file]);

describe('formats', () => {
  const SETTINGS = { baseUrl: 'https://gateway.example.com', merchantKey: 'm-key', timeout: 5, profiles: { local: { baseUrl: 'http://127.0.0.1:8080' } } };
  const YAML = 'baseUrl: "https://gateway.example.com"\nmerchantKey: m-key\ntimeout: 5\nprofiles:\n  local:\n    baseUrl: "http://127.0.0.1:8080"\n';

  it.each([
    ['.gatewayrc holding JSON', '.gatewayrc', JSON.stringify(SETTINGS, null, 2)],
    ['.gatewayrc holding YAML', '.gatewayrc', YAML],
    ['.gatewayrc.json', '.gatewayrc.json', JSON.stringify(SETTINGS)],
    ['.gatewayrc.json with a byte order mark', '.gatewayrc.json', `\ufeff${JSON.stringify(SETTINGS)}`],
    ['.gatewayrc.yaml', '.gatewayrc.yaml', YAML],
    ['.gatewayrc.yml', '.gatewayrc.yml', YAML],
    ['.gatewayrc.js (CommonJS)', '.gatewayrc.js', `module.exports = ${JSON.stringify(SETTINGS)};\n`],
    ['.gatewayrc.cjs', '.gatewayrc.cjs', `module.exports = ${JSON.stringify(SETTINGS)};\n`],
    ['gateway.config.cjs exporting a promise', 'gateway.config.cjs', `module.exports = Promise.resolve(${JSON.stringify(SETTINGS)});\n`],
    ['the gateway field of package.json', 'package.json', JSON.stringify({ name: 'shop', version: '1.0.0', gateway: SETTINGS })],
  ])('reads %s', async (_name, name, text) => {
    const dir = await tree({ [name]: text });
    const result = await loadConfigFiles(options(dir, dir));
    expect(result.layers).toEqual([{ file: path.join(dir, name), level: 'project', content: SETTINGS, mode: 0o600 }]);
    expect(result.looked).toEqual([path.join(dir, name)]);
    expect(result.skipped).toEqual([]);
  });

  it('a JavaScript export is copied into plain data (functions dropped)', async () => {
    const dir = await tree({ '.gatewayrc.cjs': 'module.exports = { timeout: 3, helper() { return 1; }, profiles: { a: { timeout: 4 } } };\n' });
    expect((await loadConfigFiles(options(dir, dir))).layers[0]?.content).toEqual({ timeout: 3, profiles: { a: { timeout: 4 } } });
  });
});

describe('package.json', () => {
  it('without a gateway field it is not a source: the next file is read', async () => {
    const dir = await tree({ 'package.json': '{"name":"shop"}', '.gatewayrc': '{"merchantKey":"x"}' });
    const result = await loadConfigFiles(options(dir, dir));
    expect(files(result)).toEqual([['project', path.join(dir, '.gatewayrc')]]);
    expect(result.looked).toEqual([path.join(dir, 'package.json'), path.join(dir, '.gatewayrc')]);
  });

  it.each([
    ['malformed', '{"name": "shop",, "version": }'],
    ['malformed, with gateway as a dependency', '{"dependencies": {"gateway": "^1"},}'],
    ['not JSON at all', `<<<${SECRET}>>>`],
  ])('%s and without the field: not a source, no error', async (_name, text) => {
    const dir = await tree({ 'package.json': text });
    const result = await loadConfigFiles(options(dir, dir));
    expect(result.layers).toEqual([]);
    expect(result.looked).toEqual([path.join(dir, 'package.json')]);
  });

  it('malformed with the field: exit 78 naming the file and the line, never the key', async () => {
    const dir = await tree({ 'package.json': `{\n  "name": "shop",\n  "gateway": { "merchantKey": "${SECRET}", }\n}\n` });
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message).toMatch(
      new RegExp(`^config file ${path.join(dir, 'package.json').replace(/[.]/g, '\\.')} is malformed: invalid JSON, .+ \\(line 3, column \\d+\\)$`),
    );
    expectNoSecret(error.message);
  });

  it('comes before .gatewayrc in the same directory', async () => {
    const dir = await tree({ 'package.json': '{"gateway":{"merchantKey":"pkg"}}', '.gatewayrc': '{"merchantKey":"rc"}' });
    expect((await loadConfigFiles(options(dir, dir))).layers[0]?.content).toEqual({ merchantKey: 'pkg' });
  });

  it('a large package.json (200 KiB) is fine; over 1 MiB is exit 78', async () => {
    const big = JSON.stringify({ name: 'shop', description: 'x'.repeat(200 * 1024) });
    const ok = await tree({ 'package.json': big });
    expect((await loadConfigFiles(options(ok, ok))).layers).toEqual([]);
    const huge = await tree({ 'package.json': JSON.stringify({ name: 'shop', description: 'x'.repeat(1024 * 1024) }) });
    const error = await failure(() => loadConfigFiles(options(huge, huge)));
    expect(error.message).toMatch(/package\.json is larger than 1024 KiB/);
  });
});

describe('the search', () => {
  it('searches upwards from the working directory', async () => {
    const dir = await tree({ '.gatewayrc.yaml': 'merchantKey: up\n', 'a/b/c/.keep': '' });
    const result = await loadConfigFiles(options(path.join(dir, 'a', 'b', 'c'), dir));
    expect(files(result)).toEqual([['project', path.join(dir, '.gatewayrc.yaml')]]);
  });

  it('reads only the nearest project file (farther ones do not layer)', async () => {
    const dir = await tree({ '.gatewayrc': 'merchantKey: outer\npayoutKey: outer\n', 'inner/.gatewayrc.json': '{"merchantKey":"inner"}' });
    const result = await loadConfigFiles(options(path.join(dir, 'inner'), dir));
    expect(files(result)).toEqual([['project', path.join(dir, 'inner', '.gatewayrc.json')]]);
    expect(result.looked).toEqual([path.join(dir, 'inner', '.gatewayrc.json')]);
  });

  it('an empty file is not a source: the search goes on', async () => {
    const dir = await tree({ '.gatewayrc.json': '{"merchantKey":"outer"}', 'inner/.gatewayrc': '\n', 'inner/.gatewayrc.cjs': 'module.exports = undefined;\n' });
    const result = await loadConfigFiles(options(path.join(dir, 'inner'), dir));
    expect(files(result)).toEqual([['project', path.join(dir, '.gatewayrc.json')]]);
    expect(result.looked).toEqual([path.join(dir, 'inner', '.gatewayrc'), path.join(dir, 'inner', '.gatewayrc.cjs'), path.join(dir, '.gatewayrc.json')]);
  });

  it('the user file is always read, below the project file', async () => {
    const home = await tree({
      '.config/gateway/config.yaml': 'baseUrl: https://gw.example\nmerchantKey: user-key\n',
      'shop/.gatewayrc': 'timeout: 5\n',
    });
    const result = await loadConfigFiles(options(path.join(home, 'shop'), home, { xdg: path.join(home, '.config') }));
    expect(files(result)).toEqual([
      ['user', path.join(home, '.config', 'gateway', 'config.yaml')],
      ['project', path.join(home, 'shop', '.gatewayrc')],
    ]);
    const config = resolveConfig({ flags: {}, env: {}, ...result });
    expect(config.merchantKey?.value).toBe('user-key');
    expect(config.timeoutMs.value).toBe(5000);
  });

  it('the user file: the first of config, config.json, config.yaml… that is usable', async () => {
    const xdg = await tree({ 'gateway/config': '', 'gateway/config.json': '{"timeout": 1}', 'gateway/config.yaml': 'timeout: 2\n' });
    const cwd = await tree();
    const result = await loadConfigFiles(options(cwd, cwd, { xdg }));
    expect(files(result)).toEqual([['user', path.join(xdg, 'gateway', 'config.json')]]);
  });

  it('without XDG_CONFIG_HOME the user directory is ~/.config/gateway; a relative XDG_CONFIG_HOME is ignored', async () => {
    const home = await tree({ '.config/gateway/config.json': '{"timeout": 1}' });
    const cwd = await tree();
    expect(files(await loadConfigFiles({ cwd, home, env: {} }))).toEqual([['user', path.join(home, '.config', 'gateway', 'config.json')]]);
    expect(files(await loadConfigFiles({ cwd, home, env: { XDG_CONFIG_HOME: 'relative/xdg' } }))).toEqual([
      ['user', path.join(home, '.config', 'gateway', 'config.json')],
    ]);
  });

  it('inside HOME the walk goes up to HOME (included), past project roots', async () => {
    const home = await tree({ '.gatewayrc': 'timeout: 1\n', 'work/shop/.git/HEAD': 'ref', 'work/shop/src/.keep': '' });
    const result = await loadConfigFiles(options(path.join(home, 'work', 'shop', 'src'), home));
    expect(files(result)).toEqual([['project', path.join(home, '.gatewayrc')]]);
  });

  it('inside HOME the walk stops at HOME: a file above it is not read', async () => {
    const base = await tree({ '.gatewayrc': 'timeout: 1\n', 'home/shop/.keep': '' });
    const result = await loadConfigFiles(options(path.join(base, 'home', 'shop'), path.join(base, 'home')));
    expect(result.layers).toEqual([]);
    expect(result.looked).toEqual([]);
  });

  it.each([
    ['.git directory', { 'outside/proj/.git/HEAD': 'ref' }],
    ['.git file (a worktree)', { 'outside/proj/.git': 'gitdir: /elsewhere' }],
    ['package.json', { 'outside/proj/package.json': '{"name":"proj"}' }],
  ])('outside HOME the walk stops at the project root (%s): a file above it is not read', async (_name, marker) => {
    const base = await tree({ 'outside/.gatewayrc': 'timeout: 1\n', 'outside/proj/sub/.keep': '', 'home/.keep': '', ...marker });
    const result = await loadConfigFiles(options(path.join(base, 'outside', 'proj', 'sub'), path.join(base, 'home')));
    expect(result.layers).toEqual([]);
  });

  it('outside HOME, the project root itself is searched', async () => {
    const base = await tree({ 'outside/proj/.git/HEAD': 'ref', 'outside/proj/.gatewayrc': 'timeout: 2\n', 'outside/proj/sub/.keep': '', 'home/.keep': '' });
    const result = await loadConfigFiles(options(path.join(base, 'outside', 'proj', 'sub'), path.join(base, 'home')));
    expect(files(result)).toEqual([['project', path.join(base, 'outside', 'proj', '.gatewayrc')]]);
  });

  it('outside HOME without a project root the walk goes on upwards', async () => {
    const base = await tree({ 'outside/.gatewayrc': 'timeout: 1\n', 'outside/a/b/.keep': '', 'home/.keep': '' });
    const result = await loadConfigFiles(options(path.join(base, 'outside', 'a', 'b'), path.join(base, 'home')));
    expect(files(result)).toEqual([['project', path.join(base, 'outside', '.gatewayrc')]]);
  });

  it('a symbolic link is followed; the layer names the link', async () => {
    const dir = await tree({ 'real/gw.json': '{"timeout": 3}', 'proj/.gatewayrc.json': { link: '../real/gw.json' } });
    const result = await loadConfigFiles(options(path.join(dir, 'proj'), dir));
    expect(result.layers).toEqual([{ file: path.join(dir, 'proj', '.gatewayrc.json'), level: 'project', content: { timeout: 3 }, mode: 0o600 }]);
  });

  it('a broken symbolic link is as if absent', async () => {
    const dir = await tree({ '.gatewayrc.json': { link: 'missing.json' } });
    expect(await loadConfigFiles(options(dir, dir))).toEqual({ layers: [], looked: [], skipped: [] });
  });
});

describe.runIf(POSIX)('trust', () => {
  /** base (HOME, trusted) / shared (mode) / sub (cwd): shared holds a .cjs config that leaves a marker when run. */
  async function planted(mode: number): Promise<{ base: string; shared: string; cwd: string; marker: string; planted: string }> {
    const base = await tree({ '.gatewayrc.json': '{"merchantKey":"outer"}', 'shared/sub/.keep': '' });
    const shared = path.join(base, 'shared');
    const marker = path.join(base, 'MARKER');
    const file = path.join(shared, '.gatewayrc.cjs');
    await writeFile(file, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { baseUrl: 'https://evil.example' };\n`);
    await chmod(file, 0o600);
    await chmod(shared, mode);
    return { base, shared, cwd: path.join(shared, 'sub'), marker, planted: file };
  }

  it.each([
    ['writable by others (0777)', 0o777],
    ['writable by group (0775)', 0o775],
    ['sticky and writable by all (1777, like /tmp)', 0o1777],
  ])('a JavaScript config in a directory %s is skipped, never run, and the search goes on', async (_name, mode) => {
    const t = await planted(mode);
    const result = await loadConfigFiles(options(t.cwd, t.base));
    expect(existsSync(t.marker)).toBe(false);
    expect(result.skipped).toEqual([{ file: t.planted, level: 'project', reason: `its directory ${t.shared} is writable by group or others` }]);
    expect(files(result)).toEqual([['project', path.join(t.base, '.gatewayrc.json')]]);
    expect(result.looked).toEqual([t.planted, path.join(t.base, '.gatewayrc.json')]);
  });

  it('a file writable by group is skipped', async () => {
    const dir = await tree({ '.gatewayrc.json': { content: '{"baseUrl":"https://evil.example"}', mode: 0o664 } });
    const result = await loadConfigFiles(options(dir, dir));
    expect(result.layers).toEqual([]);
    expect(result.skipped).toEqual([{ file: path.join(dir, '.gatewayrc.json'), level: 'project', reason: 'it is writable by group or others' }]);
  });

  it('the user file obeys the same rules', async () => {
    const xdg = await tree({ 'gateway/config.json': '{"timeout": 1}' });
    await chmod(path.join(xdg, 'gateway'), 0o777);
    const cwd = await tree();
    const result = await loadConfigFiles(options(cwd, cwd, { xdg }));
    expect(result.layers).toEqual([]);
    expect(result.skipped).toEqual([
      { file: path.join(xdg, 'gateway', 'config.json'), level: 'user', reason: `its directory ${path.join(xdg, 'gateway')} is writable by group or others` },
    ]);
  });

  it('a symbolic link into a directory others can write to is skipped', async () => {
    const dir = await tree({ 'shared/gw.json': '{"timeout": 3}', 'proj/.gatewayrc.json': { link: '../shared/gw.json' } });
    await chmod(path.join(dir, 'shared'), 0o777);
    const result = await loadConfigFiles(options(path.join(dir, 'proj'), dir));
    expect(result.layers).toEqual([]);
    expect(result.skipped[0]?.reason).toBe(`its directory ${path.join(dir, 'shared')} is writable by group or others`);
  });

  it.each([
    ['the directory listed in GATEWAY_TRUSTED_DIRS', (shared: string) => `/nowhere:${shared}`],
    ['GATEWAY_TRUSTED_DIRS=*', () => '*'],
  ])('%s: the file is read (the user said so)', async (_name, value) => {
    const t = await planted(0o777);
    const result = await loadConfigFiles(options(t.cwd, t.base, { env: { GATEWAY_TRUSTED_DIRS: value(t.shared) } }));
    expect(existsSync(t.marker)).toBe(true);
    expect(files(result)).toEqual([['project', t.planted]]);
    expect(result.skipped).toEqual([]);
  });

  it('a file named with --config is read wherever it is (the user said so)', async () => {
    const t = await planted(0o777);
    const result = await loadConfigFiles(options(t.cwd, t.base, { explicitFile: '../.gatewayrc.cjs' }));
    expect(existsSync(t.marker)).toBe(true);
    expect(result.layers).toEqual([{ file: t.planted, level: 'explicit', content: { baseUrl: 'https://evil.example' }, mode: 0o600 }]);
  });
});

describe.runIf(POSIX)('refused before opening: exit 78', () => {
  it('a FIFO found by search, promptly', async () => {
    const dir = await tree({ '.gatewayrc': { fifo: true } });
    const started = Date.now();
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message).toBe(`config file ${path.join(dir, '.gatewayrc')} is not a regular file (it is a FIFO)`);
    expect(Date.now() - started).toBeLessThan(2000);
  }, 5000);

  it('a FIFO named with --config, promptly', async () => {
    const dir = await tree({ 'gw.yaml': { fifo: true } });
    const error = await failure(() => loadConfigFiles(options(dir, dir, { explicitFile: 'gw.yaml' })));
    expect(error.message).toBe(`config file ${path.join(dir, 'gw.yaml')} is not a regular file (it is a FIFO)`);
  }, 5000);

  it('a symbolic link to a FIFO', async () => {
    const dir = await tree({ pipe: { fifo: true }, '.gatewayrc.json': { link: 'pipe' } });
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message).toContain('is not a regular file (it is a FIFO)');
  }, 5000);

  it('a character device named with --config', async () => {
    const error = await failure(() => loadConfigFiles(options(root, root, { explicitFile: '/dev/null' })));
    expect(error.message).toBe('config file /dev/null is not a regular file (it is a character device)');
  });

  it('a directory named .gatewayrc', async () => {
    const dir = await tree({ '.gatewayrc': { dir: true } });
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message).toBe(`config file ${path.join(dir, '.gatewayrc')} is not a regular file (it is a directory)`);
  });

  it('a config file over 64 KiB (exactly 64 KiB is fine)', async () => {
    const body = (size: number): string => `{"timeout": 1${' '.repeat(size - 14)}}`;
    expect(body(65536).length).toBe(65536);
    const ok = await tree({ '.gatewayrc.json': body(65536) });
    expect((await loadConfigFiles(options(ok, ok))).layers).toHaveLength(1);
    const big = await tree({ '.gatewayrc.json': body(65537) });
    const error = await failure(() => loadConfigFiles(options(big, big)));
    expect(error.message).toBe(`config file ${path.join(big, '.gatewayrc.json')} is larger than 64 KiB (65537 bytes)`);
  });

  it('an oversized JavaScript config is not run', async () => {
    const dir = await tree({
      '.gatewayrc.cjs': `require('node:fs').writeFileSync(${JSON.stringify(path.join(root, 'BIG-RAN'))}, 'x');\n//${'x'.repeat(70_000)}\n`,
    });
    await failure(() => loadConfigFiles(options(dir, dir)));
    expect(existsSync(path.join(root, 'BIG-RAN'))).toBe(false);
  });
});

describe('--config', () => {
  it('reads that one file, relative to the working directory, and nothing else', async () => {
    const home = await tree({
      '.config/gateway/config.json': '{"payoutKey":"user"}',
      'conf/my-gateway.json': '{"merchantKey":"explicit"}',
      '.gatewayrc': '{"merchantKey":"searched"}',
    });
    const result = await loadConfigFiles(options(home, home, { explicitFile: 'conf/my-gateway.json', xdg: path.join(home, '.config') }));
    expect(result).toEqual({
      layers: [{ file: path.join(home, 'conf', 'my-gateway.json'), level: 'explicit', content: { merchantKey: 'explicit' }, mode: 0o600 }],
      looked: [path.join(home, 'conf', 'my-gateway.json')],
      skipped: [],
    });
  });

  it('an explicit YAML file, an explicit file of any extension (YAML), and an explicit empty file', async () => {
    const dir = await tree({ 'a.yaml': 'merchantKey: y\n', 'gw.conf': 'merchantKey: c\n', 'empty.json': '' });
    expect((await loadConfigFiles(options(dir, dir, { explicitFile: path.join(dir, 'a.yaml') }))).layers[0]?.content).toEqual({ merchantKey: 'y' });
    expect((await loadConfigFiles(options(dir, dir, { explicitFile: 'gw.conf' }))).layers[0]?.content).toEqual({ merchantKey: 'c' });
    expect((await loadConfigFiles(options(dir, dir, { explicitFile: 'empty.json' }))).layers[0]?.content).toEqual({});
  });

  it('a missing explicit file is exit 78', async () => {
    const dir = await tree();
    const error = await failure(() => loadConfigFiles(options(dir, dir, { explicitFile: 'missing.json' })));
    expect(error.message).toBe(`config file ${path.join(dir, 'missing.json')} cannot be read: ENOENT`);
  });
});

describe('malformed files: exit 78 with the position, never the content', () => {
  it.each([
    [
      '.gatewayrc.json',
      `{\n  "baseUrl": "https://x.example",\n  "merchantKey": "${SECRET}" "timeout": 5\n}\n`,
      /invalid JSON, comma expected after a value \(line 3, column \d+\)$/,
    ],
    ['.gatewayrc', `baseUrl: https://x.example\nmerchantKey: "${SECRET}\n`, /invalid YAML, .+ \(line 3, column \d+\)$/],
    ['.gatewayrc.yaml', `merchantKey: ${SECRET}\npayoutKey: y\n  timeout: 5\n`, /invalid YAML, bad indentation of a mapping entry \(line 3, column \d+\)$/],
    ['.gatewayrc.yml', `merchantKey: [${SECRET}\n`, /invalid YAML, .+ \(line 2, column \d+\)$/],
    ['.gatewayrc.cjs', `module.exports = {\n  merchantKey: ${SECRET},\n};\n`, /could not be loaded: JavaScript ReferenceError \(line 2, column 16\)$/],
    ['gateway.config.cjs', `const x = 1;\nthrow new Error(${JSON.stringify(SECRET)});\n`, /could not be loaded: JavaScript Error \(line 2, column 7\)$/],
    ['gateway.config.js', `throw ${JSON.stringify(SECRET)};\n`, /could not be loaded: JavaScript throw of a value that is not an Error$/],
  ])('%s', async (name, text, pattern) => {
    const dir = await tree({ [name]: text });
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message.startsWith(`config file ${path.join(dir, name)} `)).toBe(true);
    expect(error.message).toMatch(pattern);
    expect(error.message).not.toContain('\n');
    expectNoSecret(error.message);
  });

  it('a getter that throws the key, inside the loader', async () => {
    const dir = await tree({ '.gatewayrc.cjs': `module.exports = { get merchantKey() { throw new Error(${JSON.stringify(SECRET)}); } };\n` });
    const error = await failure(() => loadConfigFiles(options(dir, dir)));
    expect(error.message).toMatch(/could not be loaded: JavaScript Error \(line 1, column \d+\)$/);
    expectNoSecret(error.message);
  });
});

describe('abandoning the load', () => {
  it('an aborted signal rejects at once with its reason', async () => {
    const dir = await tree({ '.gatewayrc.json': '{}' });
    const reason = new Error('stop');
    await expect(loadConfigFiles(options(dir, dir, { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
  });

  it('a JavaScript config whose promise never settles: rejects promptly with the reason', async () => {
    const dir = await tree({ '.gatewayrc.cjs': 'module.exports = new Promise(() => {});\n' });
    const controller = new AbortController();
    const reason = new GwError(130, 'interrupted');
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(loadConfigFiles(options(dir, dir, { signal: controller.signal }))).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
  }, 5000);
});
