// The audit log: who did what, when, filtered by action and target.
import { useState } from 'preact/hooks';
import { api, dataOf } from '../api.js';
import { t } from '../i18n.js';
import { Field, LoadState, Pager, ScrollRegion, usePagedList, when } from '../ui.js';

export function Audit() {
  const [action, setAction] = useState('');
  const [target, setTarget] = useState('');
  const { filters, apply, setPage, loaded } = usePagedList({ action: '', target: '' }, (applied, page) =>
    dataOf(
      api.GET('/api/admin/audit', {
        params: {
          query: {
            page,
            per_page: 30,
            ...(applied.action ? { action: applied.action } : {}),
            ...(applied.target ? { target_type: applied.target } : {}),
          },
        },
      }),
    ),
  );
  const a = t.audit;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{a.title}</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply({ action: action.trim(), target: target.trim() });
        }}
      >
        <Field label={a.action} hint={a.actionHint}>
          <input value={action} onInput={(e) => setAction(e.currentTarget.value)} />
        </Field>
        <Field label={a.targetType} hint={a.targetHint}>
          <input value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
        </Field>
        <button type="submit">{t.common.filter}</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data?.entries.length === 0 ? (
          <p class="empty">{filters.action || filters.target ? a.noMatch : a.empty}</p>
        ) : null}
        <ScrollRegion label={a.entries} hidden={loaded.data?.entries.length === 0}>
          <table>
            <caption class="visually-hidden">{a.entries}</caption>
            <thead>
              <tr>
                <th scope="col">{a.when}</th>
                <th scope="col">{a.admin}</th>
                <th scope="col">{a.action}</th>
                <th scope="col">{a.target}</th>
                <th scope="col">{a.details}</th>
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
                  <td>{t.common.number(String(entry.admin_id))}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.target_type}
                    {entry.target_id ? ` ${t.common.number(String(entry.target_id))}` : ''}
                  </td>
                  <td>
                    <code class="details">{JSON.stringify(entry.details)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={a.pager} /> : null}
      </LoadState>
    </section>
  );
}
