// Paths under /admin/ without a router library: history.pushState and popstate.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/admin';

export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

const listeners = new Set<() => void>();

export function navigate(path: string): void {
  history.pushState(null, '', BASE + path);
  for (const listener of listeners) listener();
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** A link inside the console: a real <a href> (open in a new tab works), followed without a reload. */
export function follow(event: MouseEvent, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(path);
}
