// stdout or stderr when it is not a terminal, written with fs.writeSync. Node writes to pipes and
// files synchronously on Linux and macOS anyway; what this saves is creating process.stdout
// (a net.Socket or a SyncWriteStream), which costs a one-request command more than its writes do.
// A terminal keeps Node's stream (colours, columns, resizing), and so does Windows.
//
// A descriptor the parent left non-blocking answers EAGAIN instead of waiting: from then on the
// rest goes through Node's stream, which waits for the pipe. Any other error (EPIPE: the reader
// went away; ENOSPC: disk full) goes to the write's callback, as a stream reports it.
import { fstatSync, fsync, readFileSync, statSync, writeSync } from 'node:fs';
import type { OutStream } from './streams.js';

export class FdStream implements OutStream {
  readonly isTTY = false;
  #stream: NodeJS.WriteStream | undefined;
  /** Whether the descriptor is a regular file (known on the first sync). */
  #isFile: boolean | undefined;

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WriteStream,
    /** fs.writeSync; a test passes another. */
    private readonly writeTo: (fd: number, bytes: Uint8Array, offset: number) => number = writeSync,
  ) {}

  /** Bytes handed to Node's stream and not yet written (0 while writes are direct). */
  get writableLength(): number {
    return this.#stream?.writableLength ?? 0;
  }

  /**
   * Makes what was written durable: fsync when the descriptor is a regular file (pipes, sockets and
   * devices have nothing to sync); the callback gets its error (EIO, ENOSPC on some file systems).
   */
  sync(callback: (error?: Error | null) => void): void {
    const flushed = (): void => {
      try {
        this.#isFile ??= fstatSync(this.fd).isFile();
      } catch (error) {
        callback(error as Error);
        return;
      }
      if (this.#isFile) fsync(this.fd, (error) => callback(error));
      else callback();
    };
    // Bytes still queued in Node's stream (after EAGAIN) are written first.
    if (this.#stream !== undefined && this.#stream.writableLength > 0) this.#stream.write('', (error) => (error ? callback(error) : flushed()));
    else flushed();
  }

  /**
   * Whether this descriptor looks closed: on Linux, the null device opened for reading and
   * writing. Node opens /dev/null that way in place of a stdout the parent closed (`gw … >&-`)
   * before any of gw runs, so a closed stdout writes nowhere without an error. A shell's
   * `>/dev/null` opens it write-only and is not taken for closed; a parent that "ignores" the
   * output (Node's stdio 'ignore', Python's DEVNULL, Go's nil Stdout) opens it read-write too and
   * cannot be told apart. Read once, on first ask.
   */
  get looksClosed(): boolean {
    this.#looksClosed ??= nullDeviceReadWrite(this.fd);
    return this.#looksClosed;
  }
  #looksClosed: boolean | undefined;

  /** Node's own stream for this descriptor (for a library that needs a real stream). */
  real(): NodeJS.WriteStream {
    if (this.#stream === undefined) {
      this.#stream = this.nodeStream();
      this.#stream.on('error', () => undefined); // reported through the write callbacks
    }
    return this.#stream;
  }

  write(chunk: string, callback?: (error?: Error | null) => void): boolean {
    if (this.#stream !== undefined) return this.#stream.write(chunk, callback);
    const bytes = Buffer.from(chunk, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += this.writeTo(this.fd, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return this.real().write(bytes.subarray(written), callback);
      queueMicrotask(() => callback?.(error as Error));
      return false;
    }
    if (callback !== undefined) queueMicrotask(() => callback());
    return true;
  }
}

/**
 * The stream gw writes descriptor `fd` through: on a POSIX system an FdStream for a pipe (a FIFO,
 * or the socket pair Node gives a child), a regular file, or a device that is not a terminal
 * (/dev/null); else Node's stream (a terminal, Windows, a descriptor that is not open).
 */
export function outputFor(fd: 1 | 2, nodeStream: () => NodeJS.WriteStream): OutStream & { writableLength?: number } {
  if (process.platform === 'win32') return nodeStream();
  try {
    const stats = fstatSync(fd);
    if (stats.isFIFO() || stats.isFile() || stats.isSocket()) return new FdStream(fd, nodeStream);
    // /dev/null (where benchmarks and cron jobs send output) without loading node:tty to ask.
    if (stats.isCharacterDevice() && (stats.rdev === nullDevice() || !process.getBuiltinModule('node:tty').isatty(fd))) return new FdStream(fd, nodeStream);
  } catch {
    // Not open: Node's stream reports it as it always has.
  }
  return nodeStream();
}

/** `fd` is the null device, opened O_RDWR (Linux: /proc/self/fdinfo; elsewhere never). */
export function nullDeviceReadWrite(fd: number, fdinfo = (n: number): string => readFileSync(`/proc/self/fdinfo/${n}`, 'latin1')): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || stats.rdev !== nullDevice()) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(fdinfo(fd))?.[1];
    // O_ACCMODE is 3; O_RDWR is 2.
    return flags !== undefined && (Number.parseInt(flags, 8) & 3) === 2;
  } catch {
    return false;
  }
}

function nullDevice(): number | undefined {
  try {
    return statSync('/dev/null').rdev;
  } catch {
    return undefined;
  }
}

/** Node's stream behind an OutStream, for a library that needs one (the terminal prompts). */
export function realStream(stream: OutStream): OutStream {
  return stream instanceof FdStream ? stream.real() : stream;
}
