// Time, injected: commands that wait (polling, countdowns, retries) take a Clock, so tests drive
// time instead of sleeping.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A clock that moves only when told to (or by sleeping): for tests of waiting loops. */
export class ManualClock implements Clock {
  #now: number;
  /** Every sleep asked for, in order (a test reads the polling intervals here). */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Sleeping advances time at once: a test of a wait loop runs without real delays. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.#now += Math.max(0, ms);
    return Promise.resolve();
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
