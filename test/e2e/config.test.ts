import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { gw, tempDir, writeFile } from '../support/gw.js';
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

describe('JavaScript config files', () => {
  const SECRET = 'sk_live_E2E_SECRET_0123456789';
  const expectNoSecret = (r: { stdout: string; stderr: string }): void => {
    expect(r.stdout).not.toContain('E2E_SECRET');
    expect(r.stderr).not.toContain('E2E_SECRET');
  };

  it('a .gatewayrc.js planted in a directory others can write to is not run, and gw says it skipped it', async () => {
    const home = tempDir();
    const shared = tempDir('gw-shared-');
    mkdirSync(path.join(shared, '.git'));
    const marker = path.join(home, 'PLANTED-CONFIG-RAN');
    const planted = writeFile(
      shared,
      '.gatewayrc.js',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\nmodule.exports = { baseUrl: 'https://evil.example' };\n`,
    );
    chmodSync(shared, 0o777);
    const cwd = path.join(shared, 'sub');
    mkdirSync(cwd);
    writeFile(home, '.config/gateway/config.json', JSON.stringify({ baseUrl: sandbox.url }));
    const r = await gw(['config', '--json'], { cwd, env: { HOME: home } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const warning = (JSON.parse(lines[0] ?? '') as { warning: { message: string } }).warning.message;
    expect(warning).toContain(planted);
    expect(warning).toContain(`its directory ${shared} is writable by group or others`);
    expect((JSON.parse(r.stdout) as ConfigDoc).settings.baseUrl?.value).toBe(`${sandbox.url}/`);
  });

  it.each([
    [
      '.gatewayrc.js (a ReferenceError naming the key)',
      '.gatewayrc.js',
      `module.exports = {\n  merchantKey: ${SECRET},\n};\n`,
      /could not be loaded: JavaScript ReferenceError \(line 2, column 16\)$/,
    ],
    [
      '.gatewayrc.mjs (a syntax error at the key)',
      '.gatewayrc.mjs',
      `export default {\n  baseUrl: "https://x.example",\n  merchantKey: "x" ${SECRET}\n};\n`,
      /could not be loaded: JavaScript SyntaxError \(line 3, column 20\)$/,
    ],
    [
      'gateway.config.cjs (a syntax error at the key)',
      'gateway.config.cjs',
      `module.exports = {\n  merchantKey: "x" ${SECRET}\n};\n`,
      /could not be loaded: JavaScript SyntaxError \(line 2, column 20\)$/,
    ],
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

  it('a JavaScript config that never finishes: exit 75 at --timeout', async () => {
    const dir = tempDir();
    writeFile(dir, '.gatewayrc.mjs', 'export default new Promise(() => {});\n');
    const r = await gw(['rate', 'BTC', 'USDT', '--timeout', '0.5'], { cwd: dir, timeoutMs: 8000 });
    expect(r.exitCode).toBe(75);
    expect(r.stderr).toMatch(/^gw: reading the config files took longer than 0\.5 s\n/);
  }, 10_000);
});

describe('libraries outside the main bundle (dist/vendor)', () => {
  it('a YAML config is read and written through the built binary (cosmiconfig and yaml are vendored)', async () => {
    const home = tempDir();
    writeFile(home, '.config/gateway/config.yaml', `# the team's gateway\nbaseUrl: "${sandbox.url}"\ntimeout: 5\n`);
    const read = await gw(['config', '--json'], { cwd: home });
    expect(read.exitCode, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as ConfigDoc).settings.baseUrl?.value).toBe(`${sandbox.url}/`);
    const written = await gw(['config', 'set', 'timeout', '7'], { cwd: home });
    expect(written.exitCode, written.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(home, '.config/gateway/config.yaml'), 'utf8')).toBe(`# the team's gateway\nbaseUrl: "${sandbox.url}"\ntimeout: 7\n`);
  });
});
