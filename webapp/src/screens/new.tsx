// A new analysis: pick an upcoming fixture (search by team, filter by league) or type the two teams,
// pick a type with its cost in credits, confirm. A 402 says what is missing and points to the packs.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, dataOf, errorText, type ResponseData } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';
import { linkTo, navigate } from '../routes.js';

type Fixture = ResponseData<'/api/fixtures', 'get'>['fixtures'][number];
type PronosticType = ResponseData<'/api/user/pronostic/types', 'get'>['types'][number];

/** Lower case without accents: "yaounde" finds "Yaoundé". */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function NewAnalysis() {
  const [types, setTypes] = useState<PronosticType[]>([]);
  const [fixtures, setFixtures] = useState<Fixture[]>([]);
  const [team, setTeam] = useState('');
  const [league, setLeague] = useState('');
  const [fixtureId, setFixtureId] = useState<number | undefined>();
  const [home, setHome] = useState('');
  const [away, setAway] = useState('');
  const [typeId, setTypeId] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [short, setShort] = useState(false);

  useEffect(() => {
    void dataOf(api.GET('/api/user/pronostic/types')).then(
      (data) => {
        setTypes(data.types);
        setTypeId(data.types[0]?.id);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);
  useEffect(() => {
    // The next fixtures (the service's largest page); a team is searched among them as it is typed.
    void dataOf(api.GET('/api/fixtures', { params: { query: { per_page: 50 } } })).then(
      (data) => setFixtures(data.fixtures),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);

  const leagues = [...new Map(fixtures.map((f) => [f.league.code, f.league.name])).entries()];
  const wanted = folded(team.trim());
  const shown = fixtures.filter(
    (f) =>
      (league === '' || f.league.code === league) &&
      (wanted === '' || folded(f.home).includes(wanted) || folded(f.away).includes(wanted)),
  );
  const chosen = fixtures.find((f) => f.id === fixtureId);
  const type = types.find((candidate) => candidate.id === typeId);
  const match = chosen
    ? t('versus', { home: chosen.home, away: chosen.away })
    : home.trim() && away.trim()
      ? t('versus', { home: home.trim(), away: away.trim() })
      : undefined;
  const kickoff = new Intl.DateTimeFormat(currentLanguage(), {
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
        : { type_id: type.id, teams_details: { home: home.trim(), away: away.trim() } };
      const data = await dataOf(api.POST('/api/user/pronostic/create', { body }));
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
        <label>
          {t('league')}
          <select value={league} onChange={(e) => setLeague(e.currentTarget.value)}>
            <option value="">{t('allLeagues')}</option>
            {leagues.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
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
                    {fixture.league.name} · {kickoff.format(new Date(fixture.kickoff_at))}
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
