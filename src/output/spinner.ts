// A sign of life on stderr while gw waits for one answer (a payment created or looked up, the
// doctor's checks): a spinner on the live line, for a person watching a terminal only (see
// IOStreams.canSpin: stderr a terminal, not TERM=dumb, not --json).
//
// It is driven by the injected Clock (its sleeps), never by an interval: stopping it aborts the
// sleep in progress, which clears its timer, so nothing keeps the process alive after the command.
// It shows only once the wait has lasted SHOW_AFTER_MS (a quick answer shows nothing), and its
// line is removed when it stops; anything written to stderr, or to stdout on the same terminal,
// removes the line first (IOStreams.err/out), and the next frame draws it again below.
import type { Clock } from '../util/clock.js';

/** Braille frames: the spinner's, and the wait's state line's (src/cmdutil/follow.ts). */
export const SPINNER_FRAMES: readonly string[] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** A wait shorter than this shows nothing. */
export const SHOW_AFTER_MS = 200;
/** Time between frames. */
export const FRAME_MS = 100;

/** What the spinner needs of IOStreams. */
export interface SpinnerOutput {
  canSpin(): boolean;
  liveLine(text: string): void;
  endLiveLine(): void;
}

export interface Spinner {
  /** Changes the words beside the spinner (the next frame shows them). */
  update(text: string): void;
  /** Stops it and removes its line; nothing is drawn after. Safe to call more than once. */
  stop(): void;
}

const NO_SPINNER: Spinner = { update: () => undefined, stop: () => undefined };

/** Starts a spinner with `text` beside it, where the output allows one; else one that does nothing. */
export function startSpinner(io: SpinnerOutput, clock: Clock, text: string): Spinner {
  if (!io.canSpin()) return NO_SPINNER;
  const stopped = new AbortController();
  let words = text;
  let drawn = false;
  const run = async (): Promise<void> => {
    await clock.sleep(SHOW_AFTER_MS, stopped.signal);
    for (let frame = 0; !stopped.signal.aborted; frame++) {
      io.liveLine(`${SPINNER_FRAMES[frame % SPINNER_FRAMES.length]} ${words}`);
      drawn = true;
      await clock.sleep(FRAME_MS, stopped.signal);
      // A clock whose sleeps return at once (a test's) must not starve the work being waited for.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  run().catch(() => undefined); // stopped: the sleep rejects with the abort
  return {
    update: (next) => {
      words = next;
    },
    stop: () => {
      if (stopped.signal.aborted) return;
      stopped.abort();
      if (drawn) io.endLiveLine();
    },
  };
}

/** Runs `work` with a spinner beside `text`; the spinner is gone when it settles, however it settles. */
export async function withSpinner<T>(io: SpinnerOutput, clock: Clock, text: string, work: () => Promise<T>): Promise<T> {
  const spinner = startSpinner(io, clock, text);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
