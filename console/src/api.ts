// The console's only way to the service: the typed client (clients/typescript), with the admin's
// token kept in sessionStorage (gone when the tab closes).
import {
  ApiError,
  createPronosticsClient,
  dataOf,
  type PageMeta,
  type ResponseData,
} from '../../clients/typescript/index.js';

const TOKEN_KEY = 'pronostics.admin.token';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  save: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export const api = createPronosticsClient({ baseUrl: location.origin, token: session.token });

export { ApiError, dataOf, type PageMeta, type ResponseData };

/** The French message to show for a failed call. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fieldErrors)
      .map(([field, list]) => `${field} : ${list.join(', ')}`)
      .join(' ; ');
    return fields ? `${error.message} (${fields})` : error.message;
  }
  return 'Le service ne répond pas. Réessayez.';
}
