// Responsible play's account facts as a checkout reads them (issue 54): declared here, apart from
// both sides, because money asks for them and the users module answers (its `holdForCheckout`).
import type { Locale, SpendingPeriod } from '../lib/allowed-values.js';

/** The date of birth, a self-exclusion's end and the spending limits in force (XAF, null: none). */
export interface CheckoutPlay {
  birthDate: string | null;
  selfExcludedUntil: string | null;
  limits: Record<SpendingPeriod, number | null>;
}

/** What a checkout reads of the account it holds active (one statement): its play facts and its language. */
export interface CheckoutAccount {
  play: CheckoutPlay;
  locale: Locale;
}
