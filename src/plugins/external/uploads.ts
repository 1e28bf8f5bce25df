// @fastify/multipart for the routes that take files (the avatar, support tickets). Each of those
// route files registers it in its own scope, so everywhere else a multipart body stays a 415. The
// limits are the library's options: strict defaults here, and each route passes its own (files,
// fields, parts, sizes) to `request.parts()`; past one, the library answers 413.
import multipart, { type MultipartFile } from '@fastify/multipart';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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
