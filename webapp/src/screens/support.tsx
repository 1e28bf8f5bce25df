// Support: the user's requests, a new one with an optional attachment (an image or a PDF), and a
// request's thread with the support's replies, answered or closed from here.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, errorText, type ResponseData, upload } from '../api.js';
import { currentLanguage, t } from '../i18n/index.js';

type Ticket = ResponseData<'/api/user/support/ticket/{id}', 'get'>['ticket'];
type Listed = ResponseData<'/api/user/support/tickets', 'get'>['tickets'][number];

const STATUS_KEY = { open: 'ticketOpen', answered: 'ticketAnswered', closed: 'ticketClosed' } as const;

function Thread({ id, onBack }: { id: number; onBack: () => void }) {
  const [ticket, setTicket] = useState<Ticket | undefined>();
  const [reply, setReply] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void dataOf(api.GET('/api/user/support/ticket/{id}', { params: { path: { id } } })).then(
      (data) => setTicket(data.ticket),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, [id]);
  const act = async (work: () => Promise<Ticket>) => {
    setBusy(true);
    setError(undefined);
    try {
      setTicket(await work());
      setReply('');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  if (!ticket)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p class="loading">{t('loading')}</p>
    );
  const when = new Intl.DateTimeFormat(currentLanguage(), {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <article aria-labelledby="ticket-title">
      <button type="button" class="link" onClick={onBack}>
        ← {t('supportTitle')}
      </button>
      <h2 id="ticket-title">{ticket.subject}</h2>
      <p class={`status status-${ticket.status}`}>{t(STATUS_KEY[ticket.status])}</p>
      <ol class="thread">
        <li>
          <strong>{t('you')}</strong> <span class="muted">{when.format(new Date(ticket.created_at))}</span>
          <p>{ticket.message}</p>
          {ticket.attachment && <span class="muted">{ticket.attachment.name}</span>}
        </li>
        {ticket.replies.map((entry) => (
          <li key={entry.id}>
            <strong>{entry.author === 'support' ? t('supportReply') : t('you')}</strong>{' '}
            <span class="muted">{when.format(new Date(entry.created_at))}</span>
            <p>{entry.message}</p>
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {ticket.status !== 'closed' && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act(
              async () =>
                (
                  await dataOf(
                    api.POST('/api/user/support/ticket/{id}/reply', {
                      params: { path: { id } },
                      body: { message: reply },
                    }),
                  )
                ).ticket,
            );
          }}
        >
          <label>
            {t('message')}
            <textarea
              value={reply}
              maxLength={5000}
              rows={4}
              onInput={(e) => setReply(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy || reply.trim().length < 2}>
            {t('reply')}
          </button>
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              void act(
                async () =>
                  (
                    await dataOf(
                      api.POST('/api/user/support/ticket/{id}/close', { params: { path: { id } } }),
                    )
                  ).ticket,
              )
            }
          >
            {t('closeTicket')}
          </button>
        </form>
      )}
    </article>
  );
}

export function Support() {
  const [tickets, setTickets] = useState<Listed[]>([]);
  const [open, setOpen] = useState<number | undefined>();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);
  useEffect(() => {
    void dataOf(api.GET('/api/user/support/tickets', { params: { query: { per_page: 20 } } })).then(
      (data) => setTickets(data.tickets),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, [refresh]);

  if (open !== undefined)
    return (
      <Thread
        id={open}
        onBack={() => {
          setOpen(undefined);
          setRefresh((n) => n + 1);
        }}
      />
    );
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const form = new FormData();
      form.set('subject', subject);
      form.set('message', message);
      if (file) form.set('attachment', file);
      const data = await upload<{ ticket: { id: number } }>('/api/user/support/ticket/create', form);
      setSubject('');
      setMessage('');
      setFile(undefined);
      setOpen(data.ticket.id);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">{t('supportTitle')}</h1>
      {tickets.length === 0 ? (
        <p>{t('noTickets')}</p>
      ) : (
        <ul class="cards">
          {tickets.map((ticket) => (
            <li key={ticket.id}>
              <button type="button" class="link" onClick={() => setOpen(ticket.id)}>
                {ticket.subject}
              </button>
              <span class={`status status-${ticket.status}`}>{t(STATUS_KEY[ticket.status])}</span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} aria-labelledby="new-ticket-title">
        <h2 id="new-ticket-title">{t('newTicket')}</h2>
        <label>
          {t('subject')}
          <input value={subject} maxLength={150} onInput={(e) => setSubject(e.currentTarget.value)} />
        </label>
        <label>
          {t('message')}
          <textarea
            value={message}
            maxLength={5000}
            rows={5}
            onInput={(e) => setMessage(e.currentTarget.value)}
          />
        </label>
        <label>
          {t('attachment')}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,application/pdf"
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
          />
        </label>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('send')}
        </button>
      </form>
    </section>
  );
}
