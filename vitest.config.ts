import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // e2e tests spawn the built binary; two cores, so keep parallelism modest.
    pool: 'forks',
    maxWorkers: 2,
  },
});
