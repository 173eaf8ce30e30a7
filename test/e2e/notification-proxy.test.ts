// One HTTP stack (issue 22), with the built binary: `gw webhook send` to an https:// receiver
// through https_proxy succeeds once the receiver's certificate authority is trusted
// (NODE_EXTRA_CA_CERTS, read only at process start: hence a process), the proxy having opened
// a CONNECT tunnel to it, and --verbose shows the POST line and the proxy.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from '../support/certificates.js';
import { gw, removeDir, tempDir } from '../support/gw.js';
import { hmacOf } from '../support/notifications.js';
import { startTestProxy, type TestProxy } from '../support/proxy.js';

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';

let dir: string;
let certs: TestCertificates;
let proxy: TestProxy;
let server: Server;
let url: string;
const received: Array<{ hmac: string | undefined; body: Buffer }> = [];

beforeAll(async () => {
  dir = tempDir('gw-notify-proxy-');
  certs = await makeCertificates(dir);
  proxy = await startTestProxy();
  server = createServer({ key: certs.loopback.key, cert: certs.loopback.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hmac = req.headers.hmac;
      received.push({ hmac: typeof hmac === 'string' ? hmac : undefined, body: Buffer.concat(chunks) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  removeDir(dir);
});

describe('gw webhook send through https_proxy to a TLS receiver', () => {
  it('a CONNECT tunnel to the receiver, the signed POST inside it, acknowledged; --verbose names the proxy and the POST, never the key or HMAC', async () => {
    const r = await gw(['--verbose', 'webhook', 'send', url], {
      env: { GATEWAY_MERCHANT_KEY: MERCHANT, https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.stderr).toContain(`gw: proxy ${proxy.url} (from https_proxy), CONNECT tunnel`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/answered as the gateway requires/);
    expect(proxy.seen.map((s) => [s.method, s.target])).toEqual([['CONNECT', new URL(url).host]]);
    expect(received).toHaveLength(1);
    expect(received[0]!.hmac).toBe(hmacOf(MERCHANT, received[0]!.body));
    expect(r.stderr).toMatch(new RegExp(`^gw: POST ${url.replace(/\./g, '\\.')} → 200 \\(\\d+ ms, 2 bytes\\)$`, 'm'));
    expect(r.stderr).not.toContain(MERCHANT);
    expect(r.stderr).not.toContain(received[0]!.hmac);
  });
});
