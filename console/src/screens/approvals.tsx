// Four eyes: what one admin asked for (a promotion to admin, a large withdrawal's approval) waiting
// for a second, different admin, pending ones by default, each with who asked and when; a second
// admin confirms (the action runs then) or rejects it. The admin who asked is refused by the
// service (403), and the console says why. A request made while the screen is open appears without
// a reload.
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { useLive } from '../live.js';
import { follow } from '../router.js';
import { Field, LoadState, Pager, useAction, usePagedList, when } from '../ui.js';

type ApprovalsPage = ResponseData<'/api/admin/approvals', 'get'>;
type Approval = ApprovalsPage['approvals'][number];
type Status = Approval['status'];

export function Approvals() {
  const {
    filters: status,
    apply,
    setPage,
    loaded,
  } = usePagedList<Status | '', ApprovalsPage>('pending', (status, page) =>
    dataOf(
      api.GET('/api/admin/approvals', {
        params: { query: { page, per_page: 20, ...(status ? { status } : {}) } },
      }),
    ),
  );
  useLive(['approval.requested'], loaded.reload);
  const approvals = loaded.data?.approvals ?? [];
  const a = t.approvals;
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">{a.title}</h1>
      <p class="lead">{a.lead}</p>
      <div class="filters">
        <Field label={t.common.status}>
          <select value={status} onChange={(e) => apply(e.currentTarget.value as Status | '')}>
            <option value="pending">{a.statuses.pending}</option>
            <option value="confirmed">{a.statuses.confirmed}</option>
            <option value="rejected">{a.statuses.rejected}</option>
            <option value="">{a.all}</option>
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {loaded.data && approvals.length === 0 ? <p class="empty">{a.none}</p> : null}
        <ul class="cards">
          {approvals.map((approval) => (
            <ApprovalCard
              key={`${approval.id}-${approval.status}`}
              approval={approval}
              onDone={loaded.reload}
            />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={a.pager} /> : null}
      </LoadState>
    </section>
  );
}

function ApprovalCard({ approval, onDone }: { approval: Approval; onDone: () => void }) {
  const { busy, run } = useAction();
  const a = t.approvals;
  const id = String(approval.id);
  const params = { path: { id: approval.id } };
  const decide = async (verb: 'confirm' | 'reject') => {
    const ok = await run(
      () =>
        dataOf(
          verb === 'confirm'
            ? api.POST('/api/admin/approvals/{id}/confirm', { params })
            : api.POST('/api/admin/approvals/{id}/reject', { params }),
        ),
      verb === 'confirm' ? a.confirmed(id) : a.rejected(id),
    );
    if (ok) onDone();
  };
  const target = approval.target;
  const targetPath = target.type === 'user' ? `/utilisateurs/${target.id}` : '/retraits';
  return (
    <li class="card" data-approval={approval.id}>
      <h2>
        {a.heading(id, a.actions[approval.action])}{' '}
        <span class={approval.status === 'pending' ? 'badge warn' : 'badge ok'}>
          {a.statuses[approval.status]}
        </span>
      </h2>
      <dl class="facts">
        <dt>{a.target}</dt>
        <dd>
          <a href={`/admin${targetPath}`} onClick={(event) => follow(event, targetPath)}>
            {a.targets[target.type]} {t.common.number(String(target.id))}
          </a>
        </dd>
        <dt>{a.requestedBy}</dt>
        <dd data-field="requested-by">{a.admin(String(approval.requested_by), when(approval.created_at))}</dd>
        {approval.decided_by !== null ? (
          <>
            <dt>{a.decidedBy}</dt>
            <dd data-field="decided-by">
              {a.admin(String(approval.decided_by), when(approval.decided_at ?? approval.created_at))}
            </dd>
          </>
        ) : null}
      </dl>
      {approval.status === 'pending' ? (
        <div class="buttons">
          <button type="button" class="primary" disabled={busy} onClick={() => decide('confirm')}>
            {a.confirm}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => decide('reject')}>
            {a.reject}
          </button>
        </div>
      ) : null}
    </li>
  );
}
