// The console's connection to the service (clients/web/api.ts): the admin's token kept in
// sessionStorage (gone when the tab closes), every call in the console's language; and how the
// console words a failed call.
import { ApiError, connect, upload } from '../../clients/web/api.js';
import { locale, t } from './i18n.js';

const connection = connect({
  storage: sessionStorage,
  tokenKey: 'pronostics.admin.token',
  language: () => locale,
});
export const { api, session, headers } = connection;

/** A multipart call (a fixtures file) with the admin's token and language: the answer's `data`. */
export const uploadForm = <T>(path: string, form: FormData) => upload<T>(connection, path, form);

export { ApiError, dataOf, type PageMeta, type ResponseData } from '../../clients/web/api.js';

/** The message to show for a failed call, in the console's language. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fieldErrors)
      .map(([field, list]) => t.common.fieldErrors(field, list.join(', ')))
      .join(t.common.fieldErrorsSeparator);
    return fields ? `${error.message} (${fields})` : error.message;
  }
  return t.common.unreachable;
}
