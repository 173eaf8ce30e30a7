// A stdout closed by the shell (`gw … >&-`): Node reopens it as /dev/null before gw runs, so
// writes "succeed". gw pay, whose output is the only record of the payment it created, exits 74
// with one stderr line naming the payment; `>/dev/null` (discarding on purpose) stays exit 0.
// Only a real process shows this: the descriptor is closed by the shell that starts it.
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { GW_BIN, removeDir, tempDir } from '../support/gw.js';

const home = tempDir('gw-closed-stdout-');
afterAll(() => removeDir(home));

/** gw in bash with `redirect` applied to its stdout; the embedded sandbox, so no traffic leaves the process. */
async function gwWith(redirect: string, args: readonly string[]) {
  const r = await execa('bash', ['-c', `exec "$@" ${redirect}`, 'bash', process.execPath, GW_BIN, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TMPDIR: process.env.TMPDIR ?? '/tmp' },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stdin: 'ignore',
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe.runIf(process.platform === 'linux')('a closed stdout', () => {
  it('gw pay --json >&- → exit 74, one JSON line on stderr: the payment was created, its track id', async () => {
    const r = await gwWith('>&-', ['pay', '25', 'USDT', '--json', '--sandbox', '--order-id', 'closed-1']);
    expect(r.exitCode, r.stderr).toBe(74);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0] ?? '') as { error: { message: string; exitCode: number; trackId: string; payment: string } };
    expect(error).toMatchObject({ exitCode: 74, payment: 'created' });
    expect(error.trackId).toMatch(/\S/);
    expect(error.message).toBe(`payment ${error.trackId} was created, but the output could not be written to stdout (it is closed)`);
  });

  it('gw pay >&- (human) → exit 74, the failure line names the created payment', async () => {
    const r = await gwWith('>&-', ['pay', '25', 'USDT', '--sandbox', '--no-qr', '--order-id', 'closed-2']);
    expect(r.exitCode, r.stderr).toBe(74);
    const failure = r.stderr
      .trimEnd()
      .split('\n')
      .filter((line) => line.startsWith('gw: payment'));
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatch(/^gw: payment \S+ was created, but the output could not be written to stdout \(it is closed\)$/);
  });

  it('gw pay --json >/dev/null (discarded on purpose) → exit 0, nothing on stderr', async () => {
    const r = await gwWith('>/dev/null', ['pay', '25', 'USDT', '--json', '--sandbox', '--order-id', 'closed-3']);
    expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: '' });
  });

  it('a command without a side effect (gw rate --sandbox >&-) → exit 0: it cannot be told from an ignored stdout', async () => {
    const r = await gwWith('>&-', ['rate', 'BTC', 'USDT', '--sandbox']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/gw: |error/);
  });
});
