import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Each file has its own database, so files run side by side; two match the machines we run on.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real sockets and databases: a failure should say so, not be retried into a pass.
    retry: 0,
  },
});
