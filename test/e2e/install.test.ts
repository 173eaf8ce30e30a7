// From clone to `gw` on PATH, as the README says for a machine without the repository: `npm pack`
// (whose `prepare` script builds dist/), then `npm install -g <tarball>` into an EMPTY prefix,
// offline: gw's runtime libraries are bundled into dist/gw.cjs, so the package has no dependencies
// to fetch and needs none of the devDependencies. The packing runs in a copy of the sources, so
// this test never rebuilds the dist/ the other e2e tests are running. The copy includes that
// dist/ (times kept): `prepare` is `build.mjs --if-changed`, which finds it built from these very
// sources and packs it as it is, as it does after `npm ci` in a clone.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ROOT, tempDir } from '../support/gw.js';

let work: string;
let tarball: string;
let prefix: string;

/**
 * npm with the machine's settings but nothing that phones home. Without NODE_EXTRA_CA_CERTS: no
 * step reaches a registry, and Node reads that file at every start (npm starts several).
 */
const { NODE_EXTRA_CA_CERTS: _machineCaFile, ...machineEnv } = process.env;
const npmEnv = (): NodeJS.ProcessEnv => ({
  ...machineEnv,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_loglevel: 'error',
});

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', timeout: 90_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  work = tempDir('gw-install-');
  const source = path.join(work, 'source');
  mkdirSync(source);
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'docs', '.gatewayrc.example', 'bin', 'scripts', 'src']) {
    cpSync(path.join(ROOT, entry), path.join(source, entry), { recursive: true });
  }
  cpSync(path.join(ROOT, 'dist'), path.join(source, 'dist'), { recursive: true, preserveTimestamps: true });
  // The build needs the devDependencies (esbuild and the libraries it bundles): the clone's.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
  const out = path.join(work, 'out');
  mkdirSync(out);
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', out], source)) as Array<{ filename: string }>;
  tarball = path.join(out, packed[0]!.filename);
  prefix = path.join(work, 'prefix');
  mkdirSync(prefix);
  npm(['install', '--global', '--prefix', prefix, '--offline', tarball], work);
}, 120_000);

afterAll(() => {
  removeDir(work);
});

describe('npm pack + npm install -g <tarball>', () => {
  it('the tarball holds the launcher, the built bundle with its parts, README and package.json; no sources, tests or code caches', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining(['package/bin/gw.cjs', 'package/dist/gw.cjs', 'package/README.md', 'package/docs/gateway.md', 'package/package.json']),
    );
    expect(files.filter((f) => /^package\/(src|test|scripts|node_modules)\//.test(f))).toEqual([]);
    // V8 code caches belong to one Node version: gw writes its own on first use, none is shipped.
    expect(files.filter((f) => f.endsWith('.cache'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['package/dist/vendor/cosmiconfig.cjs', 'package/dist/vendor/yaml.cjs', 'package/dist/vendor/prompts.cjs']));
    // Everything under dist/ is the bundle and its vendored parts: nothing left from an older build.
    expect(files.filter((f) => f.startsWith('package/dist/') && !/^package\/dist\/(gw\.cjs|vendor\/[a-z]+\.cjs)$/.test(f))).toEqual([]);
  });

  it('the package declares no runtime dependencies: nothing to download, no devDependencies needed', () => {
    const manifest = JSON.parse(readFileSync(path.join(prefix, 'lib', 'node_modules', 'gw', 'package.json'), 'utf8')) as { dependencies?: object; bin: object };
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ gw: 'bin/gw.cjs' });
    expect(existsSync(path.join(prefix, 'lib', 'node_modules', 'gw', 'node_modules'))).toBe(false);
    expect(readdirSync(path.join(prefix, 'bin'))).toEqual(['gw']);
  });

  it('gw is on PATH from the empty prefix: --version and a sandbox payment', () => {
    const home = tempDir('gw-install-home-');
    const env = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`, HOME: home };
    const run = (args: string[]): string => execFileSync('gw', args, { cwd: home, env, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run(['--version'])).toBe(`${version}\n`);
    const payment = JSON.parse(run(['pay', '25', 'USDT', '--sandbox', '--json'])) as Record<string, unknown>;
    expect(payment).toMatchObject({ payAmount: '25', payCurrency: 'USDT', sandbox: true });
    expect(String(payment.trackId)).toMatch(/^[1-9]\d{8}$/);
    // The first run of a command wrote its code cache into the installed package.
    const installed = readdirSync(path.join(prefix, 'lib', 'node_modules', 'gw', 'dist'));
    expect(installed.filter((f) => f.endsWith('.pay-sandbox.cache'))).toHaveLength(1);
    expect(run(['doctor', '--sandbox'])).toMatch(/All \d checks passed/);
  });
});
