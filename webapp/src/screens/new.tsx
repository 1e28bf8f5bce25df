// A new analysis: pick an upcoming fixture (search by team, choose its competition in the picker,
// each fixture named with its competition and country) or type the two teams, pick a type with its
// cost in credits, confirm. A 402 says what is missing and points to the packs. Names come in the
// screens' language, fetched again when it changes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, dataOf, envelopeOf, errorText, type ResponseData } from '../api.js';
import { type Competition, competitionLabel, recentCodes, rememberCompetition } from '../competitions.js';
import { loadCompetitions } from '../competitions-call.js';
import { currentLanguage, t } from '../i18n/index.js';
import { linkTo, navigate } from '../routes.js';
import { folded } from '../text.js';
import { CompetitionPicker } from './competition-picker.js';

type Fixture = ResponseData<'/api/fixtures', 'get'>['fixtures'][number];
type PronosticType = ResponseData<'/api/user/pronostic/types', 'get'>['types'][number];

export function NewAnalysis() {
  const language = currentLanguage();
  const [types, setTypes] = useState<PronosticType[]>([]);
  const [fixtures, setFixtures] = useState<Fixture[] | undefined>();
  const [competitions, setCompetitions] = useState<Competition[]>([]);
  const [userId, setUserId] = useState<number | undefined>();
  const [recent, setRecent] = useState<string[]>([]);
  const [team, setTeam] = useState('');
  const [league, setLeague] = useState('');
  const asked = useRef(0);
  const [fixtureId, setFixtureId] = useState<number | undefined>();
  const [home, setHome] = useState('');
  const [away, setAway] = useState('');
  const [typeId, setTypeId] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [short, setShort] = useState(false);

  useEffect(() => {
    void envelopeOf(api.GET('/api/user/pronostic/types')).then(
      ({ user, data }) => {
        setTypes(data.types);
        setTypeId((now) => now ?? data.types[0]?.id);
        setUserId(user.id);
        setRecent(recentCodes(localStorage, user.id));
      },
      (failure: unknown) => setError(errorText(failure)),
    );
    void loadCompetitions().then(setCompetitions, (failure: unknown) => setError(errorText(failure)));
  }, [language]);
  useEffect(() => {
    // The next fixtures (the service's largest page), of the chosen competition or of all; a team
    // is searched among them as it is typed. Only the last competition asked for is shown.
    const ask = ++asked.current;
    const query = league === '' ? { per_page: 50 } : { per_page: 50, league };
    void dataOf(api.GET('/api/fixtures', { params: { query } })).then(
      (data) => ask === asked.current && setFixtures(data.fixtures),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, [league, language]);

  const byCode = new Map(competitions.map((competition) => [competition.code, competition]));
  const wanted = folded(team.trim());
  const shown = (fixtures ?? []).filter(
    (f) => wanted === '' || folded(f.home).includes(wanted) || folded(f.away).includes(wanted),
  );
  const chosen = fixtures?.find((f) => f.id === fixtureId);
  const type = types.find((candidate) => candidate.id === typeId);
  const match = chosen
    ? t('versus', { home: chosen.home, away: chosen.away })
    : home.trim() && away.trim()
      ? t('versus', { home: home.trim(), away: away.trim() })
      : undefined;
  const kickoff = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!match || !type) {
      setError(t('chooseMatchFirst'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const body = chosen
        ? { type_id: type.id, fixture_id: chosen.id }
        : {
            type_id: type.id,
            // Typed teams with a competition chosen: its code tells the analysis which league they play in.
            teams_details: { home: home.trim(), away: away.trim(), ...(league ? { league } : {}) },
          };
      const data = await dataOf(api.POST('/api/user/pronostic/create', { body }));
      const played = chosen?.league.code ?? league;
      if (userId !== undefined && played !== '') rememberCompetition(localStorage, userId, played);
      navigate({ name: 'analysis', id: data.pronostic.id });
    } catch (failure) {
      setShort(failure instanceof ApiError && failure.status === 402);
      if (failure instanceof ApiError && failure.status === 402) {
        const { credits_balance, required } = (
          failure.body as { data: { credits_balance: number; required: number } }
        ).data;
        setError(
          t('notEnoughCredits', {
            required: t('cost', { count: required }),
            balance: t('cost', { count: credits_balance }),
          }),
        );
      } else setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="new-title">
      <h1 id="new-title">{t('newTitle')}</h1>
      <fieldset>
        <legend>{t('pickFixture')}</legend>
        <label>
          {t('searchTeam')}
          <input type="search" value={team} onInput={(e) => setTeam(e.currentTarget.value)} />
        </label>
        <CompetitionPicker
          competitions={competitions}
          recent={recent}
          chosen={league}
          onChoose={(code) => {
            setLeague(code);
            setFixtureId(undefined);
          }}
        />
        {fixtures?.length === 0 && league !== '' && <p>{t('noFixturesInCompetition')}</p>}
        <ul class="cards choices">
          {shown.map((fixture) => (
            <li key={fixture.id}>
              <label class="choice">
                <input
                  type="radio"
                  name="fixture"
                  checked={fixtureId === fixture.id}
                  onChange={() => setFixtureId(fixture.id)}
                />
                <span>
                  {t('versus', { home: fixture.home, away: fixture.away })}
                  <span class="muted block">
                    {competitionLabel(fixture.league, byCode)} ·{' '}
                    {fixture.stage && <span data-field="stage">{fixture.stage} · </span>}
                    {kickoff.format(new Date(fixture.kickoff_at))}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend>{t('orTypeTeams')}</legend>
        <label>
          {t('homeTeam')}
          <input
            maxLength={100}
            value={home}
            onInput={(e) => {
              setHome(e.currentTarget.value);
              setFixtureId(undefined);
            }}
          />
        </label>
        <label>
          {t('awayTeam')}
          <input
            maxLength={100}
            value={away}
            onInput={(e) => {
              setAway(e.currentTarget.value);
              setFixtureId(undefined);
            }}
          />
        </label>
      </fieldset>
      <fieldset>
        <legend>{t('pickType')}</legend>
        {types.map((candidate) => (
          <label key={candidate.id} class="choice">
            <input
              type="radio"
              name="type"
              checked={typeId === candidate.id}
              onChange={() => setTypeId(candidate.id)}
            />
            <span>
              {candidate.name} — {t('cost', { count: candidate.difficulty })}
              <span class="muted block">{candidate.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {match && type && <p>{t('confirmCost', { cost: t('cost', { count: type.difficulty }), match })}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {short && (
        <a class="button" {...linkTo({ name: 'wallet' })}>
          {t('goToPacks')}
        </a>
      )}
      <button type="submit" disabled={busy}>
        {t('create')}
      </button>
    </form>
  );
}
