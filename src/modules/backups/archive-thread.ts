// The worker thread's side of writing a backup (archive.ts, `writeArchiveOffThread`): hashes the
// staged members, writes the archive and reads it back, so sha256, gzip and tar (seconds of CPU for
// a large database) never run on the service's event loop. One job a thread; the answer is the
// manifest with every member's sha256, or the error's message (a refusal keeps its kind).
import { parentPort } from 'node:worker_threads';
import { type ArchiveJob, type ArchiveJobResult, buildArchive } from './archive.js';
import { BackupRefused } from './manifest.js';

parentPort?.once('message', async (job: ArchiveJob) => {
  let answer: ArchiveJobResult;
  try {
    answer = { manifest: await buildArchive(job) };
  } catch (error) {
    answer = {
      error: error instanceof Error ? error.message : String(error),
      refused: error instanceof BackupRefused,
    };
  }
  parentPort?.postMessage(answer);
});
