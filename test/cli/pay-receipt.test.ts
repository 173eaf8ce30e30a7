// gw pay --wait --receipt, the whole command line in process against the embedded sandbox: the
// flags checked first (exit 64, nothing read or sent), the configured merchant name and width on
// the receipt, an existing file refused before any payment (exit 73).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { emptyDir, ManualClock, runGw as gw } from '../support/cli.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number): ManualClock => new ManualClock(T0 + ms);

describe('gw pay --receipt', () => {
  it.each([
    [['--receipt', 'r.txt'], /--receipt needs --wait/],
    [['--wait', '--receipt', 'r.txt', '--receipt-width', '40'], /--receipt-width must be 32, 42, 48/],
    [['--wait', '--receipt-width', '32'], /--receipt-width and --receipt-unicode go with --receipt/],
    [['--wait', '--receipt', 'same.png', '--qr-out', 'same.png'], /--receipt and --qr-out name the same file/],
  ])('%j: exit 64, no payment', async (flags, message) => {
    const cwd = emptyDir();
    // Absolute paths: the command runs in this process, whose working folder is not `cwd`.
    const r = await gw(['pay', '25', 'USDT', '--sandbox', ...flags.map((a) => (/\.(txt|png)$/.test(a) ? path.join(cwd, a) : a))], { cwd, clock: at(0) });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(cwd)).toEqual([]);
  });

  // --sandbox reads no config file or GATEWAY_* variable for merchantName and receiptWidth (the
  // factory's choice): the width comes from the flag here; the configured name is in test/commands.
  it('an underpaid sandbox payment: exit 10, the receipt at 32 columns, in local time (TZ)', async () => {
    const cwd = emptyDir();
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    onTestFinished(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });
    mkdirSync(path.join(cwd, 'till'));
    const file = path.join(cwd, 'till', 'r1.txt');
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--wait', '--order-id', 'o-1-underpay', '--receipt', file, '--receipt-width', '32'], {
      cwd,
      clock: at(0),
    });
    expect(r.exitCode, r.stderr).toBe(10);
    expect(r.stderr).toContain(`Receipt written to ${file}`);
    const text = readFileSync(path.join(cwd, 'till', 'r1.txt'), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines.every((l) => l.length <= 32)).toBe(true);
    expect(text).toContain('SANDBOX - NOT A REAL PAYMENT');
    expect(text).toContain('Order     o-1-underpay');
    expect(text).toMatch(/^Amount {4}25 USDT$/m);
    expect(text).toMatch(/^Received {2}22\.5 USDT$/m);
    expect(text).toMatch(/^State {5}UNDERPAID$/m);
    expect(text).toMatch(/^Date {6}2026-11-22 17:30:\d\d$/m);
  });

  it('a file already there: exit 73 before any payment, the file unchanged', async () => {
    const cwd = emptyDir();
    writeFileSync(path.join(cwd, 'r.txt'), 'keep me');
    const r = await gw(['pay', '25', 'USDT', '--sandbox', '--wait', '--receipt', path.join(cwd, 'r.txt'), '--json'], { cwd, clock: at(0) });
    expect(r.exitCode).toBe(73);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ error: { exitCode: 73 } });
    expect(r.stderr).toContain('no payment was created');
    expect(readFileSync(path.join(cwd, 'r.txt'), 'utf8')).toBe('keep me');
  });
});
