// The till's input: keys and terminal resizes in the order they came, taken one at a time, with
// or without a time limit. Keys that come while nobody waits are kept for the next taker.
import type { Key } from '../output/keys.js';
import type { Clock } from '../util/clock.js';

export type TillEvent = Key | { name: 'resize' };

export class EventQueue {
  readonly #events: TillEvent[] = [];
  readonly #waiters: Array<(event: TillEvent) => void> = [];

  push(event: TillEvent): void {
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter(event);
    else this.#events.push(event);
  }

  /** The next event; rejects with the signal's reason when it aborts first (no event is lost then). */
  next(signal: AbortSignal): Promise<TillEvent> {
    const event = this.#events.shift();
    if (event !== undefined) return Promise.resolve(event);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter = (e: TillEvent): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(e);
      };
      const onAbort = (): void => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal.reason);
      };
      this.#waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The next event within `ms` on the clock, or undefined; rejects when `signal` aborts. An event waiting already wins. */
  async nextWithin(ms: number, clock: Clock, signal: AbortSignal): Promise<TillEvent | undefined> {
    if (ms <= 0) return this.#events.shift();
    const done = new AbortController();
    const both = AbortSignal.any([signal, done.signal]);
    const event = this.next(both);
    const timer = clock.sleep(ms, both).then(() => undefined);
    // The loser is aborted below: its rejection is expected.
    event.catch(() => undefined);
    timer.catch(() => undefined);
    try {
      return await Promise.race([event, timer]);
    } finally {
      done.abort();
    }
  }
}
