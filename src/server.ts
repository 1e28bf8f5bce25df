// The process: read the configuration, build the app, listen, and close gracefully on a signal
// (stop accepting, let in-flight requests finish, close the database).
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { DatabaseUnavailable } from './db/open.js';
import { limitHeapGrowth } from './lib/heap-growth.js';
import { logOptions } from './lib/log-options.js';
import { startWorkerProcess } from './worker-process.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  limitHeapGrowth(config.heapGrowingPercent);

  if (config.role === 'worker') {
    const worker = await startWorkerProcess(config);
    closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
      if (err) worker.logger.error({ err }, 'closing after an unexpected error');
      else worker.logger.info({ signal }, 'closing');
      await worker.stop();
    });
    return;
  }

  // ROLE=all runs the background loops (the runtime) in this process too; ROLE=api leaves them to workers.
  const app = await buildApp({
    config,
    runLoops: config.role === 'all',
    logger: logOptions(config, { isTTY: process.stdout.isTTY }),
  });
  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an unexpected error');
    else app.log.info({ signal }, 'closing');
    // Stops accepting, lets in-flight requests finish, stops the worker, closes the database.
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  // A data directory held by another process is an operator's situation, not a crash: one line.
  if (error instanceof DatabaseUnavailable) console.error(`Cannot start: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
