// Home: the credits, the latest analyses and the upcoming fixtures by day. One call each, the
// dashboard (user + latest) and the fixtures list; an unreachable service shows the offline screen.
// For a Cameroonian account (+237), the Lions' next match and the Africa Cup of Nations' upcoming
// matches come first (../lions.ts), two more calls.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, envelopeOf, errorText, isUnreachable, type ResponseData } from '../api.js';
import { competitionLabel } from '../competition-name.js';
import { currentLanguage, t } from '../i18n/index.js';
import { CONTINENTAL_TOURNAMENT, isCameroonian, LIONS, withoutShown } from '../lions.js';
import { PRONOSTIC_STATUS } from '../statuses.js';

type Dashboard = ResponseData<'/api/user/dashboard', 'get'>;
type Fixtures = ResponseData<'/api/fixtures', 'get'>['fixtures'];
type Listed = Dashboard['latest_pronostics'][number];

function teamsOf(pronostic: Listed): { home: string; away: string } {
  const details = pronostic.teams_details as { home?: unknown; away?: unknown };
  return { home: String(details.home ?? '?'), away: String(details.away ?? '?') };
}

export function Home({ onOffline }: { onOffline: () => void }) {
  const [state, setState] = useState<
    | { credits: number; latest: Listed[]; fixtures: Fixtures; lions: Fixtures; tournament: Fixtures }
    | { error: string }
    | undefined
  >();

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const [dashboard, fixtures] = await Promise.all([
          envelopeOf(api.GET('/api/user/dashboard')),
          dataOf(api.GET('/api/fixtures', { params: { query: { per_page: 20 } } })),
        ]);
        const [lions, tournament] = isCameroonian(dashboard.user.phone)
          ? await Promise.all([
              dataOf(api.GET('/api/fixtures', { params: { query: { team: LIONS, per_page: 1 } } })),
              dataOf(
                api.GET('/api/fixtures', {
                  params: { query: { league: CONTINENTAL_TOURNAMENT, per_page: 8 } },
                }),
              ),
            ])
          : [{ fixtures: [] }, { fixtures: [] }];
        if (live) {
          setState({
            credits: dashboard.user.credits_balance,
            latest: dashboard.data.latest_pronostics,
            fixtures: withoutShown(fixtures.fixtures, [...lions.fixtures, ...tournament.fixtures]),
            lions: lions.fixtures,
            tournament: withoutShown(tournament.fixtures, lions.fixtures),
          });
        }
      } catch (error) {
        if (isUnreachable(error)) onOffline();
        else if (live) setState({ error: errorText(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [onOffline]);

  if (state === undefined) return <p class="loading">{t('loading')}</p>;
  if ('error' in state) {
    return (
      <p role="alert" class="error">
        {state.error}
      </p>
    );
  }
  const language = currentLanguage();
  const day = new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long' });
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' });
  const byDay = new Map<string, Fixtures>();
  for (const fixture of state.fixtures) {
    const label = day.format(new Date(fixture.kickoff_at));
    byDay.set(label, [...(byDay.get(label) ?? []), fixture]);
  }
  const card = (fixture: Fixtures[number]) => (
    <li key={fixture.id}>
      <span>{t('versus', { home: fixture.home, away: fixture.away })}</span>
      <span class="muted">
        {competitionLabel(fixture.league)} ·{' '}
        {fixture.stage && <span data-field="stage">{fixture.stage} · </span>}
        {day.format(new Date(fixture.kickoff_at))} {time.format(new Date(fixture.kickoff_at))}
      </span>
    </li>
  );
  return (
    <>
      <h1>{t('homeTitle')}</h1>
      {state.lions.length > 0 && (
        <section aria-labelledby="lions-title" data-section="lions">
          <h2 id="lions-title">{t('lionsNextMatch')}</h2>
          <ul class="cards">{state.lions.map(card)}</ul>
        </section>
      )}
      {state.tournament.length > 0 && (
        <section aria-labelledby="tournament-title" data-section="tournament">
          <h2 id="tournament-title">{competitionLabel(state.tournament[0]!.league)}</h2>
          <ul class="cards">{state.tournament.map(card)}</ul>
        </section>
      )}
      <p class="credits">{t('credits', { count: state.credits })}</p>
      <section aria-labelledby="latest-title">
        <h2 id="latest-title">{t('latestAnalyses')}</h2>
        {state.latest.length === 0 ? (
          <p>{t('noAnalyses')}</p>
        ) : (
          <ul class="cards">
            {state.latest.map((pronostic) => {
              const teams = teamsOf(pronostic);
              return (
                <li key={pronostic.id}>
                  <span>{t('versus', teams)}</span>
                  <span class={`status status-${pronostic.status}`}>
                    {t(PRONOSTIC_STATUS[pronostic.status])}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="fixtures-title">
        <h2 id="fixtures-title">{t('upcomingFixtures')}</h2>
        {byDay.size === 0 ? (
          <p>{t('noFixtures')}</p>
        ) : (
          [...byDay].map(([label, fixtures]) => (
            <div key={label}>
              <h3>{label}</h3>
              <ul class="cards">
                {fixtures.map((fixture) => (
                  <li key={fixture.id}>
                    <span>{t('versus', { home: fixture.home, away: fixture.away })}</span>
                    <span class="muted">
                      {competitionLabel(fixture.league)} ·{' '}
                      {fixture.stage && <span data-field="stage">{fixture.stage} · </span>}
                      {time.format(new Date(fixture.kickoff_at))}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </section>
    </>
  );
}
