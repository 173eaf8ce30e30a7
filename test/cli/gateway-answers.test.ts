// gw against gateway answers that are legal JSON but hostile or contradictory, run in process
// against a real misbehaving server on 127.0.0.1: answers as large as the size cap allows, amounts
// with thousands of digits, balances sent as null, success envelopes carrying an error, answers of
// the other API (a wrong base URL or `api` setting), rate limits and the gateway failing. Each ends
// in a clean line and the documented exit code, never an internal error (exit 70).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runGw } from '../support/cli.js';
import { expectCleanFailure } from '../support/failure-output.js';
import { json, type MisbehavingGateway, raw, startMisbehavingGateway, TEST_MERCHANT_KEY, TEST_PAYOUT_KEY } from '../support/misbehaving-gateway.js';

const GENERAL_KEY = 'gk_live_SECRET_77aa88bb99cc';

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

const legacyEnv = (): Record<string, string> => ({
  GATEWAY_BASE_URL: server.url,
  GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
  GATEWAY_PAYOUT_KEY: TEST_PAYOUT_KEY,
});
const v1Env = (): Record<string, string> => ({ ...legacyEnv(), GATEWAY_API: 'v1', GATEWAY_GENERAL_KEY: GENERAL_KEY });
const run = (args: readonly string[], env: Record<string, string> = legacyEnv()): Promise<CliResult> => runGw(args, { env });

/** A legacy balance answer whose `data` is `data`, sent as exactly this JSON text. */
const balanceAnswer = (data: string) => raw(`{"result":100,"message":"OK","data":${data}}`, 200, { 'content-type': 'application/json' });

describe('large balance answers', () => {
  it('as many entries as fit under the 1 MiB cap (over 130 000, past what a spread into Math.max takes): every row printed, exit 0', async () => {
    // The shortest distinct symbols: 1, 2, then 3 characters that JSON writes without escapes.
    const chars = Array.from({ length: 0x7f - 0x23 }, (_, i) => String.fromCharCode(0x23 + i)).filter((c) => c !== '\\');
    const symbols = [...chars, ...chars.flatMap((a) => chars.map((b) => a + b)), ...chars.flatMap((a) => chars.flatMap((b) => chars.map((c) => a + b + c)))];
    const budget = 1024 * 1024 - 64;
    const entries: string[] = [];
    let size = 2;
    for (const symbol of symbols) {
      const entry = `"${symbol}":0`;
      if (size + entry.length + 1 > budget) break;
      entries.push(entry);
      size += entry.length + 1;
    }
    expect(entries.length).toBeGreaterThan(131_000);
    server.program([balanceAnswer(`{${entries.join(',')}}`)]);
    // 130 000 rows take a few seconds on a quiet machine, and over 20 s under heavy load: a generous bound.
    const r = await run(['balance', '--timeout', '60']);
    expect(r.exitCode, r.stderr.slice(0, 300)).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(entries.length + 2);
    expect(server.requests).toHaveLength(1);
  }, 90_000);

  it.each([
    ['a 250 000-digit amount', `{"BTC":"${'9'.repeat(250_000)}"}`],
    ['a 101-digit amount', `{"BTC":"${'1'.repeat(101)}"}`],
    ['an exponent written out to 1001 digits', '{"BTC":1e1000}'],
    ['a fraction of 120 digits', `{"BTC":"0.${'1'.repeat(120)}"}`],
  ])('%s → exit 76, the field named, never an internal error', async (_name, data) => {
    server.program([balanceAnswer(data)]);
    const r = await run(['balance', '--timeout', '20']);
    expect(expectCleanFailure(r, 76)).toBe(
      "gw: the gateway's answer to the balance request has an unexpected shape: the balance of BTC has more than 100 digits\n",
    );
  });

  it('a long amount and a long fraction among thousands of rows (every row as wide as the widest) → exit 76, not out of memory', async () => {
    const entries = [`"A":"${'9'.repeat(250_000)}"`, `"B":"0.${'1'.repeat(250_000)}"`];
    for (let i = 0; i < 20_000; i++) entries.push(`"C${i}":1`);
    server.program([balanceAnswer(`{${entries.join(',')}}`)]);
    const r = await run(['balance', '--timeout', '20']);
    expect(expectCleanFailure(r, 76)).toContain('has more than 100 digits');
  });

  it('100 digits is still an amount (the largest a chain holds has 78)', async () => {
    server.program([balanceAnswer(`{"BTC":"${'9'.repeat(82)}.${'1'.repeat(18)}"}`)]);
    const r = await run(['balance', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ balances: { BTC: `${'9'.repeat(82)}.${'1'.repeat(18)}` } });
  });
});

describe('balances sent as null', () => {
  it('legacy: shown as unknown with a warning, never 0; JSON keeps the shape with null', async () => {
    server.program([balanceAnswer('{"BTC":null,"USDT":"12.5"}')]);
    const r = await run(['balance']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('Currency  Balance\nBTC       unknown\nUSDT      12.5\n');
    expect(r.stderr).toMatch(/^gw: warning: the gateway gave no amount for "BTC" \(null\): shown as unknown, not 0/);
    const j = await run(['balance', '--json']);
    expect(j.exitCode, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ balances: { BTC: null, USDT: '12.5' } });
  });

  it('v1: {symbol: null} and {symbol: {available: null}} are unknown too', async () => {
    server.program([json({ status: 200, message: 'OK', error: {}, data: { BTC: null, ETH: { available: null, pending: '1' }, TRX: '5' } })]);
    const r = await run(['balance', '--json'], v1Env());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ balances: { BTC: null, ETH: null, TRX: '5' } });
  });
});

describe('a key HTTP cannot carry in a header', () => {
  it.each([
    [
      'the general key with a control character (v1 balance)',
      ['balance'],
      { GATEWAY_GENERAL_KEY: 'gk_live_SECRET\u0001tail' },
      'general',
      'env GATEWAY_GENERAL_KEY',
      'a control character (such as a line break)',
    ],
    [
      'the general key with a line break inside (v1 rate)',
      ['rate', 'BTC', 'USDT'],
      { GATEWAY_GENERAL_KEY: 'gk_live\nSECRET_x' },
      'general',
      'env GATEWAY_GENERAL_KEY',
      'a control character (such as a line break)',
    ],
    [
      'the merchant key with a non-ASCII letter (v1 currencies)',
      ['currencies'],
      { GATEWAY_MERCHANT_KEY: 'mk_live_SECRÉT_9f8e' },
      'merchant',
      'env GATEWAY_MERCHANT_KEY',
      'a character outside ASCII',
    ],
    [
      'the merchant key with an emoji (v1 pay)',
      ['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr'],
      { GATEWAY_MERCHANT_KEY: 'mk_live_🔑_SECRET' },
      'merchant',
      'env GATEWAY_MERCHANT_KEY',
      'a character outside ASCII',
    ],
  ])('%s → exit 78 naming the key and its source, nothing sent, the key never printed', async (_name, args, keys, kind, from, problem) => {
    const env = { ...v1Env(), ...keys };
    const secret = Object.values(keys)[0] ?? '';
    const r = await run(args, env);
    const stderr = expectCleanFailure(r, 78, [secret, ...secret.split(/[^\x21-\x7e]+/).filter((part) => part.length >= 4)]);
    expect(stderr).toContain(`gw: the ${kind} API key (from ${from}) contains ${problem}: it cannot be sent in an HTTP header; nothing was sent\n`);
    expect(server.requests).toHaveLength(0);
  });

  it('legacy: the merchant key travels in a header for gw currencies (exit 78, nothing sent), in the form body for the allowed-coins list', async () => {
    const env = { ...legacyEnv(), GATEWAY_MERCHANT_KEY: 'mk_live_SECRET\u0007x' };
    const r = await run(['currencies'], env);
    expect(expectCleanFailure(r, 78, ['mk_live_SECRET'])).toContain('the merchant API key (from env GATEWAY_MERCHANT_KEY) contains a control character');
    expect(server.requests).toHaveLength(0);
  });
});

describe('an answer from the other API (wrong base URL or api setting)', () => {
  const hint = 'hint: check the base URL and the api setting (legacy or v1; gw config shows both)';

  it('api v1 against a legacy gateway: a 404 HTML page → exit 76 with the hint', async () => {
    server.program([raw('<html><body><h1>404 Not Found</h1></body></html>', 404, { 'content-type': 'text/html' })]);
    const r = await run(['balance'], v1Env());
    const stderr = expectCleanFailure(r, 76);
    expect(stderr).toContain('HTTP 404 with text/html instead of JSON');
    expect(stderr).toContain(hint);
    expect(server.requests.map((q) => q.path)).toEqual(['/v1/general/account/balance']);
  });

  it('api v1, answered in the legacy envelope (a refusal) → its exit code, and the hint', async () => {
    server.program([json({ result: 101, message: 'Invalid request' })]);
    const r = await run(['rate', 'BTC', 'USDT'], v1Env());
    const stderr = expectCleanFailure(r, 65);
    expect(stderr).toContain("the answer came in the legacy interface's envelope: check the base URL and the api setting");
  });

  it('api legacy, answered in the versioned envelope (a refusal) → its exit code, and the hint', async () => {
    server.program([
      json({ status: 400, message: 'Bad request', error: { type: 'invalid_request_error', key: 'unknown_route', message: 'Unknown route' }, data: {} }, 400),
    ]);
    const r = await run(['balance']);
    const stderr = expectCleanFailure(r, 65);
    expect(stderr).toContain("the answer came in the versioned API's envelope: check the base URL and the api setting");
  });

  it('a JSON answer in neither envelope → exit 76 with the hint', async () => {
    server.program([json({ hello: 'world' })]);
    const r = await run(['balance']);
    expect(expectCleanFailure(r, 76)).toContain(hint);
  });
});

describe('a success envelope that carries an error', () => {
  it('v1 status 200 with an error object on a read → exit 76 "contradicts itself", no status invented (JSON has none)', async () => {
    server.program([
      json({ status: 200, message: 'OK', error: { type: 'invalid_request_error', key: 'currency', message: 'Currency disabled' }, data: { BTC: '1' } }),
    ]);
    const r = await run(['balance', '--json'], v1Env());
    expect(r.exitCode).toBe(76);
    const doc = JSON.parse(r.stderr) as { error: Record<string, unknown> };
    expect(doc.error.message).toBe(
      "the gateway's answer to the balance request contradicts itself: status 200 (success) with an error: Currency disabled (currency)",
    );
    expect(doc.error).not.toHaveProperty('status');
    expect(r.stdout).toBe('');
  });

  it('legacy result 100 with an error on pay → exit 76, and the payment MAY exist (never "refused", never sent again)', async () => {
    server.program([json({ result: 100, message: 'OK', error: 'Merchant suspended', trackId: 'trk-1' })]);
    const r = await run(['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr', '--order-id', 'o-1', '--json']);
    expect(r.exitCode).toBe(76);
    const doc = JSON.parse(r.stderr) as { error: Record<string, unknown> };
    expect(doc.error.message).toMatch(
      /^the gateway's answer to the payment request contradicts itself: result 100 \(success\) with an error: Merchant suspended; the payment MAY HAVE BEEN CREATED/,
    );
    expect(doc.error.payment).toBe('unknown');
    expect(doc.error).not.toHaveProperty('status');
    expect(server.requests).toHaveLength(1);
  });
});

describe('rate limits and the gateway failing', () => {
  it('an enveloped v1 429 on a read: retried exactly twice (3 requests), then "rate-limiting … try again later", exit 75', async () => {
    server.program([
      json({ status: 429, message: 'Too many', error: { type: 'rate_limit_error', key: 'too_many_requests', message: 'Slow down' }, data: {} }, 429),
    ]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10'], v1Env());
    expect(expectCleanFailure(r, 75)).toBe(
      'gw: the gateway is rate-limiting requests: Slow down (status 429, too_many_requests)\nhint: the gateway is rate-limiting requests: try again later\n',
    );
    expect(server.requests).toHaveLength(3);
  });

  it('an enveloped v1 503 with Retry-After: 1 on a read: each retry waits it (3 requests), the gateway is failing, not the user', async () => {
    server.program([
      json({ status: 503, message: 'Down', error: { type: 'api_error', key: 'maintenance', message: 'Down for maintenance' }, data: {} }, 503, {
        'retry-after': '1',
      }),
    ]);
    const r = await run(['balance', '--timeout', '10'], v1Env());
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toBe(
      'gw: the gateway is failing: Down for maintenance (status 503, maintenance)\nhint: the gateway failed, not your request: try again in 1 s (the gateway asked to wait that long); if it persists, check the base URL\n',
    );
    expect(server.requests).toHaveLength(3);
  });

  it('a Retry-After past the --timeout deadline: not waited (1 request), and the hint says how long to wait', async () => {
    server.program([json({ result: 124, message: 'Too many requests' }, 429, { 'retry-after': '120' })]);
    const r = await run(['balance', '--timeout', '5']);
    const stderr = expectCleanFailure(r, 75);
    expect(stderr).toContain('hint: the gateway is rate-limiting requests: try again in 120 s (the gateway asked to wait that long)');
    expect(r.ms).toBeLessThan(4000);
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 with Retry-After on pay: sent once, never again', async () => {
    server.program([json({ result: 124, message: 'Too many requests' }, 429, { 'retry-after': '1' })]);
    const r = await run(['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr', '--order-id', 'o-2']);
    expectCleanFailure(r, 75);
    expect(server.requests).toHaveLength(1);
  });
});
