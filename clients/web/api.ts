// The web apps' way to the service: the typed client (clients/typescript) with the signed-in
// token kept in the browser's storage and every call in the screens' language (Accept-Language,
// so the service's messages match them), plus what the typed client does not speak (a multipart
// form, a file to download) with the same token and language. Each app connects once, with its own
// storage and language (webapp/src/api.ts, console/src/api.ts).
import { ApiError, createPronosticsClient, type PronosticsClient } from '../typescript/client.js';

export { ApiError, dataOf, envelopeOf, type PageMeta, type ResponseData } from '../typescript/client.js';

export interface Session {
  token(): string | null;
  save(token: string): void;
  clear(): void;
}

export interface Connection {
  api: PronosticsClient;
  session: Session;
  /** The language every call names, now. */
  language(): string;
  /** The headers of a call made without the typed client: the language, and the token when signed in. */
  headers(): Record<string, string>;
}

export function connect(options: {
  /** localStorage (kept until logout) or sessionStorage (gone with the tab). */
  storage: Storage;
  tokenKey: string;
  language: () => string;
}): Connection {
  const { storage, tokenKey, language } = options;
  const session: Session = {
    token: () => storage.getItem(tokenKey),
    save: (token) => storage.setItem(tokenKey, token),
    clear: () => storage.removeItem(tokenKey),
  };
  const api = createPronosticsClient({ baseUrl: location.origin, token: session.token });
  // The service answers in the screens' language, whatever the browser's own Accept-Language.
  api.use({
    onRequest({ request }) {
      request.headers.set('Accept-Language', language());
      return request;
    },
  });
  const headers = () => {
    const token = session.token();
    return { 'Accept-Language': language(), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  };
  return { api, session, language, headers };
}

/** A call that failed before any answer (offline, the service down), as opposed to a refusal. */
export function isUnreachable(error: unknown): boolean {
  return !(error instanceof ApiError);
}

/**
 * A multipart call (an avatar, a ticket with its attachment): the typed client speaks JSON, so
 * these go through fetch with the connection's token and language; the envelope's `data`, or an
 * ApiError.
 */
export async function upload<T>(connection: Connection, path: string, form: FormData): Promise<T> {
  const response = await fetch(path, { method: 'POST', body: form, headers: connection.headers() });
  const body = (await response.json().catch(() => undefined)) as { data?: T } | undefined;
  if (!response.ok || body?.data === undefined) throw new ApiError(response.status, body);
  return body.data;
}
