import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** Test files that vi.mock a module: they need a module cache of their own. */
const MOCKING_FILES = ['test/unit/notification-signature.test.ts'];

// Projects:
// - unit (and unit-isolated): pure modules, command run functions, and the CLI run in process
//   (test/unit, test/commands, test/cli). No build needed.
// - e2e: the built binary in a real process (test/e2e). Its global setup builds dist/ first unless
//   it was built from these very sources (build.mjs --if-changed), so `npx vitest run test/e2e/...`
//   never tests a stale bundle. Its files share a module cache too (none of them mocks a module).
export default defineConfig({
  define: { __GW_VERSION__: JSON.stringify(version) },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // Files share one module cache per worker (isolate: false): loading the modules again for
        // each of ~70 files was a third of the suite's time. A file that mocks a module runs alone.
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/cli/**/*.test.ts'],
          exclude: MOCKING_FILES,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: MOCKING_FILES },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/build-once.ts'], isolate: false },
      },
    ],
  },
});
