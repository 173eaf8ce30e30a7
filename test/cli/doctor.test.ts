// gw doctor in process: a working set-up, then broken ones — a wrong key (named with where it came
// from), an unreachable host, TLS certificates that fail, a gateway that never answers within the
// one deadline, a clock that is off, a bad configuration — each with its line, its JSON and the
// exit code of the first failing check. Traffic only to 127.0.0.1.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { emptyDir, runGw } from '../support/cli.js';
import { hang, json, rawSocket, refusedPort, startMisbehavingGateway, type MisbehavingGateway } from '../support/misbehaving-gateway.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';
import { writeFile } from '../support/gw.js';

interface Doc {
  ok: boolean;
  exitCode: number;
  checks: Array<{ name: string; status: 'ok' | 'fail' | 'skip'; detail: string; hint?: string; exitCode?: number }>;
}

let sandbox: RunningSandbox;
let env: Record<string, string>;
let certs: TestCertificates;
const tls: Partial<Record<'selfSigned' | 'expired', MisbehavingGateway>> = {};

beforeAll(async () => {
  sandbox = await withSandbox();
  env = sandboxEnv(sandbox);
  certs = await makeCertificates(emptyDir('gw-doctor-certs-'));
  tls.selfSigned = await startMisbehavingGateway([json({ result: 100 })], { tls: certs.selfSigned });
  tls.expired = await startMisbehavingGateway([json({ result: 100 })], { tls: certs.expired });
});
afterAll(async () => {
  await sandbox.close();
  await Promise.all(Object.values(tls).map((s) => s?.close()));
});

const status = (doc: Doc): Record<string, string> => Object.fromEntries(doc.checks.map((c) => [c.name, c.status]));
const check = (doc: Doc, name: string) => doc.checks.find((c) => c.name === name)!;

async function doctorJson(extraEnv: Record<string, string | undefined>, args: string[] = [], options: Parameters<typeof runGw>[1] = {}) {
  const r = await runGw(['doctor', '--json', ...args], { ...options, env: extraEnv });
  return { r, doc: JSON.parse(r.stdout) as Doc };
}

/** The check lines of a healthy sandbox set-up, as far as their names. */
const HEALTHY_SANDBOX = ['✓ configuration', '✓ proxy', '✓ gateway reachable', '– TLS', '✓ merchant key', '✓ payout key', '– general key', '✓ clock'];
const checkHeads = (stdout: string): string[] =>
  stdout
    .trimEnd()
    .split('\n')
    .slice(0, 8)
    .map((l) => l.slice(0, 20).trimEnd());

describe('gw doctor', () => {
  it('a working set-up: one ✓ line per check, TLS not used for the loopback sandbox, exit 0', async () => {
    const r = await runGw(['doctor'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(checkHeads(r.stdout)).toEqual(HEALTHY_SANDBOX);
    expect(r.stdout).toContain('base URL from env GATEWAY_BASE_URL; merchant key from env GATEWAY_MERCHANT_KEY');
    expect(r.stdout).toMatch(/merchant key\s+accepted: \d+ currencies \(key from env GATEWAY_MERCHANT_KEY\)/);
    expect(r.stdout).toMatch(/All 6 checks passed\./);
    expect(r.stderr).toBe('');
    expect(r.stdout + r.stderr).not.toContain(sandbox.merchantKey);
  });

  it('--sandbox: the same checks against the embedded sandbox, its clock included (its answers carry a Date)', async () => {
    const r = await runGw(['doctor', '--sandbox'], { env: {} });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(checkHeads(r.stdout)).toEqual(HEALTHY_SANDBOX);
  });

  it('the versioned API (--api v1): balance is checked with the general key, the payout key with the payout history (read-only)', async () => {
    const { r, doc } = await doctorJson({ ...env, GATEWAY_GENERAL_KEY: sandbox.generalKey }, ['--api', 'v1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(status(doc)).toEqual({ config: 'ok', proxy: 'ok', gateway: 'ok', tls: 'skip', merchantKey: 'ok', payoutKey: 'ok', generalKey: 'ok', clock: 'ok' });
    expect(check(doc, 'payoutKey').detail).toBe('accepted: the payout history answers (read-only, nothing sent) (key from env GATEWAY_PAYOUT_KEY)');
    expect(check(doc, 'config').detail).toContain('versioned API (v1) from --api');
    expect(check(doc, 'generalKey').detail).toMatch(/^accepted: \d+ balances \(key from env GATEWAY_GENERAL_KEY\)$/);

    const wrong = await doctorJson({ ...env, GATEWAY_API: 'v1', GATEWAY_GENERAL_KEY: 'wrong-general-key-9876' });
    expect(wrong.r.exitCode).toBe(77);
    expect(check(wrong.doc, 'generalKey')).toMatchObject({ status: 'fail', exitCode: 77 });
    expect(wrong.r.stdout + wrong.r.stderr).not.toContain('wrong-general-key-9876');

    const unset = await doctorJson({ ...env, GATEWAY_API: 'v1' });
    expect(unset.r.exitCode).toBe(0);
    expect(check(unset.doc, 'generalKey')).toMatchObject({ status: 'skip', detail: 'not set (only gw balance needs it)' });
  });

  it('a wrong merchant key: ✗ naming the key’s source (env), exit 77; the rest is still checked', async () => {
    const { r, doc } = await doctorJson({ ...env, GATEWAY_MERCHANT_KEY: 'wrong-merchant-key-1234' });
    expect(r.exitCode).toBe(77);
    expect(status(doc)).toEqual({
      config: 'ok',
      proxy: 'ok',
      gateway: 'ok',
      tls: 'skip',
      merchantKey: 'fail',
      payoutKey: 'ok',
      generalKey: 'skip',
      clock: 'ok',
    });
    expect(check(doc, 'merchantKey').detail).toMatch(/^refused: .*\(key from env GATEWAY_MERCHANT_KEY\)$/);
    expect(check(doc, 'merchantKey').hint).toBe('check the merchant key (from env GATEWAY_MERCHANT_KEY)');
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { exitCode: 77, message: '1 of 8 checks failed: merchant key' } });
    expect(r.stdout + r.stderr).not.toContain('wrong-merchant-key-1234');
  });

  it('a wrong payout key from a profile: names the file and the profile', async () => {
    const home = emptyDir('gw-doctor-home-');
    const file = writeFile(
      home,
      '.config/gateway/config.yaml',
      `baseUrl: ${sandbox.url}\nmerchantKey: ${sandbox.merchantKey}\nprofiles:\n  shop:\n    payoutKey: wrong-payout-key-5678\n`,
    );
    const r = await runGw(['doctor', '--profile', 'shop'], { home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
    expect(r.exitCode).toBe(77);
    expect(r.stdout).toMatch(new RegExp(`✗ payout key\\s+refused: .*\\(key from ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(profile shop\\)\\)`));
    expect(r.stdout).toContain(`hint: check the payout key (from ${file} (profile shop))`);
    expect(r.stderr).toBe('gw: 1 of 8 checks failed: payout key\n');
  });

  it('on an 80-column terminal: rows wrap at word boundaries under their column, file paths whole (spaces in them too)', async () => {
    const home = path.join(emptyDir('gw-doctor-home-'), 'My Shop Documents', 'a-rather-long-folder-name-for-the-shop');
    const file = writeFile(
      home,
      '.config/gateway/config.yaml',
      `baseUrl: ${sandbox.url}\nmerchantKey: ${sandbox.merchantKey}\nprofiles:\n  shop:\n    payoutKey: wrong-payout-key-5678\n`,
    );
    expect(file.length).toBeGreaterThan(80 - 23);
    const options = { home, color: false, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } };
    const tty = await runGw(['doctor', '--profile', 'shop'], { ...options, width: 80, stdoutTTY: true });
    const plain = await runGw(['doctor', '--profile', 'shop'], options);
    expect(tty.exitCode).toBe(77);
    const lines = tty.stdout.trimEnd().split('\n');
    // Over 80 columns only a line that is the path alone (with its punctuation).
    expect(lines.filter((line) => line.length > 80 && line.replace(file, 'FILE').trim().split(/\s+/).length > 1)).toEqual([]);
    // A row and its hint: the label's line and the lines under its column; the same words as one line.
    const row = (stdout: string, label: string): string => {
      const all = stdout.trimEnd().split('\n');
      const at = all.findIndex((line) => line.slice(2).startsWith(label));
      const end = all.findIndex((line, i) => i > at && !line.startsWith(' '));
      return all.slice(at, end < 0 ? undefined : end).join('\n');
    };
    for (const label of ['configuration', 'payout key']) {
      const wrapped = row(tty.stdout, label);
      expect(wrapped.split('\n').length).toBeGreaterThan(1);
      expect(wrapped.replace(/\s+/g, ' ')).toBe(row(plain.stdout, label).replace(/\s+/g, ' '));
      // Continuation lines start under the detail column.
      const column = lines[0]?.indexOf('base URL from') ?? -1;
      expect(column).toBeGreaterThan(0);
      for (const line of wrapped.split('\n').slice(1)) expect(line.search(/\S/)).toBe(column);
    }
    // Every mention of the file whole, as many as on one line each.
    expect(tty.stdout.split(file).length).toBe(plain.stdout.split(file).length);
    expect(tty.stdout.split(file).length).toBeGreaterThan(4);
  });

  it('an unreachable host: ✗ gateway with the reason, the checks after it not run, exit 69', async () => {
    const port = await refusedPort();
    const { r, doc } = await doctorJson({ ...env, GATEWAY_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(69);
    expect(status(doc)).toEqual({
      config: 'ok',
      proxy: 'ok',
      gateway: 'fail',
      tls: 'skip',
      merchantKey: 'skip',
      payoutKey: 'skip',
      generalKey: 'skip',
      clock: 'skip',
    });
    expect(check(doc, 'gateway').detail).toMatch(/connection refused/);
    expect(check(doc, 'merchantKey').detail).toBe('not checked: the gateway did not answer');
  });

  it.each([
    ['selfSigned', /self-signed TLS certificate/],
    ['expired', /TLS certificate \(at 127\.0\.0\.1:\d+\) expired on \d{4}-\d\d-\d\d/],
  ] as const)('a %s certificate: the host answers, ✗ TLS in plain words, exit 69', async (which, message) => {
    const server = tls[which]!;
    const { r, doc } = await doctorJson({ ...env, GATEWAY_BASE_URL: server.url, NODE_EXTRA_CA_CERTS: undefined });
    expect(r.exitCode).toBe(69);
    expect(status(doc)).toMatchObject({ gateway: 'ok', tls: 'fail', merchantKey: 'skip', clock: 'skip' });
    expect(check(doc, 'tls').detail).toMatch(message);
    expect(check(doc, 'gateway').detail).toMatch(/^127\.0\.0\.1:\d+ accepts connections$/);
  });

  it('one deadline for everything: a gateway that never answers ends at --timeout 0.3, exit 75', async () => {
    const server = await startMisbehavingGateway([hang()]);
    try {
      const { r, doc } = await doctorJson({ ...env, GATEWAY_BASE_URL: server.url }, ['--timeout', '0.3']);
      expect(r.exitCode).toBe(75);
      expect(r.ms).toBeLessThan(4000);
      expect(status(doc)).toMatchObject({ gateway: 'fail', merchantKey: 'skip', payoutKey: 'skip' });
    } finally {
      await server.close();
    }
  });

  it('a clock four minutes off: ✗ clock, exit 78', async () => {
    const clock = new ManualClock(Date.now() - 4 * 60_000);
    const { r, doc } = await doctorJson(env, [], { clock });
    expect(r.exitCode).toBe(78);
    expect(check(doc, 'clock')).toMatchObject({ status: 'fail', exitCode: 78 });
    expect(check(doc, 'clock').detail).toMatch(/this computer's clock is 24\d s behind the gateway's/);
  });

  it('no Date header: the clock is not checked, which is not a failure', async () => {
    const body = '{"result":100,"message":"OK","rate":"2"}';
    const server = await startMisbehavingGateway([
      rawSocket(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`),
    ]);
    try {
      const { r, doc } = await doctorJson({ GATEWAY_BASE_URL: server.url, GATEWAY_MERCHANT_KEY: 'mk_x_12345678' });
      expect(check(doc, 'clock')).toMatchObject({ status: 'skip', detail: 'not checked: the gateway sent no Date header' });
      expect(r.exitCode).toBe(76); // the merchant check got an answer it cannot read (not an accepted-currencies body)
    } finally {
      await server.close();
    }
  });

  it('a configuration problem: ✗ configuration, nothing else run, exit 78', async () => {
    const { r, doc } = await doctorJson({ GATEWAY_BASE_URL: 'http://gateway.example' });
    expect(r.exitCode).toBe(78);
    expect(status(doc)).toEqual({
      config: 'fail',
      proxy: 'skip',
      gateway: 'skip',
      tls: 'skip',
      merchantKey: 'skip',
      payoutKey: 'skip',
      generalKey: 'skip',
      clock: 'skip',
    });
    const none = await runGw(['doctor']);
    expect(none.exitCode).toBe(78);
    expect(none.stdout).toMatch(/✗ configuration\s+no gateway base URL is configured\n\s+hint: run gw init/);
  });

  it('the proxy in use is shown, and a proxy that is down is what fails', async () => {
    const port = await refusedPort();
    const { r, doc } = await doctorJson({ ...env, http_proxy: `http://127.0.0.1:${port}` });
    expect(check(doc, 'proxy').detail).toBe(`http://127.0.0.1:${port} (from http_proxy)`);
    expect(check(doc, 'gateway').detail).toMatch(/cannot connect to the proxy at http:\/\/127\.0\.0\.1:\d+ \(from http_proxy\)/);
    expect(r.exitCode).toBe(69);
  });

  it('without a payout key the payout check is skipped, not failed', async () => {
    const { r, doc } = await doctorJson({ GATEWAY_BASE_URL: sandbox.url, GATEWAY_MERCHANT_KEY: sandbox.merchantKey });
    expect(r.exitCode).toBe(0);
    expect(check(doc, 'payoutKey')).toMatchObject({ status: 'skip', detail: 'not set (only gw balance needs it)' });
  });
});
