// writeQrImage resolves only when the whole image is on disk under its name. Failures the tests
// cannot cause for real (running as root, no full disk at hand) come from a file system that
// fails on purpose; the file at the path is left as it was, and no temporary file stays behind.
import { promises as fsp, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type QrFileSystem, writeQrImage } from '../../src/qr/image.js';

const URI = 'tron:TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe?amount=25';
const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

/** node:fs/promises, except that files it opens fail their writes (after taking `accepted` bytes) or their sync. */
function failingFs(failure: { open?: string; write?: string; sync?: string; rename?: string }, accepted = 100): QrFileSystem {
  return {
    stat: fsp.stat,
    rm: fsp.rm,
    rename: async (from, to) => {
      if (failure.rename !== undefined) throw errno(failure.rename);
      return fsp.rename(from, to);
    },
    open: (async (file: string, flags: string, mode: number) => {
      if (failure.open !== undefined) throw errno(failure.open);
      const handle = await fsp.open(file, flags, mode);
      return new Proxy(handle, {
        get(target, key) {
          if (key === 'writeFile' && failure.write !== undefined)
            return async (data: string | Buffer) => {
              // A short write: part of the image reaches the disk, then the disk is full.
              await target.write(Buffer.from(data).subarray(0, accepted));
              throw errno(failure.write ?? 'EIO');
            };
          if (key === 'sync' && failure.sync !== undefined) return async () => Promise.reject(errno(failure.sync ?? 'EIO'));
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    }) as QrFileSystem['open'],
  };
}

const folderWithOld = (name: string): { dir: string; file: string } => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-qr-write-'));
  const file = path.join(dir, name);
  writeFileSync(file, 'the old image');
  return { dir, file };
};

describe('writeQrImage: all or nothing', () => {
  it.each([
    ['a full disk after a short write', { write: 'ENOSPC' }, 'ENOSPC'],
    ['a failed sync', { sync: 'EIO' }, 'EIO'],
    ['permission denied creating the file', { open: 'EACCES' }, 'EACCES'],
    ['a failed rename', { rename: 'EXDEV' }, 'EXDEV'],
  ] as const)('%s: rejects with %s, the existing file unchanged, no temporary file left', async (_what, failure, code) => {
    const { dir, file } = folderWithOld('qr.png');
    await expect(writeQrImage(URI, file, {}, failingFs(failure))).rejects.toMatchObject({ code });
    expect(readFileSync(file, 'utf8')).toBe('the old image');
    expect(readdirSync(dir)).toEqual(['qr.png']);
  });

  it('a full disk with no file there before: rejects, and nothing is left at the path', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-qr-write-'));
    await expect(writeQrImage(URI, path.join(dir, 'qr.svg'), {}, failingFs({ write: 'ENOSPC' }))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder that does not exist: ENOENT', async () => {
    await expect(writeQrImage(URI, path.join(tmpdir(), 'gw-no-such-folder-4711', 'qr.png'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a folder at the path: EISDIR, the folder untouched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-qr-write-'));
    await fsp.mkdir(path.join(dir, 'qr.png'));
    await expect(writeQrImage(URI, path.join(dir, 'qr.png'))).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(dir)).toEqual(['qr.png']);
  });

  it('success replaces an existing file whole and keeps its permission bits', async () => {
    const { dir, file } = folderWithOld('qr.png');
    await fsp.chmod(file, 0o640);
    await writeQrImage(URI, file);
    const bytes = readFileSync(file);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await fsp.stat(file)).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['qr.png']);
  });
});
