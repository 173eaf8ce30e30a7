// The spinner (src/output/spinner.ts): shown on a terminal's stderr only, after a short wait,
// driven by the clock's sleeps, removed when the work settles, and no timer left behind.
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/output/iostreams.js';
import { CLEAR_LINE } from '../../src/output/screen.js';
import { FRAME_MS, SHOW_AFTER_MS, startSpinner, withSpinner } from '../../src/output/spinner.js';
import { type Clock, systemClock } from '../../src/util/clock.js';

/** A clock whose sleeps end only when the test says: each sleep asked for waits in `pending`. */
class StepClock implements Clock {
  now = (): number => 0;
  readonly pending: { ms: number; wake: () => void }[] = [];
  readonly asked: number[] = [];

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.asked.push(ms);
    return new Promise((resolve, reject) => {
      const entry = { ms, wake: resolve };
      this.pending.push(entry);
      signal?.addEventListener('abort', () => {
        this.pending.splice(this.pending.indexOf(entry), 1);
        reject(signal.reason);
      });
    });
  }

  /** Ends the oldest sleep, then lets the spinner draw. */
  async step(): Promise<void> {
    this.pending.shift()?.wake();
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('spinner', () => {
  it('on a terminal: nothing for a quick answer, then frames after the wait, and its line removed when the work ends', async () => {
    const t = IOStreams.test({ stderrTTY: true, spinners: true, width: 80 });
    const clock = new StepClock();
    const work = deferred<string>();
    const running = withSpinner(t.io, clock, 'Creating the payment…', () => work.promise);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(t.stderr()).toBe('');
    expect(clock.asked).toEqual([SHOW_AFTER_MS]);
    await clock.step();
    expect(t.stderr()).toBe(`${CLEAR_LINE}⠋ Creating the payment…`);
    await clock.step();
    expect(t.stderr()).toBe(`${CLEAR_LINE}⠋ Creating the payment…${CLEAR_LINE}⠙ Creating the payment…`);
    expect(clock.asked).toEqual([SHOW_AFTER_MS, FRAME_MS, FRAME_MS]);
    work.resolve('done');
    expect(await running).toBe('done');
    expect(t.stderr().endsWith(`⠙ Creating the payment…${CLEAR_LINE}`)).toBe(true);
    expect(clock.pending).toEqual([]); // the sleep in progress was aborted
    await clock.step();
    expect(t.stderr().endsWith(CLEAR_LINE)).toBe(true); // nothing drawn after
  });

  it('a failure removes the line too, and is thrown as it was', async () => {
    const t = IOStreams.test({ stderrTTY: true, spinners: true });
    const clock = new StepClock();
    const work = deferred<string>();
    const running = withSpinner(t.io, clock, 'Looking up payment 123…', () => work.promise);
    await clock.step();
    expect(t.stderr()).toContain('⠋ Looking up payment 123…');
    work.reject(new Error('no answer'));
    await expect(running).rejects.toThrow('no answer');
    expect(t.stderr().endsWith(CLEAR_LINE)).toBe(true);
    expect(clock.pending).toEqual([]);
  });

  it('a message written meanwhile comes on a line of its own: the spinner is removed first', async () => {
    const t = IOStreams.test({ stdoutTTY: true, stderrTTY: true, spinners: true });
    const clock = new StepClock();
    const spinner = startSpinner(t.io, clock, 'Checking…');
    await clock.step();
    t.io.out('✓ configuration\n');
    expect(t.stderr()).toBe(`${CLEAR_LINE}⠋ Checking…${CLEAR_LINE}`); // removed before stdout's line
    await clock.step();
    t.io.warn('slow answer');
    spinner.stop();
    expect(t.stderr()).toBe(`${CLEAR_LINE}⠋ Checking…${CLEAR_LINE}${CLEAR_LINE}⠙ Checking…${CLEAR_LINE}gw: warning: slow answer\n`);
    expect(t.stdout()).toBe('✓ configuration\n');
  });

  it.each([
    ['stderr not a terminal', { stderrTTY: false, spinners: true }],
    ['--json', { stderrTTY: true, json: true, spinners: true }],
    ['TERM=dumb', { stderrTTY: true, spinners: true, env: { TERM: 'dumb' } }],
  ])('never with %s: no sleep, nothing written', async (_name, options) => {
    const t = IOStreams.test(options);
    const clock = new StepClock();
    expect(await withSpinner(t.io, clock, 'Creating the payment…', async () => 'done')).toBe('done');
    expect(clock.asked).toEqual([]);
    expect(t.stderr()).toBe('');
  });

  it('with the real clock, no timer is left behind to keep the process alive', async () => {
    const t = IOStreams.test({ stderrTTY: true, spinners: true });
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const result = await withSpinner(t.io, systemClock, 'Creating the payment…', async () => {
      expect(timers()).toBe(before + 1); // the spinner's first sleep
      return 'done';
    });
    expect(result).toBe('done');
    expect(timers()).toBe(before);
  });
});
