// Upcoming fixtures: the scheduled matches from now on, by kick-off, grouped by league, each with
// how many pronostics were made from it (`GET /api/admin/fixtures`); a league filter built from the
// leagues that have a scheduled match.
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { Field, LoadState, number, Pager, ScrollRegion, useLoad, when } from '../ui.js';

type Data = ResponseData<'/api/admin/fixtures', 'get'>;
type Fixture = Data['fixtures'][number];

export function Fixtures() {
  const [league, setLeague] = useState('');
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/fixtures', {
          params: { query: { page, per_page: 50, ...(league ? { league } : {}) } },
        }),
      ),
    [page, league],
  );
  const data = loaded.data;
  // The page's fixtures by league, in kick-off order within each (the API's order kept).
  const groups = new Map<string, { name: string; fixtures: Fixture[] }>();
  for (const fixture of data?.fixtures ?? []) {
    const group = groups.get(fixture.league.code) ?? {
      name: fixture.league.name || fixture.league.code,
      fixtures: [],
    };
    group.fixtures.push(fixture);
    groups.set(fixture.league.code, group);
  }
  return (
    <section aria-labelledby="fixtures-title">
      <h1 id="fixtures-title">Matchs à venir</h1>
      <p class="lead">
        Les matchs programmés à partir de maintenant, par championnat et par coup d’envoi (heure UTC), et le
        nombre de pronostics faits sur chacun (hors pronostics annulés).
      </p>
      <div class="filters">
        <Field label="Championnat">
          <select
            value={league}
            onChange={(e) => {
              setPage(1);
              setLeague(e.currentTarget.value);
            }}
          >
            <option value="">Tous</option>
            {data?.leagues.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name || l.code} ({l.scheduled})
              </option>
            ))}
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {data && data.fixtures.length === 0 ? (
          <p class="empty">
            Aucun match programmé. Les matchs à venir apparaissent ici après la synchronisation des
            calendriers : toutes les FIXTURES_SYNC_INTERVAL_HOURS heures en production, ou à la demande avec{' '}
            <code>npm run cli -- fixtures:sync</code>.
          </p>
        ) : null}
        {[...groups].map(([code, group]) => (
          <section key={code} class="league" aria-labelledby={`league-${code}`}>
            <h2 id={`league-${code}`}>
              {group.name} <span class="badge">{code}</span>
            </h2>
            <ScrollRegion label={`Matchs : ${group.name}`}>
              <table data-league={code}>
                <caption class="sr-only">Matchs à venir : {group.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Coup d’envoi</th>
                    <th scope="col">Match</th>
                    <th scope="col" class="num">
                      Pronostics
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {group.fixtures.map((fixture) => (
                    <tr key={fixture.id} data-fixture={fixture.id}>
                      <td>{when(fixture.kickoff_at)}</td>
                      <td>
                        {fixture.home} – {fixture.away}
                      </td>
                      <td class="num" data-field="pronostics">
                        {number(fixture.pronostics)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </section>
        ))}
        {data ? <Pager meta={data.meta} onPage={setPage} label="matchs" /> : null}
      </LoadState>
    </section>
  );
}
