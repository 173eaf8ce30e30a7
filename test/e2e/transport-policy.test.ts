// The transport policy seen from outside, with the built binary (what the in-process suite,
// test/cli/transport-policy.test.ts, cannot show): the built binary reads past interim 1xx
// answers, malformed framing is exit 76, and a whole process ends at its deadline.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gw, type GwResult } from '../support/gw.js';
import {
  hang,
  json,
  rawSocket,
  refusedPort,
  startMisbehavingGateway,
  type Behaviour,
  type MisbehavingGateway,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
} from '../support/misbehaving-gateway.js';
import { expectCleanFailure } from '../support/failure-output.js';

const MERCHANT_KEY = TEST_MERCHANT_KEY;
const PAYOUT_KEY = TEST_PAYOUT_KEY;

const OK_CURRENCIES: Behaviour = json({ data: { list: ['BTC', 'USDT'] }, message: 'OK', error: {}, status: 200, version: '1.0.0' });

const envFor = (url: string): Record<string, string> => ({
  GATEWAY_BASE_URL: url,
  GATEWAY_MERCHANT_KEY: MERCHANT_KEY,
  GATEWAY_PAYOUT_KEY: PAYOUT_KEY,
});

let server: MisbehavingGateway;
let other: MisbehavingGateway;

beforeAll(async () => {
  server = await startMisbehavingGateway();
  other = await startMisbehavingGateway();
});

afterAll(async () => {
  await server.close();
  await other.close();
});

beforeEach(() => {
  server.reset();
  other.reset();
});

const run = (args: readonly string[], extraEnv: Record<string, string> = {}): Promise<GwResult> => gw(args, { env: { ...envFor(server.url), ...extraEnv } });

describe('the process', () => {
  it('rate: a gateway that never answers, --timeout 1 → exit 75 within a few seconds, one request', async () => {
    server.program([hang()]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '1']);
    // The budget left when the request began: 1 s, or a little less when start-up took over 50 ms.
    expect(expectCleanFailure(r, 75)).toMatch(/within (?:1|0\.\d) s/);
    expect(r.ms).toBeLessThan(8000);
    expect(server.requests).toHaveLength(1);
  });

  it('pay: against a refused port → exit 69, nothing arrived anywhere, no MAY-have-been-created warning', async () => {
    const port = await refusedPort();
    const r = await gw(['pay', '25', 'USDT', '--no-qr', '--timeout', '5', '--order-id', 'ORD-X'], { env: envFor(`http://127.0.0.1:${port}`) });
    const stderr = expectCleanFailure(r, 69);
    expect(stderr).toMatch(/refused/);
    expect(stderr).not.toMatch(/may have been created/i);
  });
});

describe('HTTP framing', () => {
  const rateAnswer = '{"result":100,"message":"OK","rate":"64250.12"}';
  const final = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${rateAnswer.length}\r\n\r\n${rateAnswer}`;

  it('rate: interim 100 Continue and 103 Early Hints before the answer are read past → exit 0, one request', async () => {
    server.program([rawSocket(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n${final}`)]);
    const r = await run(['rate', 'BTC', 'USDT', '--timeout', '10']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('64250.12');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: a malformed header line → exit 76 "could not be understood", one request, MAY-have-been-created warning', async () => {
    server.program([rawSocket('HTTP/1.1 200 OK\r\nContent Type: application/json\r\nContent-Length: 2\r\n\r\n{}')]);
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--timeout', '10', '--order-id', 'ORD-HPE']);
    const stderr = expectCleanFailure(r, 76);
    expect(stderr).toMatch(
      /^gw: the gateway's answer could not be understood: it is not valid HTTP\/1\.1 \(Invalid header token\); the payment MAY HAVE BEEN CREATED/m,
    );
    expect(stderr).toContain('ORD-HPE');
    expect(server.requests).toHaveLength(1);
  });

  it('pay: a 101 Switching Protocols nobody asked for → exit 76 at once (not at the deadline, exit 75), one request, MAY-have-been-created warning', async () => {
    server.program([rawSocket('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n')]);
    const r = await run(['pay', '25', 'USDT', '--no-qr', '--timeout', '30', '--order-id', 'ORD-101']);
    const stderr = expectCleanFailure(r, 76);
    expect(stderr).toMatch(
      /^gw: the gateway's answer could not be understood: it is not valid HTTP\/1\.1 \(a switch to another protocol \(101\).*MAY HAVE BEEN CREATED/m,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('currencies: broken chunked encoding → exit 76, one request (a malformed answer is not retried)', async () => {
    server.program([rawSocket('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n'), OK_CURRENCIES]);
    const r = await run(['currencies', '--timeout', '10']);
    expect(expectCleanFailure(r, 76)).toMatch(/not valid HTTP\/1\.1 \(Invalid character in chunk size\)/);
    expect(server.requests).toHaveLength(1);
  });
});
