// Multipart forms and test images for the upload tests: forms are encoded by the platform's own
// FormData (as a browser sends them); images are made with sharp, here, from nothing.
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

export type FormEntry =
  | [name: string, value: string]
  | [name: string, bytes: Uint8Array, fileName: string, type?: string];

/** A multipart/form-data body and its Content-Type, for `app.inject`. */
export async function multipart(
  entries: FormEntry[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const entry of entries) {
    if (entry.length === 2) form.append(entry[0], entry[1]);
    else
      form.append(entry[0], new Blob([entry[1]], { type: entry[3] ?? 'application/octet-stream' }), entry[2]);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') as string },
  };
}

export function photo(width = 600, height = 400, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG carrying EXIF (a camera maker and a copyright line) that must not survive. */
export function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 500, height: 500, channels: 3, background: '#3366cc' } })
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Jean Dupont, Douala' } })
    .jpeg()
    .toBuffer();
}

/** Random pixels: an image whose PNG is large (noise does not compress). */
export function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * An image bomb: a valid 1-bit 20000×20000 PNG (400 megapixels, all black) that compresses to a
 * few tens of KB. Decoded it would take ~400 MB (1.2 GB as RGB); sharp would take a long while to
 * write it, so it is assembled here from its PNG chunks.
 */
export function pngBomb(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(side / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function temporaryDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'pronostics-files-'));
}

/** Every file under `dir` (relative paths), temporary ones included. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name).slice(
          dir.length + 1,
        ),
      )
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
