// `backup [FILE]` and `restore FILE [--force]`: the embedded database, its stored files and DATA_DIR's
// generated secrets in one verified archive, and back (modules/backups). `backup` works while the
// service runs (through its socket, like every command) or not; `restore` wants the service stopped
// and an empty DATA_DIR, and writes nothing there until the whole archive has checked out.
import type { Command } from 'commander';
import { backupRefusal, restoreBackup } from '../../modules/backups/service.js';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('backup')
    .argument('[file]', 'the archive to write (default: BACKUP_DIR/backup-<instant>.tar.gz)')
    .description('Write a verified backup of the embedded database, its stored files and generated secrets')
    .action(async (file: string | undefined) => {
      const refusal = backupRefusal(ctx.config);
      if (refusal !== undefined) throw new Error(refusal);
      const { backups } = await ctx.services();
      const { file: written, manifest, snapshotMs, totalMs } = await backups.backup(file);
      const rows = Object.values(manifest.rows).reduce((sum, count) => sum + count, 0);
      const files =
        manifest.files.storage === 'local'
          ? `${manifest.files.count} stored file(s)`
          : 'no stored file (S3: the bucket is backed up by its own versioning)';
      ctx.out(
        `Backup written and verified: ${written} (${rows} rows in ${Object.keys(manifest.rows).length} tables, ${files}, ` +
          `migration ${manifest.migration}; the snapshot held the database ${Math.round(snapshotMs)} ms, ${Math.round(totalMs)} ms in all).`,
      );
    });

  program
    .command('restore')
    .argument('<file>', 'a backup archive written by `backup`')
    .option('--force', 'restore over a non-empty DATA_DIR, its database, files and secrets moved aside first')
    .option(
      '--force-unsigned',
      'restore an archive BACKUP_KEY cannot authenticate (unsigned while the key is set, a wrong hmac, or signed while no key is set)',
    )
    .description('Restore a backup into an empty DATA_DIR, then migrate it to this release')
    .action(async (file: string, options: { force?: boolean; forceUnsigned?: boolean }) => {
      if (ctx.config.databaseUrl !== undefined) {
        throw new Error(
          'restore is for the embedded database (DATABASE_URL unset): on PostgreSQL use pg_restore (docs/operations.md, "Backups")',
        );
      }
      const result = await restoreBackup({
        file,
        dataDir: ctx.config.dataDir,
        backupDir: ctx.config.backupDir,
        force: options.force === true,
        forceUnsigned: options.forceUnsigned === true,
        ...(ctx.config.backupKey !== undefined ? { backupKey: ctx.config.backupKey } : {}),
        log: ctx.out,
      });
      if (result.setAside) ctx.out(`The previous database, files and secrets are in ${result.setAside}.`);
      ctx.out(
        `Restored into ${ctx.config.dataDir}: the backup of ${result.manifest.created_at}, migrated from ${result.manifest.migration} to ${result.migration}.`,
      );
    });
}
