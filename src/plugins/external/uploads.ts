// @fastify/multipart for the routes that take files (the avatar, support tickets). Each of those
// route files registers it in its own scope, so everywhere else a multipart body stays a 415. The
// limits are the library's options: strict defaults here, and each route passes its own sizes to
// `formParts()`; past one, the library answers 413. DESIGN.md's rules: at most 10 parts (413
// past it), unknown text fields ignored, a body that is not valid multipart a 422 on `body`, an
// empty file the same as no file (a browser sends one when no file is chosen).
import { PassThrough, type Readable } from 'node:stream';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MalformedForm } from '../../lib/errors.js';
import { isUploadFailure } from '../../lib/uploads.js';

/** DESIGN.md: 413 past this many parts (files and fields together); fewer are all read. */
export const FORM_MAX_PARTS = 10;

async function uploadsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fieldNameSize: 100, fieldSize: 1024, fields: 0, files: 0, parts: 1, headerPairs: 20 },
  });
}

export default fp(uploadsPlugin, { name: 'uploads' });

/** A route that takes files answers 415 to any other body, as the JSON routes do to multipart. */
export function requireMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) {
    throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(String(request.headers['content-type'] ?? ''));
  }
}

/**
 * The form's parts, at most FORM_MAX_PARTS of them, files up to `fileSize` and text fields up to
 * `fieldSize` bytes (413 past either). A body the multipart parser cannot read (a wrong or missing
 * boundary, no closing boundary) is a 422 on `body`, not a 500.
 */
export async function* formParts(
  request: FastifyRequest,
  sizes: { fileSize: number; fieldSize?: number },
): AsyncGenerator<Multipart> {
  const limits = { parts: FORM_MAX_PARTS, files: FORM_MAX_PARTS, fields: FORM_MAX_PARTS, ...sizes };
  const iterator = request.parts({ limits })[Symbol.asyncIterator]();
  for (;;) {
    let step: IteratorResult<Multipart>;
    try {
      step = await iterator.next();
    } catch (error) {
      throw malformedOr(error);
    }
    if (step.done) return;
    yield step.value;
  }
}

/**
 * Reads the form part by part with `handle` (see `formParts`). When `handle` refuses a part (a 422
 * on a field), the rest of the form is still read and dropped: a form cut short after that part
 * answers as one (422 on `body`, whatever part it cut), and the client reads the answer after
 * sending everything. The limits bound what is read.
 */
export async function readForm(
  request: FastifyRequest,
  sizes: { fileSize: number; fieldSize?: number },
  handle: (part: Multipart) => Promise<void>,
): Promise<void> {
  const parts = formParts(request, sizes);
  for (;;) {
    const step = await parts.next();
    if (step.done) return;
    try {
      await handle(step.value);
    } catch (error) {
      if (isUploadFailure(error)) throw error;
      throw (await failureOfRest(parts, step.value)) ?? error;
    }
  }
}

/** The upload failure met while reading the rest of a form (its files dropped), if any. */
async function failureOfRest(
  parts: AsyncGenerator<Multipart>,
  current: Multipart,
): Promise<Error | undefined> {
  try {
    if (current.type === 'file') current.file.resume();
    for (let step = await parts.next(); !step.done; step = await parts.next()) {
      if (step.value.type === 'file') step.value.file.resume();
    }
    return undefined;
  } catch (error) {
    return isUploadFailure(error) ? (error as Error) : undefined;
  }
}

/** A parser's error is the client's malformed body (422 on `body`); a limit keeps its 413. */
function malformedOr(error: unknown): Error {
  return isUploadFailure(error) ? (error as Error) : new MalformedForm();
}

/**
 * The file part's bytes (see `fileStreamOf`), or undefined when it is empty: an empty file is no
 * file. Waits for the first bytes only, so nothing is buffered.
 */
export async function nonEmptyFile(
  request: FastifyRequest,
  part: MultipartFile,
): Promise<Readable | undefined> {
  const stream = fileStreamOf(request, part);
  // The parser may have failed the part already (a form cut short): its error was emitted then.
  if (stream.destroyed) throw malformedOr(stream.errored ?? new Error('multipart part destroyed'));
  const first = await new Promise<Buffer | null>((resolve, reject) => {
    const done = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      done();
      stream.pause();
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: unknown) => {
      done();
      reject(malformedOr(error));
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
  if (first === null) return undefined;
  // The first bytes, then the rest; an error of the part (its 413, a form cut short) carries over.
  const whole = new PassThrough();
  whole.write(first);
  // Translated here, so whoever reads the file (sniff, decoder, storage) fails with the form's answer.
  stream.once('error', (error) => whole.destroy(malformedOr(error)));
  stream.pipe(whole);
  return whole;
}

/**
 * The part's bytes as a stream that fails with the library's 413 once past `fileSize`: busboy
 * would otherwise end it quietly, truncated, and the truncated file could be stored.
 */
export function fileStreamOf(request: FastifyRequest, part: MultipartFile): MultipartFile['file'] {
  const { RequestFileTooLargeError } = request.server.multipartErrors;
  const refuse = () => part.file.destroy(new RequestFileTooLargeError());
  // Busboy reads ahead of the consumer: the limit may have been passed before the part reached us.
  if (part.file.truncated) refuse();
  else part.file.once('limit', refuse);
  return part.file;
}
