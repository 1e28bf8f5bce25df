// Files: where uploads live (the local disk or an S3-compatible bucket) and the scheduled backups of
// the embedded database and its files.
import { isAbsolute, join, resolve } from 'node:path';
import { type Static, Type } from 'typebox';
import { storageDrivers } from '../lib/allowed-values.js';
import {
  choice,
  httpUrl,
  onOff,
  optionalText,
  type ReadEarlier,
  type SettingKeywords,
  text,
  wholeNumber,
} from '../lib/env-settings.js';
import { requireSet } from './common.js';

export const FilesSettings = Type.Object({
  storageDriver: choice('STORAGE_DRIVER', storageDrivers, {
    default: 'local',
    description:
      'Where uploaded files (avatars, ticket attachments) live: DATA_DIR/files, or an S3-compatible bucket.',
  }),
  s3: Type.Object({
    endpoint: httpUrl('S3_ENDPOINT', {
      description: 'Unset: AWS S3 in S3_REGION; else any S3-compatible server (MinIO, Garage, R2…).',
    }),
    bucket: optionalText('S3_BUCKET'),
    accessKey: optionalText('S3_ACCESS_KEY'),
    secretKey: optionalText('S3_SECRET_KEY'),
    region: text('S3_REGION', { default: 'us-east-1' }),
    forcePathStyle: onOff('S3_FORCE_PATH_STYLE', {
      defaultFrom: (earlier) => earlier('S3_ENDPOINT') !== undefined,
      description: 'Path-style URLs (`endpoint/bucket/key`): what most S3-compatible servers need.',
    }),
  }),
  backupDir: Type.String({
    env: 'BACKUP_DIR',
    accepts: 'a path',
    defaultFrom: (earlier: ReadEarlier) => join(earlier('DATA_DIR') as string, 'backups'),
    parse: (raw: string, cwd: string) => (isAbsolute(raw) ? raw : resolve(cwd, raw)),
    description:
      'Where scheduled backups are written (`npm run cli -- backup` without a file too); never part of a backup itself.',
  } satisfies SettingKeywords<string>),
  backupIntervalHours: wholeNumber('BACKUP_INTERVAL_HOURS', {
    default: 0,
    minimum: 0,
    maximum: 720,
    description:
      'Hours between scheduled backups of the embedded database and its files, each verified once written (0: none).',
  }),
  backupKey: optionalText('BACKUP_KEY', {
    pattern: '^.{32,}$',
    accepts: 'at least 32 characters',
    hidden: true,
    description:
      "Key of the HMAC-SHA256 that signs each archive's manifest.json; a restore refuses an archive it does not authenticate (unless --force-unsigned). Never stored in DATA_DIR or in an archive. Unset: archives unsigned.",
  }),
  backupKeep: wholeNumber('BACKUP_KEEP', {
    default: 7,
    minimum: 1,
    maximum: 1000,
    description:
      'How many scheduled backups BACKUP_DIR keeps: the newest N, older ones deleted once a new one is verified.',
  }),
});
export type FilesConfig = Static<typeof FilesSettings>;

/** STORAGE_DRIVER=s3 without its bucket or keys is a start error, not a failure at the first upload. */
export function requireStorageSettings(config: FilesConfig): void {
  if (config.storageDriver !== 's3') return;
  requireSet('STORAGE_DRIVER=s3', {
    S3_BUCKET: config.s3.bucket,
    S3_ACCESS_KEY: config.s3.accessKey,
    S3_SECRET_KEY: config.s3.secretKey,
  });
}
