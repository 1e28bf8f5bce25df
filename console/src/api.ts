// The console's only way to the service: the typed client (clients/typescript), with the admin's
// token kept in sessionStorage (gone when the tab closes).
import {
  ApiError,
  createPronosticsClient,
  dataOf,
  type PageMeta,
  type ResponseData,
} from '../../clients/typescript/index.js';
import { locale, t } from './i18n.js';

const TOKEN_KEY = 'pronostics.admin.token';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  save: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export const api = createPronosticsClient({ baseUrl: location.origin, token: session.token });
// The service answers in the console's language, whatever the browser's own Accept-Language.
api.use({
  onRequest({ request }) {
    request.headers.set('Accept-Language', locale);
    return request;
  },
});

export { ApiError, dataOf, type PageMeta, type ResponseData };

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
