// The audit log: who did what, when, filtered by action and target.
import { useState } from 'preact/hooks';
import { api, dataOf } from '../api.js';
import { Field, LoadState, Pager, ScrollRegion, useLoad, when } from '../ui.js';

export function Audit() {
  const [action, setAction] = useState('');
  const [target, setTarget] = useState('');
  const [filters, setFilters] = useState({ action: '', target: '' });
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/audit', {
          params: {
            query: {
              page,
              per_page: 30,
              ...(filters.action ? { action: filters.action } : {}),
              ...(filters.target ? { target_type: filters.target } : {}),
            },
          },
        }),
      ),
    [page, filters],
  );
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Journal d’audit</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilters({ action: action.trim(), target: target.trim() });
        }}
      >
        <Field label="Action" hint="par exemple withdrawal.approve">
          <input value={action} onInput={(e) => setAction(e.currentTarget.value)} />
        </Field>
        <Field label="Type de cible" hint="par exemple withdrawal, pack, ticket, user">
          <input value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
        </Field>
        <button type="submit">Filtrer</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data?.entries.length === 0 ? (
          <p class="empty">
            {filters.action || filters.target
              ? 'Aucune entrée pour ces filtres.'
              : 'Le journal est vide. Chaque action d’un administrateur (retrait, crédits, blocage, rôle, type, pack, signalement, support) y est inscrite au moment où elle est faite.'}
          </p>
        ) : null}
        <ScrollRegion label="Entrées du journal" hidden={loaded.data?.entries.length === 0}>
          <table>
            <caption class="sr-only">Entrées du journal</caption>
            <thead>
              <tr>
                <th scope="col">Quand</th>
                <th scope="col">Administrateur</th>
                <th scope="col">Action</th>
                <th scope="col">Cible</th>
                <th scope="col">Détails</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data?.entries.map((entry) => (
                <tr
                  key={entry.id}
                  data-audit={entry.action}
                  data-target={`${entry.target_type}:${entry.target_id ?? ''}`}
                >
                  <td>{when(entry.created_at)}</td>
                  <td>n° {entry.admin_id}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.target_type}
                    {entry.target_id ? ` n° ${entry.target_id}` : ''}
                  </td>
                  <td>
                    <code class="details">{JSON.stringify(entry.details)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="journal" /> : null}
      </LoadState>
    </section>
  );
}
