// gw config set/get/unset for the counter's and the receipts' settings: checked as gw reads them
// before anything is written, written in the form gw reads back, shown with their source.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir, runGw } from '../support/cli.js';

function home() {
  const home = emptyDir('gw-home-');
  const file = path.join(home, '.config', 'gateway', 'config.yaml');
  const run = (args: string[], env: Record<string, string> = {}) =>
    runGw(args, { home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...env } });
  return { file, run };
}

describe('gw config with the counter and receipt settings', () => {
  it('set writes each checked value as gw reads it; get reads it back', async () => {
    const h = home();
    const sets: Array<[string[], string]> = [
      [['merchantName', 'Corner Café'], 'merchantName: "Corner Café"'],
      [['receipt-width', '42'], 'receiptWidth: 42'],
      [['counterCurrency', 'eur'], 'counterCurrency: "EUR"'],
      [['counter_pay_currency', 'usdt'], 'counterPayCurrency: "USDT"'],
      [['counterNetwork', 'Tron Network'], 'counterNetwork: "Tron Network"'],
      [['counterHoldSeconds', '8'], 'counterHoldSeconds: 8'],
    ];
    for (const [args, line] of sets) {
      const r = await h.run(['config', 'set', ...args]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readFileSync(h.file, 'utf8')).toContain(`${line}\n`);
    }
    expect((await h.run(['config', 'get', 'counterCurrency'])).stdout).toBe('EUR\n');
    expect((await h.run(['config', 'get', 'merchantName'])).stdout).toBe('Corner Café\n');
    expect((await h.run(['config', 'get', 'receiptWidth'])).stdout).toBe('42\n');
    expect((await h.run(['config', 'get', 'counterHoldSeconds'])).stdout).toBe('8\n');
    const fromEnv = await h.run(['config', 'get', 'counterHoldSeconds', '--json'], { GATEWAY_COUNTER_HOLD_SECONDS: '3' });
    expect(JSON.parse(fromEnv.stdout)).toEqual({ key: 'counterHoldSeconds', value: '3', source: 'env GATEWAY_COUNTER_HOLD_SECONDS' });
    const table = await h.run(['config']);
    expect(table.stdout).toMatch(/counterHoldSeconds\s+8 s\s/);
    expect(table.stdout).toMatch(/counterPayCurrency\s+USDT\s/);
  });

  it('set refuses a value gw could not use, in one line, and writes nothing', async () => {
    const h = home();
    const cases: Array<[string, string, RegExp]> = [
      ['receiptWidth', '40', /receiptWidth from the value given must be 32, 42 or 48 \(got 40\)/],
      ['counterHoldSeconds', '0', /counterHoldSeconds .* from 1 to 600/],
      ['counterPayCurrency', 'EUR', /must be a coin a payer can send.*EUR is fiat/],
      ['counterCurrency', 'U S D', /must be a currency symbol/],
      ['merchantName', 'x'.repeat(49), /at most 48 characters/],
    ];
    for (const [key, value, message] of cases) {
      const r = await h.run(['config', 'set', key, value]);
      expect(r.exitCode).toBe(78);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(h.file)).toBe(false);
    }
  });

  it('a bad value from the environment is shown by gw config and stops get', async () => {
    const h = home();
    const r = await h.run(['config', '--json'], { GATEWAY_RECEIPT_WIDTH: '50' });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).settings.receiptWidth).toEqual({
      value: '50',
      source: 'env GATEWAY_RECEIPT_WIDTH',
      problem: 'receiptWidth from env GATEWAY_RECEIPT_WIDTH must be 32, 42 or 48 (got 50)',
    });
    const got = await h.run(['config', 'get', 'receiptWidth'], { GATEWAY_RECEIPT_WIDTH: '50' });
    expect(got.exitCode).toBe(78);
    expect(JSON.parse(r.stdout).settings.counterHoldSeconds).toEqual({ value: '10 s', source: 'default' });
  });
});
