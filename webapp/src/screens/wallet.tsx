// The wallet: the packs, a checkout by mobile money (the payer's number, prefilled with the
// account's, and the operator), the waiting screen that turns into "credited" or says why it failed
// (the event stream tells when; the payment is read again at each event and each opening), then
// the operations, paged.
import type { CountryCode } from 'libphonenumber-js/min';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { mobileE164 } from '../../../clients/web/phone.js';
import { api, dataOf, envelopeOf, errorText, type ResponseData, xaf } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';
import { followUserEvents } from '../live.js';
import { OperatorChoice, type OperatorId, operatorOf } from '../operators.js';
import { BirthDateField, saveBirthDate } from './play.js';

type Pack = ResponseData<'/api/user/wallet/packs', 'get'>['packs'][number];
type Payment = ResponseData<'/api/user/wallet/payments/{id}', 'get'>['payment'];
type Operation = ResponseData<'/api/user/wallet/operations', 'get'>['operations'][number];

function PaymentWait({ id, onDone }: { id: number; onDone: () => void }) {
  const [payment, setPayment] = useState<Payment | undefined>();
  useEffect(() => {
    let live = true;
    const read = () =>
      dataOf(api.GET('/api/user/wallet/payments/{id}', { params: { path: { id } } })).then(
        (data) => {
          if (!live) return;
          setPayment(data.payment);
          if (data.payment.status !== 'pending') onDone();
        },
        () => undefined,
      );
    void read();
    const stop = followUserEvents({
      onOpen: () => void read(),
      onEvent: (event) => {
        if (event.type.startsWith('payment.') && event.data.id === id) void read();
      },
    });
    return () => {
      live = false;
      stop();
    };
  }, [id, onDone]);
  if (!payment || payment.status === 'pending') {
    return (
      <div role="status" class="banner">
        <p>{t('payWaiting')}</p>
        {payment?.payment_url && (
          <a href={payment.payment_url} target="_blank" rel="noopener noreferrer">
            {t('payOpenPage')}
          </a>
        )}
      </div>
    );
  }
  return payment.status === 'success' ? (
    <p role="status" class="banner success">
      {t('payCredited', { credits: t('cost', { count: payment.credits }) })}
    </p>
  ) : (
    <p role="alert" class="error">
      {t('payFailed')}
    </p>
  );
}

export function Wallet() {
  const [packs, setPacks] = useState<Pack[]>([]);
  const [packId, setPackId] = useState<number | undefined>();
  const [typed, setTyped] = useState('');
  const [country, setCountry] = useState<CountryCode>('CM');
  const [operator, setOperator] = useState<OperatorId>('mtn');
  const [paymentId, setPaymentId] = useState<number | undefined>();
  const [operations, setOperations] = useState<Operation[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);
  // Responsible play: the first purchase asks for the date of birth (null: none recorded yet).
  const [birthDate, setBirthDate] = useState<string | null | undefined>();
  const [typedBirthDate, setTypedBirthDate] = useState('');
  const paymentDone = useCallback(() => setRefresh((n) => n + 1), []);

  useEffect(() => {
    void dataOf(api.GET('/api/user/wallet/packs')).then(
      (data) => {
        setPacks(data.packs);
        setPackId((current) => current ?? data.packs[0]?.id);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
    void envelopeOf(api.GET('/api/user/profile')).then(
      ({ user }) => {
        setCountry(user.country as CountryCode);
        setTyped((current) => current || user.phone);
        setBirthDate(user.birth_date);
      },
      () => undefined,
    );
  }, []);
  const loadOperations = async (next: number, replace: boolean) => {
    const data = await dataOf(
      api.GET('/api/user/wallet/operations', { params: { query: { page: next, per_page: 10 } } }),
    );
    setOperations((before) => (replace ? data.operations : [...before, ...data.operations]));
    setPage(next);
    setHasMore(data.meta.has_more);
  };
  useEffect(() => {
    void loadOperations(1, true).catch((failure: unknown) => setError(errorText(failure)));
  }, [refresh]);

  const checkout = async (event: Event) => {
    event.preventDefault();
    if (packId === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      if (birthDate === null && typedBirthDate !== '') {
        await saveBirthDate(typedBirthDate);
        setBirthDate(typedBirthDate);
      }
      const phone = mobileE164(typed, country) ?? typed.trim();
      const data = await dataOf(
        api.POST('/api/user/wallet/checkout', {
          body: { pack_id: packId, phone, operator: operatorOf(operator) },
        }),
      );
      setPaymentId(data.payment.id);
      if (data.payment.payment_url) window.open(data.payment.payment_url, '_blank', 'noopener');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const day = new Intl.DateTimeFormat(currentLanguage(), {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">{t('walletTitle')}</h1>
      <form onSubmit={checkout} aria-labelledby="packs-title">
        <h2 id="packs-title">{t('packsTitle')}</h2>
        <fieldset>
          <legend class="visually-hidden">{t('packsTitle')}</legend>
          {packs.map((pack) => (
            <label key={pack.id} class="choice">
              <input
                type="radio"
                name="pack"
                checked={packId === pack.id}
                onChange={() => setPackId(pack.id)}
              />
              {t('packLine', {
                name: pack.name,
                credits: t('cost', { count: pack.credits }),
                price: xaf(pack.price),
              })}
            </label>
          ))}
        </fieldset>
        <label>
          {t('payerPhone')}
          <input
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <OperatorChoice name="operator" value={operator} onChange={setOperator} />
        {birthDate === null && (
          <BirthDateField value={typedBirthDate} onInput={setTypedBirthDate} required={false} />
        )}
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || packId === undefined}>
          {t('buy')}
        </button>
      </form>
      {paymentId !== undefined && <PaymentWait id={paymentId} onDone={paymentDone} />}
      <h2>{t('operationsTitle')}</h2>
      {operations.length === 0 ? (
        <p>{t('noOperations')}</p>
      ) : (
        <ul class="cards">
          {operations.map((operation) => (
            <li key={operation.id}>
              <span>
                {operation.description}
                <span class="muted block">{day.format(new Date(operation.created_at))}</span>
              </span>
              <span class={operation.amount < 0 ? 'amount debit' : 'amount credit'}>
                {operation.currency === 'XAF'
                  ? xaf(operation.amount)
                  : `${operation.amount > 0 ? '+' : ''}${t('cost', { count: operation.amount })}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <button type="button" class="link" onClick={() => void loadOperations(page + 1, false)}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}
