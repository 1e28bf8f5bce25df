// Responsible play (issue 54): the date of birth (asked once, before the first purchase), the
// spending limits with their pending changes, and a break confirmed with a code, as the deletion's;
// a link to the service's page on responsible play. The wallet asks for the date of birth with
// `BirthDateField` when the account has none.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, envelopeOf, errorText, type ResponseData, xaf } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';

type Limits = ResponseData<'/api/user/wallet/limits', 'get'>;
const PERIODS = [
  ['daily', 'limitDaily'],
  ['weekly', 'limitWeekly'],
  ['monthly', 'limitMonthly'],
] as const;

/** The service's page on responsible play, beside an 18+ mark (the app's header carries it). */
export function AdultsMark() {
  return (
    <span class="adults">
      <strong>{t('adultsOnly')}</strong>{' '}
      <a href="/responsible-play" target="_blank" rel="noopener">
        {t('playLink')}
      </a>
    </span>
  );
}

/** A date of birth, as the wallet asks for it before the first purchase. */
export function BirthDateField({
  value,
  onInput,
  required = true,
}: {
  value: string;
  onInput: (value: string) => void;
  required?: boolean;
}) {
  return (
    <label>
      {t('birthDate')}
      <input type="date" required={required} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
      <span class="muted block">{t('birthDateHint')}</span>
    </label>
  );
}

/** Records the date of birth once (the profile update); rejects with the service's words. */
export async function saveBirthDate(birthDate: string): Promise<void> {
  await envelopeOf(api.POST('/api/user/profile/update', { body: { birth_date: birthDate } }));
}

const when = (iso: string) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

export function ResponsiblePlay() {
  const [birthDate, setBirthDate] = useState<string | null | undefined>();
  const [typedDate, setTypedDate] = useState('');
  const [excludedUntil, setExcludedUntil] = useState<string | null>(null);
  const [limits, setLimits] = useState<Limits | undefined>();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [days, setDays] = useState('7');
  const [codeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();

  // `keepTyped`: the first load never overwrites an amount typed before the limits arrived.
  const showLimits = (data: Limits, keepTyped = false) => {
    setLimits(data);
    const stored = Object.fromEntries(PERIODS.map(([period]) => [period, String(data.limits[period] ?? '')]));
    setTyped((current) => (keepTyped ? { ...stored, ...current } : stored));
  };
  useEffect(() => {
    void envelopeOf(api.GET('/api/user/profile')).then(
      ({ user }) => {
        setBirthDate(user.birth_date);
        setExcludedUntil(user.self_excluded_until);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
    void dataOf(api.GET('/api/user/wallet/limits')).then(
      (data) => showLimits(data, true),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);

  const act = async (work: () => Promise<string>) => {
    setError(undefined);
    setStatus(undefined);
    try {
      setStatus(await work());
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const amountOf = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

  return (
    <section aria-labelledby="play-title">
      <h1 id="play-title">{t('playTitle')}</h1>
      <p>{t('playIntro')}</p>
      <p>
        <AdultsMark />
      </p>
      {status && (
        <p role="status" class="banner success">
          {status}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <h2>{t('birthDate')}</h2>
      {birthDate ? (
        <p data-field="birth-date">{birthDate}</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act(async () => {
              await saveBirthDate(typedDate);
              setBirthDate(typedDate);
              return t('birthDateSaved');
            });
          }}
        >
          <BirthDateField value={typedDate} onInput={setTypedDate} />
          <button type="submit">{t('birthDateSave')}</button>
        </form>
      )}
      <h2>{t('limitsTitle')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            const body = Object.fromEntries(
              PERIODS.map(([period]) => [period, amountOf(typed[period] ?? '')]),
            );
            showLimits(await dataOf(api.POST('/api/user/wallet/limits', { body })));
            return t('limitsSaved');
          });
        }}
      >
        <p class="muted">{t('limitsHint')}</p>
        {PERIODS.map(([period, label]) => {
          const pending = limits?.pending[period];
          return (
            <label key={period}>
              {t(label)}
              <input
                type="number"
                inputMode="numeric"
                min={100}
                step={1}
                value={typed[period] ?? ''}
                onInput={(e) => setTyped({ ...typed, [period]: e.currentTarget.value })}
              />
              {pending && (
                <span class="muted block">
                  {t('limitPending', {
                    amount: pending.amount === null ? t('limitNone') : xaf(pending.amount),
                    date: when(pending.effective_at),
                  })}
                </span>
              )}
            </label>
          );
        })}
        <button type="submit">{t('limitsSave')}</button>
      </form>
      <h2>{t('pauseTitle')}</h2>
      {excludedUntil && Date.parse(excludedUntil) > Date.now() && (
        <p role="status">{t('pauseUntil', { date: when(excludedUntil) })}</p>
      )}
      <p class="muted">{t('pauseHint')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            if (!codeSent) {
              const sent = await envelopeOf(api.POST('/api/user/account/self-exclusion/code', { body: {} }));
              setCodeSent(true);
              return sent.message;
            }
            const done = await envelopeOf(
              api.POST('/api/user/account/self-exclusion', {
                body: { code: code.trim(), days: Number(days) },
              }),
            );
            setExcludedUntil(done.data.until);
            setCodeSent(false);
            setCode('');
            return done.message;
          });
        }}
      >
        <label>
          {t('pauseDays')}
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={1825}
            value={days}
            onInput={(e) => setDays(e.currentTarget.value)}
          />
        </label>
        {codeSent && (
          <label>
            {t('pauseCode')}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
        )}
        <button type="submit">{codeSent ? t('pauseConfirm') : t('pauseSendCode')}</button>
      </form>
    </section>
  );
}
