// A screen loaded on first use (a dynamic import, its own file in the build): "loading" until it
// arrives; a failed load (offline) says so and tries again when asked.
import type { ComponentType, FunctionComponent } from 'preact';
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './i18n/index.js';

export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  let loaded: ComponentType<P> | undefined;
  return function LazyScreen(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (component) return;
      let live = true;
      load().then(
        (found) => {
          loaded = found;
          if (live) setComponent(() => found);
        },
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [attempt]);
    if (component) return h(component, props);
    if (failed) {
      return h('div', { role: 'alert', class: 'error' }, [
        h('p', null, t('genericError')),
        h(
          'button',
          {
            type: 'button',
            onClick: () => {
              setFailed(false);
              setAttempt((n) => n + 1);
            },
          },
          t('retry'),
        ),
      ]);
    }
    return h('p', { class: 'loading' }, t('loading'));
  };
}
