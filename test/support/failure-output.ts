// Assertions on how gw reports a failure, shared by the TLS and proxy end-to-end suites: the
// exit code, an empty stdout, and stderr of one `gw:` line plus at most one `hint:` line, with no
// stack trace, no crash text, and none of the given secrets.
import { expect } from 'vitest';
import type { GwResult } from './gw.js';

export function expectNoCrashText(r: GwResult, secrets: readonly string[]): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(/^\s+at /m);
    expect(text).not.toMatch(/\b\w*Error:/);
    expect(text).not.toMatch(/Unhandled|PromiseRejection|^gw: internal error:/im);
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
}

/** Checks the failure's shape and returns stderr. */
export function expectCleanFailure(r: GwResult, exitCode: number, secrets: readonly string[]): string {
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({ exitCode });
  expect(r.stdout).toBe('');
  const lines = r.stderr.replace(/\n$/, '').split('\n');
  expect(lines.length, r.stderr).toBeGreaterThanOrEqual(1);
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^gw: \S/);
  if (lines.length === 2) expect(lines[1]).toMatch(/^hint: \S/);
  expectNoCrashText(r, secrets);
  return r.stderr;
}
