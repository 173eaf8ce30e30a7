// Assertions on how gw reports a failure, shared by the suites that provoke failures (hostile
// gateways, transports, TLS, proxies, the process): the exit code, an empty stdout, and stderr of
// one `gw:` line plus at most one `hint:` line; nothing a terminal would act on, no stack trace or
// crash text, and no key — not even a piece of one.
import { expect } from 'vitest';
import { TEST_MERCHANT_KEY, TEST_PAYOUT_KEY } from './misbehaving-gateway.js';

/** What a run of gw printed (in process or as a process). */
export interface Output {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The keys the misbehaving gateway's suites configure. */
export const TEST_KEYS: readonly string[] = [TEST_MERCHANT_KEY, TEST_PAYOUT_KEY];

/** Anything a terminal would act on or that reorders/hides text (LF allowed). */
export const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

export function expectInert(text: string): void {
  const bad = UNSAFE.exec(text);
  expect(bad === null ? null : `U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index} in ${JSON.stringify(text)}`).toBeNull();
}

export function expectNoCrashText(r: Output, secrets: readonly string[] = TEST_KEYS): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(/^\s+at /m);
    expect(text).not.toMatch(/\b\w*Error:/);
    expect(text).not.toMatch(/Unhandled|PromiseRejection|^gw: internal error:/im);
  }
  expectNoKey(r, secrets);
}

/** No run of 12 or more characters of a key anywhere in the output (a cut key leaks too). */
export function expectNoKey(r: Output, keys: readonly string[] = TEST_KEYS): void {
  const output = r.stdout + r.stderr;
  for (const key of keys) {
    for (let i = 0; i + 12 <= key.length; i++) {
      const piece = key.slice(i, i + 12);
      expect(output.includes(piece), `key fragment "${piece}" in output: ${JSON.stringify(output)}`).toBe(false);
    }
    if (key.length < 12) expect(output).not.toContain(key);
  }
}

/** Checks the failure's shape and returns stderr. */
export function expectCleanFailure(r: Output, exitCode: number, secrets: readonly string[] = TEST_KEYS): string {
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({ exitCode });
  expect(r.stdout).toBe('');
  const lines = r.stderr.replace(/\n$/, '').split('\n');
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^gw: \S/);
  if (lines.length === 2) expect(lines[1]).toMatch(/^hint: \S/);
  expectInert(r.stderr);
  expectNoCrashText(r, secrets);
  return r.stderr;
}
