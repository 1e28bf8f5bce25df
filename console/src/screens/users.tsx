// Users: search by phone or name, a user's balances, ledger and pronostics; adjust credits with a
// reason, block / unblock, change role.
import { useState } from 'preact/hooks';
import { searchTermOf } from '../../../clients/web/phone.js';
import { api, dataOf, type ResponseData } from '../api.js';
import { byCount, t } from '../i18n.js';
import { follow } from '../router.js';
import { Field, LoadState, Pager, ScrollRegion, useAction, useLoad, usePagedList, when, xaf } from '../ui.js';
import { UserPlay } from './user-play.js';

type Detail = ResponseData<'/api/admin/users/{id}', 'get'>;
const u = t.users;
const ROLE_LABEL = u.roles;
const STATUS_LABEL = u.statuses;
/** What a deleted account shows instead of its phone (the tombstone keeps none). */
const NO_PHONE = u.noPhone;
const OPERATION_LABEL: Record<string, string> = u.operations;
const PRONOSTIC_LABEL = u.pronosticStatuses;

export function Users({ id }: { id: number | undefined }) {
  return id ? <UserDetail id={id} /> : <UserList />;
}

function UserList() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<'' | 'user' | 'admin'>('');
  const [status, setStatus] = useState<'' | 'active' | 'blocked' | 'deleted'>('');
  const { filters, apply, setPage, loaded } = usePagedList({ search, role, status }, (applied, page) =>
    dataOf(
      api.GET('/api/admin/users', {
        params: {
          query: {
            page,
            per_page: 20,
            ...(applied.search ? { search: applied.search } : {}),
            ...(applied.role ? { role: applied.role } : {}),
            ...(applied.status ? { status: applied.status } : {}),
          },
        },
      }),
    ),
  );
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">{u.title}</h1>
      <form
        class="filters"
        aria-label={u.searchLabel}
        onSubmit={(event) => {
          event.preventDefault();
          apply({ search: searchTermOf(search), role, status });
        }}
      >
        <Field label={u.searchField}>
          <input
            type="search"
            name="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </Field>
        <Field label={u.role}>
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as '' | 'user' | 'admin')}>
            <option value="">{t.common.all}</option>
            <option value="user">{u.usersOption}</option>
            <option value="admin">{u.adminsOption}</option>
          </select>
        </Field>
        <Field label={t.common.status}>
          <select
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as '' | 'active' | 'blocked' | 'deleted')}
          >
            <option value="">{t.common.all}</option>
            <option value="active">{u.activeOption}</option>
            <option value="blocked">{u.blockedOption}</option>
            <option value="deleted">{u.deletedOption}</option>
          </select>
        </Field>
        <button type="submit">{u.search}</button>
      </form>
      <LoadState loaded={loaded}>
        {loaded.data?.users.length === 0 ? (
          <p class="empty">{filters.search || filters.role || filters.status ? u.noMatch : u.none}</p>
        ) : null}
        <ScrollRegion label={u.list} hidden={loaded.data?.users.length === 0}>
          <table>
            <caption class="visually-hidden">{u.found}</caption>
            <thead>
              <tr>
                <th scope="col">{u.numberColumn}</th>
                <th scope="col">{u.phone}</th>
                <th scope="col">{u.name}</th>
                <th scope="col">{u.role}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col">{u.credits}</th>
                <th scope="col">{u.balance}</th>
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
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={u.pager} /> : null}
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
          {u.allUsers}
        </a>
      </p>
      <LoadState loaded={loaded}>
        {detail ? (
          <>
            <h1 id="user-title">{u.heading(String(detail.user.id), detail.user.phone ?? NO_PHONE)}</h1>
            <Summary detail={detail} />
            <UserPlay play={detail.play} />
            <div class="row">
              <Credits id={id} onDone={changed} />
              <Account detail={detail} onDone={changed} />
            </div>
          </>
        ) : null}
      </LoadState>
      <h2 id="ledger-title">{u.operationsTitle}</h2>
      <LoadState loaded={ledger}>
        {ledger.data?.operations.length === 0 ? <p class="empty">{u.noOperations}</p> : null}
        <ScrollRegion label={u.operationsTitle} hidden={ledger.data?.operations.length === 0}>
          <table aria-labelledby="ledger-title" data-table="ledger">
            <thead>
              <tr>
                <th scope="col">{u.when}</th>
                <th scope="col">{u.operation}</th>
                <th scope="col">{u.amount}</th>
                <th scope="col">{u.balanceAfter}</th>
                <th scope="col">{u.label}</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data?.operations.map((op) => (
                <tr key={op.id} data-operation={op.id}>
                  <td>{when(op.created_at)}</td>
                  <td>{OPERATION_LABEL[op.type] ?? op.type}</td>
                  <td>
                    {op.amount > 0 ? '+' : ''}
                    {op.currency === 'XAF'
                      ? xaf(op.amount)
                      : byCount(op.amount, u.creditsCount)(String(op.amount))}
                  </td>
                  <td>{op.currency === 'XAF' ? xaf(op.balance_after) : op.balance_after}</td>
                  <td>{op.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {ledger.data ? (
          <Pager meta={ledger.data.meta} onPage={setLedgerPage} label={u.operationsPager} />
        ) : null}
      </LoadState>
      <h2 id="pronostics-title">{u.pronosticsTitle}</h2>
      <LoadState loaded={pronostics}>
        {pronostics.data?.pronostics.length === 0 ? <p class="empty">{u.noPronostics}</p> : null}
        <ScrollRegion label={u.pronosticsTitle} hidden={pronostics.data?.pronostics.length === 0}>
          <table aria-labelledby="pronostics-title">
            <thead>
              <tr>
                <th scope="col">{u.numberColumn}</th>
                <th scope="col">{u.match}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col">{u.cost}</th>
                <th scope="col">{u.created}</th>
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
                    {p.deleted ? u.deletedSuffix : ''}
                  </td>
                  <td>{byCount(p.credits_cost, u.creditsCount)(String(p.credits_cost))}</td>
                  <td>{when(p.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {pronostics.data ? (
          <Pager meta={pronostics.data.meta} onPage={setPronosticPage} label={u.pronosticsPager} />
        ) : null}
      </LoadState>
    </section>
  );
}

function Summary({ detail }: { detail: Detail }) {
  const { user } = detail;
  return (
    <dl class="facts card">
      <dt>{u.name}</dt>
      <dd>{[user.name, user.username ? `@${user.username}` : null].filter(Boolean).join(' ') || '—'}</dd>
      <dt>{u.country}</dt>
      <dd>{user.country}</dd>
      <dt>{u.role}</dt>
      <dd data-field="role">{ROLE_LABEL[user.role]}</dd>
      <dt>{t.common.status}</dt>
      <dd data-field="status">{STATUS_LABEL[user.status]}</dd>
      <dt>{u.credits}</dt>
      <dd data-field="credits">{user.credits_balance}</dd>
      <dt>{u.balance}</dt>
      <dd>{xaf(user.money_balance)}</dd>
      <dt>{u.signedUp}</dt>
      <dd>{when(user.created_at)}</dd>
      <dt>{u.pronosticsTitle}</dt>
      <dd>
        {u.pronosticsSummary(
          String(detail.pronostics.total),
          String(detail.pronostics.success),
          String(detail.pronostics.processing),
          String(detail.pronostics.cancelled),
        )}
      </dd>
      <dt>{u.payments}</dt>
      <dd>
        {detail.payments.success_count} · {xaf(detail.payments.success_amount)}
      </dd>
      <dt>{u.pendingWithdrawals}</dt>
      <dd>
        {detail.withdrawals.pending_count} · {xaf(detail.withdrawals.pending_amount)}
      </dd>
      <dt>{u.referral}</dt>
      <dd>
        {byCount(detail.godchildren_count, u.referralSummary)(
          user.affiliation_code,
          user.godfather_id ? t.common.number(String(user.godfather_id)) : '—',
          String(detail.godchildren_count),
        )}
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
      byCount(Math.abs(value), u.adjusted)(`${value > 0 ? '+' : ''}${value}`),
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
      <h2 id="credits-title">{u.adjustCredits}</h2>
      <Field label={u.adjustAmount}>
        <input
          type="number"
          name="amount"
          step={1}
          required
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
      </Field>
      <Field label={u.reason}>
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
        {u.saveAdjustment}
      </button>
    </form>
  );
}

function Account({ detail, onDone }: { detail: Detail; onDone: () => void }) {
  const { user } = detail;
  const { busy, run } = useAction();
  const params = { path: { id: user.id } };
  const act = async <T,>(call: () => Promise<T>, done: string | ((answer: T) => string)) => {
    if (await run(call, done)) onDone();
  };
  const otherRole = user.role === 'admin' ? 'user' : 'admin';
  if (user.status === 'deleted') {
    return (
      <div class="card">
        <h2>{u.account}</h2>
        <p data-field="deleted">{u.deletedAccount}</p>
      </div>
    );
  }
  return (
    <div class="card">
      <h2>{u.account}</h2>
      <div class="buttons">
        {user.status === 'active' ? (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => act(() => dataOf(api.POST('/api/admin/users/{id}/block', { params })), u.blocked)}
          >
            {u.block}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act(() => dataOf(api.POST('/api/admin/users/{id}/unblock', { params })), u.unblocked)
            }
          >
            {u.unblock}
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            act(
              () => dataOf(api.POST('/api/admin/users/{id}/role', { params, body: { role: otherRole } })),
              // Four eyes: a promotion waits for a second admin (202 with the approval).
              (answer) =>
                'approval' in answer
                  ? t.approvals.requested(String(answer.approval.id))
                  : u.roleChanged(ROLE_LABEL[otherRole]),
            )
          }
        >
          {otherRole === 'admin' ? u.makeAdmin : u.removeAdmin}
        </button>
      </div>
    </div>
  );
}
