// A URL as gw prints it: never with the user name and password it may carry (src/output/url-credentials.ts).
import { describe, expect, it } from 'vitest';
import { maskUrl, maskUrlText } from '../../src/output/url-credentials.js';
import { runGw } from '../support/cli.js';

describe('maskUrlText', () => {
  it.each([
    ['https://user:hunter2@gateway.example/x', 'https://****@gateway.example/x'],
    ['http://user:hunter2@[::1', 'http://****@[::1'],
    ['https://user:pa/ss#w@host', 'https://****@host'],
    ['https://a@b@host:99999', 'https://****@host:99999'],
    ['user:hunter2@host', '****@host'],
    ['  https://u:p@h', '  https://****@h'],
    ['https://gateway.example/', 'https://gateway.example/'],
    ['not a url', 'not a url'],
    ['mailto:me@example.com', '****@example.com'],
  ])('%j → %j', (text, masked) => {
    expect(maskUrlText(text)).toBe(masked);
  });
});

describe('maskUrl', () => {
  it("masks a parsed URL's user name and password; a URL without them is its href", () => {
    expect(maskUrl(new URL('https://user:hunter2@gateway.example/api'))).toBe('https://****@gateway.example/api');
    expect(maskUrl(new URL('https://gateway.example/api'))).toBe('https://gateway.example/api');
  });
});

describe('URLs given on the command line', () => {
  it.each([
    [['pay', '25', 'USD', '--pay-currency', 'USDT', '--callback-url', 'http://shop:hunter2@[::1', '--sandbox', '--no-qr']],
    [['listen', '--forward-to', 'http://shop:hunter2@[::1']],
    [['pay', '25', 'USD', '--pay-currency', 'USDT', '--callback-url', 'http://shop:hunter2@[::1 /cb', '--sandbox', '--no-qr']],
  ])('%j: refused (64) without echoing the password', async (args) => {
    const r = await runGw(args, { env: { GATEWAY_MERCHANT_KEY: 'mk_live_SECRET_9f8e7d6c5b4a' } });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain('http://****@[::1');
    expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2');
  });
});

describe('a callback URL with a password, as gw shows a payment', () => {
  it('pay shows it masked (human output); --json keeps it exact for scripts', async () => {
    const args = ['pay', '25', 'USDT', '--sandbox', '--no-qr', '--callback-url', 'http://shop:hunter2@127.0.0.1:9/cb'];
    const human = await runGw(args);
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/Callback +http:\/\/\*\*\*\*@127\.0\.0\.1:9\/cb/);
    expect(`${human.stdout}${human.stderr}`).not.toContain('hunter2');
  });
});
