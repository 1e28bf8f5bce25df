// The web app's connection to the service (clients/web/api.ts): the user's token kept in
// localStorage for its life (the service expires it; logout clears it), every call in the screens'
// language; and how the screens word a failure and an amount.
import { ApiError, connect, upload as uploadWith } from '../../clients/web/api.js';
import { currentLanguage, t } from './i18n/index.js';

const connection = connect({
  storage: localStorage,
  tokenKey: 'pronostics.token',
  language: currentLanguage,
});
export const { api, session, headers } = connection;

export {
  ApiError,
  dataOf,
  envelopeOf,
  isUnreachable,
  type ResponseData,
} from '../../clients/web/api.js';

/** A multipart call with the user's token and language: the envelope's `data`, or an ApiError. */
export const upload = <T>(path: string, form: FormData): Promise<T> => uploadWith<T>(connection, path, form);

/** What to show for a failed call: the service's own message (in our language), fields first. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.fieldErrors).flat();
    return fields.length > 0 ? fields.join(' ') : error.message;
  }
  return t('genericError');
}

/** An amount in XAF, as the screens' language writes it. */
export function xaf(amount: number): string {
  return new Intl.NumberFormat(currentLanguage(), {
    style: 'currency',
    currency: 'XAF',
    maximumFractionDigits: 0,
  }).format(amount);
}
