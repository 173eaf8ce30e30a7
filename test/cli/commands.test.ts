// The four merchant commands end to end: the built binary against the embedded sandbox gateway
// on 127.0.0.1, in both output modes, with the exit codes docs/json-and-exit-codes.md documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runGw as gw } from '../support/cli.js';
import { sandboxEnv, withSandbox } from '../support/sandbox.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await withSandbox();
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

function oneErrorLine(stderr: string): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^gw: /);
  expect(lines.length).toBeLessThanOrEqual(2);
  if (lines[1] !== undefined) expect(lines[1]).toMatch(/^hint: /);
  expect(stderr).not.toMatch(/\n\s+at |Error:/);
}

describe('gw currencies', () => {
  it('lists the accepted currencies from the versioned endpoint as JSON', async () => {
    const r = await gw(['currencies', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { currencies: string[] };
    expect(doc.currencies).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDT', 'LTC', 'DOGE', 'TRX']));
    expect(Object.keys(doc)).toEqual(['currencies']);
    expect(r.stderr).toBe('');
  });

  it('gives the same shape for --legacy', async () => {
    const v1 = JSON.parse((await gw(['currencies', '--json'], { env })).stdout) as unknown;
    const legacy = await gw(['currencies', '--legacy', '--json'], { env });
    expect(legacy.exitCode).toBe(0);
    expect(JSON.parse(legacy.stdout)).toEqual(v1);
  });

  it('prints one symbol per line for humans', async () => {
    const r = await gw(['currencies'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toContain('BTC');
  });

  it('exits 77 when the merchant key is refused on either endpoint', async () => {
    for (const args of [['currencies'], ['currencies', '--legacy']]) {
      const r = await gw(args, { env: { ...env, GATEWAY_MERCHANT_KEY: 'wrong-key-123456' } });
      expect(r.exitCode).toBe(77);
      expect(r.stdout).toBe('');
      oneErrorLine(r.stderr);
      expect(r.stderr).not.toContain('wrong-key-123456');
    }
  });

  it('exits 78 with a hint when no merchant key is configured', async () => {
    const r = await gw(['currencies'], { env: { GATEWAY_BASE_URL: sandbox.url } });
    expect(r.exitCode).toBe(78);
    oneErrorLine(r.stderr);
    expect(r.stderr).toMatch(/merchant/i);
  });
});

describe('gw rate', () => {
  it('prints the rate as the exact decimal string the gateway sent', async () => {
    const r = await gw(['rate', 'BTC', 'USDT', '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ from: 'BTC', to: 'USDT', rate: '65573.55' });
  });

  it('needs no key at all', async () => {
    const r = await gw(['rate', 'eth', 'btc', '--json'], { env: { GATEWAY_BASE_URL: sandbox.url } });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { from: string; to: string; rate: string };
    expect(doc.from).toBe('ETH');
    expect(doc.rate).toMatch(/^\d+\.\d+$/);
  });

  it('shows a human line', async () => {
    const r = await gw(['rate', 'BTC', 'USDT'], { env });
    expect(r.stdout).toBe('1 BTC = 65573.55 USDT\n');
  });

  it('exits 65 for an unsupported pair and for the same currency twice', async () => {
    for (const args of [
      ['rate', 'BTC', 'NOPE'],
      ['rate', 'NOPE', 'BTC'],
      ['rate', 'BTC', 'BTC'],
    ]) {
      const r = await gw(args, { env });
      expect(r.exitCode).toBe(65);
      expect(r.stdout).toBe('');
      oneErrorLine(r.stderr);
    }
  });

  it('reports a refusal as a JSON error on stderr with --json', async () => {
    const r = await gw(['rate', 'BTC', 'BTC', '--json'], { env });
    expect(r.exitCode).toBe(65);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(r.stderr) as { error: { message: string; exitCode: number; result: number } };
    expect(doc.error.exitCode).toBe(65);
    expect(doc.error.result).toBe(123);
    expect(doc.error.message).toMatch(/fromCurrency|same/i);
  });
});

describe('gw balance', () => {
  it('returns every balance as the exact string the gateway sent', async () => {
    const r = await gw(['balance', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { balances: Record<string, string> };
    expect(doc.balances.BTC).toBe('0.00012345');
    expect(doc.balances.ETH).toBe('1.234567890123456789');
    for (const value of Object.values(doc.balances)) expect(typeof value).toBe('string');
  });

  it('returns one currency when asked', async () => {
    const r = await gw(['balance', 'eth', '--json'], { env });
    expect(JSON.parse(r.stdout)).toEqual({ balances: { ETH: '1.234567890123456789' } });
  });

  it('aligns amounts on the decimal point in the table', async () => {
    const r = await gw(['balance'], { env });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').slice(1);
    const dots = lines.filter((l) => l.includes('.')).map((l) => l.indexOf('.'));
    expect(dots.length).toBeGreaterThan(3);
    expect(new Set(dots).size).toBe(1);
    expect(r.stdout).toContain('1.234567890123456789');
  });

  it('exits 77 for a wrong payout key and 78 for none', async () => {
    const wrong = await gw(['balance'], { env: { ...env, GATEWAY_PAYOUT_KEY: 'not-the-payout-key' } });
    expect(wrong.exitCode).toBe(77);
    oneErrorLine(wrong.stderr);
    const none = await gw(['balance'], { env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_MERCHANT_KEY: sandbox.merchantKey } });
    expect(none.exitCode).toBe(78);
    expect(none.stderr).toMatch(/payout/i);
  });

  it('exits 65 for an unknown currency', async () => {
    const r = await gw(['balance', 'NOPE'], { env });
    expect(r.exitCode).toBe(65);
  });
});

describe('gw pay', () => {
  it('creates a payment and prints every field plus the URI as JSON, amounts as exact strings', async () => {
    const r = await gw(['pay', '25', 'USD', '--pay-currency', 'BTC', '--order-id', 'A-1042', '--description', 'Coffee', '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const field of [
      'trackId',
      'amount',
      'currency',
      'payAmount',
      'payCurrency',
      'network',
      'address',
      'callbackUrl',
      'description',
      'email',
      'feePaidByPayer',
      'lifeTime',
      'orderId',
      'underPaidCover',
      'rate',
      'expiredAt',
      'createdAt',
      'QRCode',
      'uri',
    ]) {
      expect(doc).toHaveProperty(field);
    }
    expect(doc.amount).toBe('25');
    expect(doc.currency).toBe('USD');
    expect(doc.payCurrency).toBe('BTC');
    expect(doc.orderId).toBe('A-1042');
    expect(typeof doc.payAmount).toBe('string');
    expect(typeof doc.rate).toBe('string');
    expect(doc.uri).toBe(`bitcoin:${String(doc.address)}?amount=${String(doc.payAmount)}`);
    expect(doc).not.toHaveProperty('sandbox');
  });

  it('keeps an 18-decimal amount digit for digit', async () => {
    const r = await gw(['pay', '0.123456789012345678', 'ETH', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { amount: string; payAmount: string; uri: string };
    expect(doc.amount).toBe('0.123456789012345678');
    expect(doc.payAmount).toBe('0.123456789012345678');
    expect(doc.uri).toMatch(/^ethereum:0x[0-9a-fA-F]{40}@1\?value=123456789012345678$/);
  });

  it('defaults the pay currency to the currency', async () => {
    const r = await gw(['pay', '10', 'LTC', '--json'], { env });
    const doc = JSON.parse(r.stdout) as { payCurrency: string; uri: string };
    expect(doc.payCurrency).toBe('LTC');
    expect(doc.uri).toMatch(/^litecoin:tltc1/);
  });

  it('shows details, the URI and the sandbox label for humans', async () => {
    const r = await gw(['pay', '25', 'USD', '--pay-currency', 'BTC', '--order-id', 'A-7', '--sandbox', '--no-qr']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('SANDBOX');
    expect(r.stdout).toContain('SANDBOX payment');
    expect(r.stdout).toMatch(/Pay exactly\s+0\.\d+ BTC/);
    expect(r.stdout).toMatch(/Address\s+tb1q/);
    expect(r.stdout).toMatch(/Expires\s+(59|60) min left, until \d\d:\d\d/);
    expect(r.stdout).toMatch(/Order ID\s+A-7/);
    expect(r.stdout).toMatch(/URI\s+bitcoin:tb1q\w+\?amount=0\.\d+/);
    expect(r.stdout).not.toContain('▀');
  });

  it('draws the QR only when asked when stdout is not a terminal', async () => {
    const without = await gw(['pay', '25', 'BTC', '--sandbox']);
    expect(without.stdout).not.toMatch(/[▀▄█]/);
    const withQr = await gw(['pay', '25', 'BTC', '--sandbox', '--qr']);
    expect(withQr.stdout).toMatch(/[▀▄█]/);
    const never = await gw(['pay', '25', 'BTC', '--sandbox', '--qr', '--no-qr']);
    expect(never.stdout).not.toMatch(/[▀▄█]/);
  });

  it('keeps stdout one JSON document even with --qr', async () => {
    const r = await gw(['pay', '25', 'BTC', '--sandbox', '--qr', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { sandbox: boolean };
    expect(doc.sandbox).toBe(true);
    expect(r.stdout).not.toMatch(/[▀▄█]/);
  });

  it.each([['abc'], ['0'], ['1e3'], ['1,5'], [''], ['0.000'], ['.5'], ['5.']])('refuses the amount %j with exit 64 before any request', async (amount) => {
    // No base URL is configured: a request attempt would exit 78, not 64.
    const r = await gw(['pay', amount, 'USD', '--pay-currency', 'USDT']);
    expect(r.exitCode).toBe(64);
    expect(r.stdout).toBe('');
    oneErrorLine(r.stderr);
  });

  it('refuses a negative amount as a usage error', async () => {
    const r = await gw(['pay', '-5', 'USD']);
    expect(r.exitCode).toBe(64);
  });

  it('refuses a fiat pay currency before any request', async () => {
    const r = await gw(['pay', '25', 'USD']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(/--pay-currency/);
  });

  it.each([
    [['--life-time', '10'], /life-time/],
    [['--life-time', '2881'], /life-time/],
    [['--fee-paid-by-payer', '2'], /fee-paid-by-payer/],
    [['--under-paid-cover', '61'], /under-paid-cover/],
    [['--callback-url', 'ftp://x'], /callback-url/],
    [['--email', 'nobody'], /email/],
  ])('refuses %j as a usage error', async (extra, message) => {
    const r = await gw(['pay', '25', 'USDT', ...extra], { env });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(message);
  });

  it('passes the optional fields through and the gateway echoes them', async () => {
    const r = await gw(
      [
        'pay',
        '25',
        'USDT',
        '--life-time',
        '30',
        '--fee-paid-by-payer',
        '1',
        '--under-paid-cover',
        '2.5',
        '--callback-url',
        'https://shop.example/cb',
        '--email',
        'payer@example.com',
        '--json',
      ],
      { env },
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc.lifeTime).toBe(30);
    expect(doc.feePaidByPayer).toBe(1); // a flag: a number, as in gw status
    expect(doc.underPaidCover).toBe('2.5');
    expect(doc.callbackUrl).toBe('https://shop.example/cb');
    expect(doc.email).toBe('payer@example.com');
    expect(Number(doc.expiredAt) - Number(doc.createdAt)).toBe(30 * 60);
  });

  it('exits 65 when the gateway rejects the pay currency', async () => {
    const r = await gw(['pay', '25', 'USDT', '--pay-currency', 'NOPE'], { env });
    expect(r.exitCode).toBe(65);
    oneErrorLine(r.stderr);
  });

  it('exits 77 for a refused merchant key', async () => {
    const r = await gw(['pay', '25', 'USDT', '--merchant-key', 'bad-merchant-key-1'], { env });
    expect(r.exitCode).toBe(77);
    expect(r.stderr).not.toContain('bad-merchant-key-1');
  });
});

describe('global behaviour', () => {
  it('prints the version', async () => {
    const r = await gw(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it.each([['currencies'], ['pay'], ['balance'], ['rate'], ['sandbox'], ['config']])('shows an example in %s --help', async (command) => {
    const r = await gw([command, '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n\s+\$ gw /);
  });

  it('exits 64 for an unknown command, an unknown option and a missing argument', async () => {
    for (const args of [['frobnicate'], ['rate', 'BTC', 'USDT', '--frob'], ['rate', 'BTC']]) {
      const r = await gw(args, { env });
      expect(r.exitCode).toBe(64);
      expect(r.stdout).toBe('');
      oneErrorLine(r.stderr);
    }
  });

  it('accepts global options before or after the subcommand', async () => {
    const before = await gw(['--json', '--sandbox', 'rate', 'BTC', 'USDT']);
    const after = await gw(['rate', 'BTC', 'USDT', '--sandbox', '--json']);
    expect(before.exitCode).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });

  it('exits 78 with a way out when no base URL is configured', async () => {
    const r = await gw(['rate', 'BTC', 'USDT']);
    expect(r.exitCode).toBe(78);
    expect(r.stderr).toMatch(/base URL/);
    expect(r.stderr).toMatch(/--sandbox/);
  });

  it('exits 69 when nothing listens at the base URL', async () => {
    const r = await gw(['rate', 'BTC', 'USDT', '--base-url', 'http://127.0.0.1:9'], { env });
    expect(r.exitCode).toBe(69);
    oneErrorLine(r.stderr);
  });

  it('logs requests with --verbose on stderr without the keys', async () => {
    const r = await gw(['currencies', '--verbose'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/payment\/accepted-currencies → 200 \(\d+ ms/);
    expect(r.stderr).not.toContain(sandbox.merchantKey);
    expect(r.stdout).not.toContain('→');
  });

  it('colours only when asked or on a terminal', async () => {
    const plain = await gw(['rate', 'BTC', 'USDT'], { env });
    expect(plain.stdout).not.toContain('\u001b[');
    const forced = await gw(['rate', 'BTC', 'USDT'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[');
    const noColor = await gw(['rate', 'BTC', 'USDT', '--no-color'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });
});

describe('key scrubbing', () => {
  it('does not garble messages when a key is only a few characters long', async () => {
    const r = await gw(['balance', '--payout-key', 'k', '--base-url', 'http://127.0.0.1:9']);
    expect(r.exitCode).toBe(69);
    expect(r.stderr).toMatch(/^gw: cannot connect to the gateway at 127\.0\.0\.1:9: connection refused\nhint: check the base URL/);
  });
});
