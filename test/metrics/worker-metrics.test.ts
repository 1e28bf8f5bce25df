// A ROLE=worker process serves no HTTP but its METRICS_PORT: the same Prometheus text, closed with
// the worker. PostgreSQL only (ROLE=worker needs it).
import { describe, expect, it } from 'vitest';
import { freePort } from '../../bench/service-process.js';
import { loadConfig } from '../../src/config.js';
import { startWorkerProcess } from '../../src/worker-process.js';
import { createTestDatabase, usingPostgres } from '../helpers.js';

describe.skipIf(!usingPostgres())('a worker process', () => {
  it('serves its metrics on METRICS_PORT until it stops', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const config = loadConfig({
      APP_ENV: 'test',
      APP_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
      DATABASE_URL: database.url,
      ROLE: 'worker',
      METRICS_PORT: String(port),
      // The worker's loops log through pino to stdout: keep the test's output clean.
      LOG_LEVEL: 'silent',
    });
    const worker = await startWorkerProcess(config);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toMatch(/^process_cpu_seconds_total \d/m);
      expect(body).toMatch(/^pronostics_analysis_queue 0$/m);
      expect(body).toMatch(/^pronostics_db_pool_connections\{state="max"\} 4$/m);
    } finally {
      await worker.stop();
      await database.drop();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
