// Phone numbers as people type them, for both web apps: "690000000" with Cameroon chosen is
// "+237690000000". The API takes E.164 only (and its validation stays as it is), so the apps convert
// in the browser with the library the service checks numbers with (its /min metadata).
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The market's country: preselected, and the one a number typed without a country code belongs to. */
export const HOME_COUNTRY: CountryCode = 'CM';

/** Central and West African countries first (the market), then France. */
export const COUNTRIES: CountryCode[] = [
  'CM',
  'GA',
  'CG',
  'TD',
  'CF',
  'GQ',
  'NG',
  'CI',
  'SN',
  'BJ',
  'TG',
  'FR',
];

function parse(text: string, country: string) {
  const parsed = parsePhoneNumberFromString(text.trim(), country.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed : undefined;
}

/**
 * E.164 for a number typed in national or international format for `country`, else the trimmed
 * text as typed: the API's 422 then says what is wrong with it (the back office's forms).
 */
export function toE164(text: string, country: string = HOME_COUNTRY): string {
  return parse(text, country)?.number ?? text.trim();
}

/** E.164 for a mobile number typed nationally or internationally, or undefined when it is not one. */
export function mobileE164(text: string, country: CountryCode): string | undefined {
  const parsed = parse(text, country);
  // The service sends codes to mobiles only; /min metadata cannot always tell, so undefined passes.
  const type = parsed?.getType();
  if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return undefined;
  return parsed?.number;
}

/**
 * A search term for the back office's user search: a whole national number becomes E.164 (so
 * "670000001" finds "+237670000001"); partial digits, names and usernames stay as typed.
 */
export function searchTermOf(text: string, country: string = HOME_COUNTRY): string {
  const trimmed = text.trim();
  return /^[\d\s.()-]+$/.test(trimmed) ? toE164(trimmed, country) : trimmed;
}

/** "Cameroun (+237)" in the screens' language. */
export function countryLabel(country: CountryCode, language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
  return `${name} (+${getCountryCallingCode(country)})`;
}
