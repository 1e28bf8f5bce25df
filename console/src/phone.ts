// Phone numbers as people type them: "670000001" with Cameroon selected is "+237670000001". The
// API takes E.164 only (and its validation stays as it is), so the console converts in the browser
// with the same library the service uses to check numbers. Text that is not a whole valid number is
// sent as typed: the API's 422 then says what is wrong with it.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The market's country: the one a number typed without a country code belongs to when none is chosen. */
export const HOME_COUNTRY = 'CM';

/** E.164 for a number typed in national or international format for `country`, else the trimmed text. */
export function toE164(text: string, country: string = HOME_COUNTRY): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const parsed = parsePhoneNumberFromString(trimmed, country.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed.number : trimmed;
}

/**
 * A search term for the back office's user search: a whole national number becomes E.164 (so
 * "670000001" finds "+237670000001"); partial digits, names and usernames stay as typed.
 */
export function searchTermOf(text: string, country: string = HOME_COUNTRY): string {
  const trimmed = text.trim();
  return /^[\d\s.()-]+$/.test(trimmed) ? toE164(trimmed, country) : trimmed;
}
