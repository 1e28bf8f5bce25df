// Flags: the contradictions between a payment provider's word and our books, open ones first (the
// API's order), each resolved with a note (audited as flag.resolve); a late_complete payment may be
// credited once on resolving. A flag raised while the screen is open appears without a reload.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { useLive } from '../live.js';
import { Field, LoadState, Pager, useAction, useLoad, when } from '../ui.js';

type Flag = ResponseData<'/api/admin/flags', 'get'>['flags'][number];
type Status = Flag['status'];

export const FLAG_LABEL: Record<Flag['kind'], string> = {
  late_complete: 'Paiement réussi après avoir été marqué échoué',
  refund_after_success: 'Remboursement après un paiement crédité',
  failed_after_success: 'Échec annoncé après un paiement crédité',
  amount_mismatch: 'Montant différent de celui demandé',
  currency_mismatch: 'Devise différente de celle demandée',
  refunded_while_pending: 'Remboursé alors qu’il était en attente',
  stuck_pending: 'En attente chez le prestataire depuis plus de 24 h',
  driver_missing: 'Prestataire du paiement non configuré',
  contradicts_final: 'Nouvelle du prestataire contraire à un retrait clôturé',
};
const TARGET_LABEL: Record<Flag['target_type'], string> = { payment: 'Paiement', withdrawal: 'Retrait' };

export function Flags() {
  const [status, setStatus] = useState<Status | ''>('');
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/flags', {
          params: { query: { page, per_page: 20, ...(status ? { status } : {}) } },
        }),
      ),
    [page, status],
  );
  useLive(['flag.raised'], loaded.reload);
  const flags = loaded.data?.flags ?? [];
  return (
    <section aria-labelledby="flags-title">
      <h1 id="flags-title">Signalements</h1>
      <p class="lead">
        Une contradiction entre un prestataire de paiement et nos comptes. Les signalements ouverts viennent
        en premier ; chacun se résout avec une note, inscrite au journal d’audit.
      </p>
      <div class="filters">
        <Field label="Statut">
          <select
            value={status}
            onChange={(e) => {
              setPage(1);
              setStatus(e.currentTarget.value as Status | '');
            }}
          >
            <option value="">Tous (ouverts d’abord)</option>
            <option value="open">Ouverts</option>
            <option value="resolved">Résolus</option>
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {loaded.data && flags.length === 0 ? (
          <p class="empty">
            {status === 'resolved'
              ? 'Aucun signalement résolu pour l’instant.'
              : 'Aucun signalement ouvert. Un signalement apparaît ici, sans recharger la page, dès qu’un prestataire contredit nos comptes : paiement réussi après un échec, montant ou devise différents, paiement en attente depuis plus de 24 h, nouvelle contraire à un retrait clôturé.'}
          </p>
        ) : null}
        <ul class="cards">
          {flags.map((flag) => (
            <FlagCard key={`${flag.id}-${flag.status}`} flag={flag} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="signalements" /> : null}
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
      `Signalement n° ${flag.id} résolu.`,
    );
    if (ok) onDone();
  };
  return (
    <li class="card" data-flag={flag.id}>
      <h2>
        Signalement n° {flag.id} · {FLAG_LABEL[flag.kind]}{' '}
        <span class={flag.status === 'open' ? 'badge warn' : 'badge ok'}>
          {flag.status === 'open' ? 'Ouvert' : 'Résolu'}
        </span>
      </h2>
      <dl class="facts">
        <dt>Cible</dt>
        <dd>
          {TARGET_LABEL[flag.target_type]} n° {flag.target_id}
        </dd>
        <dt>Levé le</dt>
        <dd>{when(flag.created_at)}</dd>
        <dt>Code</dt>
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
            <dt>Résolu</dt>
            <dd data-field="resolution">
              {when(flag.resolved_at)} par l’administrateur n° {flag.resolved_by ?? '—'} : « {flag.note} »
            </dd>
          </>
        ) : null}
      </dl>
      {flag.status === 'open' ? (
        <form class="actions" onSubmit={resolve} aria-label={`Résoudre le signalement n° ${flag.id}`}>
          <label for={noteId}>Note de résolution (3 à 500 caractères, inscrite au journal)</label>
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
              Créditer le pack de ce paiement (une seule fois)
            </label>
          ) : null}
          <div class="buttons">
            <button type="submit" class="primary" disabled={busy || note.trim().length < 3}>
              Résoudre
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
