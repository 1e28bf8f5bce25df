// Support tickets: the list (by status), a ticket with its thread and attachment, reply, close.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { useLive } from '../live.js';
import { follow } from '../router.js';
import { Field, LoadState, Pager, ScrollRegion, useAction, useLoad, usePagedList, when } from '../ui.js';

type TicketStatus = 'open' | 'answered' | 'closed';
type TicketsPage = ResponseData<'/api/admin/tickets', 'get'>;
type Ticket = ResponseData<'/api/admin/tickets/{id}', 'get'>['ticket'];

export function Support({ id }: { id: number | undefined }) {
  return id ? <TicketDetail id={id} /> : <TicketList />;
}

function TicketList() {
  const {
    filters: status,
    apply,
    setPage,
    loaded,
  } = usePagedList<TicketStatus | '', TicketsPage>('open', (status, page) =>
    dataOf(
      api.GET('/api/admin/tickets', {
        params: { query: { page, per_page: 20, ...(status ? { status } : {}) } },
      }),
    ),
  );
  // A ticket opened, or a user's reply, while the screen is open shows without a reload.
  useLive(['ticket.created', 'ticket.replied'], loaded.reload);
  const empty = loaded.data?.tickets.length === 0;
  const s = t.support;
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">{s.title}</h1>
      <div class="filters">
        <Field label={t.common.status}>
          <select value={status} onChange={(e) => apply(e.currentTarget.value as TicketStatus | '')}>
            <option value="">{t.common.all}</option>
            <option value="open">{s.openOption}</option>
            <option value="answered">{s.answeredOption}</option>
            <option value="closed">{s.closedOption}</option>
          </select>
        </Field>
      </div>
      <LoadState loaded={loaded}>
        {empty ? (
          <p class="empty">{status === 'open' || status === '' ? s.nothingToDo : s.noneWithStatus}</p>
        ) : null}
        <ScrollRegion label={s.region} hidden={empty}>
          <table>
            <caption class="visually-hidden">{s.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{s.numberColumn}</th>
                <th scope="col">{s.subject}</th>
                <th scope="col">{s.user}</th>
                <th scope="col">{t.common.status}</th>
                <th scope="col">{s.updated}</th>
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
                  <td>{s.statusLabel[ticket.status]}</td>
                  <td>{when(ticket.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={s.pager} /> : null}
      </LoadState>
    </section>
  );
}

function userLabel(ticket: Ticket): string {
  const { user } = ticket;
  return [
    t.common.number(String(ticket.user_id)),
    user.name,
    user.username ? `@${user.username}` : null,
    user.phone,
  ]
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
  const s = t.support;

  const send = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/tickets/{id}/reply', { params: { path: { id } }, body: { message: reply } }),
        ),
      s.replySent,
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
        s.closed,
      )
    ) {
      loaded.reload();
    }
  };

  return (
    <section aria-labelledby="ticket-title">
      <p>
        <a href="/admin/support" onClick={(event) => follow(event, '/support')}>
          {s.allRequests}
        </a>
      </p>
      <LoadState loaded={loaded}>
        {ticket ? (
          <>
            <h1 id="ticket-title">{s.heading(String(ticket.id), ticket.subject)}</h1>
            <p>
              {s.statusLabel[ticket.status]} · {userLabel(ticket)} · {s.opened(when(ticket.created_at))}
            </p>
            <ol class="thread">
              <li class="from-user">
                <p class="who">
                  {s.user} · {when(ticket.created_at)}
                </p>
                <p>{ticket.message}</p>
                {ticket.attachment ? <Attachment ticket={ticket} /> : null}
              </li>
              {ticket.replies.map((r) => (
                <li key={r.id} class={r.author === 'support' ? 'from-support' : 'from-user'}>
                  <p class="who">
                    {r.author === 'support' ? s.support : s.user} · {when(r.created_at)}
                  </p>
                  <p>{r.message}</p>
                </li>
              ))}
            </ol>
            {ticket.status !== 'closed' ? (
              <form onSubmit={send}>
                <Field label={s.yourReply}>
                  <textarea
                    rows={4}
                    required
                    value={reply}
                    onInput={(e) => setReply(e.currentTarget.value)}
                  />
                </Field>
                <div class="buttons">
                  <button type="submit" class="primary" disabled={busy}>
                    {s.reply}
                  </button>
                  <button type="button" disabled={busy} onClick={close}>
                    {s.close}
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
      {t.support.attachment(name, String(Math.ceil(size / 1024)))}{' '}
      {href ? (
        <a href={href} download={name}>
          {t.support.saveAttachment}
        </a>
      ) : (
        <button type="button" onClick={load}>
          {t.support.openAttachment}
        </button>
      )}
      {failed ? <span class="error"> {t.support.attachmentMissing}</span> : null}
    </p>
  );
}
