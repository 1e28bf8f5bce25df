// Sign-in with the service's one-time code: phone (+ country) → code → token. The token is kept
// only once an admin route accepts it; a user without the admin role is told so and signed out.
import { useEffect, useRef, useState } from 'preact/hooks';
import { toE164 } from '../../clients/web/phone.js';
import { ApiError, api, dataOf, errorText, session } from './api.js';
import { t } from './i18n.js';
import { Field, LanguageSwitch } from './ui.js';

/** Whether the token is an admin's: an admin route answers 200, or 403 for anyone else. */
export async function isAdmin(): Promise<boolean> {
  try {
    await dataOf(api.GET('/api/admin/audit', { params: { query: { per_page: 1 } } }));
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return false;
    throw error;
  }
}

export function SignIn({ onSignedIn, notice }: { onSignedIn: () => void; notice?: string | undefined }) {
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [phone, setPhone] = useState('');
  const [country, setCountry] = useState('CM');
  const [method, setMethod] = useState<'sms' | 'whatsapp'>('sms');
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<{ text: string; tone: 'ok' | 'error' } | undefined>(
    notice ? { text: notice, tone: 'error' } : undefined,
  );
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  // The form changes under the keyboard user: the code field takes the focus.
  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  const sendCode = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const data = await dataOf(
        api.POST('/api/otp/generate', { body: { phone: toE164(phone, country), country, method } }),
      );
      setPhone(data.phone);
      setStep('code');
      setMessage({ text: t.signIn.codeSent(data.phone), tone: 'ok' });
    } catch (error) {
      setMessage({ text: errorText(error), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const data = await dataOf(api.POST('/api/otp/verify', { body: { phone, code: code.trim() } }));
      session.save(data.token);
      if (await isAdmin()) {
        onSignedIn();
        return;
      }
      await api.POST('/api/user/logout').catch(() => undefined);
      session.clear();
      setStep('phone');
      setCode('');
      setMessage({ text: `${t.signIn.refused}.`, tone: 'error' });
    } catch (error) {
      session.clear();
      setMessage({ text: errorText(error), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signin">
      <LanguageSwitch />
      <h1>{t.title}</h1>
      {step === 'phone' ? (
        <form onSubmit={sendCode} aria-labelledby="signin-title">
          <h2 id="signin-title">{t.signIn.heading}</h2>
          <Field label={t.signIn.country}>
            <select value={country} onChange={(e) => setCountry(e.currentTarget.value)}>
              {Object.entries(t.signIn.countries).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t.signIn.phone} hint={t.signIn.phoneHint}>
            <input
              type="tel"
              name="phone"
              autoComplete="tel"
              required
              value={phone}
              onInput={(e) => setPhone(e.currentTarget.value)}
            />
          </Field>
          <fieldset class="inline">
            <legend>{t.signIn.method}</legend>
            <label>
              <input
                type="radio"
                name="method"
                checked={method === 'sms'}
                onChange={() => setMethod('sms')}
              />{' '}
              SMS
            </label>
            <label>
              <input
                type="radio"
                name="method"
                checked={method === 'whatsapp'}
                onChange={() => setMethod('whatsapp')}
              />{' '}
              WhatsApp
            </label>
          </fieldset>
          <button type="submit" class="primary" disabled={busy}>
            {t.signIn.sendCode}
          </button>
        </form>
      ) : (
        <form onSubmit={verify} aria-labelledby="code-title">
          <h2 id="code-title">{t.signIn.codeHeading}</h2>
          <Field label={t.signIn.code} hint={t.signIn.codeHint(phone)}>
            <input
              ref={codeInput}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </Field>
          <button type="submit" class="primary" disabled={busy}>
            {t.signIn.signIn}
          </button>{' '}
          <button type="button" onClick={() => setStep('phone')}>
            {t.signIn.changeNumber}
          </button>
        </form>
      )}
      <p class={`status ${message?.tone ?? ''}`} role="status" aria-live="polite">
        {message?.text ?? ''}
      </p>
    </main>
  );
}
