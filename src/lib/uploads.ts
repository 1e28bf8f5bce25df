// What an uploaded file is, decided by its first bytes (file-type's signatures), never by the name
// or the type the client declares: a text file named `photo.png` is text.
import type { Readable } from 'node:stream';
import { fileTypeStream } from 'file-type';
import { MalformedForm } from './errors.js';

export interface SniffedUpload {
  /** The whole upload, its first bytes included. */
  stream: Readable;
  /** The detected media type (`image/png`), or undefined when no signature matched. */
  mime: string | undefined;
  /** The usual extension of that type (`png`). */
  ext: string | undefined;
}

export async function sniffUpload(source: Readable): Promise<SniffedUpload> {
  // file-type waits for its sample and never hears of an error before it: a stream that fails
  // early (a form cut short, a limit) must fail the sniff, not leave it waiting forever.
  if (source.errored) throw source.errored;
  let onError: ((error: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    source.once('error', onError);
  });
  try {
    const stream = await Promise.race([fileTypeStream(source), failed]);
    return { stream, mime: stream.fileType?.mime, ext: stream.fileType?.ext };
  } finally {
    if (onError) source.off('error', onError);
  }
}

/**
 * Reads the rest of a refused upload and drops it, so the client's request ends normally and it
 * reads the answer; the multipart limits bound how much that is.
 */
export async function discardUpload(stream: Readable): Promise<void> {
  await new Promise<void>((resolve) => {
    stream.on('error', () => resolve());
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.resume();
  });
}

/** An error a framework raised while the upload streamed (a 413 past a multipart limit): not the file's fault. */
export function isFrameworkError(error: unknown): boolean {
  return typeof (error as { statusCode?: unknown } | null)?.statusCode === 'number';
}

/**
 * The upload's own failure, raised while it streamed: a limit's 413, or a form cut short (the 422
 * on `body`). It is the answer whatever it made fail downstream (the sniff, the decoder, the
 * storage write), which would otherwise blame the file.
 */
export function isUploadFailure(error: unknown): boolean {
  return isFrameworkError(error) || error instanceof MalformedForm;
}
