// The console's frame: sign-in gate, navigation, the status region and the current screen.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, session } from './api.js';
import { t } from './i18n.js';
import { type AdminEvent, connectLive, type Live, LiveContext, type LiveState } from './live.js';
import { follow, navigate, usePath } from './router.js';
import { Approvals } from './screens/approvals.js';
import { Audit } from './screens/audit.js';
import { Competitions } from './screens/competitions.js';
import { Dashboard } from './screens/dashboard.js';
import { Fixtures } from './screens/fixtures.js';
import { Flags } from './screens/flags.js';
import { Packs } from './screens/packs.js';
import { Support } from './screens/support.js';
import { Types } from './screens/types.js';
import { Users } from './screens/users.js';
import { Withdrawals } from './screens/withdrawals.js';
import { SignIn } from './signin.js';
import { LanguageSwitch, type Notifier, NotifierContext, xaf } from './ui.js';

const SCREENS = [
  '/',
  '/retraits',
  '/signalements',
  '/approbations',
  '/utilisateurs',
  '/types',
  '/packs',
  '/support',
  '/matchs',
  '/competitions',
  '/journal',
] as const;

/** What an admin is told of an event that came live (the screen showing it reloads by itself). */
function newsOf(event: AdminEvent): string | undefined {
  const data = event.data ?? {};
  const f = t.frame;
  const id = typeof data.id === 'number' ? f.numberSuffix(String(data.id)) : '';
  switch (event.type) {
    case 'withdrawal.requested':
      return f.newWithdrawal(id, typeof data.amount === 'number' ? f.amountSuffix(xaf(data.amount)) : '');
    case 'ticket.created':
      return f.newTicket(id, typeof data.subject === 'string' ? f.subjectSuffix(data.subject) : '');
    case 'ticket.replied':
      return f.ticketReplied(id);
    case 'flag.raised':
      return f.newFlag(id, typeof data.kind === 'string' ? f.kindSuffix(data.kind) : '');
    case 'approval.requested':
      return f.newApproval(id, typeof data.action === 'string' ? f.kindSuffix(data.action) : '');
    case 'stream.reset':
      return f.streamReset;
    default:
      return undefined;
  }
}

function screenOf(path: string) {
  const [, first = '', second] = path.split('/');
  switch (first) {
    case 'retraits':
      return <Withdrawals />;
    case 'utilisateurs':
      return <Users id={second ? Number(second) : undefined} />;
    case 'types':
      return <Types />;
    case 'packs':
      return <Packs />;
    case 'support':
      return <Support id={second ? Number(second) : undefined} />;
    case 'signalements':
      return <Flags />;
    case 'approbations':
      return <Approvals />;
    case 'matchs':
      return <Fixtures />;
    case 'competitions':
      return <Competitions />;
    case 'journal':
      return <Audit />;
    default:
      return <Dashboard />;
  }
}

export function App() {
  const [signedIn, setSignedIn] = useState(session.token() !== null);
  const [notice, setNotice] = useState<string | undefined>();
  const [status, setStatus] = useState<{ text: string; tone: 'ok' | 'error'; n: number }>({
    text: '',
    tone: 'ok',
    n: 0,
  });
  const [liveState, setLiveState] = useState<LiveState>('stopped');
  const [news, setNews] = useState('');
  const listeners = useRef(new Set<(event: AdminEvent) => void>());
  const path = usePath();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);
  // After a move to another screen the focus goes to its content, as a page load would put it.
  useEffect(() => {
    if (path !== firstPath.current) main.current?.focus();
    firstPath.current = '';
  }, [path]);

  const notifier = useMemo<Notifier>(
    () => ({
      say: (text, tone = 'ok') => setStatus((previous) => ({ text, tone, n: previous.n + 1 })),
      signedOut: () => {
        session.clear();
        setNotice(t.frame.sessionExpired);
        setSignedIn(false);
      },
    }),
    [],
  );

  // One stream per signed-in tab; every screen subscribes to it (useLive).
  useEffect(() => {
    if (!signedIn) return;
    return connectLive({
      onState: setLiveState,
      onSignedOut: notifier.signedOut,
      onEvent: (event) => {
        const text = newsOf(event);
        if (text) setNews(text);
        for (const listener of listeners.current) listener(event);
      },
    });
  }, [signedIn, notifier]);
  const live = useMemo<Live>(
    () => ({
      state: liveState,
      subscribe: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [liveState],
  );

  if (!signedIn) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={() => {
          setNotice(undefined);
          setSignedIn(true);
        }}
      />
    );
  }

  const logout = async () => {
    await api.POST('/api/user/logout').catch(() => undefined);
    session.clear();
    setNotice(undefined);
    setSignedIn(false);
    navigate('/');
  };
  const active = `/${path.split('/')[1] ?? ''}`;

  return (
    <NotifierContext.Provider value={notifier}>
      <LiveContext.Provider value={live}>
        <a class="skip" href="#main">
          {t.frame.skip}
        </a>
        <header class="top">
          <p class="brand">{t.frame.brand}</p>
          <p class={`live ${liveState}`} data-live={liveState}>
            {t.frame.live[liveState]}
          </p>
          <LanguageSwitch />
          <button type="button" onClick={logout}>
            {t.frame.logout}
          </button>
        </header>
        <nav class="menu" aria-label={t.frame.menu}>
          <ul>
            {SCREENS.map((screen) => (
              <li key={screen}>
                <a
                  href={`/admin${screen}`}
                  aria-current={active === screen ? 'page' : undefined}
                  onClick={(event) => follow(event, screen)}
                >
                  {t.frame.screens[screen]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} ref={main}>
          {screenOf(path)}
        </main>
        {/* One sticky strip: the result of the admin's own action, and the news that came live. */}
        <div class="bars">
          <div class={`status-bar ${status.tone}`} role="status" aria-live="polite" data-n={status.n}>
            {status.text}
          </div>
          <div class="news-bar" role="status" aria-live="polite" aria-label={t.frame.liveNews}>
            {news}
          </div>
        </div>
      </LiveContext.Provider>
    </NotifierContext.Provider>
  );
}
