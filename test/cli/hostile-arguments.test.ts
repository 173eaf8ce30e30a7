// Hostile command-line arguments: currency symbols outside ASCII, URLs with control characters,
// order ids with invisible characters. Each is a usage error (exit 64) before any request: the
// misbehaving gateway on 127.0.0.1 counts what arrived, and nothing may.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGw as gw } from '../support/cli.js';
import {
  html502,
  json,
  paymentAnswer,
  startMisbehavingGateway,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
  type MisbehavingGateway,
} from '../support/misbehaving-gateway.js';

let server: MisbehavingGateway;

beforeAll(async () => {
  server = await startMisbehavingGateway();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
});

const env = (): Record<string, string> => ({ GATEWAY_BASE_URL: server.url, GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY, GATEWAY_PAYOUT_KEY: TEST_PAYOUT_KEY });
const run = (args: readonly string[]) => gw([...args, '--timeout', '5'], { env: env() });

/** A usage error naming `flag`, one line of it and its hint, and nothing sent. */
async function expectRefused(args: readonly string[], flag: string, ...words: string[]): Promise<string> {
  const r = await run(args);
  expect(r.exitCode, r.stderr).toBe(64);
  expect(r.stdout).toBe('');
  expect(r.stderr.split('\n')[0]).toContain(flag);
  for (const word of words) expect(r.stderr).toContain(word);
  expect(server.requests).toHaveLength(0);
  return r.stderr;
}

describe('currency symbols are ASCII: upper-cased by ASCII rules, anything else refused (64, nothing sent)', () => {
  // Unicode upper-casing would make each of these a real symbol: ſ → S, ı → I, ﬀ → FF, ﬅ → ST.
  const folding = [
    ['uſdt', 'U+017F'],
    ['bıtcoin', 'U+0131'],
    ['ﬀ', 'U+FB00'],
    ['uﬅ', 'U+FB05'],
    ['ＢＴＣ', 'U+FF22'],
    ['USDT\u200b', 'U+200B'],
  ] as const;

  it.each(folding)('pay 25 %s → 64 naming the character', async (symbol, code) => {
    await expectRefused(['pay', '25', symbol], '<currency>', code, 'not ASCII');
  });

  it.each(folding)('pay --pay-currency %s → 64', async (symbol, code) => {
    await expectRefused(['pay', '25', 'USD', '--pay-currency', symbol], '--pay-currency', code);
  });

  it.each([
    [['rate', 'uſdt', 'USD'], '<from>'],
    [['rate', 'BTC', 'uſd'], '<to>'],
    [['balance', 'uſdt'], '[currency]'],
    [['payments', '--currency', 'uſd'], '--currency'],
    [['payments', '--pay-currency', 'uſdt'], '--pay-currency'],
    [['webhook', 'send', 'http://127.0.0.1:9/hook', '--currency', 'uſdt'], '--currency'],
  ])('%j → 64 naming %s, nothing sent', async (args, flag) => {
    await expectRefused(args, flag, 'U+017F');
  });

  it('lower-case ASCII is still upper-cased: gw rate btc usdt asks for BTC/USDT', async () => {
    server.program([json({ result: 100, message: 'OK', rate: '97000' })]);
    const r = await run(['rate', 'btc', 'usdt', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const sent = `${server.requests[0]?.path} ${server.requests[0]?.body}`;
    expect(sent).toContain('BTC');
    expect(sent).toContain('USDT');
  });
});

describe('URLs with control or invisible characters are refused (64, nothing sent)', () => {
  // On the test server: a URL that slipped through would be counted there, never sent elsewhere.
  const bad = [
    ['a newline', '/hook\nX-Injected: 1'],
    ['a trailing carriage return', '/hook\r'],
    ['a tab', '/ho\tok'],
    ['a NUL', '/hook\u0000'],
    ['a C1 control', '/hook\u0085'],
    ['a zero-width space', '/ho\u200bok'],
    ['a space', '/ho ok'],
  ] as const;

  it.each(bad)('pay --callback-url with %s → 64', async (_what, tail) => {
    const url = `${server.url}${tail}`;
    const stderr = await expectRefused(['pay', '25', 'USDT', '--no-qr', '--callback-url', url], '--callback-url');
    // The message shows the character as an escape, not as itself.
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u0085\u200b]/);
  });

  it.each(bad)('webhook send <url> with %s → 64', async (_what, tail) => {
    const url = `${server.url}${tail}`;
    await expectRefused(['webhook', 'send', url], '<url>');
  });

  it.each(bad)('listen --forward-to with %s → 64', async (_what, tail) => {
    const url = `${server.url}${tail}`;
    await expectRefused(['listen', '--forward-to', url], '--forward-to');
  });

  it.each(bad)('sandbox trigger --url with %s → 64', async (_what, tail) => {
    const url = `${server.url}${tail}`;
    await expectRefused(['sandbox', 'trigger', 'sbx1', 'paid', '--url', url], '--url');
  });

  it('--base-url with a newline → refused as a bad setting, nothing sent', async () => {
    const r = await run(['rate', 'BTC', 'USDT', '--base-url', `${server.url}\n/x`]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('base URL');
    expect(server.requests).toHaveLength(0);
  });

  it('a plain callback URL is still sent as given', async () => {
    server.program([paymentAnswer()]);
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--order-id', 'o-1', '--callback-url', 'https://shop.example/hook?a=1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests[0]?.body).toContain('https://shop.example/hook?a=1');
  });
});

describe('order ids', () => {
  it.each([
    ['a zero-width space', 'order\u200b-1', 'U+200B'],
    ['a right-to-left override', 'order-\u202e1', 'U+202E'],
    ['a BOM', '\ufefforder-1', 'U+FEFF'],
    ['a tag character', 'order-1\u{e0041}', 'U+{E0041}'],
  ])('pay --order-id with %s → 64 before anything is sent, the character shown as an escape', async (_what, id, written) => {
    const stderr = await expectRefused(['pay', '25', 'USDT', '--no-qr', '--order-id', id], '--order-id', 'invisible');
    expect(stderr).toContain(`\\u${written.slice(2)}`);
  });

  it('after an ambiguous failure the hint names the order id shell-quoted, exactly as typed', async () => {
    server.program([html502()]);
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--order-id', "it's #1 é"]);
    expect(r.stderr).toContain('MAY HAVE BEEN CREATED');
    expect(r.stderr).toContain(`gw payments --order-id 'it'\\''s #1 é'`);
  });
});
