// The storage driver the configuration names (STORAGE_DRIVER): the local disk under DATA_DIR by
// default, or an S3-compatible bucket when several API machines must see the same files.
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import type { StorageDriver } from './types.js';

export * from './types.js';

export function createStorage(config: Pick<Config, 'storageDriver' | 'dataDir' | 's3'>): StorageDriver {
  switch (config.storageDriver) {
    case 'local':
      return createLocalStorage(join(config.dataDir, 'files'));
    case 's3':
      return createS3Storage(config.s3);
  }
}
