// Phone numbers as people type them: "690000000" with Cameroon selected is "+237690000000". The
// API takes E.164 only; the conversion uses the library the service checks numbers with.
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The market's country, preselected. */
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

/** E.164 for a mobile number typed nationally or internationally, or undefined when it is not one. */
export function toE164(text: string, country: CountryCode): string | undefined {
  const parsed = parsePhoneNumberFromString(text.trim(), country);
  if (!parsed?.isValid()) return undefined;
  const type = parsed.getType();
  // The service sends codes to mobiles only; /min metadata cannot always tell, so undefined passes.
  if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return undefined;
  return parsed.number;
}

/** "Cameroun (+237)" in the screens' language. */
export function countryLabel(country: CountryCode, language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
  return `${name} (+${getCountryCallingCode(country)})`;
}
