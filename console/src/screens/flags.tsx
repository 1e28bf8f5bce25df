// Flags: the contradictions between a payment provider's word and our books, open ones first (the
// API's order), each resolved with a note (audited as flag.resolve); a late_complete payment may be
// credited once on resolving. A flag raised while the screen is open appears without a reload.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { useLive } from '../live.js';
import { Field, LoadState, Pager, useAction, usePagedList, when } from '../ui.js';

type FlagsPage = ResponseData<'/api/admin/flags', 'get'>;
type Flag = FlagsPage['flags'][number];
type Status = Flag['status'];

/** Every kind and target the API names has its words in the console's texts. */
const FLAG_LABEL: Record<Flag['kind'], string> = t.flags.kinds;
const TARGET_LABEL: Record<Flag['target_type'], string> = t.flags.targets;

export function Flags() {
  const {
    filters: status,
    apply,
    setPage,
    loaded,
  } = usePagedList<Status | '', FlagsPage>('', (status, page) =>
    dataOf(
      api.GET('/api/admin/flags', {
        params: { query: { page, per_page: 20, ...(status ? { status } : {}) } },
      }),
    ),
  );
  useLive(['flag.raised'], loaded.reload);
  const flags = loaded.data?.flags ?? [];
  const f = t.flags;
  return (
    <section aria-labelledby="flags-title">
      <h1 id="flags-title">{f.title}</h1>
      <p class="lead">{f.lead}</p>
      <div class="filters">
        <Field label={t.common.status}>
          <select value={status} onChange={(e) => apply(e.currentTarget.value as Status | '')}>
            <option value="">{f.allOpenFirst}</option>
            <option value="open">{f.openOption}</option>
            <option value="resolved">{f.resolvedOption}</option>
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {loaded.data && flags.length === 0 ? (
          <p class="empty">{status === 'resolved' ? f.noneResolved : f.noneOpen}</p>
        ) : null}
        <ul class="cards">
          {flags.map((flag) => (
            <FlagCard key={`${flag.id}-${flag.status}`} flag={flag} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={f.pager} /> : null}
      </LoadState>
    </section>
  );
}

function detailText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

function FlagCard({ flag, onDone }: { flag: Flag; onDone: () => void }) {
  const [note, setNote] = useState('');
  const [credit, setCredit] = useState(false);
  const { busy, run } = useAction();
  const canCredit = flag.kind === 'late_complete' && flag.target_type === 'payment';
  const noteId = `flag-${flag.id}-note`;
  const f = t.flags;
  const resolve = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/flags/{id}/resolve', {
            params: { path: { id: flag.id } },
            body: { message: note.trim(), ...(canCredit && credit ? { credit: true } : {}) },
          }),
        ),
      f.resolvedNotice(String(flag.id)),
    );
    if (ok) onDone();
  };
  return (
    <li class="card" data-flag={flag.id}>
      <h2>
        {f.heading(String(flag.id), FLAG_LABEL[flag.kind])}{' '}
        <span class={flag.status === 'open' ? 'badge warn' : 'badge ok'}>
          {flag.status === 'open' ? f.open : f.resolved}
        </span>
      </h2>
      <dl class="facts">
        <dt>{f.target}</dt>
        <dd>
          {TARGET_LABEL[flag.target_type]} {t.common.number(String(flag.target_id))}
        </dd>
        <dt>{f.raisedAt}</dt>
        <dd>{when(flag.created_at)}</dd>
        <dt>{f.code}</dt>
        <dd>
          <code>{flag.kind}</code>
        </dd>
        {Object.entries(flag.details).map(([key, value]) => (
          <Fragment key={key}>
            <dt>{key}</dt>
            <dd class="wrap">{detailText(value)}</dd>
          </Fragment>
        ))}
        {flag.status === 'resolved' ? (
          <>
            <dt>{f.resolved}</dt>
            <dd data-field="resolution">
              {f.resolution(when(flag.resolved_at), String(flag.resolved_by ?? '—'), flag.note ?? '')}
            </dd>
          </>
        ) : null}
      </dl>
      {flag.status === 'open' ? (
        <form class="actions" onSubmit={resolve} aria-label={f.resolveLabel(String(flag.id))}>
          <label for={noteId}>{f.note}</label>
          <textarea
            id={noteId}
            rows={2}
            required
            minLength={3}
            maxLength={500}
            value={note}
            onInput={(e) => setNote(e.currentTarget.value)}
          />
          {canCredit ? (
            <label class="check">
              <input type="checkbox" checked={credit} onChange={(e) => setCredit(e.currentTarget.checked)} />{' '}
              {f.credit}
            </label>
          ) : null}
          <div class="buttons">
            <button type="submit" class="primary" disabled={busy || note.trim().length < 3}>
              {f.resolve}
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
