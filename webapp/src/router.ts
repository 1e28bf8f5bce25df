// The app's screens are paths under /app/ (a reload or a shared link lands on the same screen):
// `navigate` changes the path without a reload and tells the shell.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { name: 'home' }
  | { name: 'new' }
  | { name: 'analysis'; id: number }
  | { name: 'history' }
  | { name: 'wallet' }
  | { name: 'referrals' }
  | { name: 'profile' }
  | { name: 'support' };

const SIMPLE = ['new', 'history', 'wallet', 'referrals', 'profile', 'support'] as const;

export function routeOf(path: string): Route {
  const rest = path.replace(/^\/app\/?/, '').replace(/\/+$/, '');
  const analysis = /^analyses\/(\d{1,10})$/.exec(rest);
  if (analysis) return { name: 'analysis', id: Number(analysis[1]) };
  const simple = SIMPLE.find((name) => name === rest);
  return simple ? { name: simple } : { name: 'home' };
}

export function pathOf(route: Route): string {
  switch (route.name) {
    case 'home':
      return '/app/';
    case 'analysis':
      return `/app/analyses/${route.id}`;
    default:
      return `/app/${route.name}`;
  }
}

const listeners = new Set<() => void>();

export function navigate(route: Route): void {
  history.pushState(null, '', pathOf(route));
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** A link to a screen: a real href (new tab, long press) that changes screens without a reload. */
export function linkTo(route: Route) {
  return {
    href: pathOf(route),
    onClick: (event: MouseEvent) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      navigate(route);
    },
  };
}
