// History: the user's analyses, newest first, filtered by type and status and searched by team or
// text, paged endlessly (the next page loads when the end of the list comes into view, or with the
// button), each one opened or deleted.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf, errorText, type ResponseData } from '../api.js';
import { t } from '../i18n/index.js';
import { linkTo } from '../routes.js';
import { PRONOSTIC_STATUS } from '../statuses.js';

type Listed = ResponseData<'/api/user/pronostics', 'get'>['pronostics'][number];
type PronosticType = ResponseData<'/api/user/pronostic/types', 'get'>['types'][number];
type Status = 'processing' | 'success' | 'cancelled';

const PER_PAGE = 10;

export function History() {
  const [types, setTypes] = useState<PronosticType[]>([]);
  const [typeId, setTypeId] = useState('');
  const [status, setStatus] = useState<'' | Status>('');
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<Listed[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void dataOf(api.GET('/api/user/pronostic/types')).then(
      (data) => setTypes(data.types),
      () => undefined,
    );
  }, []);

  const load = async (next: number, replace: boolean) => {
    setBusy(true);
    try {
      const query: { page: number; per_page: number; type_id?: number; status?: Status; search?: string } = {
        page: next,
        per_page: PER_PAGE,
      };
      if (typeId) query.type_id = Number(typeId);
      if (status) query.status = status;
      if (search.trim()) query.search = search.trim();
      const data = await dataOf(api.GET('/api/user/pronostics', { params: { query } }));
      setRows((before) => (replace ? data.pronostics : [...before, ...data.pronostics]));
      setPage(next);
      setHasMore(data.meta.has_more);
      setError(undefined);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    const timer = setTimeout(() => void load(1, true), 300);
    return () => clearTimeout(timer);
  }, [typeId, status, search]);

  useEffect(() => {
    if (!hasMore || busy || !end.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void load(page + 1, false);
    });
    observer.observe(end.current);
    return () => observer.disconnect();
  }, [hasMore, busy, page]);

  const remove = async (id: number) => {
    if (!confirm(t('deleteConfirm'))) return;
    try {
      await dataOf(api.DELETE('/api/user/pronostic/{id}', { params: { path: { id } } }));
      setRows((before) => before.filter((row) => row.id !== id));
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section aria-labelledby="history-title">
      <h1 id="history-title">{t('historyTitle')}</h1>
      <div class="filters">
        <label>
          {t('filterType')}
          <select value={typeId} onChange={(e) => setTypeId(e.currentTarget.value)}>
            <option value="">{t('allTypes')}</option>
            {types.map((type) => (
              <option key={type.id} value={String(type.id)}>
                {type.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filterStatus')}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as '' | Status)}>
            <option value="">{t('allStatuses')}</option>
            {(['processing', 'success', 'cancelled'] as const).map((value) => (
              <option key={value} value={value}>
                {t(PRONOSTIC_STATUS[value])}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('search')}
          <input
            type="search"
            maxLength={100}
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {rows.length === 0 && !busy ? (
        <p>{t('noResults')}</p>
      ) : (
        <ul class="cards">
          {rows.map((row) => {
            const teams = row.teams_details as { home: string; away: string };
            return (
              <li key={row.id}>
                <a {...linkTo({ name: 'analysis', id: row.id })}>{t('versus', teams)}</a>
                <span class={`status status-${row.status}`}>{t(PRONOSTIC_STATUS[row.status])}</span>
                <button type="button" class="link" onClick={() => void remove(row.id)}>
                  {t('delete')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div ref={end} />
      {hasMore && (
        <button type="button" class="link" disabled={busy} onClick={() => void load(page + 1, false)}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}
