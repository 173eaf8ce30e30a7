// A stdout the parent closed (`gw … >&-`) is, by the time gw runs, /dev/null opened read-write:
// Node reopens a closed descriptor 0–2 that way as it starts. FdStream.looksClosed tells it from a
// shell's `>/dev/null` (write-only) and from a file or pipe.
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FdStream, nullDeviceReadWrite } from '../../src/output/fd-stream.js';

const opened: number[] = [];
const open = (file: string, flags: string): number => {
  const fd = openSync(file, flags);
  opened.push(fd);
  return fd;
};

afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

describe.runIf(process.platform === 'linux')('nullDeviceReadWrite (Linux)', () => {
  it('/dev/null opened read-write, as Node reopens a closed stdout → looks closed', () => {
    expect(nullDeviceReadWrite(open('/dev/null', 'r+'))).toBe(true);
  });

  it("/dev/null opened write-only, as a shell's >/dev/null → not closed", () => {
    expect(nullDeviceReadWrite(open('/dev/null', 'w'))).toBe(false);
  });

  it('a regular file opened read-write → not closed', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-closed-'));
    expect(nullDeviceReadWrite(open(path.join(dir, 'out.txt'), 'w+'))).toBe(false);
  });

  it('an unreadable fdinfo or a descriptor that is not open → not closed (never a false alarm)', () => {
    expect(nullDeviceReadWrite(open('/dev/null', 'r+'), () => 'pos: 0\n')).toBe(false);
    expect(nullDeviceReadWrite(987654)).toBe(false);
  });

  it('FdStream.looksClosed asks once', () => {
    const fd = open('/dev/null', 'r+');
    const stream = new FdStream(fd, () => process.stdout);
    expect(stream.looksClosed).toBe(true);
  });
});
