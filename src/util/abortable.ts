// One helper for the places that wait on work they cannot cancel themselves (a config file's
// import(), an HTTP answer, a lazily built client): the wait ends as soon as the command's signal
// aborts, with the signal's reason, whatever the work is still doing.

/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined); // its own failure, later, is not an unhandled rejection
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
