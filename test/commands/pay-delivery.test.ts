// gw pay's output is the only record of the payment it created: output that did not arrive is exit
// 74 naming the payment (one line, its track id), never exit 0, also with --wait (before waiting).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock.js';
import { buildPaymentRequest, type PayOptions, payRun } from '../../src/commands/pay.js';
import { ExitCode } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';
import type { OutStream } from '../../src/output/streams.js';
import { FakeGateway, tronPayment } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
const request = buildPaymentRequest('25', 'USDT', { orderId: 'ORD-7' });

/** A stdout that takes every write without error; `looksClosed` as FdStream reports a `>&-` stdout. */
function sink(looksClosed: boolean): OutStream & { text: string } {
  const out = {
    text: '',
    looksClosed,
    write(chunk: string, callback?: (error?: Error | null) => void): boolean {
      out.text += chunk;
      callback?.();
      return true;
    },
  };
  return out;
}

function setup(looksClosed: boolean, extra: Partial<PayOptions> = {}, json = true) {
  const stderr = sink(false);
  const io = new IOStreams({ stdout: sink(looksClosed), stderr, env: {} });
  io.setJson(json);
  const gateway = new FakeGateway({ payment: tronPayment(clock.now()) });
  const opts: PayOptions = { io, gateway: async () => gateway, clock, request, qr: 'never', qrOut: undefined, ...extra };
  return { io, gateway, opts, stderr };
}

describe('pay with a stdout that looks closed (gw pay … --json >&-)', () => {
  it.each([true, false])('json %s: exit 74, one stderr line naming the created payment and its track id', async (json) => {
    const { io, opts, stderr } = setup(true, {}, json);
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.IOERR, trackId: '184729305', payment: 'created' });
    expect(error.message).toBe('payment 184729305 was created, but the output could not be written to stdout (it is closed)');
    io.reportFailure(error);
    const lines = stderr.text.trimEnd().split('\n');
    expect(lines.at(-1)).toContain('payment 184729305 was created');
    if (json) expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ error: { exitCode: 74, trackId: '184729305', payment: 'created' } });
    else expect(stderr.text).not.toContain('hint:');
  });

  it('--wait: stops before waiting (nothing would show the ending)', async () => {
    const { opts, gateway } = setup(true, { wait: true });
    const error = await gwFailure(payRun(opts));
    expect(error).toMatchObject({ exitCode: ExitCode.IOERR, payment: 'created' });
    expect(gateway.calls.map((c) => c.method)).toEqual(['createPayment']);
  });

  it('an open stdout: exit 0 as before', async () => {
    const { opts } = setup(false);
    await payRun(opts);
  });
});
