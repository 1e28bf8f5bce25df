import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Each file has its own database, so files run side by side; two match the machines we run on.
    maxWorkers: 2,
    // Files share a worker's loaded modules (PGlite's WebAssembly is compiled once per worker, not
    // per file); each file still opens its own database, and mocks and timers are restored per test.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real sockets and databases: a failure should say so, not be retried into a pass.
    retry: 0,
  },
});
