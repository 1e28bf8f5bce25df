// The console's frame: sign-in gate, navigation, the status region and the current screen.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, session } from './api.js';
import { type AdminEvent, connectLive, type Live, LiveContext, type LiveState } from './live.js';
import { follow, navigate, usePath } from './router.js';
import { Audit } from './screens/audit.js';
import { Dashboard } from './screens/dashboard.js';
import { Fixtures } from './screens/fixtures.js';
import { Flags } from './screens/flags.js';
import { Packs } from './screens/packs.js';
import { Support } from './screens/support.js';
import { Types } from './screens/types.js';
import { Users } from './screens/users.js';
import { Withdrawals } from './screens/withdrawals.js';
import { SignIn } from './signin.js';
import { type Notifier, NotifierContext, xaf } from './ui.js';

const SCREENS = [
  { path: '/', label: 'Tableau de bord' },
  { path: '/retraits', label: 'Retraits' },
  { path: '/signalements', label: 'Signalements' },
  { path: '/utilisateurs', label: 'Utilisateurs' },
  { path: '/types', label: 'Types de pronostic' },
  { path: '/packs', label: 'Packs' },
  { path: '/support', label: 'Support' },
  { path: '/matchs', label: 'Matchs à venir' },
  { path: '/journal', label: 'Journal d’audit' },
] as const;

const LIVE_LABEL: Record<LiveState, string> = {
  connecting: 'Connexion au direct…',
  live: 'En direct',
  retrying: 'Direct interrompu, reconnexion…',
  stopped: 'Direct indisponible',
};

/** What an admin is told of an event that came live (the screen showing it reloads by itself). */
function newsOf(event: AdminEvent): string | undefined {
  const data = event.data ?? {};
  const id = typeof data.id === 'number' ? ` n° ${data.id}` : '';
  switch (event.type) {
    case 'withdrawal.requested':
      return `Nouvelle demande de retrait${id}${typeof data.amount === 'number' ? ` (${xaf(data.amount)})` : ''}.`;
    case 'ticket.created':
      return `Nouvelle demande d’assistance${id}${typeof data.subject === 'string' ? ` : ${data.subject}` : ''}.`;
    case 'ticket.replied':
      return `Nouvelle réponse d’un utilisateur sur la demande${id}.`;
    case 'flag.raised':
      return `Nouveau signalement${id}${typeof data.kind === 'string' ? ` (${data.kind})` : ''}.`;
    case 'stream.reset':
      return 'Des événements anciens ont expiré : les écrans ont été rechargés.';
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
    case 'matchs':
      return <Fixtures />;
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
        setNotice('Session expirée : reconnectez-vous.');
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
          Aller au contenu
        </a>
        <header class="top">
          <p class="brand">Pronostics · Administration</p>
          <p class={`live ${liveState}`} data-live={liveState}>
            {LIVE_LABEL[liveState]}
          </p>
          <button type="button" onClick={logout}>
            Se déconnecter
          </button>
        </header>
        <nav class="menu" aria-label="Écrans">
          <ul>
            {SCREENS.map((screen) => (
              <li key={screen.path}>
                <a
                  href={`/admin${screen.path}`}
                  aria-current={active === screen.path ? 'page' : undefined}
                  onClick={(event) => follow(event, screen.path)}
                >
                  {screen.label}
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
          <div class="news-bar" role="status" aria-live="polite" aria-label="Nouveautés en direct">
            {news}
          </div>
        </div>
      </LiveContext.Provider>
    </NotifierContext.Provider>
  );
}
