// Starts the app and registers its service worker (scope /app/) on the first load. A new version's
// worker waits; the app shows "reload", and taking over reloads the page once the new one controls.
import { render } from 'preact';
import '../../clients/web/visually-hidden.css';
import './styles.css';
import { App } from './app.js';

let waiting: ServiceWorker | null = null;
let notify: (() => void) | undefined;

const update = {
  waiting: () => waiting !== null,
  onWaiting(then: () => void) {
    notify = then;
  },
  takeOver() {
    waiting?.postMessage('take-over');
  },
};

if ('serviceWorker' in navigator) {
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (hadController) location.reload();
  });
  void navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).then((registration) => {
    const watch = (worker: ServiceWorker | null) => {
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed' && navigator.serviceWorker.controller) {
          waiting = worker;
          notify?.();
        }
      });
    };
    if (registration.waiting && navigator.serviceWorker.controller) {
      waiting = registration.waiting;
      notify?.();
    }
    watch(registration.installing);
    registration.addEventListener('updatefound', () => watch(registration.installing));
  });
}

render(<App update={update} />, document.getElementById('app')!);
