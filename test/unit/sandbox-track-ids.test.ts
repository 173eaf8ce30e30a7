// New track ids of a --sandbox run (src/sandbox/store.ts, track-id.ts): nine digits drawn with
// Math.random, drawn again while this sandbox or the journal (written by earlier or concurrent
// runs, src/sandbox/journal.ts) already has the number, so a later `gw status <id> --sandbox`
// never finds another payment under it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LosslessNumber } from 'lossless-json';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxJournal } from '../../src/sandbox/journal.js';
import { PaymentStore } from '../../src/sandbox/store.js';
import { startSandboxServer } from '../../src/sandbox/server.js';
import { randomTrackNumber } from '../../src/sandbox/track-id.js';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
/** A white-label payment's fields, as the sandbox reads them from a request. */
const FIELDS = { amount: new LosslessNumber('25'), currency: 'USDT', payCurrency: 'USDT' };

/** What Math.random returns for randomTrackNumber to give `id` (nine digits). */
const drawing = (id: number): number => (id - 100_000_000 + 0.5) / 900_000_000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sandbox track ids', () => {
  it('nine digits, from the lowest to the highest draw', () => {
    const random = vi.spyOn(Math, 'random');
    for (const [r, id] of [
      [0, '100000000'],
      [drawing(555_555_555), '555555555'],
      [1 - 2 ** -53, '999999999'],
    ] as const) {
      random.mockReturnValueOnce(r);
      expect(randomTrackNumber()).toBe(id);
    }
  });

  it('a number the journal already has (another run wrote it) is drawn again', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-track-ids-')), 'sandbox-payments.jsonl');
    const store = new PaymentStore(new SandboxJournal(file));
    // Another run's payment, journaled after this sandbox opened the journal.
    const other = await startSandboxServer({ listen: false, journal: file, now: () => T0 });
    try {
      vi.spyOn(Math, 'random').mockReturnValueOnce(drawing(555_555_555));
      expect(other.gateway.createPayment(FIELDS)).toMatchObject({ ok: true, value: { trackId: '555555555' } });
    } finally {
      await other.close();
    }
    vi.restoreAllMocks();
    const random = vi
      .spyOn(Math, 'random')
      .mockReturnValueOnce(drawing(555_555_555))
      .mockReturnValueOnce(drawing(555_555_555))
      .mockReturnValueOnce(drawing(123_456_789));
    expect(store.newTrackId()).toBe('123456789');
    expect(random).toHaveBeenCalledTimes(3);
  });

  it('without a journal, every number it draws is new', () => {
    vi.spyOn(Math, 'random').mockReturnValueOnce(drawing(200_000_000));
    expect(new PaymentStore(undefined).newTrackId()).toBe('200000000');
  });
});
