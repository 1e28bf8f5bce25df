// `npm run cli -- backup` beside a running embedded service (`npm start`'s process): the command
// reaches the service's database through its socket (DATA_DIR/.s.PGSQL.5432), the service keeps
// answering, and the archive restores elsewhere with what the service had written.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { restoreBackup } from '../../src/modules/backups/service.js';
import { openRestored, scratchDir } from './helpers.js';

const PHONE = '+237670000077';

function envFor(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
    APP_ENV: 'development',
  };
  delete env.DATABASE_URL;
  return env;
}

function run(args: string[], dataDir: string): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: envFor(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

// The service runs on embedded PGlite whatever TEST_DATABASE_URL says (envFor drops DATABASE_URL).
describe('backup beside a running embedded service', { timeout: 180_000 }, () => {
  it('goes through the socket while the service answers, and restores elsewhere', async () => {
    const dataDir = scratchDir();
    const service = run(['src/server.ts'], dataDir);
    const exited = new Promise<number | null>((resolve) => service.on('exit', resolve));
    try {
      let output = '';
      const base = await new Promise<string>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        };
        service.stdout.on('data', read);
        service.stderr.on('data', read);
        void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      const generated = await fetch(`${base}/api/otp/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone: PHONE, country: 'CM', method: 'sms' }),
      });
      expect(generated.status).toBe(200);
      expect(readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8')).toContain(PHONE);

      const file = join(dataDir, 'backups', 'live.tar.gz');
      const command = run(['src/cli/index.ts', 'backup', file], dataDir);
      let stdout = '';
      let stderr = '';
      command.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      command.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => command.on('close', resolve));
      expect(stderr).not.toMatch(/Error/);
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /^Backup written and verified: .*live\.tar\.gz .*the snapshot held the database \d+ ms/,
      );
      expect((await fetch(`${base}/api/`)).status).toBe(200);

      const target = scratchDir('pronostics-restored-');
      const restored = await restoreBackup({ file, dataDir: target, backupDir: join(target, 'backups') });
      // Both secrets a development DATA_DIR generates: APP_SECRET's and the VAPID key pair.
      expect(restored.manifest.secrets).toEqual(['app-secret', 'webpush-vapid.json']);
      for (const secret of restored.manifest.secrets) {
        expect(readFileSync(join(target, secret), 'utf8')).toBe(readFileSync(join(dataDir, secret), 'utf8'));
      }
      // Through the socket too, the service's database wrote the tables itself (issue 43's short hold).
      expect(restored.manifest.database.tables_read_by).toBe('copy');
      expect(restored.manifest.members).toHaveProperty(['database/tables/otp_codes.copy']);
      const database = await openRestored(target);
      try {
        const codes = (await database.db.execute(
          sql`SELECT count(*)::int AS n FROM otp_codes WHERE phone = ${PHONE}`,
        )) as unknown as { rows: { n: number }[] };
        expect(codes.rows[0]!.n).toBe(1);
      } finally {
        await database.close();
      }
    } finally {
      service.kill('SIGTERM');
      await exited;
    }
  });
});
