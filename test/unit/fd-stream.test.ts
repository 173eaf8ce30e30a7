// FdStream (src/output/fd-stream.ts): stdout and stderr written straight to their descriptor when
// they are not a terminal. What a user would notice: every byte arrives, in order, before gw says
// it is done; a full disk is reported (gw exits 74); a descriptor that answers EAGAIN gets the
// rest through Node's stream, nothing lost or doubled. (Which descriptors get an FdStream is seen
// from outside: test/e2e/process.test.ts writes through a socket pair, a closed pipe and /dev/full.)
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FdStream } from '../../src/output/fd-stream.js';
import { removeDir, tempDir } from '../support/gw.js';

const written = (stream: FdStream, text: string): Promise<Error | null | undefined> => new Promise((resolve) => stream.write(text, resolve));

describe('FdStream', () => {
  it('writes every byte to the descriptor, in order, and calls back without an error', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'out');
    const fd = openSync(file, 'w');
    const stream = new FdStream(fd, () => {
      throw new Error('Node’s stream is not needed');
    });
    expect(await written(stream, 'café ')).toBeUndefined();
    expect(await written(stream, `${'x'.repeat(200_000)}\n`)).toBeUndefined();
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe(`café ${'x'.repeat(200_000)}\n`);
    expect(stream.writableLength).toBe(0);
    removeDir(dir);
  });

  it.runIf(existsSync('/dev/full'))('a full disk (/dev/full) is an ENOSPC error in the callback', async () => {
    const fd = openSync('/dev/full', 'w');
    const stream = new FdStream(fd, () => {
      throw new Error('not for ENOSPC');
    });
    expect(((await written(stream, 'data\n')) as NodeJS.ErrnoException | undefined)?.code).toBe('ENOSPC');
    closeSync(fd);
  });

  it('a descriptor that answers EAGAIN mid-write: the rest, and every later write, go through Node’s stream', async () => {
    const direct: string[] = [];
    const viaStream: string[] = [];
    let calls = 0;
    const fake = {
      write: (chunk: Uint8Array | string, cb?: () => void) => {
        viaStream.push(Buffer.from(chunk).toString('utf8'));
        cb?.();
        return true;
      },
      on: () => fake,
      writableLength: 0,
    } as unknown as NodeJS.WriteStream;
    const stream = new FdStream(
      99,
      () => fake,
      (_fd, bytes, offset) => {
        calls++;
        if (calls === 2) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
        const part = bytes.subarray(offset, offset + 4); // a pipe that takes four bytes at a time
        direct.push(Buffer.from(part).toString('utf8'));
        return part.length;
      },
    );
    expect(await written(stream, 'abcdefghij')).toBeUndefined();
    expect(await written(stream, 'klm')).toBeUndefined();
    expect(direct.join('') + viaStream.join('')).toBe('abcdefghijklm');
    expect(direct).toEqual(['abcd']);
    expect(viaStream).toEqual(['efghij', 'klm']);
  });
});
