// The single-file executable (`npm run build:sea`, scripts/build-sea.mjs), built once into this
// test's temporary folder (it copies Node's ~100 MB binary: one test only) and run as a machine
// without Node would: PATH holds no node, nothing else in the environment, the working directory a
// fresh folder with nothing of the repository beside the executable.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ROOT, tempDir, writeFile } from '../support/gw.js';
import { json, type MisbehavingGateway, startMisbehavingGateway, TEST_MERCHANT_KEY } from '../support/misbehaving-gateway.js';

const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';

let work: string;
let gwFile: string;
let gateway: MisbehavingGateway;

beforeAll(async () => {
  work = tempDir('gw-sea-');
  // Alone in a folder of its own: it must need no file beside it.
  gwFile = path.join(work, 'bin', 'gw');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-sea.mjs'), `--out=${gwFile}`], { cwd: ROOT, stdio: 'pipe', timeout: 240_000 });
  expect(readdirSync(path.dirname(gwFile))).toEqual(['gw']);
  gateway = await startMisbehavingGateway([json({ result: 100, message: 'OK', rate: '97000.5' })]);
}, 300_000);

afterAll(async () => {
  await gateway?.close();
  if (work) removeDir(work);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The executable with PATH naming an empty folder and a home of its own; no other variable. */
function run(args: string[], cwd: string): Promise<Run> {
  const home = path.join(cwd, 'home');
  mkdirSync(path.join(cwd, 'empty-path'), { recursive: true });
  const env = { PATH: path.join(cwd, 'empty-path'), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TMPDIR: cwd };
  return new Promise((resolve) => {
    execFile(gwFile, args, { cwd, env, timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: unknown }).code as number | null) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!onLinuxX64)('gw as one executable (npm run build:sea)', () => {
  it('runs with no node on PATH and nothing beside it: --version, a sandbox payment, a request with a YAML and with a JavaScript config', async () => {
    const cwd = tempDir('gw-sea-run-');
    try {
      expect(() => execFileSync('node', ['-e', '0'], { env: { PATH: path.join(cwd, 'empty-path') }, stdio: 'ignore' })).toThrow();

      const version = await run(['--version'], cwd);
      expect(version).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`, stderr: '' });

      const paid = await run(['pay', '10', 'USDT', '--sandbox', '--json'], cwd);
      expect(paid.stderr).toBe('');
      expect(paid.code).toBe(0);
      const payment = JSON.parse(paid.stdout) as Record<string, unknown>;
      expect(payment).toMatchObject({ amount: '10', currency: 'USDT', sandbox: true });
      expect(payment.trackId).toEqual(expect.any(String));

      // The project config in YAML (the YAML reader is inside the executable).
      const project = path.join(cwd, 'shop');
      writeFile(project, '.gatewayrc.yaml', `baseUrl: ${gateway.url}\nmerchantKey: ${TEST_MERCHANT_KEY}\n`);
      const rate = await run(['rate', 'BTC', 'USDT', '--json'], project);
      expect(rate).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(rate.stdout)).toEqual({ from: 'BTC', to: 'USDT', rate: '97000.5' });

      // A JavaScript config is an ES module the executable imports from the disk.
      const other = path.join(cwd, 'till');
      writeFile(
        other,
        'gateway.config.mjs',
        `export default { baseUrl: ${JSON.stringify(gateway.url)}, merchantKey: ${JSON.stringify(TEST_MERCHANT_KEY)} };\n`,
      );
      const again = await run(['rate', 'BTC', 'USDT'], other);
      expect(again).toMatchObject({ code: 0, stderr: '' });
      expect(again.stdout).toContain('97000.5');

      expect(gateway.requests.map((request) => request.headers.host)).toEqual([new URL(gateway.url).host, new URL(gateway.url).host]);
    } finally {
      removeDir(cwd);
    }
  }, 120_000);
});
