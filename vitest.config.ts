import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Two projects:
// - unit: pure modules, command run functions, and the CLI run in process (test/unit, test/commands,
//   test/cli). No build needed.
// - e2e: the built binary in a real process (test/e2e). Its global setup builds dist/ first, so
//   `npx vitest run test/e2e/...` never tests a stale bundle.
export default defineConfig({
  define: { __GW_VERSION__: JSON.stringify(version) },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/cli/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/build-once.ts'] },
      },
    ],
  },
});
