// The app's screens as typed routes over its paths under /app/ (clients/web/router.ts): a reload or
// a shared link lands on the same screen; a move scrolls back to the top, as a new page would.
import { pathRouter } from '../../clients/web/router.js';

export type Route =
  | { name: 'home' }
  | { name: 'new' }
  | { name: 'analysis'; id: number }
  | { name: 'history' }
  | { name: 'wallet' }
  | { name: 'referrals' }
  | { name: 'profile' }
  | { name: 'support' }
  | { name: 'play' }
  | { name: 'slips'; from?: number };

const SIMPLE = ['new', 'history', 'wallet', 'referrals', 'profile', 'support', 'play'] as const;

const router = pathRouter('/app', () => window.scrollTo(0, 0));

/** The route of a path under /app ("/analyses/12"); any other path is home. */
export function routeOf(path: string): Route {
  const rest = path.replace(/^\/+/, '').replace(/\/+$/, '');
  const analysis = /^analyses\/(\d{1,10})$/.exec(rest);
  if (analysis) return { name: 'analysis', id: Number(analysis[1]) };
  const slip = /^slips(?:\/from\/(\d{1,10}))?$/.exec(rest);
  if (slip) return slip[1] ? { name: 'slips', from: Number(slip[1]) } : { name: 'slips' };
  const simple = SIMPLE.find((name) => name === rest);
  return simple ? { name: simple } : { name: 'home' };
}

/** The path under /app of a route. */
export function pathOf(route: Route): string {
  switch (route.name) {
    case 'home':
      return '/';
    case 'analysis':
      return `/analyses/${route.id}`;
    case 'slips':
      return route.from === undefined ? '/slips' : `/slips/from/${route.from}`;
    default:
      return `/${route.name}`;
  }
}

export function navigate(route: Route): void {
  router.navigate(pathOf(route));
}

export function useRoute(): Route {
  return routeOf(router.usePath());
}

/** A link to a screen: a real href (new tab, long press) that changes screens without a reload. */
export function linkTo(route: Route) {
  const path = pathOf(route);
  return { href: router.href(path), onClick: (event: MouseEvent) => router.follow(event, path) };
}
