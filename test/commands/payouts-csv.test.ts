// gw payouts --format csv: every page streamed under one header (created_at, as gw payments), each
// page written before the next is asked for, each request on its own deadline; pages that repeat,
// a page that fails, a closed stdout end the export after the rows read with one line.
import { describe, expect, it, vi } from 'vitest';
import { PAYOUT_CSV_COLUMNS, type PayoutsOptions, payoutsRun } from '../../src/commands/payouts.js';
import { ExitCode, GwError, interrupted } from '../../src/errors.js';
import type { PayoutFilter, PayoutPage } from '../../src/operations/payout-history.js';
import { decodePayout } from '../../src/operations/payout-info.js';
import type { JsonObject } from '../../src/operations/read.js';
import { IOStreams } from '../../src/output/iostreams.js';
import type { OutStream } from '../../src/output/streams.js';
import { ManualClock } from '../../src/util/clock.js';
import { parseLossless } from '../../src/util/json.js';
import { readCsv } from '../support/csv-reader.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';

const NOW = Date.UTC(2026, 10, 25, 14, 0, 0);

const payout = (id: string) =>
  decodePayout(
    parseLossless(JSON.stringify({ track_id: id, status: 'confirmed', amount: '1.5', fee: '0', currency: 'USDT', date: NOW / 1000 - 60 })) as JsonObject,
    'the test',
  );

/** Page n of `pages`, two payouts each. */
function page(n: number, pages: number): PayoutPage {
  return { payouts: [payout(`${n}01`), payout(`${n}02`)], page: n, pages, total: pages * 2 };
}

function setup(answer: (filter: PayoutFilter, stdout: () => string) => PayoutPage | Promise<PayoutPage>, io = IOStreams.test({})) {
  const t = io;
  const gateway = new FakeGateway({ performed: { 'the payout history': (_name: string, filter: PayoutFilter) => answer(filter, t.stdout) } as never });
  const releaseDeadline = vi.fn();
  const opts: PayoutsOptions = { io: t.io, gateway: async () => gateway, clock: new ManualClock(NOW), filter: {}, csv: true, releaseDeadline };
  return { t, gateway, opts, releaseDeadline };
}

const ids = (stdout: string): string[] =>
  readCsv(stdout)
    .slice(1)
    .map((r) => r[0] ?? '');

describe('gw payouts --format csv', () => {
  it('every page: the header once (created_at), each page on stdout before the next is asked for, the deadline released', async () => {
    const before: string[][] = [];
    const { t, gateway, opts, releaseDeadline } = setup((f, stdout) => {
      before.push(ids(stdout()));
      return page(f.page ?? 1, 3);
    });
    await payoutsRun(opts);
    expect(gateway.calls).toHaveLength(3);
    expect(releaseDeadline).toHaveBeenCalledOnce();
    const [header, ...records] = readCsv(t.stdout());
    expect(header).toEqual([...PAYOUT_CSV_COLUMNS]);
    expect(header?.[1]).toBe('created_at');
    expect(t.stdout().match(/track_id/g)).toHaveLength(1);
    expect(records.map((r) => r[0])).toEqual(['101', '102', '201', '202', '301', '302']);
    // Page 3 was asked for once pages 1 and 2 were written.
    expect(before).toEqual([[], ['101', '102'], ['101', '102', '201', '202']]);
  });

  it('a payout twice on one page is written once', async () => {
    const { t, opts } = setup((f) => {
      const n = f.page ?? 1;
      const p = page(n, 2);
      return n === 1 ? { ...p, payouts: [payout('101'), payout('101'), payout('102')], total: 4 } : { ...p, total: 4 };
    });
    await payoutsRun(opts);
    expect(ids(t.stdout())).toEqual(['101', '102', '201', '202']);
  });

  it('a gateway that sends the same page again: the rows read, then exit 76 and one line; no endless reading', async () => {
    const { t, gateway, opts } = setup(() => page(1, 1_000_000));
    const error = await gwFailure(payoutsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe("the export is incomplete: the gateway's payout page 2 repeats payouts of earlier pages; 2 payouts written");
    expect(gateway.calls).toHaveLength(2);
    expect(ids(t.stdout())).toEqual(['101', '102']);
  });

  it('a page that times out: the rows read, then exit 76 and one line saying where it stopped', async () => {
    const { t, opts } = setup((f) => {
      if ((f.page ?? 1) === 3) throw new GwError(ExitCode.TEMPFAIL, 'the gateway did not answer within 15 s');
      return page(f.page ?? 1, 5);
    });
    const error = await gwFailure(payoutsRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe('the export is incomplete: the payout history stopped before page 3: the gateway did not answer within 15 s; 4 payouts written');
    expect(ids(t.stdout())).toEqual(['101', '102', '201', '202']);
  });

  it("a later page refused by the network: the rows read, then that failure's own exit code (69), as gw payments gives", async () => {
    const { t, opts } = setup((f) => {
      if ((f.page ?? 1) === 2) throw new GwError(ExitCode.UNAVAILABLE, 'connection refused');
      return page(f.page ?? 1, 5);
    });
    const error = await gwFailure(payoutsRun(opts));
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.message).toBe('the export is incomplete: the payout history stopped before page 2: connection refused; 2 payouts written');
    expect(ids(t.stdout())).toEqual(['101', '102']);
  });

  it('interrupted between pages: the rows read, exit 130; the first page failing: nothing on stdout, its own code', async () => {
    const stopped = setup((f) => {
      if ((f.page ?? 1) === 2) throw interrupted();
      return page(f.page ?? 1, 5);
    });
    expect((await gwFailure(payoutsRun(stopped.opts))).exitCode).toBe(ExitCode.INTERRUPTED);
    expect(ids(stopped.t.stdout())).toEqual(['101', '102']);
    const refused = setup(() => {
      throw new GwError(ExitCode.UNAVAILABLE, 'connection refused');
    });
    expect((await gwFailure(payoutsRun(refused.opts))).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(refused.t.stdout()).toBe('');
  });

  it('nothing matches: the header alone', async () => {
    const { t, opts } = setup(() => ({ payouts: [], page: 1, pages: 0, total: 0 }));
    await payoutsRun(opts);
    expect(readCsv(t.stdout())).toEqual([[...PAYOUT_CSV_COLUMNS]]);
  });

  it('stdout closed (EPIPE) after the first page: exit 74, no further page asked for', async () => {
    let out = '';
    let closed = false;
    const stdout: OutStream = {
      write(chunk, callback) {
        if (closed) {
          queueMicrotask(() => callback?.(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
          return false;
        }
        out += chunk;
        closed = true;
        queueMicrotask(() => callback?.());
        return true;
      },
    };
    const stderr: OutStream = {
      write(_chunk, callback) {
        queueMicrotask(() => callback?.());
        return true;
      },
    };
    const io = new IOStreams({ stdout, stderr, env: { NO_COLOR: '1' } });
    const { gateway, opts } = setup((f) => page(f.page ?? 1, 5), { io, stdout: () => out, stderr: () => '' });
    const error = await gwFailure(payoutsRun(opts));
    expect(error.exitCode).toBe(ExitCode.IOERR);
    expect(gateway.calls.length).toBeLessThanOrEqual(2);
  });
});
