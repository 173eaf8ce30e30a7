// Receipts on disk (src/cmdutil/receipts.ts): the folder's file names (date and track id, no id
// leaving the folder, no two ids sharing a name), the checks before a payment, and the write that
// never replaces a file and leaves nothing behind when it fails.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkReceiptTarget, parseReceiptWidth, prepareReceipt, receiptFileName, writeFileExclusive, writeReceipt } from '../../src/cmdutil/receipts.js';
import { ExitCode, GwError } from '../../src/errors.js';
import { V1_SAMPLES } from '../support/v1-payment-info.js';

const NOW = Date.UTC(2026, 10, 25, 14, 30, 5);
const folder = (): string => mkdtempSync(path.join(tmpdir(), 'gw-receipts-'));

describe('receiptFileName', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Asia/Tokyo';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('the local date and time, then the track id', () => {
    expect(receiptFileName('184729305', NOW)).toBe('20261125-233005-184729305.txt');
  });

  it.each(['../../etc/passwd', 'a/b', 'a b', 'ab\u001b[2J', '', '.', '..', 'Ünï', 'x'.repeat(200)])('%j stays in the folder, and tells its id apart', (id) => {
    const name = receiptFileName(id, NOW);
    expect(name).toMatch(/^20261125-233005-[A-Za-z0-9_-]*-[0-9a-f]{8}\.txt$|^20261125-233005-[A-Za-z0-9_-]{1,64}\.txt$/);
    expect(path.basename(name)).toBe(name);
    expect(name.length).toBeLessThanOrEqual(16 + 64 + 9 + 4);
  });

  it('two ids that would read the same get different names', () => {
    expect(receiptFileName('a/b', NOW)).not.toBe(receiptFileName('a_b', NOW));
    expect(receiptFileName('a/b', NOW)).not.toBe(receiptFileName('a b', NOW));
    expect(receiptFileName('a_b', NOW)).toBe('20261125-233005-a_b.txt');
  });
});

describe('checkReceiptTarget', () => {
  const check = async (target: Parameters<typeof checkReceiptTarget>[0]): Promise<GwError | undefined> => {
    try {
      await checkReceiptTarget(target);
      return undefined;
    } catch (error) {
      if (error instanceof GwError) return error;
      throw error;
    }
  };

  it('a folder: fine when it is one and writable; 73 when missing or a file', async () => {
    const dir = folder();
    expect(await check({ kind: 'dir', path: dir, flag: '--receipts' })).toBeUndefined();
    const missing = await check({ kind: 'dir', path: path.join(dir, 'nope'), flag: '--receipts' });
    expect(missing).toMatchObject({ exitCode: ExitCode.CANTCREAT });
    expect(missing?.message).toMatch(/^--receipts .*nope cannot be written \(ENOENT: the folder does not exist\); no payment was created$/);
    writeFileSync(path.join(dir, 'f'), '');
    expect((await check({ kind: 'dir', path: path.join(dir, 'f'), flag: '--receipts' }))?.message).toContain('ENOTDIR');
  });

  it.skipIf(process.getuid?.() === 0)('a folder gw may not write in: 73', async () => {
    const dir = folder();
    chmodSync(dir, 0o500);
    expect((await check({ kind: 'file', path: path.join(dir, 'r.txt'), flag: '--receipt' }))?.message).toContain('EACCES');
    chmodSync(dir, 0o700);
  });

  it('a name taken by a folder (EISDIR) or a dangling link (EEXIST): 73', async () => {
    const dir = folder();
    mkdirSync(path.join(dir, 'taken'));
    expect((await check({ kind: 'file', path: path.join(dir, 'taken'), flag: '--receipt' }))?.message).toContain('EISDIR: a folder is there');
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'link'));
    expect((await check({ kind: 'file', path: path.join(dir, 'link'), flag: '--receipt' }))?.message).toContain('EEXIST');
  });
});

describe('writeFileExclusive and writeReceipt', () => {
  it('writes the whole text and leaves no temporary file', async () => {
    const dir = folder();
    await writeFileExclusive(path.join(dir, 'a.txt'), 'hello\n');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('hello\n');
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  it('never replaces a file: EEXIST, the file unchanged, nothing left behind', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'a.txt'), 'mine');
    await expect(writeFileExclusive(path.join(dir, 'a.txt'), 'other')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  it('in a folder: one file per payment, named by date and track id', async () => {
    const dir = folder();
    const file = await writeReceipt({ kind: 'dir', path: dir, flag: '--receipts' }, V1_SAMPLES.underpaid(), { width: 32, now: NOW });
    expect(path.dirname(file)).toBe(dir);
    expect(path.basename(file)).toBe(receiptFileName('184729305', NOW));
    expect(readFileSync(file, 'utf8')).toContain('UNDERPAID');
    // The same payment again at the same second: refused, stating the state.
    await expect(writeReceipt({ kind: 'dir', path: dir, flag: '--receipts' }, V1_SAMPLES.underpaid(), { width: 32, now: NOW })).rejects.toMatchObject({
      exitCode: ExitCode.CANTCREAT,
      message: expect.stringMatching(/^payment 184729305 is UNDERPAID, but its receipt could not be written to .* \(EEXIST/),
    });
  });
});

describe('the receipt width: the flag, else the configured one, else 42', () => {
  it.each([
    [undefined, undefined, 42],
    ['32', undefined, 32],
    [' 48 ', 32, 48],
    [undefined, 32, 32],
  ] as const)('flag %j, configured %j: %i', async (flag, configured, width) => {
    const prepared = await prepareReceipt({
      target: { kind: 'dir', path: folder(), flag: '--receipts' },
      width: flag === undefined ? undefined : parseReceiptWidth(flag),
      unicode: false,
      config: async () => (configured === undefined ? {} : { receiptWidth: { value: configured, source: { kind: 'env', name: 'GATEWAY_RECEIPT_WIDTH' } } }),
    });
    expect(prepared.options.width).toBe(width);
  });

  it.each(['40', '42.0', 'wide', ''])('--receipt-width %j: exit 64', (flag) => {
    expect(() => parseReceiptWidth(flag)).toThrow(expect.objectContaining({ exitCode: ExitCode.USAGE }));
  });
});
