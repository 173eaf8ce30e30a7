// gw sandbox trigger / resend --url: the control request carries the sandbox's merchant key, so it
// goes only to a host on this machine as written in the URL (127.0.0.0/8, ::1, localhost); any
// other host is refused with exit 64 and one line, before any lookup and with nothing sent. The
// receiver stands in for a sandbox: it listens on 127.0.0.1, and 0.0.0.0 (not a loopback address
// as written, yet a connection to it reaches this machine on Linux) would reach it if gw sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGw as gw } from '../support/cli.js';
import { startReceiver, type Receiver } from '../support/notifications.js';

let receiver: Receiver;
let port: string;

beforeAll(async () => {
  receiver = await startReceiver('/');
  port = new URL(receiver.url).port;
});
afterAll(async () => {
  await receiver.close();
});

describe('gw sandbox trigger / resend --url', () => {
  // Only addresses that stay on this machine even if gw did send: a name would need a DNS lookup,
  // and those are checked without any network in the next test.
  const refused = [
    ['0.0.0.0 (any address, not loopback)', () => `http://0.0.0.0:${port}`],
    ['0 (0.0.0.0 written short)', () => `http://0:${port}`],
    ['[::] (any IPv6 address, not ::1)', () => `http://[::]:${port}`],
  ] as const;

  it.each(refused)('%s → exit 64, one line (and its hint), nothing sent', async (_what, url) => {
    for (const argv of [
      ['sandbox', 'trigger', 'sbx1', 'paid', '--url', url()],
      ['sandbox', 'resend', 'sbx1', '--url', url()],
    ]) {
      const r = await gw(argv, { env: { GATEWAY_MERCHANT_KEY: 'sandbox-merchant-key' } });
      expect(r.exitCode).toBe(64);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^gw: --url must be a sandbox on this machine \(127\.0\.0\.1, ::1 or localhost\), not \S+: the sandbox's key is sent only there\nhint: give the URL gw sandbox printed, e\.g\. http:\/\/127\.0\.0\.1:8080\n$/,
      );
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('--sandbox (a throwaway sandbox inside the command) → exit 64, one line naming the sandbox to start and drive, nothing sent', async () => {
    for (const [argv, rest] of [
      [['sandbox', 'trigger', 'sbx1', 'paid', '--sandbox'], 'trigger sbx1 paid'],
      [['--sandbox', 'sandbox', 'resend', 'sbx1'], 'resend sbx1'],
    ] as const) {
      const r = await gw([...argv]);
      expect(r.exitCode).toBe(64);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `gw: --sandbox would drive a throwaway sandbox that ends with this command: start one with gw sandbox in another terminal, then run gw sandbox ${rest} --url <the URL it prints>\n`,
      );
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('decides from the host as written, without looking any name up', async () => {
    const { loopbackUrl } = await import('../../src/commands/sandbox.js');
    for (const ok of [
      'http://127.0.0.1:8080',
      'http://127.255.0.9',
      'http://localhost:1',
      'http://LOCALHOST.:1',
      'http://[::1]:1',
      'http://[::ffff:127.0.0.1]:1',
      'https://127.1',
    ])
      expect(loopbackUrl(ok).href).toMatch(/^https?:\/\//);
    for (const bad of [
      'http://localhost.example',
      'http://127.0.0.1.example',
      'http://example.com',
      'http://10.0.0.1',
      'http://[::2]',
      'http://128.0.0.1',
      'http://0x7f000001.example',
    ])
      expect(() => loopbackUrl(bad)).toThrow(
        expect.objectContaining({ exitCode: 64, message: expect.stringMatching(/^--url must be a sandbox on this machine/) as unknown }),
      );
  });

  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}`],
    ['127.1 (the same address, short form)', () => `http://127.1:${port}`],
    ['127.0.0.1 with a path', () => `http://127.0.0.1:${port}/`],
  ] as const)('%s is this machine: the request goes out (and the stand-in answers as no sandbox)', async (_what, url) => {
    const before = receiver.requests.length;
    const r = await gw(['sandbox', 'resend', 'sbx1', '--url', url()], { env: { GATEWAY_MERCHANT_KEY: 'sandbox-merchant-key' } });
    expect(r.exitCode).toBe(76);
    expect(receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)?.headers.merchant_api_key).toBe('sandbox-merchant-key');
  });
});
