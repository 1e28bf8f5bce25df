// The web app's shell: the language (and its FR / EN switch), signed in or not, the offline screen
// that retries by itself, and the "reload" prompt when a new version's worker waits. The signed-out
// first screen makes no call to the service (so no 401 in the console).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { askedLanguage } from '../../clients/web/i18n.js';
import { api, session } from './api.js';
import { currentLanguage, type Language, setLanguage, t } from './i18n/index.js';
import { lazyScreen } from './lazy.js';
import { linkTo, type Route, useRoute } from './routes.js';
import { Home } from './screens/home.js';
import { SignIn } from './screens/signin.js';

// The first screens (sign-in, home) come with the app; the others load when first opened, so a
// phone on 3G downloads only what it shows.
const NewAnalysis = lazyScreen(() => import('./screens/new.js').then((m) => m.NewAnalysis));
const AnalysisScreen = lazyScreen(() => import('./screens/analysis.js').then((m) => m.AnalysisScreen));
const History = lazyScreen(() => import('./screens/history.js').then((m) => m.History));
const Wallet = lazyScreen(() => import('./screens/wallet.js').then((m) => m.Wallet));
const Referrals = lazyScreen(() => import('./screens/referrals.js').then((m) => m.Referrals));
const Profile = lazyScreen(() => import('./screens/profile.js').then((m) => m.Profile));
const Support = lazyScreen(() => import('./screens/support.js').then((m) => m.Support));
const ResponsiblePlay = lazyScreen(() => import('./screens/play.js').then((m) => m.ResponsiblePlay));
const Slips = lazyScreen(() => import('./screens/slips.js').then((m) => m.Slips));

interface ScreenProps {
  route: Route;
  onOffline: () => void;
  onLanguage: (language: Language) => void;
  onSignedOut: () => void;
}

function Screen({ route, onOffline, onLanguage, onSignedOut }: ScreenProps) {
  switch (route.name) {
    case 'wallet':
      return <Wallet />;
    case 'referrals':
      return <Referrals />;
    case 'profile':
      return (
        <>
          <Profile onLanguage={onLanguage} onDeleted={onSignedOut} />
          <p>
            <a {...linkTo({ name: 'play' })}>{t('playTitle')}</a>
          </p>
          <p>
            <a {...linkTo({ name: 'support' })}>{t('supportTitle')}</a>
          </p>
        </>
      );
    case 'support':
      return <Support />;
    case 'play':
      return <ResponsiblePlay />;
    case 'new':
      return <NewAnalysis />;
    case 'analysis':
      return <AnalysisScreen id={route.id} />;
    case 'history':
      return <History />;
    case 'slips':
      return <Slips from={route.from} />;
    default:
      return <Home onOffline={onOffline} />;
  }
}

export function App({
  update,
}: {
  update: { waiting: () => boolean; onWaiting: (then: () => void) => void; takeOver: () => void };
}) {
  const [language, setShown] = useState<Language>(() => {
    const first = askedLanguage();
    setLanguage(first);
    return first;
  });
  const [signedIn, setSignedIn] = useState(() => session.token() !== null);
  const [offline, setOffline] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [updateReady, setUpdateReady] = useState(update.waiting());

  useEffect(() => update.onWaiting(() => setUpdateReady(true)), [update]);
  useEffect(() => {
    if (!offline) return;
    // Try again every 5 s, and at once when the browser says the network is back.
    const retry = () => {
      setOffline(false);
      setAttempt((n) => n + 1);
    };
    const timer = setTimeout(retry, 5000);
    window.addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [offline]);

  const showLanguage = useCallback((next: Language) => {
    setLanguage(next);
    setShown(next);
  }, []);
  const switchLanguage = () => showLanguage(currentLanguage() === 'fr' ? 'en' : 'fr');
  const logout = async () => {
    await api.POST('/api/user/logout').catch(() => undefined);
    session.clear();
    setSignedIn(false);
  };
  const goneOffline = useCallback(() => setOffline(true), []);
  const route = useRoute();

  return (
    <div class="shell" data-language={language}>
      <header>
        <span class="brand">{t('appName')}</span>
        {/* Responsible play (issue 54): the 18+ mark and the service's page, on every screen. */}
        <span class="adults">
          <strong>{t('adultsOnly')}</strong>{' '}
          <a href="/responsible-play" target="_blank" rel="noopener">
            {t('playLink')}
          </a>
        </span>
        <nav>
          <button
            type="button"
            class="link"
            lang={language === 'fr' ? 'en' : 'fr'}
            title={t('languageSwitchLabel')}
            onClick={switchLanguage}
          >
            {t('languageSwitch')}
          </button>
          {signedIn && (
            <button type="button" class="link" onClick={() => void logout()}>
              {t('logout')}
            </button>
          )}
        </nav>
      </header>
      {updateReady && (
        <div class="banner" role="status">
          {t('updateReady')}{' '}
          <button type="button" onClick={update.takeOver}>
            {t('updateReload')}
          </button>
        </div>
      )}
      {offline ? (
        <main id="main" class="offline">
          <h1>{t('offlineTitle')}</h1>
          <p>{t('offlineBody')}</p>
          <button type="button" onClick={() => setOffline(false)}>
            {t('retry')}
          </button>
        </main>
      ) : signedIn ? (
        <>
          <nav class="tabs" aria-label={t('appName')}>
            {(
              [
                [{ name: 'home' }, 'navHome'],
                [{ name: 'new' }, 'navNew'],
                [{ name: 'history' }, 'navHistory'],
                [{ name: 'slips' }, 'navSlips'],
                [{ name: 'wallet' }, 'navWallet'],
                [{ name: 'referrals' }, 'navReferrals'],
                [{ name: 'profile' }, 'navProfile'],
              ] as const
            ).map(([target, label]) => (
              <a
                key={target.name}
                {...linkTo(target)}
                aria-current={route.name === target.name ? 'page' : undefined}
              >
                {t(label)}
              </a>
            ))}
          </nav>
          <main id="main" key={`${attempt}-${route.name}-${'id' in route ? route.id : ''}`}>
            <Screen
              route={route}
              onOffline={goneOffline}
              onLanguage={showLanguage}
              onSignedOut={() => setSignedIn(false)}
            />
          </main>
        </>
      ) : (
        <SignIn key={language} onSignedIn={() => setSignedIn(true)} />
      )}
    </div>
  );
}
