// Providers' error texts may echo the recipient (Twilio: "The 'To' number +237… is not a valid phone
// number"); a phone number is personal data and stays out of the log.

/**
 * A run of 8 to 15 digits (E.164's national part and country code), with or without `+` or a
 * `whatsapp:` prefix, possibly split by spaces, dots, dashes or parentheses. Shorter runs (provider
 * error codes such as 21211 or 131026, HTTP statuses, milliseconds) and digits inside a word (an
 * fbtrace_id, a message SID) are kept.
 */
const PHONE_NUMBER = /(?<![\w+])\+?\d(?:[\s.()-]{0,2}\d){7,14}(?!\w)/g;

export const REDACTED_PHONE = '[phone]';

/** The text with every phone-number-looking run replaced by `[phone]`. */
export function redactPhoneNumbers(text: string): string {
  return text.replace(PHONE_NUMBER, REDACTED_PHONE);
}
