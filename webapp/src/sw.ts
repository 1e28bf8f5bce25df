// The web app's service worker (scope /app/). It keeps the app shell (index.html and the build's
// hashed assets, listed into this file at build) so the app starts offline, and nothing else: an
// API answer is never cached (DESIGN, "Web app"), it always goes to the network. A new build is a
// new worker: it installs beside the running one and waits until the page asks it to take over
// (the "reload" prompt), so a page never runs half old, half new.
/// <reference lib="webworker" />
const worker = self as unknown as ServiceWorkerGlobalScope;

// `self.__SHELL__` is replaced at build by the shell's file list (webapp/vite.config.ts).
const SHELL: string[] = (self as unknown as { __SHELL__: string[] }).__SHELL__;
const CACHE = `pronostics-shell-${SHELL.join('|').length}-${hash(SHELL.join('|'))}`;

function hash(text: string): string {
  let value = 0;
  for (let i = 0; i < text.length; i++) value = (Math.imul(31, value) + text.charCodeAt(i)) | 0;
  return (value >>> 0).toString(36);
}

worker.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('message', (event) => {
  if (event.data === 'take-over') void worker.skipWaiting();
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin || !url.pathname.startsWith('/app/'))
    return;
  if (url.pathname === '/app/sw.js') return;
  if (request.mode === 'navigate') {
    // A screen: the network's index.html when it answers (a deploy is seen at once), the cached
    // shell when it does not.
    event.respondWith(fetch(request).catch(async () => (await caches.match('/app/')) ?? Response.error()));
    return;
  }
  event.respondWith(caches.match(request).then((cached) => cached ?? fetch(request)));
});

worker.addEventListener('push', (event) => {
  const message = (event.data?.json() ?? {}) as {
    title?: string;
    body?: string;
    data?: Record<string, string>;
  };
  event.waitUntil(
    worker.registration.showNotification(message.title ?? 'Pronostics', {
      body: message.body ?? '',
      icon: '/app/icons/icon-192.png',
      data: message.data ?? {},
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as Record<string, string>;
  const target = data.type?.startsWith('pronostic.') && data.id ? `/app/analyses/${data.id}` : '/app/';
  event.waitUntil(worker.clients.openWindow(target));
});
