// Support tickets: the list (by status), a ticket with its thread and attachment, reply, close.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { useLive } from '../live.js';
import { follow } from '../router.js';
import { Field, LoadState, Pager, ScrollRegion, useAction, useLoad, when } from '../ui.js';

type TicketStatus = 'open' | 'answered' | 'closed';
const STATUS_LABEL: Record<TicketStatus, string> = { open: 'Ouvert', answered: 'Répondu', closed: 'Clôturé' };
type Ticket = ResponseData<'/api/admin/tickets/{id}', 'get'>['ticket'];

export function Support({ id }: { id: number | undefined }) {
  return id ? <TicketDetail id={id} /> : <TicketList />;
}

function TicketList() {
  const [status, setStatus] = useState<TicketStatus | ''>('open');
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () =>
      dataOf(
        api.GET('/api/admin/tickets', {
          params: { query: { page, per_page: 20, ...(status ? { status } : {}) } },
        }),
      ),
    [page, status],
  );
  // A ticket opened, or a user's reply, while the screen is open shows without a reload.
  useLive(['ticket.created', 'ticket.replied'], loaded.reload);
  const empty = loaded.data?.tickets.length === 0;
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">Support</h1>
      <div class="filters">
        <Field label="Statut">
          <select
            value={status}
            onChange={(e) => {
              setPage(1);
              setStatus(e.currentTarget.value as TicketStatus | '');
            }}
          >
            <option value="">Tous</option>
            <option value="open">Ouverts</option>
            <option value="answered">Répondus</option>
            <option value="closed">Clôturés</option>
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {empty ? (
          <p class="empty">
            {status === 'open' || status === ''
              ? 'Aucune demande à traiter. Une demande d’assistance apparaît ici, sans recharger la page, dès qu’un utilisateur l’envoie ou répond.'
              : 'Aucune demande avec ce statut.'}
          </p>
        ) : null}
        <ScrollRegion label="Demandes de support" hidden={empty}>
          <table>
            <caption class="sr-only">Demandes d’assistance</caption>
            <thead>
              <tr>
                <th scope="col">N°</th>
                <th scope="col">Sujet</th>
                <th scope="col">Utilisateur</th>
                <th scope="col">Statut</th>
                <th scope="col">Mise à jour</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data?.tickets.map((ticket) => (
                <tr key={ticket.id}>
                  <td>{ticket.id}</td>
                  <td>
                    <a
                      href={`/admin/support/${ticket.id}`}
                      onClick={(event) => follow(event, `/support/${ticket.id}`)}
                    >
                      {ticket.subject}
                    </a>
                  </td>
                  <td>{userLabel(ticket)}</td>
                  <td>{STATUS_LABEL[ticket.status]}</td>
                  <td>{when(ticket.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="demandes" /> : null}
      </LoadState>
    </section>
  );
}

function userLabel(ticket: Ticket): string {
  const { user } = ticket;
  return [`n° ${ticket.user_id}`, user.name, user.username ? `@${user.username}` : null, user.phone]
    .filter(Boolean)
    .join(' · ');
}

function TicketDetail({ id }: { id: number }) {
  const loaded = useLoad(
    () => dataOf(api.GET('/api/admin/tickets/{id}', { params: { path: { id } } })),
    [id],
  );
  useLive(['ticket.replied'], (event) => {
    if (event.type === 'stream.reset' || event.data?.id === id) loaded.reload();
  });
  const [reply, setReply] = useState('');
  const { busy, run } = useAction();
  const ticket = loaded.data?.ticket;

  const send = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/tickets/{id}/reply', { params: { path: { id } }, body: { message: reply } }),
        ),
      'Réponse envoyée.',
    );
    if (ok) {
      setReply('');
      loaded.reload();
    }
  };
  const close = async () => {
    if (
      await run(
        () => dataOf(api.POST('/api/admin/tickets/{id}/close', { params: { path: { id } } })),
        'Demande clôturée.',
      )
    ) {
      loaded.reload();
    }
  };

  return (
    <section aria-labelledby="ticket-title">
      <p>
        <a href="/admin/support" onClick={(event) => follow(event, '/support')}>
          ← Toutes les demandes
        </a>
      </p>
      <LoadState loaded={loaded}>
        {ticket ? (
          <>
            <h1 id="ticket-title">
              Demande n° {ticket.id} : {ticket.subject}
            </h1>
            <p>
              {STATUS_LABEL[ticket.status]} · {userLabel(ticket)} · ouverte {when(ticket.created_at)}
            </p>
            <ol class="thread">
              <li class="from-user">
                <p class="who">Utilisateur · {when(ticket.created_at)}</p>
                <p>{ticket.message}</p>
                {ticket.attachment ? <Attachment ticket={ticket} /> : null}
              </li>
              {ticket.replies.map((r) => (
                <li key={r.id} class={r.author === 'support' ? 'from-support' : 'from-user'}>
                  <p class="who">
                    {r.author === 'support' ? 'Support' : 'Utilisateur'} · {when(r.created_at)}
                  </p>
                  <p>{r.message}</p>
                </li>
              ))}
            </ol>
            {ticket.status !== 'closed' ? (
              <form onSubmit={send}>
                <Field label="Votre réponse">
                  <textarea
                    rows={4}
                    required
                    value={reply}
                    onInput={(e) => setReply(e.currentTarget.value)}
                  />
                </Field>
                <div class="buttons">
                  <button type="submit" class="primary" disabled={busy}>
                    Répondre
                  </button>
                  <button type="button" disabled={busy} onClick={close}>
                    Clôturer la demande
                  </button>
                </div>
              </form>
            ) : null}
          </>
        ) : null}
      </LoadState>
    </section>
  );
}

/** The attachment is fetched with the admin's token (a plain link would carry none), then offered as a file. */
function Attachment({ ticket }: { ticket: Ticket }) {
  const [href, setHref] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => () => (href ? URL.revokeObjectURL(href) : undefined), [href]);
  if (!ticket.attachment) return null;
  const { name, size } = ticket.attachment;
  const load = async () => {
    const { data, response } = await api.GET('/api/user/support/ticket/{id}/attachment', {
      params: { path: { id: ticket.id } },
      parseAs: 'blob',
    });
    if (!response.ok || !(data instanceof Blob)) {
      setFailed(true);
      return;
    }
    setHref(URL.createObjectURL(data));
  };
  return (
    <p class="attachment">
      Pièce jointe : {name} ({Math.ceil(size / 1024)} Ko){' '}
      {href ? (
        <a href={href} download={name}>
          Enregistrer la pièce jointe
        </a>
      ) : (
        <button type="button" onClick={load}>
          Ouvrir la pièce jointe
        </button>
      )}
      {failed ? <span class="error"> Pièce jointe introuvable.</span> : null}
    </p>
  );
}
