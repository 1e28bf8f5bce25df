// Paths under an app's base (/app, /admin) without a router library, for both web apps:
// history.pushState and popstate. A reload or a shared link lands on the same screen, since the
// service answers the app's index.html for every path under its base.
import { useEffect, useState } from 'preact/hooks';

export interface PathRouter {
  /** The link to `path` under the base: a real href (new tab, long press). */
  href(path: string): string;
  /** The path under the base now: "/" for the base itself. */
  current(): string;
  /** Shows `path` (under the base) without a reload, and tells every `usePath`. */
  navigate(path: string): void;
  /** The path under the base, re-rendering the component when it changes. */
  usePath(): string;
  /** A link's click: followed without a reload, unless it asks for a new tab, a window or a download. */
  follow(event: MouseEvent, path: string): void;
}

/** `onNavigate` runs after each move made in the page (the web app scrolls back to the top). */
export function pathRouter(base: string, onNavigate?: () => void): PathRouter {
  const listeners = new Set<() => void>();
  const current = () => {
    const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : '/';
    return path === '' ? '/' : path;
  };
  const navigate = (path: string) => {
    history.pushState(null, '', base + path);
    for (const listener of listeners) listener();
    onNavigate?.();
  };
  return {
    href: (path) => base + path,
    current,
    navigate,
    usePath() {
      const [path, setPath] = useState(current);
      useEffect(() => {
        const update = () => setPath(current());
        listeners.add(update);
        window.addEventListener('popstate', update);
        return () => {
          listeners.delete(update);
          window.removeEventListener('popstate', update);
        };
      }, []);
      return path;
    },
    follow(event, path) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(path);
    },
  };
}
