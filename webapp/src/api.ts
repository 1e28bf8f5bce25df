// The web app's only way to the service: the typed client (clients/typescript), with the user's
// token kept in localStorage for its life (the service expires it; logout clears it), and every call
// in the screens' language.
import {
  ApiError,
  createPronosticsClient,
  dataOf,
  type ResponseData,
} from '../../clients/typescript/index.js';
import { currentLanguage, t } from './i18n/index.js';

const TOKEN_KEY = 'pronostics.token';

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  save: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

export const api = createPronosticsClient({ baseUrl: location.origin, token: session.token });
api.use({
  onRequest({ request }) {
    request.headers.set('Accept-Language', currentLanguage());
    return request;
  },
});

export { ApiError, dataOf, type ResponseData };

/** A call that failed before any answer (offline, the service down), as opposed to a refusal. */
export function isUnreachable(error: unknown): boolean {
  return !(error instanceof ApiError);
}

/** What to show for a failed call: the service's own message (in our language), fields first. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.fieldErrors).flat();
    return fields.length > 0 ? fields.join(' ') : error.message;
  }
  return t('genericError');
}

/**
 * A multipart call (an avatar, a ticket with its attachment): the typed client speaks JSON, so
 * these go through fetch with the same token and language; the envelope's `data`, or an ApiError.
 */
export async function upload<T>(path: string, form: FormData): Promise<T> {
  const token = session.token();
  const response = await fetch(path, {
    method: 'POST',
    body: form,
    headers: {
      'Accept-Language': currentLanguage(),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  const body = (await response.json().catch(() => undefined)) as { data?: T } | undefined;
  if (!response.ok || body?.data === undefined) throw new ApiError(response.status, body);
  return body.data;
}

/** An amount in XAF, as the screens' language writes it. */
export function xaf(amount: number): string {
  return new Intl.NumberFormat(currentLanguage(), {
    style: 'currency',
    currency: 'XAF',
    maximumFractionDigits: 0,
  }).format(amount);
}
