// The console's frame: sign-in gate, navigation, the status region and the current screen.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, session } from './api.js';
import { follow, navigate, usePath } from './router.js';
import { Audit } from './screens/audit.js';
import { Dashboard } from './screens/dashboard.js';
import { Packs } from './screens/packs.js';
import { Support } from './screens/support.js';
import { Types } from './screens/types.js';
import { Users } from './screens/users.js';
import { Withdrawals } from './screens/withdrawals.js';
import { SignIn } from './signin.js';
import { type Notifier, NotifierContext } from './ui.js';

const SCREENS = [
  { path: '/', label: 'Tableau de bord' },
  { path: '/retraits', label: 'Retraits' },
  { path: '/utilisateurs', label: 'Utilisateurs' },
  { path: '/types', label: 'Types de pronostic' },
  { path: '/packs', label: 'Packs' },
  { path: '/support', label: 'Support' },
  { path: '/journal', label: 'Journal d’audit' },
] as const;

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
      <a class="skip" href="#main">
        Aller au contenu
      </a>
      <header class="top">
        <p class="brand">Pronostics · Administration</p>
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
      <div class={`status-bar ${status.tone}`} role="status" aria-live="polite" data-n={status.n}>
        {status.text}
      </div>
    </NotifierContext.Provider>
  );
}
