// An uploaded avatar made safe to serve: the type is decided by the content (JPEG, PNG or WebP),
// then sharp decodes it and re-encodes a 256×256 WebP (cover crop, turned upright by its EXIF
// orientation, no metadata kept), so no byte a user sent is ever served as is. The pixel limit is
// checked on the header before any decoding, so an image bomb (huge dimensions in a small file) is
// refused without the memory it would take.
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { discardUpload, isUploadFailure, sniffUpload } from '../../lib/uploads.js';

export const AVATAR_SIDE = 256;
/** 40 megapixels: a phone's full-resolution photo passes; decoding one takes at most ~160 MB. */
export const AVATAR_MAX_INPUT_PIXELS = 40_000_000;
export const AVATAR_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];

export async function avatarWebp(source: Readable): Promise<Buffer> {
  const { stream, mime } = await sniffUpload(source).catch((error: unknown) => {
    if (isUploadFailure(source.errored)) throw source.errored;
    if (isUploadFailure(error)) throw error;
    throw ValidationFailed.field('avatar', messages.avatarUnreadable);
  });
  if (mime === undefined || !AVATAR_TYPES.includes(mime)) {
    await discardUpload(stream);
    // Read to its end, the form may turn out cut short: that is the answer then, not the type.
    if (isUploadFailure(source.errored)) throw source.errored;
    throw ValidationFailed.field('avatar', messages.avatarType);
  }
  // sharp (libvips, ~25 MB resident) is loaded with the first avatar, not with every process.
  const { default: sharp } = await import('sharp');
  const encoder = sharp({
    limitInputPixels: AVATAR_MAX_INPUT_PIXELS,
    // A truncated file is refused; smaller oddities phones write are tolerated.
    failOn: 'truncated',
    sequentialRead: true,
  })
    .rotate()
    .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover' })
    .webp({ quality: 80 });
  const chunks: Buffer[] = [];
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  try {
    await pipeline(stream, encoder, collect);
  } catch (error) {
    // Past the upload limit: the library's 413, not a bad image (the decoder may fail first, on
    // the cut bytes, so the upload's own error is looked at too).
    if (isUploadFailure(source.errored)) throw source.errored;
    if (isUploadFailure(error)) throw error;
    const tooLarge = /pixel limit/i.test((error as Error).message);
    throw ValidationFailed.field(
      'avatar',
      tooLarge ? messages.avatarTooManyPixels : messages.avatarUnreadable,
    );
  }
  return Buffer.concat(chunks);
}
