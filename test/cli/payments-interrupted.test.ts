// gw payments --all --json writes its document as the pages come. Ctrl-C or SIGTERM while a page
// is being read must not leave half a document: the payments read are closed into a valid JSON
// document with "complete": false, and the exit code is the signal's (130, 143). Run in process,
// the factory's interrupt signal aborted as main.ts does on SIGINT/SIGTERM.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { interrupted, terminated } from '../../src/errors.js';
import { runGw as gw } from '../support/cli.js';
import { hang, json, type MisbehavingGateway, type RecordedRequest, startMisbehavingGateway, TEST_MERCHANT_KEY } from '../support/misbehaving-gateway.js';

const NOW = Math.floor(Date.now() / 1000);
const row = (i: number) => ({
  track_id: String(800_000 + i),
  type: 'white_label',
  amount: 25,
  currency: 'USD',
  status: 'paid',
  order_id: `o-${i}`,
  date: NOW - i * 60,
  txs: [],
});

/** Page 1 of 3 answers; page 2 never comes. */
function firstPageOnly(req: RecordedRequest) {
  const page = Number(new URL(req.path, 'http://x').searchParams.get('page') ?? 1);
  if (page > 1) return hang();
  return json({ data: { list: [row(1), row(2)], meta: { page: 1, last_page: 3, total: 6 } }, message: 'ok', error: {}, status: 200, version: '1.0.0' });
}

describe('gw payments --all --json, interrupted while reading a page', () => {
  let server: MisbehavingGateway;
  const env = (): Record<string, string> => ({ GATEWAY_BASE_URL: server.url, GATEWAY_API: 'v1', GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY });

  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => {
    server.reset();
    server.program(firstPageOnly);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['Ctrl-C', 130, interrupted],
    ['SIGTERM', 143, terminated],
  ] as const)('%s: exit %i, a valid document with the payments read and "complete": false', async (_name, code, reason) => {
    const interrupt = new AbortController();
    const run = gw(['payments', '--all', '--json'], { env: env(), interrupt: interrupt.signal });
    await server.waitForRequests(2);
    interrupt.abort(reason());
    const r = await run;
    expect(r.exitCode).toBe(code);
    const doc = JSON.parse(r.stdout) as { payments: Array<{ trackId: string }>; complete: boolean; pages: unknown; total: unknown };
    expect(doc.payments.map((p) => p.trackId)).toEqual(['800001', '800002']);
    expect(doc.complete).toBe(false);
    const error = JSON.parse(r.stderr.trimEnd().split('\n').at(-1) ?? '') as { error: { exitCode: number; message: string } };
    expect(error.error.exitCode).toBe(code);
    expect(error.error.message).toMatch(/^the listing is incomplete: stopped before page 2 of 3; 2 payments shown/);
  });

  it('human --all: the rows read, then the one line; exit 130', async () => {
    const interrupt = new AbortController();
    const run = gw(['payments', '--all'], { env: env(), interrupt: interrupt.signal });
    await server.waitForRequests(2);
    interrupt.abort(interrupted());
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toContain('800002');
    expect(r.stderr).toMatch(/gw: the listing is incomplete: stopped before page 2 of 3; 2 payments shown/);
  });
});
