// Notifications with the app closed (Web Push): asked only after a first analysis is ready, and
// only when the person says yes on our banner (the browser's own prompt follows a tap). The
// subscription is made with the service's VAPID key and registered as a `webpush` device.
import { api, dataOf } from './api.js';

const ASKED_KEY = 'pronostics.push-asked';

/** Whether to offer notifications now: supported, not decided in the browser, not declined here. */
export function pushWorthAsking(): boolean {
  return (
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    Notification.permission === 'default' &&
    localStorage.getItem(ASKED_KEY) === null
  );
}

export function declinePush(): void {
  localStorage.setItem(ASKED_KEY, 'later');
}

/** Asks the browser, subscribes, registers the device; false when the person or the browser said no. */
export async function enablePush(): Promise<boolean> {
  localStorage.setItem(ASKED_KEY, 'asked');
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const { public_key } = await dataOf(api.GET('/api/push/webpush-key'));
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: public_key,
  });
  await dataOf(
    api.POST('/api/user/devices', {
      body: { platform: 'webpush', token: JSON.stringify(subscription.toJSON()) },
    }),
  );
  return true;
}
