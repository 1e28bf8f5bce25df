// The S3 driver, for API processes that share no disk: any S3-compatible server (AWS S3, MinIO,
// Garage, Cloudflare R2…) through the AWS SDK. An upload of unknown length is streamed by
// lib-storage (one PutObject for a small file, a multipart upload aborted on failure for a large
// one); S3 shows an object only once its upload completes, so a failed upload leaves nothing.

import { type Readable, Transform } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import { assertStorageKey, type StorageDriver } from './types.js';

export function createS3Storage(settings: Config['s3']): StorageDriver {
  const { bucket, accessKey, secretKey } = settings;
  if (!bucket || !accessKey || !secretKey) {
    throw new Error('the s3 storage driver needs S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY');
  }
  // The AWS SDK (~9 MB resident) is loaded with the first file, not with every process.
  const loadSdk = async () => {
    const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
    const client: S3Client = new s3.S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: accessKey, secretAccessKey: secretKey },
      // The SDK's default trailing checksums (aws-chunked bodies) are AWS's own: many S3-compatible
      // servers refuse them. Checksums only where an operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { ...s3, Upload: storage.Upload, client };
  };
  let loaded: ReturnType<typeof loadSdk> | undefined;
  const sdk = () => {
    loaded ??= loadSdk();
    return loaded;
  };

  return {
    name: 's3',

    async put(key, body, options) {
      assertStorageKey(key);
      let size = body instanceof Uint8Array ? body.byteLength : 0;
      let counted: Readable | Uint8Array = body;
      if (!(body instanceof Uint8Array)) {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        // A source that fails (an upload over its limit) fails the upload: nothing is stored.
        body.once('error', (error) => counter.destroy(error));
        counted = body.pipe(counter);
      }
      const { Upload, client } = await sdk();
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: counted, ContentType: options.contentType },
        // A failed multipart upload is aborted, so no part is left behind (and billed).
        leavePartsOnError: false,
      });
      await upload.done();
      return { size };
    },

    async get(key) {
      assertStorageKey(key);
      const { client, GetObjectCommand, NoSuchKey, S3ServiceException } = await sdk();
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: answer.Body as Readable, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (
          error instanceof NoSuchKey ||
          (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
        ) {
          return undefined;
        }
        throw error;
      }
    },

    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 for a key with no object too.
      const { client, DeleteObjectCommand } = await sdk();
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
