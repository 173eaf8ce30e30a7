// What a listing command needs to export CSV (gw payments --format csv; gw payouts can use the
// same): the --format flag, and a writer that streams records to stdout page by page, waiting for
// each page to be written before the next is read, so memory stays flat however many rows.
// The records themselves: src/output/csv.ts (encoding, formula guard) and a view's mapping
// (src/views/payment-csv.ts).
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { IOStreams } from '../output/iostreams.js';
import { keepHeapFlat } from './stream-heap.js';

export type OutputFormat = 'table' | 'json' | 'csv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'csv'];

/**
 * `--format table|json|csv`: json is --json; table the default human output. Undefined when the
 * flag is absent. Exit 64 for another word, or for csv or table with --json.
 */
export function parseFormat(flag: string | undefined, json: boolean): OutputFormat | undefined {
  if (flag === undefined) return undefined;
  const format = OUTPUT_FORMATS.find((f) => f === flag.trim().toLowerCase());
  if (format === undefined) throw new UsageError(`--format must be ${OUTPUT_FORMATS.join(', ')} (got "${flag.slice(0, 20)}")`);
  if (json && format !== 'json') throw new UsageError(`--format ${format} and --json ask for two outputs: give one`);
  return format;
}

/**
 * CSV to stdout as the pages come: the header before the first records (or alone when there are
 * none), each page flushed before the caller reads the next. A stdout that can no longer take
 * the output (the reader went away, a full disk) stops the export: exit 74.
 */
export class CsvWriter {
  #started = false;
  #records = 0;

  constructor(
    private readonly io: IOStreams,
    private readonly header: string,
    /** What a record is, for messages ("payment"). */
    private readonly what: string,
  ) {}

  /** How many items (payments) were written. */
  get count(): number {
    return this.#records;
  }

  /** Writes the records of `items` items (their CRLF-ended text) and waits until stdout took them. */
  async write(text: string, items: number): Promise<void> {
    // From the second page on: an export of one page does not load node:v8 for it.
    if (this.#started) keepHeapFlat(this.io);
    this.#start();
    this.io.out(text);
    this.#records += items;
    await this.#check();
  }

  /** Ends the export: the header alone when nothing was written. */
  async end(): Promise<void> {
    this.#start();
    await this.#check();
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.io.out(this.header);
  }

  async #check(): Promise<void> {
    await this.io.flush();
    if (this.io.stdoutClosed) {
      const n = this.#records;
      throw new GwError(ExitCode.IOERR, `stdout was closed (EPIPE) after ${n} ${this.what}${n === 1 ? '' : 's'}: the CSV export stopped reading`);
    }
  }
}
