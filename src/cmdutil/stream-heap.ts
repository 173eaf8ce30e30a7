// The V8 heap of a listing streamed page by page (gw payments --all and --format csv, gw payouts
// --format csv, gw address list --all), kept the same size however many rows go through it.
//
// Such a listing keeps no row, but V8 sizes its heap to the allocation. Every scavenge adds the
// bytes that survived it to a count, and once the count passes the young generation's size the
// young generation doubles (1 MB a semi-space at start, up to 16), so the longer the listing, the
// larger the young generation; and the old generation may grow by 8 MB or more past what was live
// after each full collection. So, from its first page on, the listing asks V8 for:
// - `--semi-space-growth-factor=1`: the young generation keeps the size it has (V8 reads the
//   factor each time it would grow it; `--max-semi-space-size` is read once, as V8 starts, and set
//   here changes nothing);
// - `--optimize-for-size`: the old generation grows by smaller steps between full collections.
// They are set as the second page is written (a listing of one page does not load node:v8 for them),
// so after the modules the command loads (a V8 flag changed at run time makes V8 refuse Node's
// code cache for the built-in modules loaded after it),
// and put back as the process exits, before the launcher (bin/gw.cjs) may write the command's code
// cache: V8 stamps a cache with its flags and refuses it under others
// (test/e2e/listing-heap.test.ts). Measured with scripts/bench-listing.mjs (docs/performance.md).
import type { IOStreams } from '../output/iostreams.js';

const FLAGS = ['--semi-space-growth-factor=1', '--optimize-for-size'];
// --optimize-for-size also sets --max-semi-space-size=1 (which V8 reads only as it starts): put back too.
const DEFAULTS = ['--semi-space-growth-factor=2', '--no-optimize-for-size', '--max-semi-space-size=0'];

let set = false;

/**
 * Keeps V8's heap from growing with the rows of a streamed listing, once per process, when `io`
 * writes the process's own stdout (not in a test's process, which runs many commands).
 */
export function keepHeapFlat(io: IOStreams): void {
  if (set || !io.stdoutIsProcess) return;
  set = true;
  // A heap flag given to Node (node --optimize-for-size bin/gw.cjs, NODE_OPTIONS) is the user's.
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (/semi.space|optimize.for.size/.test(given)) return;
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of FLAGS) setFlagsFromString(flag);
  process.prependOnceListener('exit', () => {
    for (const flag of DEFAULTS) setFlagsFromString(flag);
  });
}
