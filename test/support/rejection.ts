// The error a piece of work fails with, for tests that check what the failure says and its exit
// code; a run that does not fail fails the test.
import { expect } from 'vitest';
import { GwError } from '../../src/errors.js';

/** The GwError `run` rejects with (a promise, or a function that returns one or throws). */
export async function gwFailure(run: Promise<unknown> | (() => unknown)): Promise<GwError> {
  try {
    await (typeof run === 'function' ? run() : run);
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as GwError;
  }
  throw new Error('did not fail');
}
