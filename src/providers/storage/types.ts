// The storage interface: where uploaded files (avatars, ticket attachments) are kept. One driver per
// place: the local disk under DATA_DIR (one API process, or several sharing that disk) and an
// S3-compatible bucket (API processes on several machines). Keys are ours (`avatars/12-….webp`),
// never a client's file name.
import type { Readable } from 'node:stream';

export interface StoredFile {
  /** The bytes, streamed; the caller must read or destroy it. */
  body: Readable;
  /** In bytes. */
  size: number;
}

export interface StorageDriver {
  readonly name: 'local' | 's3';
  /**
   * Writes `body` under `key`, whole or not at all: a source that fails or ends early (an upload
   * over its limit, a client gone) leaves no file. A key is written once; callers make new keys.
   */
  put(key: string, body: Readable | Uint8Array, options: { contentType: string }): Promise<{ size: number }>;
  /** The file, or undefined when there is none under that key. */
  get(key: string): Promise<StoredFile | undefined>;
  /** Removes the file; a key with no file is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are made by the service: lower-case segments of `[a-z0-9._-]`, no `..`, no leading `/`. */
const KEY = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.length > 200) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}
