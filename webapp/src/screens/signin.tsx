// Sign-in by code: phone (country preselected to Cameroon, a national number turned into E.164)
// and SMS or WhatsApp → the code → the token. The resend waits for the cooldown, counted down on
// screen; every refusal is the service's own message, in the screens' language.
import type { CountryCode } from 'libphonenumber-js/min';
import { useEffect, useRef, useState } from 'preact/hooks';
import { requestSignInCode } from '../../../clients/typescript/signup.js';
import { COUNTRIES, countryLabel, HOME_COUNTRY, mobileE164 } from '../../../clients/web/phone.js';
import { ApiError, api, dataOf, errorText, session } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';

/** The service's default OTP_RESEND_COOLDOWN_SECONDS; a 429 tells the real wait. */
const RESEND_SECONDS = 60;

function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const seconds = (error.body as { data?: { retry_after?: unknown } } | undefined)?.data?.retry_after;
  return typeof seconds === 'number' ? seconds : undefined;
}

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [country, setCountry] = useState<CountryCode>(HOME_COUNTRY);
  const [typed, setTyped] = useState('');
  const [phone, setPhone] = useState('');
  const [method, setMethod] = useState<'sms' | 'whatsapp'>('sms');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const [checking, setChecking] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async (number: string) => {
    setBusy(true);
    setError(undefined);
    try {
      // Under pressure the service asks a new number to solve a challenge first (a 428): the typed
      // client solves it and asks again; the screen says what is happening meanwhile.
      const data = await requestSignInCode(
        api,
        { phone: number, country, method },
        { onChallenge: () => setChecking(true) },
      );
      setPhone(data.phone);
      setStep('code');
      setWait(RESEND_SECONDS);
    } catch (failure) {
      const retryAfter = retryAfterOf(failure);
      if (retryAfter !== undefined) setWait(retryAfter);
      setError(errorText(failure));
    } finally {
      setBusy(false);
      setChecking(false);
    }
  };

  const submitPhone = (event: Event) => {
    event.preventDefault();
    const number = mobileE164(typed, country);
    if (!number) {
      setError(t('phoneInvalid'));
      return;
    }
    void send(number);
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const data = await dataOf(api.POST('/api/otp/verify', { body: { phone, code: code.trim() } }));
      session.save(data.token);
      onSignedIn();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const language = currentLanguage();
  return (
    <main id="main" class="signin">
      <h1>{t('appName')}</h1>
      {step === 'phone' ? (
        <form onSubmit={submitPhone} aria-labelledby="signin-title" noValidate>
          <h2 id="signin-title">{t('signinTitle')}</h2>
          <p>{t('signinIntro')}</p>
          <label>
            {t('country')}
            <select value={country} onChange={(e) => setCountry(e.currentTarget.value as CountryCode)}>
              {COUNTRIES.map((value) => (
                <option key={value} value={value}>
                  {countryLabel(value, language)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('phone')}
            <input
              type="tel"
              name="phone"
              inputMode="tel"
              autoComplete="tel-national"
              placeholder={t('phoneHint')}
              required
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          </label>
          <fieldset>
            <legend>{t('method')}</legend>
            {(['sms', 'whatsapp'] as const).map((value) => (
              <label key={value} class="choice">
                <input
                  type="radio"
                  name="method"
                  value={value}
                  checked={method === value}
                  onChange={() => setMethod(value)}
                />
                {value === 'sms' ? t('methodSms') : t('methodWhatsapp')}
              </label>
            ))}
          </fieldset>
          {checking && <p role="status">{t('challengeNeeded')}</p>}
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || wait > 0}>
            {wait > 0 ? t('resendIn', { count: wait }) : t('sendCode')}
          </button>
        </form>
      ) : (
        <form onSubmit={verify} aria-labelledby="code-title">
          <h2 id="code-title">{t('codeTitle')}</h2>
          <p>{t('codeSentTo', { phone })}</p>
          <label>
            {t('code')}
            <input
              ref={codeInput}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
            />
          </label>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || code.length !== 6}>
            {t('verify')}
          </button>
          <button type="button" class="link" disabled={busy || wait > 0} onClick={() => void send(phone)}>
            {wait > 0 ? t('resendIn', { count: wait }) : t('resend')}
          </button>
          <button
            type="button"
            class="link"
            onClick={() => {
              setStep('phone');
              setCode('');
              setError(undefined);
            }}
          >
            {t('changeNumber')}
          </button>
        </form>
      )}
    </main>
  );
}
