// The local-disk driver: files under DATA_DIR/files. A write goes to a temporary file beside its
// target and is renamed into place once complete (a rename is atomic within one file system), so a
// reader never sees half a file and a failed upload leaves only a temporary file, removed at once.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type StorageDriver } from './types.js';

export function createLocalStorage(root: string): StorageDriver {
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return join(root, ...key.split('/'));
  };

  return {
    name: 'local',

    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      // A dot name `*.tmp` beside the target: same file system, so the rename is atomic.
      const temporary = join(dirname(target), `.${randomBytes(8).toString('hex')}.tmp`);
      try {
        const source = body instanceof Uint8Array ? Readable.from([body]) : body;
        await pipeline(source, createWriteStream(temporary, { flags: 'wx', flush: true, mode: 0o600 }));
        const { size } = await stat(temporary);
        await rename(temporary, target);
        return { size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },

    async get(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        return { body: createReadStream(path), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
