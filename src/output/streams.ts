// What IOStreams, the prompter and the descriptor writer (fd-stream.ts) need of stdin, stdout and
// stderr: the process's streams, an FdStream, or the in-memory ones of IOStreams.test().

export interface OutStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Makes what was written durable (fsync on a regular file; nothing to do elsewhere). */
  sync?(callback: (error?: Error | null) => void): void;
  isTTY?: boolean | undefined;
  /** The descriptor looks closed: writes succeed and go nowhere (FdStream.looksClosed). */
  readonly looksClosed?: boolean;
  columns?: number | undefined;
  rows?: number | undefined;
}

export interface InStream {
  isTTY?: boolean | undefined;
  /** The bytes piped in (a Readable is one): what readStdin and readInput read; a terminal's keys are read by the Prompter instead. */
  [Symbol.asyncIterator]?(): AsyncIterator<unknown>;
  /** A terminal's keys, one at a time (IOStreams.readKeys): raw mode and the data events. */
  setRawMode?(mode: boolean): unknown;
  on?(event: 'data', listener: (chunk: unknown) => void): unknown;
  off?(event: 'data', listener: (chunk: unknown) => void): unknown;
  resume?(): unknown;
  pause?(): unknown;
}
