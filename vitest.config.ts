import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** Test files that vi.mock a module: they need a module cache of their own. */
const MOCKING_FILES = ['test/unit/notification-signature.test.ts'];

// Projects:
// - shared: every test file but one, in workers that keep one module cache (isolate: false):
//   loading the modules again for each of ~70 files was a third of the suite's time. One project for
//   the in-process tests (test/unit, test/commands, test/cli) and the end-to-end ones (test/e2e: the
//   built binary in real processes) lets the scheduler run in-process files while end-to-end ones
//   wait on real deadlines; as two projects, each ran only after the other (measured: 1.3-2.7 s
//   longer). Its global setup builds dist/ first unless it was built from these very sources
//   (build.mjs --if-changed), so an end-to-end test never runs a stale bundle, however started.
// - isolated: a file that mocks a module gets a module cache of its own.
// `npm run test:unit` and `npm run test:e2e` select the files by directory.
export default defineConfig({
  define: { __GW_VERSION__: JSON.stringify(version) },
  test: {
    // chalk, for the in-process tests that give a run function a colour terminal (see the file).
    setupFiles: ['test/support/colour.ts', 'test/support/decimal-equality.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Four workers on two cores: while one file waits on a real deadline or a child process, the
    // others keep both cores busy (measured against three: 18.9 s against 20.7 s on average).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          exclude: MOCKING_FILES,
          isolate: false,
          globalSetup: ['test/support/temp-root.ts', 'test/support/build-once.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: MOCKING_FILES, globalSetup: ['test/support/temp-root.ts'] },
      },
    ],
  },
});
