// Phone numbers: E.164, checked with libphonenumber's full metadata (the default
// "min" metadata only checks lengths, so it would let unallocated ranges through to a paid SMS).
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { PaymentChannel } from './allowed-values.js';

/** Separators people type inside a number; anything else that is not `+` or a digit is refused. */
const SEPARATORS = /[\s().-]/g;
const INTERNATIONAL = /^\+[1-9]\d{5,16}$/;

/** The E.164 form of an international number, or undefined when it is not a valid one. */
export function normalizePhone(raw: string): string | undefined {
  const compact = raw.replace(SEPARATORS, '');
  if (!INTERNATIONAL.test(compact)) return undefined;
  const parsed = parsePhoneNumberFromString(compact);
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * The only number types that get a code. Premium-rate, shared-cost, toll-free, VoIP and plain fixed
 * lines are where SMS-pumping fraud sends paid messages, and no one reads a code there.
 */
const MOBILE_TYPES: ReadonlySet<string> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export type PhoneCheck =
  | { phone: string; callingCode: string }
  | { invalid: 'phone' | 'country' | 'not_mobile' };

/**
 * The E.164 form and calling code of a mobile number that is valid and belongs to `country`
 * (upper-case ISO 3166 alpha-2). A number of another country sharing the calling code (+1 US for CA)
 * is not valid for it.
 */
export function phoneForCountry(raw: string, country: string): PhoneCheck {
  if (!isSupportedCountry(country)) return { invalid: 'country' };
  const compact = raw.replace(SEPARATORS, '');
  if (!INTERNATIONAL.test(compact)) return { invalid: 'phone' };
  const parsed = parsePhoneNumberFromString(compact);
  if (!parsed?.isValid() || parsed.country !== country) return { invalid: 'phone' };
  if (!MOBILE_TYPES.has(parsed.getType() ?? '')) return { invalid: 'not_mobile' };
  return { phone: parsed.number, callingCode: parsed.countryCallingCode };
}

/**
 * The E.164 form of a Cameroon mobile number, typed internationally or as its nine national digits
 * (`6…`), or undefined: the payer of a pack and the receiver of a withdrawal are checked alike.
 */
export function cameroonMobileOf(raw: string): string | undefined {
  const compact = raw.replace(SEPARATORS, '');
  const international = /^6\d{8}$/.test(compact) ? `+237${compact}` : compact;
  const checked = phoneForCountry(international, 'CM');
  return 'invalid' in checked ? undefined : checked.phone;
}

/** `+237670000012` → `+237******12`: the first 4 characters, six stars (the length hidden too), the last 2. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 4)}******${phone.slice(-2)}`;
}

/** NotchPay's channel for the number: MTN or Orange when its prefix says so clearly, else the generic one. */
export function channelOf(phone: string): PaymentChannel {
  const national = phone.replace(/^\+237/, '');
  const prefix3 = Number(national.slice(0, 3));
  if (national.startsWith('67') || (prefix3 >= 650 && prefix3 <= 654) || (prefix3 >= 680 && prefix3 <= 683)) {
    return 'cm.mtn';
  }
  if (national.startsWith('69') || (prefix3 >= 655 && prefix3 <= 659) || (prefix3 >= 685 && prefix3 <= 689)) {
    return 'cm.orange';
  }
  return 'cm.mobile';
}
