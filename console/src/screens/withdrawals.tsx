// Withdrawals to process: filters, approve / reject with a message, the payout's state, and the
// escalated payouts an admin settles by hand.
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { useLive } from '../live.js';
import { toE164 } from '../phone.js';
import { Field, LoadState, Pager, useAction, useLoad, when, xaf } from '../ui.js';

type Status = 'pending' | 'success' | 'cancelled';
const STATUS_LABEL: Record<Status, string> = { pending: 'En attente', success: 'Payé', cancelled: 'Annulé' };

export function Withdrawals() {
  const [status, setStatus] = useState<Status | ''>('pending');
  const [phone, setPhone] = useState('');
  const [escalated, setEscalated] = useState<'' | 'true' | 'false'>('');
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState({ status, phone, escalated });
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/withdrawals', {
          params: {
            query: {
              page,
              per_page: 20,
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.phone ? { phone: filters.phone } : {}),
              ...(filters.escalated ? { escalated: filters.escalated } : {}),
            },
          },
        }),
      ),
    [page, filters],
  );
  // A request made while the screen is open appears without a reload.
  useLive(['withdrawal.requested'], loaded.reload);

  return (
    <section aria-labelledby="withdrawals-title">
      <h1 id="withdrawals-title">Retraits</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilters({ status, phone: toE164(phone), escalated });
        }}
      >
        <Field label="Statut">
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as Status | '')}>
            <option value="">Tous</option>
            <option value="pending">En attente</option>
            <option value="success">Payés</option>
            <option value="cancelled">Annulés</option>
          </select>
        </Field>
        <Field label="Téléphone">
          <input type="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        </Field>
        <Field label="Paiement escaladé">
          <select
            value={escalated}
            onChange={(e) => setEscalated(e.currentTarget.value as '' | 'true' | 'false')}
          >
            <option value="">Indifférent</option>
            <option value="true">Oui</option>
            <option value="false">Non</option>
          </select>
        </Field>
        <button type="submit">Filtrer</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data && loaded.data.withdrawals.length === 0 ? (
          <p class="empty">
            {filters.status === 'pending' && !filters.phone && !filters.escalated
              ? 'Aucun retrait en attente. Une demande apparaît ici, sans recharger la page, dès qu’un utilisateur demande un retrait ; un paiement signalé par l’opérateur y revient aussi, marqué « Escaladé ».'
              : 'Aucun retrait ne correspond à ces filtres.'}
          </p>
        ) : null}
        <ul class="cards">
          {loaded.data?.withdrawals.map((w) => (
            <WithdrawalCard key={w.id} withdrawal={w} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="retraits" /> : null}
      </LoadState>
    </section>
  );
}

type WithdrawalView = ResponseData<'/api/admin/withdrawals', 'get'>['withdrawals'][number];
type ProviderRead = ResponseData<'/api/admin/withdrawals/{id}/provider-read', 'get'>['provider_read'];

/** The provider's read in words: what it said, and what « Échoué » will then do. */
function readText(read: ProviderRead): string {
  if (read.error !== null || read.status === null) {
    return `L’opérateur n’a pas pu être lu (${read.error ?? 'sans réponse'}) à ${when(read.read_at)} : « Échoué » demandera de cocher la case.`;
  }
  return read.final_failure
    ? `L’opérateur répond « ${read.status} » (${when(read.read_at)}) : échec définitif, « Échoué » remboursera l’utilisateur.`
    : `L’opérateur répond « ${read.status} » (${when(read.read_at)}) : pas un échec définitif ; « Échoué » demandera de cocher la case.`;
}

function WithdrawalCard({ withdrawal: w, onDone }: { withdrawal: WithdrawalView; onDone: () => void }) {
  const [message, setMessage] = useState('');
  const { busy, run } = useAction();
  const messageId = `wd-${w.id}-message`;
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
      verb === 'approve' ? `Retrait n° ${w.id} approuvé.` : `Retrait n° ${w.id} refusé et remboursé.`,
    );
    if (ok) onDone();
  };
  const undecided = w.status === 'pending' && w.decision === null;
  return (
    <li class="card" data-withdrawal={w.id}>
      <h2>
        Retrait n° {w.id} · {xaf(w.amount)}
      </h2>
      <dl class="facts">
        <dt>Statut</dt>
        <dd data-field="status">{STATUS_LABEL[w.status]}</dd>
        <dt>Demandé le</dt>
        <dd>{when(w.created_at)}</dd>
        <dt>Utilisateur</dt>
        <dd>
          n° {w.user.id} · {w.user.name ?? '—'} · {w.user.phone ?? '—'}
        </dd>
        <dt>Vers</dt>
        <dd>
          {w.meta.phone} ({w.meta.operator.name})
        </dd>
        <dt>Décision</dt>
        <dd>
          {w.decision
            ? `${w.decision.status === 'approved' ? 'Approuvé' : 'Refusé'} ${when(w.decision.decided_at)}${w.decision.message ? ` – « ${w.decision.message} »` : ''}`
            : 'À décider'}
        </dd>
        <dt>Paiement</dt>
        <dd>
          {w.payout
            ? `${w.payout.reference} · ${w.payout.provider_status ?? 'envoyé'}${w.payout.finished_at ? ` · terminé ${when(w.payout.finished_at)}` : ''}`
            : '—'}
        </dd>
        {w.escalated ? (
          <>
            <dt>Escaladé</dt>
            <dd class="warn">
              {w.escalation?.reason ?? 'à vérifier'} ({when(w.escalation?.escalated_at)})
            </dd>
          </>
        ) : null}
      </dl>
      {undecided ? (
        <div class="actions">
          <label for={messageId}>Message à l’utilisateur (obligatoire pour un refus)</label>
          <textarea
            id={messageId}
            rows={2}
            value={message}
            onInput={(e) => setMessage(e.currentTarget.value)}
          />
          <div class="buttons">
            <button type="button" class="primary" disabled={busy} onClick={() => decide('approve')}>
              Approuver
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy || message.trim() === ''}
              onClick={() => decide('reject')}
            >
              Refuser
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
  const readNow = async () => {
    await run(async () => {
      const data = await dataOf(
        api.GET('/api/admin/withdrawals/{id}/provider-read', { params: { path: { id } } }),
      );
      setRead(data.provider_read);
    }, `Transfert du retrait n° ${id} lu chez l’opérateur.`);
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
      outcome === 'paid' ? `Retrait n° ${id} marqué payé.` : `Retrait n° ${id} marqué échoué et remboursé.`,
    );
    if (ok) onDone();
  };
  return (
    <form class="actions" onSubmit={submit} aria-label={`Régler le paiement escaladé n° ${id}`}>
      <fieldset class="inline">
        <legend>Issue vérifiée chez l’opérateur</legend>
        <label>
          <input
            type="radio"
            name={`outcome-${id}`}
            checked={outcome === 'paid'}
            onChange={() => setOutcome('paid')}
          />{' '}
          Payé
        </label>
        <label>
          <input
            type="radio"
            name={`outcome-${id}`}
            checked={outcome === 'failed'}
            onChange={() => setOutcome('failed')}
          />{' '}
          Échoué (rembourser)
        </label>
      </fieldset>
      <Field
        label="Message"
        hint={outcome === 'failed' ? 'Montré à l’utilisateur, et motif au journal' : 'Inscrit au journal'}
      >
        <input required value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      </Field>
      {outcome === 'failed' ? (
        <label class="check">
          <input type="checkbox" checked={override} onChange={(e) => setOverride(e.currentTarget.checked)} />{' '}
          Clôturer en échec même si l’opérateur, relu à l’instant, ne confirme pas l’échec (le message sert de
          motif)
        </label>
      ) : null}
      <p class="hint">
        « Échoué » relit d’abord le transfert chez l’opérateur : sans échec définitif confirmé, le
        remboursement est refusé, sauf en cochant la case. La lecture est inscrite au journal d’audit.
      </p>
      {read ? (
        <p class="provider-read" data-field="provider-read">
          {readText(read)}
        </p>
      ) : null}
      <div class="buttons">
        <button type="button" disabled={busy} onClick={readNow}>
          Lire le transfert chez l’opérateur
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Régler le paiement
        </button>
      </div>
    </form>
  );
}
