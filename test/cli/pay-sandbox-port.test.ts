// gw pay --sandbox without --wait ends as it prints the payment: its embedded sandbox does not
// listen (no client could reach the port in time), so the payment carries no QRCode link that
// could never work. With --wait it listens, and the link names its port. In process, against the
// embedded sandbox; the clock is the test's.
import { Server } from 'node:net';
import { LosslessNumber } from 'lossless-json';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IN_MEMORY_URL, startSandboxServer } from '../../src/sandbox/server.js';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
/** A white-label payment's fields, as the sandbox reads them from a request. */
const FIELDS = { amount: new LosslessNumber('25'), currency: 'USDT', payCurrency: 'USDT' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('gw pay --sandbox: the port', () => {
  it('without --wait: nothing listens, the JSON has QRCode "" and the payment is made in memory', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const r = await gw(['pay', '25', 'USDT', '--json', '--sandbox', '--verbose'], { cwd: emptyDir(), clock: new ManualClock(T0) });
    expect(r.exitCode).toBe(0);
    const payment = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(payment).toMatchObject({ QRCode: '', sandbox: true, amount: '25', payCurrency: 'USDT' });
    expect(payment.address).toMatch(/^T/);
    expect(listen).not.toHaveBeenCalled();
    // --verbose names where the requests went: this process, never a machine.
    expect(r.stderr).toContain(`POST ${IN_MEMORY_URL}/merchants/request/whitelabel → 200`);
  });

  it('with --wait: it listens, and the QRCode link names its port on 127.0.0.1', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const r = await gw(['pay', '25', 'USDT', '--json', '--sandbox', '--wait', '--order-id', 'port-1'], { cwd: emptyDir(), clock: new ManualClock(T0) });
    expect(r.exitCode).toBe(0);
    const payment = JSON.parse(r.stdout) as { QRCode: string; trackId: string; status: string };
    expect(payment.status).toBe('paid');
    expect(payment.QRCode).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/qr/${payment.trackId}\\.png$`));
    expect(listen).toHaveBeenCalledTimes(1);
  });
});

describe('startSandboxServer({ listen: false })', () => {
  it('answers in memory only: its URL names no machine, and its answers carry no link into it', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const sandbox = await startSandboxServer({ listen: false, now: () => T0 });
    try {
      expect(sandbox.url).toBe('http://in-memory.sandbox.invalid');
      expect(listen).not.toHaveBeenCalled();
      const created = sandbox.gateway.createPayment(FIELDS);
      expect(created).toMatchObject({ ok: true, value: { QRCode: '' } });
    } finally {
      await sandbox.close();
    }
    // The same sandbox that listens gives the link on its port.
    const listening = await startSandboxServer({ now: () => T0 });
    try {
      const created = listening.gateway.createPayment(FIELDS);
      expect(created.ok && created.value.QRCode).toBe(`${listening.url}/qr/${created.ok ? created.value.trackId : ''}.png`);
    } finally {
      await listening.close();
    }
  });
});
