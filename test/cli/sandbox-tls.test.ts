// `gw sandbox --tls` (issue 23): HTTPS on loopback with a certificate made at start, signed by a
// CA made for the run, whose PEM is written for the client to trust. A client that trusts it
// reaches the sandbox over HTTPS on 127.0.0.1; gw itself, in a separate process (src/main.ts
// bundled once, as the build does), trusts it through NODE_EXTRA_CA_CERTS; without that, gw
// refuses the certificate in plain words. Traffic only to 127.0.0.1, every request bounded.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxRun } from '../../src/commands/sandbox.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { makeSandboxCertificates } from '../../src/sandbox/tls.js';
import { runGw } from '../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gw-sandbox-tls-'));
let sbx: RunningSandbox;

beforeAll(async () => {
  sbx = await startSandbox({ host: '127.0.0.1', port: 0, tls: { caFile: path.join(dir, 'state', 'ca.pem') } });
});
afterAll(async () => {
  await sbx?.close();
});

/** POST over HTTPS to the sandbox, trusting `ca` (or only Node's own CAs); 5 s at most. */
function post(url: string, body: string, ca: string | undefined): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, timeout: 5000, ...(ca !== undefined && { ca }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('the certificates', () => {
  it('a CA for this run, and a server certificate it signed for 127.0.0.1, ::1 and localhost only', () => {
    const made = makeSandboxCertificates(Date.UTC(2026, 10, 25, 12));
    const ca = new X509Certificate(made.ca);
    const server = new X509Certificate(made.cert);
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(server!.ca).toBe(false);
    expect(server!.verify(ca.publicKey)).toBe(true);
    expect(server!.checkIssued(ca)).toBe(true);
    expect(server!.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    expect(server!.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect([server!.checkIP('127.0.0.1'), server!.checkIP('::1'), server!.checkHost('localhost')]).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect(server!.checkHost('example.com')).toBeUndefined();
    expect(new Date(server!.validFrom).getTime()).toBe(Date.UTC(2026, 10, 24, 12));
    expect(new Date(server!.validTo).getTime()).toBe(Date.UTC(2026, 11, 25, 12));
    // Each run its own CA: nothing trusted once stays trusted.
    expect(new X509Certificate(makeSandboxCertificates().ca).fingerprint256).not.toBe(ca.fingerprint256);
  });
});

describe('gw sandbox --tls', () => {
  it('serves HTTPS on 127.0.0.1: a client that trusts the CA file gets the answers; one that does not is refused the handshake', async () => {
    expect(sbx.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sbx.caFile).toBe(path.join(dir, 'state', 'ca.pem'));
    expect(statSync(sbx.caFile!).mode & 0o777).toBe(0o644);
    const ca = readFileSync(sbx.caFile!, 'utf8');
    const coins = await post(`${sbx.url}/merchants/allowedCoins`, JSON.stringify({ merchant: sbx.merchantKey }), ca);
    expect(coins).toMatchObject({ status: 200, json: { result: 100, allowed: expect.arrayContaining(['BTC', 'USDT']) } });
    const created = await post(`${sbx.url}/merchants/request/whitelabel`, JSON.stringify({ merchant: sbx.merchantKey, amount: 25, payCurrency: 'USDT' }), ca);
    expect(created.json).toMatchObject({
      result: 100,
      trackId: expect.stringMatching(/^[1-9]\d{8}$/),
      QRCode: expect.stringMatching(/^https:\/\/127\.0\.0\.1:/),
    });
    await expect(post(`${sbx.url}/merchants/allowedCoins`, '{}', undefined)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('gw in another process, with NODE_EXTRA_CA_CERTS set to the CA file, gets the rate over HTTPS; without it, exit 69 in plain words', async () => {
    const bundle = path.join(dir, 'gw.cjs');
    await build({ entryPoints: [path.resolve('src/main.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });
    const run = (extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve, reject) => {
        const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), NO_COLOR: '1', ...extraEnv };
        const child = spawn(process.execPath, [bundle, 'rate', 'BTC', 'USDT', '--json', '--timeout', '10'], {
          env,
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('error', reject);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
      });
    const keys = { GATEWAY_BASE_URL: sbx.url, GATEWAY_MERCHANT_KEY: sbx.merchantKey };
    const trusted = await run({ ...keys, NODE_EXTRA_CA_CERTS: sbx.caFile! });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ rate: expect.any(String) });
    const untrusted = await run(keys);
    expect(untrusted.code).toBe(69);
    expect(untrusted.stderr).toMatch(/certificate authority this computer does not trust/);
  }, 60_000);

  it('--tls writes the CA to the state folder, --tls-ca where it says; no --tls, no TLS', async () => {
    const { newCmdSandbox } = await import('../../src/commands/sandbox.js');
    const seen: unknown[] = [];
    const f = {
      io: IOStreams.test().io,
      signal: new AbortController().signal,
      releaseDeadline: () => undefined,
      globals: {},
      env: { XDG_STATE_HOME: '/xdg/state' },
      origin: { cwd: '/work/here', home: '/home/u' },
    } as unknown as Parameters<typeof newCmdSandbox>[0];
    const command = newCmdSandbox(f, async (opts) => {
      seen.push(opts.server.tls);
    });
    await command.parseAsync(['--tls'], { from: 'user' });
    await command.parseAsync(['--tls', '--tls-ca', 'ca.pem'], { from: 'user' });
    await command.parseAsync([], { from: 'user' });
    expect(seen).toEqual([{ caFile: '/xdg/state/gateway/sandbox-ca.pem' }, { caFile: '/work/here/ca.pem' }, undefined]);
  });

  it('the command prints the https URL and where the CA was written', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'gw-sandbox-tls-home-'));
    for (const json of [false, true]) {
      const t = IOStreams.test({ json, color: false });
      const stop = new AbortController();
      const caFile = path.join(home, 'state', 'gateway', 'sandbox-ca.pem');
      const running = sandboxRun({ io: t.io, signal: stop.signal, releaseDeadline: () => undefined, server: { port: 0, host: '127.0.0.1', tls: { caFile } } });
      await expect.poll(() => t.stdout()).toContain(json ? '\n' : 'Press Ctrl-C');
      if (json) expect(JSON.parse(t.stdout())).toMatchObject({ url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/), caFile, sandbox: true });
      else {
        expect(t.stdout()).toMatch(/gateway listening on https:\/\/127\.0\.0\.1:\d+\n/);
        expect(t.stdout()).toContain(`  CA (PEM)      ${caFile}   (made for this run`);
        expect(t.stdout()).toContain(`Try: NODE_EXTRA_CA_CERTS=${caFile} GATEWAY_BASE_URL=https://127.0.0.1:`);
      }
      stop.abort();
      await running;
    }
  });

  it('a CA file that cannot be written: exit 78 naming it, nothing served', async () => {
    const t = IOStreams.test();
    const caFile = '/dev/null/ca.pem';
    await expect(
      sandboxRun({ io: t.io, signal: new AbortController().signal, releaseDeadline: () => undefined, server: { port: 0, host: '127.0.0.1', tls: { caFile } } }),
    ).rejects.toMatchObject({
      exitCode: 78,
      message: expect.stringMatching(/^cannot write the sandbox's CA certificate to \/dev\/null\/ca\.pem \(E[A-Z]+\)$/),
    });
    expect(t.stdout()).toBe('');
  });

  it('--tls-ca without --tls is a usage error', async () => {
    const r = await runGw(['sandbox', '--tls-ca', 'ca.pem']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain('--tls-ca goes with --tls');
  });
});
