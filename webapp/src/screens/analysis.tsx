// One analysis: "in progress" that turns into the result without a reload (the user's event stream
// tells when; the detail is read again at each event and at each (re)opening of the stream), the
// probabilities as bars, the pick, the confidence, the narration, the data it used, and once the
// match is played, whether it came true.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, errorText, type ResponseData } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';
import { followUserEvents } from '../live.js';
import { declinePush, enablePush, pushWorthAsking } from '../push.js';
import { linkTo } from '../routes.js';

type Detail = ResponseData<'/api/user/pronostic/{id}', 'get'>['pronostic'];

interface Analysis {
  pick_label?: string;
  confidence?: number;
  probabilities?: Record<string, unknown>;
  analysis?: string;
  data_quality?: { home_matches?: number; away_matches?: number; odds?: string };
  settlement?: { outcome?: string; score?: string | null };
  message?: string;
}

const LABELS: Record<string, Parameters<typeof t>[0]> = {
  home: 'probHome',
  draw: 'probDraw',
  away: 'probAway',
  yes: 'probYes',
  no: 'probNo',
  over: 'probOver',
  under: 'probUnder',
};

export function AnalysisScreen({ id }: { id: number }) {
  const [detail, setDetail] = useState<Detail | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [offerPush, setOfferPush] = useState(false);
  const [pushNotice, setPushNotice] = useState<string | undefined>();

  useEffect(() => {
    let live = true;
    const read = () =>
      dataOf(api.GET('/api/user/pronostic/{id}', { params: { path: { id } } })).then(
        (data) => live && setDetail(data.pronostic),
        (failure: unknown) => live && setError(errorText(failure)),
      );
    void read();
    const stop = followUserEvents({
      onOpen: () => void read(),
      onEvent: (event) => {
        if (event.type.startsWith('pronostic.') && event.data.id === id) void read();
      },
    });
    return () => {
      live = false;
      stop();
    };
  }, [id]);

  useEffect(() => {
    if (detail?.status === 'success') setOfferPush(pushWorthAsking());
  }, [detail?.status]);

  if (error) {
    return (
      <p role="alert" class="error">
        {error}
      </p>
    );
  }
  if (!detail) return <p class="loading">{t('loading')}</p>;
  const teams = detail.teams_details as { home: string; away: string };
  const result = (detail.result ?? {}) as Analysis;
  const percent = new Intl.NumberFormat(currentLanguage(), { style: 'percent', maximumFractionDigits: 0 });
  return (
    <article aria-labelledby="analysis-title">
      <h1 id="analysis-title">{t('versus', teams)}</h1>
      <p class="muted">
        {detail.type.name} · {t('cost', { count: detail.credits_cost })}
      </p>
      {detail.status === 'processing' && (
        <p role="status" class="banner">
          {t('inProgress')}
        </p>
      )}
      {detail.status === 'cancelled' && (
        <p role="alert" class="error">
          {t('cancelledBecause', { reason: result.message ?? '' })}
        </p>
      )}
      {offerPush && (
        <section class="banner" aria-label={t('pushEnable')}>
          <p>{t('pushAsk')}</p>
          <button
            type="button"
            onClick={() => {
              setOfferPush(false);
              void enablePush().then(
                (on) => on && setPushNotice(t('pushEnabled')),
                (failure: unknown) => setError(errorText(failure)),
              );
            }}
          >
            {t('pushEnable')}
          </button>
          <button
            type="button"
            class="link"
            onClick={() => {
              declinePush();
              setOfferPush(false);
            }}
          >
            {t('pushLater')}
          </button>
        </section>
      )}
      {pushNotice && <p role="status">{pushNotice}</p>}
      {detail.status === 'success' && (
        <>
          <h2>{t('pick')}</h2>
          <p class="pick">{result.pick_label}</p>
          <p>
            <a {...linkTo({ name: 'slips', from: id })}>{t('slipCheckOdds')}</a>
          </p>
          {typeof result.confidence === 'number' && (
            <p>{t('confidence', { percent: percent.format(result.confidence) })}</p>
          )}
          <h2>{t('probabilities')}</h2>
          <ul class="bars">
            {Object.entries(result.probabilities ?? {})
              .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
              .map(([key, value]) => {
                const label = LABELS[key];
                const team = key === 'home' ? teams.home : teams.away;
                return (
                  <li key={key}>
                    <span>{label ? t(label, { team }) : key}</span>
                    <span class="bar" style={{ width: `${Math.round(value * 100)}%` }} aria-hidden="true" />
                    <span>{percent.format(value)}</span>
                  </li>
                );
              })}
          </ul>
          <h2>{t('narration')}</h2>
          <p class="narration">{result.analysis}</p>
          {result.data_quality && (
            <p class="muted">
              {t('dataUsed', {
                home: result.data_quality.home_matches ?? 0,
                away: result.data_quality.away_matches ?? 0,
                homeTeam: teams.home,
                awayTeam: teams.away,
              })}{' '}
              {result.data_quality.odds === 'prematch'
                ? t('withOdds')
                : result.data_quality.odds === 'market'
                  ? t('withPastOdds')
                  : ''}
            </p>
          )}
          <p class="settled">
            {result.settlement?.outcome === 'won'
              ? t('settledWon', { score: result.settlement.score ?? '' })
              : result.settlement?.outcome === 'lost'
                ? t('settledLost', { score: result.settlement.score ?? '' })
                : result.settlement?.outcome === 'void'
                  ? t('settledVoid')
                  : t('notSettled')}
          </p>
        </>
      )}
    </article>
  );
}
