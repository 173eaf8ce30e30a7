// The test run's global setup (test/support/build-once.ts) skips the build only for a command line
// that names in-process test files alone; anything else may run an end-to-end file and builds.
import { describe, expect, it } from 'vitest';
import { onlyInProcessTests } from '../support/build-once.js';

const vitest = ['/usr/bin/node', '/repo/node_modules/vitest/vitest.mjs'];

describe('onlyInProcessTests', () => {
  it.each([
    [['run', 'test/unit', 'test/commands', 'test/cli'], true],
    [['run', 'test/unit/qr.test.ts'], true],
    [['run', './test/cli/pay.test.ts', '--reporter=verbose'], true],
    [['run'], false],
    [['run', 'test/e2e'], false],
    [['run', 'test/unit', 'test/e2e/tls.test.ts'], false],
    [['run', 'qr'], false],
    [['run', '--project', 'shared', 'test/unit'], false],
    [['run', '-t', 'pays', 'test/unit'], false],
    [['test/unit'], false],
    [['related', 'src/qr/matrix.ts'], false],
    [['watch', 'test/unit'], false],
  ])('%j → %s', (args, skip) => {
    expect(onlyInProcessTests([...vitest, ...args])).toBe(skip);
  });
});
