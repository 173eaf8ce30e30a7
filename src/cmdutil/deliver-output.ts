// What a command prints after it did something (created a payment or an invoice, sent a
// notification) is the record of it: everything written so far must reach stdout. A stdout that
// refused the bytes (disk full, EBADF), or one that looks closed (`>&-`, which Node turns into a
// read-write /dev/null: see FdStream.looksClosed) and so took them without keeping them, is exit 74
// that states what was done: one line on stderr (one JSON line with --json), no hint.
import { ExitCode, GwError } from '../errors.js';
import type { IOStreams } from '../output/iostreams.js';

/** Flushes stdout; a failure, as `done` states it (what was done, and that its record was lost). */
export async function deliverOutput(io: IOStreams, done: (error: GwError) => GwError): Promise<void> {
  try {
    await io.flush();
    if (io.stdoutLooksClosed) throw new GwError(ExitCode.IOERR, 'the output could not be written to stdout (it is closed)');
  } catch (error) {
    if (error instanceof GwError) throw done(error);
    throw error;
  }
}
