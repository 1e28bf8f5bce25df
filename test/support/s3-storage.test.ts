// The S3 storage driver against a local S3-compatible server (s3rver, which checks SigV4
// signatures as S3 does): writes of buffers and streams, reads, deletes, a failed stream that
// leaves no object; then the app on STORAGE_DRIVER=s3: avatar and attachment stored and served
// from the bucket, the replaced avatar removed from it.
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { createS3Storage } from '../../src/providers/storage/s3.js';
import type { StorageDriver } from '../../src/providers/storage/types.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { filesUnder, multipart, photo, temporaryDataDir } from '../profile/forms.js';

const BUCKET = 'pronostics-files';
let server: S3rver;
let bucketDir: string;
let settings: Config['s3'];
let storage: StorageDriver;

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** The objects s3rver holds (its own files on disk name them). */
async function objectsIn(prefix: string): Promise<string[]> {
  return (await filesUnder(bucketDir)).filter(
    (path) => path.includes(prefix) && path.endsWith('._S3rver_object'),
  );
}

beforeAll(async () => {
  bucketDir = temporaryDataDir();
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: bucketDir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: BUCKET,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    forcePathStyle: true,
  };
  storage = createS3Storage(settings);
});
afterAll(() => server.close());

describe('the s3 storage driver', () => {
  it('writes a buffer and a stream, reads them back with their size, deletes them', async () => {
    expect(await storage.put('tickets/a.txt', Buffer.from('bonjour'), { contentType: 'text/plain' })).toEqual(
      {
        size: 7,
      },
    );
    const streamed = Readable.from([Buffer.from('un '), Buffer.from('deux '), Buffer.from('trois')]);
    expect(await storage.put('tickets/b.txt', streamed, { contentType: 'text/plain' })).toEqual({ size: 13 });

    const a = await storage.get('tickets/a.txt');
    expect(a?.size).toBe(7);
    expect(await text(a!.body)).toBe('bonjour');
    expect(await text((await storage.get('tickets/b.txt'))!.body)).toBe('un deux trois');

    await storage.delete('tickets/a.txt');
    await storage.delete('tickets/a.txt');
    expect(await storage.get('tickets/a.txt')).toBeUndefined();
    expect(await storage.get('tickets/never.txt')).toBeUndefined();
    await storage.delete('tickets/b.txt');
  });

  it('stores nothing when the source stream fails part-way', async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        sent += 1;
        if (sent > 3) this.destroy(Object.assign(new Error('client gone'), { statusCode: 413 }));
        else this.push(Buffer.alloc(64 * 1024, 7));
      },
    });
    await expect(
      storage.put('tickets/broken.bin', failing, { contentType: 'application/pdf' }),
    ).rejects.toThrow();
    expect(await storage.get('tickets/broken.bin')).toBeUndefined();
    expect(await objectsIn('broken')).toEqual([]);
  });
});

describe('the app on STORAGE_DRIVER=s3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { storageDriver: 's3', s3: settings, dataDir: temporaryDataDir() } });
  });
  afterAll(() => t.close());

  it('stores and serves avatars from the bucket and removes the replaced one', async () => {
    expect(t.app.services.storage.name).toBe('s3');
    const user = await signIn(t);
    const send = async (image: Buffer) => {
      const form = await multipart([['avatar', image, 'a.png']]);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/profile/avatar',
        payload: form.payload,
        headers: { ...form.headers, ...user.headers },
      });
      expect(response.statusCode).toBe(200);
      return response.json().data.avatar as string;
    };
    const first = await send(await photo(400, 300));
    expect(await objectsIn(`${user.id}-`)).toHaveLength(1);
    const served = await t.app.inject({ method: 'GET', url: first });
    expect(served.headers['content-type']).toBe('image/webp');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 256,
      height: 256,
    });

    const second = await send(await photo(300, 300, 'jpeg'));
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    expect(await objectsIn(`${user.id}-`)).toHaveLength(1);
  });

  it('keeps a ticket’s attachment in the bucket and serves it to its owner', async () => {
    const user = await signIn(t);
    const image = await photo(90, 90, 'jpeg');
    const form = await multipart([
      ['subject', 'Photo du reçu'],
      ['message', 'Voici la photo du reçu de mon paiement.'],
      ['attachment', image, 'recu.jpg'],
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/support/ticket/create',
      payload: form.payload,
      headers: { ...form.headers, ...user.headers },
    });
    expect(created.statusCode).toBe(201);
    const { attachment } = created.json().data.ticket;
    expect(attachment).toMatchObject({ content_type: 'image/jpeg', size: image.length });
    const file = await t.app.inject({ method: 'GET', url: attachment.url, headers: user.headers });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, image)).toBe(0);
  });
});

describe('STORAGE_DRIVER configuration', () => {
  const base = { APP_ENV: 'test', APP_SECRET: 'x'.repeat(32), DATABASE_URL: 'memory://' };

  it('defaults to the local disk and refuses s3 without its bucket and keys', () => {
    expect(loadConfig(base).storageDriver).toBe('local');
    expect(() => loadConfig({ ...base, STORAGE_DRIVER: 'ftp' })).toThrow('STORAGE_DRIVER="ftp" is invalid');
    expect(() =>
      loadConfig({ ...base, STORAGE_DRIVER: 's3', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' }),
    ).toThrow('S3_BUCKET is required when STORAGE_DRIVER=s3');
    const s3 = loadConfig({
      ...base,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY: 'k',
      S3_SECRET_KEY: 's',
    });
    expect(s3.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'b',
      accessKey: 'k',
      secretKey: 's',
      region: 'us-east-1',
      forcePathStyle: true,
    });
  });
});
