// Upcoming fixtures: the scheduled matches from now on, by kick-off, grouped by league, each with its
// id and how many pronostics were made from it (`GET /api/admin/fixtures`); a league filter built
// from the leagues that have a scheduled match; below, an admin's entries (./fixture-form.tsx).
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { Field, LoadState, number, Pager, ScrollRegion, usePagedList, when } from '../ui.js';
import { ImportFixtures, NewFixture, RegularTimeScore } from './fixture-form.js';

type Data = ResponseData<'/api/admin/fixtures', 'get'>;
type Fixture = Data['fixtures'][number];

export function Fixtures() {
  const {
    filters: league,
    apply,
    setPage,
    loaded,
  } = usePagedList<string, Data>('', (league, page) =>
    dataOf(
      api.GET('/api/admin/fixtures', {
        params: { query: { page, per_page: 50, ...(league ? { league } : {}) } },
      }),
    ),
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
  const f = t.fixtures;
  return (
    <section aria-labelledby="fixtures-title">
      <h1 id="fixtures-title">{f.title}</h1>
      <p class="lead">{f.lead}</p>
      <div class="filters">
        <Field label={f.league}>
          <select value={league} onChange={(e) => apply(e.currentTarget.value)}>
            <option value="">{t.common.all}</option>
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
            {f.emptyBefore} <code>npm run cli -- fixtures:sync</code>.
          </p>
        ) : null}
        {[...groups].map(([code, group]) => (
          <section key={code} class="league" aria-labelledby={`league-${code}`}>
            <h2 id={`league-${code}`}>
              {group.name} <span class="badge">{code}</span>
            </h2>
            <ScrollRegion label={f.matches(group.name)}>
              <table data-league={code}>
                <caption class="visually-hidden">{f.caption(group.name)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{f.id}</th>
                    <th scope="col">{f.kickoff}</th>
                    <th scope="col">{f.match}</th>
                    <th scope="col" class="num">
                      {f.pronostics}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {group.fixtures.map((fixture) => (
                    <tr key={fixture.id} data-fixture={fixture.id}>
                      <td>{fixture.id}</td>
                      <td>{when(fixture.kickoff_at)}</td>
                      <td>
                        {fixture.home} – {fixture.away}
                        {fixture.stage ? <span data-field="stage"> · {fixture.stage}</span> : null}
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
        {data ? <Pager meta={data.meta} onPage={setPage} label={f.pager} /> : null}
      </LoadState>
      <NewFixture onDone={loaded.reload} />
      <ImportFixtures onDone={loaded.reload} />
      <RegularTimeScore onDone={loaded.reload} />
    </section>
  );
}
