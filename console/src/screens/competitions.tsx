// Each competition's sync health (`GET /api/admin/competitions/health`): its latest result imported,
// its latest fixture, and the latest success or failure of its results and fixtures syncs, a
// failure with its one-line reason; the competitions whose latest sync failed are listed first.
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { LoadState, number, ScrollRegion, useLoad, when } from '../ui.js';

type Competition = ResponseData<'/api/admin/competitions/health', 'get'>['competitions'][number];
type Sync = Competition['results_sync'];

/** A sync whose latest outcome is a failure (none since it failed). */
const failing = (sync: Sync) =>
  sync.last_failure_at !== null &&
  (sync.last_success_at === null || sync.last_success_at < sync.last_failure_at);

function SyncCell({ sync }: { sync: Sync }) {
  const c = t.competitions;
  if (failing(sync)) {
    return (
      <td data-state="failed">
        <strong>{c.failed(when(sync.last_failure_at))}</strong>
        <br />
        <span class="reason">{sync.last_error}</span>
      </td>
    );
  }
  return (
    <td data-state={sync.last_success_at ? 'ok' : 'never'}>
      {sync.last_success_at ? when(sync.last_success_at) : c.never}
    </td>
  );
}

export function Competitions() {
  const loaded = useLoad(() => dataOf(api.GET('/api/admin/competitions/health')), []);
  const c = t.competitions;
  const list = [...(loaded.data?.competitions ?? [])].sort(
    (a, b) =>
      Number(failing(b.results_sync) || failing(b.fixtures_sync)) -
      Number(failing(a.results_sync) || failing(a.fixtures_sync)),
  );
  return (
    <section aria-labelledby="competitions-title">
      <h1 id="competitions-title">{c.title}</h1>
      <p class="lead">{c.lead}</p>
      <LoadState loaded={loaded}>
        <ScrollRegion label={c.title}>
          <table>
            <caption class="visually-hidden">{c.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{c.competition}</th>
                <th scope="col">{c.basis}</th>
                <th scope="col" class="num">
                  {c.matches}
                </th>
                <th scope="col">{c.lastResult}</th>
                <th scope="col">{c.lastFixture}</th>
                <th scope="col">{c.resultsSync}</th>
                <th scope="col">{c.fixturesSync}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((entry) => (
                <tr key={entry.code} data-competition={entry.code}>
                  <th scope="row">
                    {entry.name} <span class="badge">{entry.code}</span>
                    <br />
                    <small>{entry.country?.name ?? '—'}</small>
                  </th>
                  <td data-field="basis">{c.bases[entry.basis]}</td>
                  <td class="num">{number(entry.matches)}</td>
                  <td data-field="last-result">{entry.last_result ? entry.last_result.played_on : '—'}</td>
                  <td data-field="last-fixture">
                    {entry.last_fixture ? when(entry.last_fixture.kickoff_at) : '—'}
                  </td>
                  <SyncCell sync={entry.results_sync} />
                  <SyncCell sync={entry.fixtures_sync} />
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </LoadState>
    </section>
  );
}
