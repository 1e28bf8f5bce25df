// Users: search by phone or name, a user's balances, ledger and pronostics; adjust credits with a
// reason, block / unblock, change role.
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { searchTermOf } from '../phone.js';
import { follow } from '../router.js';
import { Field, LoadState, Pager, ScrollRegion, useAction, useLoad, when, xaf } from '../ui.js';

type Detail = ResponseData<'/api/admin/users/{id}', 'get'>;
const ROLE_LABEL = { user: 'Utilisateur', admin: 'Administrateur' } as const;
const STATUS_LABEL = { active: 'Actif', blocked: 'Bloqué', deleted: 'Supprimé' } as const;
/** What a deleted account shows instead of its phone (the tombstone keeps none). */
const NO_PHONE = 'Compte supprimé';
const OPERATION_LABEL: Record<string, string> = {
  pack_purchase: 'Achat de pack',
  pronostic_debit: 'Pronostic',
  pronostic_refund: 'Remboursement de pronostic',
  welcome_bonus: 'Bienvenue',
  referral_commission: 'Commission de parrainage',
  withdrawal: 'Retrait',
  withdrawal_refund: 'Remboursement de retrait',
  admin_adjustment: 'Ajustement administrateur',
};
const PRONOSTIC_LABEL = { processing: 'En cours', success: 'Réussi', cancelled: 'Annulé' } as const;

export function Users({ id }: { id: number | undefined }) {
  return id ? <UserDetail id={id} /> : <UserList />;
}

function UserList() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<'' | 'user' | 'admin'>('');
  const [status, setStatus] = useState<'' | 'active' | 'blocked' | 'deleted'>('');
  const [filters, setFilters] = useState({ search, role, status });
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/users', {
          params: {
            query: {
              page,
              per_page: 20,
              ...(filters.search ? { search: filters.search } : {}),
              ...(filters.role ? { role: filters.role } : {}),
              ...(filters.status ? { status: filters.status } : {}),
            },
          },
        }),
      ),
    [page, filters],
  );
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Utilisateurs</h1>
      <form
        class="filters"
        aria-label="Rechercher des utilisateurs"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilters({ search: searchTermOf(search), role, status });
        }}
      >
        <Field label="Téléphone, nom ou pseudo">
          <input
            type="search"
            name="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </Field>
        <Field label="Rôle">
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as '' | 'user' | 'admin')}>
            <option value="">Tous</option>
            <option value="user">Utilisateurs</option>
            <option value="admin">Administrateurs</option>
          </select>
        </Field>
        <Field label="Statut">
          <select
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as '' | 'active' | 'blocked' | 'deleted')}
          >
            <option value="">Tous</option>
            <option value="active">Actifs</option>
            <option value="blocked">Bloqués</option>
            <option value="deleted">Supprimés</option>
          </select>
        </Field>
        <button type="submit">Rechercher</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data?.users.length === 0 ? (
          <p class="empty">
            {filters.search || filters.role || filters.status
              ? 'Aucun utilisateur ne correspond à cette recherche.'
              : 'Aucun utilisateur inscrit pour l’instant : chaque compte apparaît ici dès sa première connexion.'}
          </p>
        ) : null}
        <ScrollRegion label="Liste des utilisateurs" hidden={loaded.data?.users.length === 0}>
          <table>
            <caption class="sr-only">Utilisateurs trouvés</caption>
            <thead>
              <tr>
                <th scope="col">N°</th>
                <th scope="col">Téléphone</th>
                <th scope="col">Nom</th>
                <th scope="col">Rôle</th>
                <th scope="col">Statut</th>
                <th scope="col">Crédits</th>
                <th scope="col">Solde</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data?.users.map((user) => (
                <tr key={user.id}>
                  <td>{user.id}</td>
                  <td>
                    <a
                      href={`/admin/utilisateurs/${user.id}`}
                      onClick={(event) => follow(event, `/utilisateurs/${user.id}`)}
                    >
                      {user.phone ?? NO_PHONE}
                    </a>
                  </td>
                  <td>
                    {[user.name, user.username ? `@${user.username}` : null].filter(Boolean).join(' ') || '—'}
                  </td>
                  <td>{ROLE_LABEL[user.role]}</td>
                  <td>{STATUS_LABEL[user.status]}</td>
                  <td>{user.credits_balance}</td>
                  <td>{xaf(user.money_balance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="utilisateurs" /> : null}
      </LoadState>
    </section>
  );
}

function UserDetail({ id }: { id: number }) {
  const loaded = useLoad(() => dataOf(api.GET('/api/admin/users/{id}', { params: { path: { id } } })), [id]);
  const [ledgerPage, setLedgerPage] = useState(1);
  const [pronosticPage, setPronosticPage] = useState(1);
  const [version, setVersion] = useState(0);
  const ledger = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/users/{id}/operations', {
          params: { path: { id }, query: { page: ledgerPage, per_page: 10 } },
        }),
      ),
    [id, ledgerPage, version],
  );
  const pronostics = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/users/{id}/pronostics', {
          params: { path: { id }, query: { page: pronosticPage, per_page: 10 } },
        }),
      ),
    [id, pronosticPage],
  );
  const changed = () => {
    loaded.reload();
    setLedgerPage(1);
    setVersion((n) => n + 1);
  };
  const detail = loaded.data;
  return (
    <section aria-labelledby="user-title">
      <p>
        <a href="/admin/utilisateurs" onClick={(event) => follow(event, '/utilisateurs')}>
          ← Tous les utilisateurs
        </a>
      </p>
      <LoadState loaded={loaded}>
        {detail ? (
          <>
            <h1 id="user-title">
              Utilisateur n° {detail.user.id} · {detail.user.phone ?? NO_PHONE}
            </h1>
            <Summary detail={detail} />
            <div class="row">
              <Credits id={id} onDone={changed} />
              <Account detail={detail} onDone={changed} />
            </div>
          </>
        ) : null}
      </LoadState>
      <h2 id="ledger-title">Opérations</h2>
      <LoadState loaded={ledger}>
        {ledger.data?.operations.length === 0 ? (
          <p class="empty">
            Aucune opération : achats, pronostics, commissions, retraits et ajustements s’inscriront ici.
          </p>
        ) : null}
        <ScrollRegion label="Opérations" hidden={ledger.data?.operations.length === 0}>
          <table aria-labelledby="ledger-title" data-table="ledger">
            <thead>
              <tr>
                <th scope="col">Quand</th>
                <th scope="col">Opération</th>
                <th scope="col">Montant</th>
                <th scope="col">Solde après</th>
                <th scope="col">Libellé</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data?.operations.map((op) => (
                <tr key={op.id} data-operation={op.id}>
                  <td>{when(op.created_at)}</td>
                  <td>{OPERATION_LABEL[op.type] ?? op.type}</td>
                  <td>
                    {op.amount > 0 ? '+' : ''}
                    {op.currency === 'XAF' ? xaf(op.amount) : `${op.amount} crédits`}
                  </td>
                  <td>{op.currency === 'XAF' ? xaf(op.balance_after) : op.balance_after}</td>
                  <td>{op.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {ledger.data ? <Pager meta={ledger.data.meta} onPage={setLedgerPage} label="opérations" /> : null}
      </LoadState>
      <h2 id="pronostics-title">Pronostics</h2>
      <LoadState loaded={pronostics}>
        {pronostics.data?.pronostics.length === 0 ? (
          <p class="empty">Aucun pronostic : ceux que l’utilisateur demande apparaîtront ici.</p>
        ) : null}
        <ScrollRegion label="Pronostics" hidden={pronostics.data?.pronostics.length === 0}>
          <table aria-labelledby="pronostics-title">
            <thead>
              <tr>
                <th scope="col">N°</th>
                <th scope="col">Match</th>
                <th scope="col">Statut</th>
                <th scope="col">Coût</th>
                <th scope="col">Créé</th>
              </tr>
            </thead>
            <tbody>
              {pronostics.data?.pronostics.map((p) => (
                <tr key={p.id}>
                  <td>{p.id}</td>
                  <td>
                    {p.teams_details.home} – {p.teams_details.away}
                    {p.teams_details.league ? ` (${p.teams_details.league})` : ''}
                  </td>
                  <td>
                    {PRONOSTIC_LABEL[p.status]}
                    {p.deleted ? ' · supprimé' : ''}
                  </td>
                  <td>{p.credits_cost} crédits</td>
                  <td>{when(p.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {pronostics.data ? (
          <Pager meta={pronostics.data.meta} onPage={setPronosticPage} label="pronostics" />
        ) : null}
      </LoadState>
    </section>
  );
}

function Summary({ detail }: { detail: Detail }) {
  const { user } = detail;
  return (
    <dl class="facts card">
      <dt>Nom</dt>
      <dd>{[user.name, user.username ? `@${user.username}` : null].filter(Boolean).join(' ') || '—'}</dd>
      <dt>Pays</dt>
      <dd>{user.country}</dd>
      <dt>Rôle</dt>
      <dd data-field="role">{ROLE_LABEL[user.role]}</dd>
      <dt>Statut</dt>
      <dd data-field="status">{STATUS_LABEL[user.status]}</dd>
      <dt>Crédits</dt>
      <dd data-field="credits">{user.credits_balance}</dd>
      <dt>Solde</dt>
      <dd>{xaf(user.money_balance)}</dd>
      <dt>Inscrit le</dt>
      <dd>{when(user.created_at)}</dd>
      <dt>Pronostics</dt>
      <dd>
        {detail.pronostics.total} ({detail.pronostics.success} réussis, {detail.pronostics.processing} en
        cours, {detail.pronostics.cancelled} annulés)
      </dd>
      <dt>Paiements réussis</dt>
      <dd>
        {detail.payments.success_count} · {xaf(detail.payments.success_amount)}
      </dd>
      <dt>Retraits en attente</dt>
      <dd>
        {detail.withdrawals.pending_count} · {xaf(detail.withdrawals.pending_amount)}
      </dd>
      <dt>Parrainage</dt>
      <dd>
        code {user.affiliation_code} · parrain {user.godfather_id ? `n° ${user.godfather_id}` : '—'} ·{' '}
        {detail.godchildren_count} filleul(s)
      </dd>
    </dl>
  );
}

/** A fresh Idempotency-Key (getRandomValues works outside HTTPS too, unlike randomUUID). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

function Credits({ id, onDone }: { id: number; onDone: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // One key per adjustment: a retry after a lost answer is not applied twice; a new entry gets a new key.
  const [key, setKey] = useState(newKey);
  const { busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = Number(amount);
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/users/{id}/credits', {
            params: { path: { id }, header: { 'idempotency-key': key } },
            body: { amount: value, reason: reason.trim() },
          }),
        ),
      `${value > 0 ? '+' : ''}${value} crédits enregistrés.`,
    );
    if (ok) {
      setAmount('');
      setReason('');
      setKey(newKey());
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={submit} onInput={() => setKey(newKey())} aria-labelledby="credits-title">
      <h2 id="credits-title">Ajuster les crédits</h2>
      <Field label="Montant (négatif pour retirer)">
        <input
          type="number"
          name="amount"
          step={1}
          required
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
      </Field>
      <Field label="Motif">
        <input
          name="reason"
          required
          minLength={3}
          maxLength={200}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={busy}>
        Enregistrer l’ajustement
      </button>
    </form>
  );
}

function Account({ detail, onDone }: { detail: Detail; onDone: () => void }) {
  const { user } = detail;
  const { busy, run } = useAction();
  const params = { path: { id: user.id } };
  const act = async (call: () => Promise<unknown>, done: string) => {
    if (await run(call, done)) onDone();
  };
  const otherRole = user.role === 'admin' ? 'user' : 'admin';
  if (user.status === 'deleted') {
    return (
      <div class="card">
        <h2>Compte</h2>
        <p data-field="deleted">
          Compte supprimé par son titulaire : ses données personnelles sont effacées, ses opérations
          financières conservées. Il ne peut plus être modifié.
        </p>
      </div>
    );
  }
  return (
    <div class="card">
      <h2>Compte</h2>
      <div class="buttons">
        {user.status === 'active' ? (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              act(() => dataOf(api.POST('/api/admin/users/{id}/block', { params })), 'Utilisateur bloqué.')
            }
          >
            Bloquer
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act(
                () => dataOf(api.POST('/api/admin/users/{id}/unblock', { params })),
                'Utilisateur débloqué.',
              )
            }
          >
            Débloquer
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            act(
              () => dataOf(api.POST('/api/admin/users/{id}/role', { params, body: { role: otherRole } })),
              `Rôle changé : ${ROLE_LABEL[otherRole]}.`,
            )
          }
        >
          {otherRole === 'admin' ? 'Nommer administrateur' : 'Retirer le rôle administrateur'}
        </button>
      </div>
    </div>
  );
}
