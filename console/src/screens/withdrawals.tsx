// Withdrawals to process: filters, approve / reject with a message, the payout's state, and the
// escalated payouts an admin settles by hand.
import { useState } from 'preact/hooks';
import { toE164 } from '../../../clients/web/phone.js';
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { useLive } from '../live.js';
import { Field, LoadState, Pager, useAction, usePagedList, when, xaf } from '../ui.js';

type Status = 'pending' | 'success' | 'cancelled';

export function Withdrawals() {
  const [status, setStatus] = useState<Status | ''>('pending');
  const [phone, setPhone] = useState('');
  const [escalated, setEscalated] = useState<'' | 'true' | 'false'>('');
  const { filters, apply, setPage, loaded } = usePagedList({ status, phone, escalated }, (applied, page) =>
    dataOf(
      api.GET('/api/admin/withdrawals', {
        params: {
          query: {
            page,
            per_page: 20,
            ...(applied.status ? { status: applied.status } : {}),
            ...(applied.phone ? { phone: applied.phone } : {}),
            ...(applied.escalated ? { escalated: applied.escalated } : {}),
          },
        },
      }),
    ),
  );
  // A request made while the screen is open appears without a reload.
  useLive(['withdrawal.requested'], loaded.reload);

  const w = t.withdrawals;
  return (
    <section aria-labelledby="withdrawals-title">
      <h1 id="withdrawals-title">{w.title}</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply({ status, phone: toE164(phone), escalated });
        }}
      >
        <Field label={t.common.status}>
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as Status | '')}>
            <option value="">{t.common.all}</option>
            <option value="pending">{w.pendingOption}</option>
            <option value="success">{w.successOption}</option>
            <option value="cancelled">{w.cancelledOption}</option>
          </select>
        </Field>
        <Field label={w.phone}>
          <input type="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        </Field>
        <Field label={w.escalatedFilter}>
          <select
            value={escalated}
            onChange={(e) => setEscalated(e.currentTarget.value as '' | 'true' | 'false')}
          >
            <option value="">{w.any}</option>
            <option value="true">{w.yes}</option>
            <option value="false">{w.no}</option>
          </select>
        </Field>
        <button type="submit">{t.common.filter}</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data && loaded.data.withdrawals.length === 0 ? (
          <p class="empty">
            {filters.status === 'pending' && !filters.phone && !filters.escalated
              ? w.emptyPending
              : w.noMatch}
          </p>
        ) : null}
        <ul class="cards">
          {loaded.data?.withdrawals.map((withdrawal) => (
            <WithdrawalCard key={withdrawal.id} withdrawal={withdrawal} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={w.pager} /> : null}
      </LoadState>
    </section>
  );
}

type WithdrawalView = ResponseData<'/api/admin/withdrawals', 'get'>['withdrawals'][number];
type ProviderRead = ResponseData<'/api/admin/withdrawals/{id}/provider-read', 'get'>['provider_read'];

/** The provider's read in words: what it said, and what « Échoué » will then do. */
function readText(read: ProviderRead): string {
  const w = t.withdrawals;
  if (read.error !== null || read.status === null) {
    return w.unreadable(read.error ?? w.noAnswer, when(read.read_at));
  }
  return read.final_failure
    ? w.finalFailure(read.status, when(read.read_at))
    : w.notFinal(read.status, when(read.read_at));
}

function WithdrawalCard({ withdrawal: w, onDone }: { withdrawal: WithdrawalView; onDone: () => void }) {
  const [message, setMessage] = useState('');
  const { busy, run } = useAction();
  const messageId = `wd-${w.id}-message`;
  const texts = t.withdrawals;
  const decide = async (verb: 'approve' | 'reject') => {
    const params = { path: { id: w.id } };
    const ok = await run(
      () =>
        verb === 'approve'
          ? dataOf(
              api.POST('/api/admin/withdrawals/{id}/approve', {
                params,
                body: message.trim() ? { message: message.trim() } : {},
              }),
            )
          : dataOf(
              api.POST('/api/admin/withdrawals/{id}/reject', { params, body: { message: message.trim() } }),
            ),
      (answer: object) =>
        'approval' in answer
          ? t.approvals.requested(String((answer as { approval: { id: number } }).approval.id))
          : verb === 'approve'
            ? texts.approved(String(w.id))
            : texts.rejected(String(w.id)),
    );
    if (ok) onDone();
  };
  const undecided = w.status === 'pending' && w.decision === null;
  return (
    <li class="card" data-withdrawal={w.id}>
      <h2>{texts.heading(String(w.id), xaf(w.amount))}</h2>
      <dl class="facts">
        <dt>{t.common.status}</dt>
        <dd data-field="status">{texts.statusLabel[w.status]}</dd>
        <dt>{texts.requestedAt}</dt>
        <dd>{when(w.created_at)}</dd>
        <dt>{texts.user}</dt>
        <dd>
          {t.common.number(String(w.user.id))} · {w.user.name ?? '—'} · {w.user.phone ?? '—'}
        </dd>
        <dt>{texts.to}</dt>
        <dd>
          {w.meta.phone} ({w.meta.operator.name})
        </dd>
        <dt>{texts.decision}</dt>
        <dd>
          {w.decision
            ? `${w.decision.status === 'approved' ? texts.decisionApproved : texts.decisionRejected} ${when(w.decision.decided_at)}${w.decision.message ? texts.quoted(w.decision.message) : ''}`
            : texts.undecided}
        </dd>
        <dt>{texts.payout}</dt>
        <dd>
          {w.payout
            ? `${w.payout.reference} · ${w.payout.provider_status ?? texts.sent}${w.payout.finished_at ? texts.finished(when(w.payout.finished_at)) : ''}`
            : '—'}
        </dd>
        {w.escalated ? (
          <>
            <dt>{texts.escalated}</dt>
            <dd class="warn">
              {w.escalation?.reason ?? texts.toCheck} ({when(w.escalation?.escalated_at)})
            </dd>
          </>
        ) : null}
      </dl>
      {undecided ? (
        <div class="actions">
          <label for={messageId}>{texts.messageToUser}</label>
          <textarea
            id={messageId}
            rows={2}
            value={message}
            onInput={(e) => setMessage(e.currentTarget.value)}
          />
          <div class="buttons">
            <button type="button" class="primary" disabled={busy} onClick={() => decide('approve')}>
              {texts.approve}
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy || message.trim() === ''}
              onClick={() => decide('reject')}
            >
              {texts.reject}
            </button>
          </div>
        </div>
      ) : null}
      {w.escalated && w.status === 'pending' ? <Resolve id={w.id} onDone={onDone} /> : null}
    </li>
  );
}

function Resolve({ id, onDone }: { id: number; onDone: () => void }) {
  const [outcome, setOutcome] = useState<'paid' | 'failed'>('paid');
  const [message, setMessage] = useState('');
  const [override, setOverride] = useState(false);
  const [read, setRead] = useState<ProviderRead | undefined>();
  const { busy, run } = useAction();
  const texts = t.withdrawals;
  const readNow = async () => {
    await run(
      async () => {
        const data = await dataOf(
          api.GET('/api/admin/withdrawals/{id}/provider-read', { params: { path: { id } } }),
        );
        setRead(data.provider_read);
      },
      texts.providerRead(String(id)),
    );
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/withdrawals/{id}/resolve', {
            params: { path: { id } },
            body: {
              outcome,
              message: message.trim(),
              ...(outcome === 'failed' && override ? { override: true } : {}),
            },
          }),
        ),
      outcome === 'paid' ? texts.markedPaid(String(id)) : texts.markedFailed(String(id)),
    );
    if (ok) onDone();
  };
  return (
    <form class="actions" onSubmit={submit} aria-label={texts.settleLabel(String(id))}>
      <fieldset class="inline">
        <legend>{texts.outcome}</legend>
        <label>
          <input
            type="radio"
            name={`outcome-${id}`}
            checked={outcome === 'paid'}
            onChange={() => setOutcome('paid')}
          />{' '}
          {texts.paid}
        </label>
        <label>
          <input
            type="radio"
            name={`outcome-${id}`}
            checked={outcome === 'failed'}
            onChange={() => setOutcome('failed')}
          />{' '}
          {texts.failed}
        </label>
      </fieldset>
      <Field label={texts.message} hint={outcome === 'failed' ? texts.failedHint : texts.paidHint}>
        <input required value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      </Field>
      {outcome === 'failed' ? (
        <label class="check">
          <input type="checkbox" checked={override} onChange={(e) => setOverride(e.currentTarget.checked)} />{' '}
          {texts.override}
        </label>
      ) : null}
      <p class="hint">{texts.failedExplained}</p>
      {read ? (
        <p class="provider-read" data-field="provider-read">
          {readText(read)}
        </p>
      ) : null}
      <div class="buttons">
        <button type="button" disabled={busy} onClick={readNow}>
          {texts.readTransfer}
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {texts.settle}
        </button>
      </div>
    </form>
  );
}
