// The avatar upload through HTTP, on the local storage driver: the type decided by the content, the
// re-encoding to a 256×256 WebP without metadata, the library's multipart limits (413), refused
// files (renamed text, truncated image, image bomb) as 422s, the old file removed, the public
// serving, and a failure leaving neither file nor row.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/providers/storage/local.js';
import type { StorageDriver } from '../../src/providers/storage/types.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import {
  type FormEntry,
  filesUnder,
  jpegWithExif,
  multipart,
  noisyPng,
  photo,
  pngBomb,
  temporaryDataDir,
} from './forms.js';

let t: TestApp;
let dataDir: string;
const avatarsDir = () => join(dataDir, 'files', 'avatars');

beforeAll(async () => {
  dataDir = temporaryDataDir();
  t = await createTestApp({ config: { dataDir } });
});
afterAll(() => t.close());

async function upload(user: SignedIn | undefined, entries: FormEntry[], app = t.app) {
  const form = await multipart(entries);
  return app.inject({
    method: 'POST',
    url: '/api/user/profile/avatar',
    payload: form.payload,
    headers: { ...form.headers, ...(user?.headers ?? {}) },
  });
}

async function profileOf(user: SignedIn, app = t.app) {
  const response = await app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
  return response.json().user as { avatar: string; name: string | null };
}

/** The user's avatar files on disk (their names start with the user's id). */
async function filesOf(user: SignedIn): Promise<string[]> {
  return (await filesUnder(avatarsDir())).filter(
    (name) => name.startsWith(`${user.id}-`) || name.startsWith('.'),
  );
}

describe('POST /api/user/profile/avatar', () => {
  it('re-encodes a PNG to a 256×256 WebP served publicly with long cache headers', async () => {
    const user = await signIn(t);
    const response = await upload(user, [['avatar', await photo(600, 400, 'png'), 'moi.png', 'image/png']]);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe('Avatar mis à jour.');
    expect(body.data.avatar).toMatch(new RegExp(`^/avatars/${user.id}-[0-9a-f]{32}\\.webp$`));
    expect(body.user).toMatchObject({ id: user.id, phone: user.phone, avatar: body.data.avatar });
    expect(body.errors).toEqual([]);

    const served = await t.app.inject({ method: 'GET', url: body.data.avatar });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const dashboard = await t.app.inject({
      method: 'GET',
      url: '/api/user/dashboard',
      headers: user.headers,
    });
    expect(dashboard.json().user.avatar).toBe(body.data.avatar);
  });

  it('accepts JPEG and WebP too, and strips the EXIF a JPEG carried', async () => {
    const user = await signIn(t);
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await upload(user, [['avatar', original, 'camera.jpg', 'image/jpeg']]);
    expect(response.statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: response.json().data.avatar });
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('SecretCam'))).toBe(false);

    const webp = await upload(user, [['avatar', await photo(300, 900, 'webp'), 'a.webp', 'image/webp']]);
    expect(webp.statusCode).toBe(200);
  });

  it('removes the old file once the new one is stored and the row points at it', async () => {
    const user = await signIn(t);
    const first = (await upload(user, [['avatar', await photo(), 'a.png']])).json().data.avatar as string;
    expect(await filesOf(user)).toEqual([first.slice('/avatars/'.length)]);
    const second = (await upload(user, [['avatar', await photo(320, 320, 'jpeg'), 'b.jpg']])).json().data
      .avatar as string;
    expect(second).not.toBe(first);
    expect(await filesOf(user)).toEqual([second.slice('/avatars/'.length)]);
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    expect((await profileOf(user)).avatar).toBe(second);
  });

  it('decides the type by content: a text file named .png is a 422 on avatar, nothing stored', async () => {
    const user = await signIn(t);
    const text = Buffer.from('Ceci n’est pas une image.\n'.repeat(50));
    const response = await upload(user, [['avatar', text, 'photo.png', 'image/png']]);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      user: null,
      message: 'Le champ avatar doit être une image JPEG, PNG ou WebP.',
      data: [],
      errors: { avatar: ['Le champ avatar doit être une image JPEG, PNG ou WebP.'] },
    });
    // A GIF is an image, but not one of the three.
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expect((await upload(user, [['avatar', gif, 'a.png']])).statusCode).toBe(422);
    expect(await filesOf(user)).toEqual([]);
    expect((await profileOf(user)).avatar).toBe('/avatars/default.png');
  });

  it('refuses a truncated PNG or JPEG with a 422, never a 500', async () => {
    const user = await signIn(t);
    for (const format of ['png', 'jpeg'] as const) {
      const whole = await noisyPng(300, 300).then((png) => sharp(png).toFormat(format).toBuffer());
      const truncated = whole.subarray(0, Math.floor(whole.length / 2));
      const response = await upload(user, [['avatar', truncated, `cut.${format}`]]);
      expect(response.statusCode, format).toBe(422);
      expect(response.json().errors).toEqual({ avatar: ['L’image envoyée est illisible ou incomplète.'] });
    }
    expect(await filesOf(user)).toEqual([]);
  });

  it('refuses an image bomb by its pixel count before decoding it, with bounded memory', async () => {
    const user = await signIn(t);
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(100_000);
    const before = process.memoryUsage().rss;
    const response = await upload(user, [['avatar', bomb, 'bomb.png', 'image/png']]);
    const grown = process.memoryUsage().rss - before;
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ avatar: ['L’image envoyée a des dimensions trop grandes.'] });
    // Decoding 400 megapixels would take at least 400 MB.
    expect(grown).toBeLessThan(150 * 1024 * 1024);
    expect(await filesOf(user)).toEqual([]);
  });

  it('answers 413 with the envelope past 2 MB (the library’s fileSize limit), nothing stored', async () => {
    const user = await signIn(t);
    const big = await noisyPng(1000, 1000);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const response = await upload(user, [['avatar', big, 'big.png', 'image/png']]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      user: { id: user.id },
      message: 'Le fichier envoyé est trop volumineux.',
      data: [],
      errors: [],
    });
    expect(await filesOf(user)).toEqual([]);
    expect((await profileOf(user)).avatar).toBe('/avatars/default.png');
  });

  it('keeps the first avatar, ignores other fields and files, and answers 413 past 10 parts (DESIGN: Multipart)', async () => {
    const user = await signIn(t);
    const image = await photo(64, 64);
    const twoFiles = await upload(user, [
      ['name', 'Jean'],
      ['avatar', image, 'a.png'],
      ['avatar', await photo(32, 32), 'b.png'],
    ]);
    expect(twoFiles.statusCode, twoFiles.body).toBe(200);
    expect(await filesOf(user)).toHaveLength(1);
    const tooMany = await upload(user, [
      ...Array.from({ length: 10 }, (_, i) => [`f${i}`, 'x'] as [string, string]),
      ['avatar', image, 'a.png'],
    ]);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe('Le formulaire contient trop de fichiers ou de champs.');
    expect(await filesOf(user)).toHaveLength(1);
  });

  it('answers 422 without an avatar part, 415 to a JSON body, 401 without a token', async () => {
    const user = await signIn(t);
    const other = await upload(user, [['photo', await photo(64, 64), 'a.png']]);
    expect(other.statusCode).toBe(422);
    expect(other.json().errors).toEqual({ avatar: [expect.stringContaining('obligatoire')] });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/avatar',
      headers: user.headers,
      payload: { avatar: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toBe('Type de contenu non pris en charge.');
    expect((await upload(undefined, [['avatar', await photo(64, 64), 'a.png']])).statusCode).toBe(401);
  });

  it('serves the default avatar and 404s an unknown or malformed avatar name, without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/avatars/default.png' })).statusCode).toBe(200);
    for (const url of [
      `/avatars/1-${'0'.repeat(32)}.webp`,
      '/avatars/..%2F..%2Fapp-secret',
      '/avatars/1-abc.webp',
      '/avatars/x.png',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().data).toEqual([]);
    }
  });
});

describe('a failed upload leaves neither file nor row', () => {
  it('when the row cannot be written, the stored file is removed', async () => {
    const user = await signIn(t);
    // The database refuses the row's change (as it would on a lost connection).
    await t.app.db.execute(sql`
      CREATE FUNCTION refuse_avatar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'avatar refused'; END $$`);
    await t.app.db.execute(sql`
      CREATE TRIGGER refuse_avatar BEFORE UPDATE OF avatar_path ON users
      FOR EACH ROW EXECUTE FUNCTION refuse_avatar()`);
    try {
      const response = await upload(user, [['avatar', await photo(), 'a.png']]);
      expect(response.statusCode).toBe(500);
      expect(response.json().message).toBe('Une erreur interne est survenue. Réessayez plus tard.');
    } finally {
      await t.app.db.execute(sql`DROP TRIGGER refuse_avatar ON users`);
      await t.app.db.execute(sql`DROP FUNCTION refuse_avatar()`);
    }
    expect(await filesOf(user)).toEqual([]);
    expect((await profileOf(user)).avatar).toBe('/avatars/default.png');
  });

  it('when the storage fails, the row is unchanged and no file is left', async () => {
    const failingDir = temporaryDataDir();
    const local = createLocalStorage(failingDir);
    const failing: StorageDriver = {
      ...local,
      async put() {
        throw new Error('disk full');
      },
    };
    const broken = await createTestApp({ config: { dataDir: failingDir }, storage: failing });
    try {
      const user = await signIn(broken);
      const response = await upload(user, [['avatar', await photo(), 'a.png']], broken.app);
      expect(response.statusCode).toBe(500);
      expect((await profileOf(user, broken.app)).avatar).toBe('/avatars/default.png');
      expect(await filesUnder(failingDir)).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe('the local storage driver', () => {
  it('writes through a temporary file: a source that fails leaves no file, temporary or not', async () => {
    const root = temporaryDataDir();
    const storage = createLocalStorage(root);
    const { Readable } = await import('node:stream');
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(new Error('client gone'));
      },
    });
    await expect(storage.put('tickets/x.pdf', failing, { contentType: 'application/pdf' })).rejects.toThrow(
      'client gone',
    );
    expect(await filesUnder(root)).toEqual([]);
    expect(await storage.get('tickets/x.pdf')).toBeUndefined();

    expect(
      await storage.put('tickets/y.pdf', Buffer.from('%PDF-1.4'), { contentType: 'application/pdf' }),
    ).toEqual({
      size: 8,
    });
    expect(existsSync(join(root, 'tickets', 'y.pdf'))).toBe(true);
    await storage.delete('tickets/y.pdf');
    await storage.delete('tickets/y.pdf');
    expect(await filesUnder(root)).toEqual([]);
    await expect(storage.get('../secret')).rejects.toThrow('invalid storage key');
  });
});
