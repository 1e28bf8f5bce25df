// Referrals: one's code with a share button (the system share sheet where there is one, a WhatsApp
// link, copy), a sponsor's code to apply, the referral wallet, the godchildren, a withdrawal to MTN
// Mobile Money or Orange Money, and the withdrawals with the status message the service writes.
import type { CountryCode } from 'libphonenumber-js/min';
import { useEffect, useState } from 'preact/hooks';
import { mobileE164 } from '../../../clients/web/phone.js';
import { api, dataOf, envelopeOf, errorText, type ResponseData, xaf } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';
import { OperatorChoice, type OperatorId, operatorOf } from '../operators.js';

type Overview = ResponseData<'/api/user/affiliation/overview', 'get'>;
type Godchild = ResponseData<'/api/user/affiliation/godchildren', 'get'>['godchildren'][number];
type Withdrawal = ResponseData<'/api/user/affiliation/withdrawals', 'get'>['withdrawals'][number];

const WITHDRAWAL_KEY = {
  pending: 'withdrawalPending',
  success: 'withdrawalSuccess',
  cancelled: 'withdrawalCancelled',
} as const;

export function Referrals() {
  const [code, setCode] = useState('');
  const [country, setCountry] = useState<CountryCode>('CM');
  const [overview, setOverview] = useState<Overview | undefined>();
  const [godchildren, setGodchildren] = useState<Godchild[]>([]);
  const [withdrawals, setWithdrawals] = useState<Withdrawal[]>([]);
  const [sponsor, setSponsor] = useState('');
  const [amount, setAmount] = useState('');
  const [phone, setPhone] = useState('');
  const [operator, setOperator] = useState<OperatorId>('mtn');
  const [notice, setNotice] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    void envelopeOf(api.GET('/api/user/profile')).then(
      ({ user }) => {
        setCode(user.affiliation_code);
        setCountry(user.country as CountryCode);
        setPhone((current) => current || user.phone);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);
  useEffect(() => {
    void Promise.all([
      dataOf(api.GET('/api/user/affiliation/overview')),
      dataOf(api.GET('/api/user/affiliation/godchildren')),
      dataOf(api.GET('/api/user/affiliation/withdrawals', { params: { query: { per_page: 20 } } })),
    ]).then(
      ([view, children, list]) => {
        setOverview(view);
        setGodchildren(children.godchildren);
        setWithdrawals(list.withdrawals);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
  }, [refresh]);

  const url = `${location.origin}/app/`;
  const text = t('shareText', { code, url });
  const shareNative = async () => {
    try {
      await navigator.share({ text });
    } catch {
      // Closed by the person: nothing to say.
    }
  };
  const copy = async () => {
    await navigator.clipboard.writeText(code);
    setNotice(t('copied'));
  };
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await work();
      setRefresh((n) => n + 1);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const applySponsor = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const data = await dataOf(
        api.POST('/api/user/profile/apply-affiliation', { body: { affiliation_code: sponsor.trim() } }),
      );
      setNotice(t('codeApplied', { name: data.godfather.name }));
      setSponsor('');
    });
  };
  const withdraw = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await dataOf(
        api.POST('/api/user/affiliation/withdraw', {
          body: {
            amount: Number(amount),
            phone: mobileE164(phone, country) ?? phone.trim(),
            operator: operatorOf(operator),
          },
        }),
      );
      setAmount('');
    });
  };

  const day = new Intl.DateTimeFormat(currentLanguage(), { day: 'numeric', month: 'short', year: 'numeric' });
  return (
    <section aria-labelledby="referrals-title">
      <h1 id="referrals-title">{t('referralsTitle')}</h1>
      <h2>{t('yourCode')}</h2>
      <p class="code">{code}</p>
      <div class="actions">
        {'share' in navigator && (
          <button type="button" onClick={() => void shareNative()}>
            {t('share')}
          </button>
        )}
        <a
          class="button"
          href={`https://wa.me/?text=${encodeURIComponent(text)}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('shareWhatsapp')}
        </a>
        <button type="button" class="secondary" onClick={() => void copy()}>
          {t('copy')}
        </button>
      </div>
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {overview && (
        <ul class="facts">
          <li>{t('referralBalance', { amount: xaf(overview.wallet.balance) })}</li>
          <li>{t('referralEarned', { amount: xaf(overview.wallet.total_earned) })}</li>
          <li>{t('godchildrenCount', { count: overview.godchildren_count })}</li>
        </ul>
      )}
      <form onSubmit={applySponsor} aria-labelledby="sponsor-title">
        <h2 id="sponsor-title">{t('applyCodeTitle')}</h2>
        <label>
          {t('sponsorCode')}
          <input
            value={sponsor}
            maxLength={32}
            autoCapitalize="characters"
            onInput={(e) => setSponsor(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy || sponsor.trim() === ''}>
          {t('applyCode')}
        </button>
      </form>
      <h2>{t('godchildrenTitle')}</h2>
      {godchildren.length === 0 ? (
        <p>{t('noGodchildren')}</p>
      ) : (
        <ul class="cards">
          {godchildren.map((child) => (
            <li key={child.id}>
              <span>{child.name}</span>
              <span class="muted">{day.format(new Date(child.created_at))}</span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={withdraw} aria-labelledby="withdraw-title">
        <h2 id="withdraw-title">{t('withdrawTitle')}</h2>
        <label>
          {t('withdrawAmount', { min: xaf(overview?.withdraw_min ?? 0) })}
          <input
            type="number"
            inputMode="numeric"
            min={overview?.withdraw_min ?? 0}
            step={1}
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
        </label>
        <label>
          {t('withdrawPhone')}
          <input type="tel" inputMode="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        </label>
        <OperatorChoice name="withdraw-operator" value={operator} onChange={setOperator} />
        <button type="submit" disabled={busy || amount === ''}>
          {t('withdraw')}
        </button>
      </form>
      <h2>{t('withdrawalsTitle')}</h2>
      {withdrawals.length === 0 ? (
        <p>{t('noWithdrawals')}</p>
      ) : (
        <ul class="cards">
          {withdrawals.map((withdrawal) => (
            <li key={withdrawal.id}>
              <span>
                {xaf(withdrawal.amount)} · {withdrawal.meta.operator.name}
                {withdrawal.message && <span class="muted block">{withdrawal.message}</span>}
              </span>
              <span class={`status status-${withdrawal.status}`}>{t(WITHDRAWAL_KEY[withdrawal.status])}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
