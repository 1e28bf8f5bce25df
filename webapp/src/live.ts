// The user's events, live, for the screens that wait on one (an analysis, a payment): the typed
// client's follower (clients/typescript/events.ts) on `GET /api/user/events`, with the user's
// token and the screens' language. It starts after what the log already holds and takes up a
// dropped stream with Last-Event-ID after a growing wait; `onOpen` runs at every opening so the
// screen reads the state it waits on once more: events are only triggers, never screen data.
import { followEvents, type UserEvent } from '../../clients/typescript/events.js';
import { session } from './api.js';
import { currentLanguage } from './i18n/index.js';

export function followUserEvents(handlers: { onEvent(event: UserEvent): void; onOpen(): void }): () => void {
  const follower = followEvents({
    baseUrl: location.origin,
    token: session.token,
    headers: () => ({ 'accept-language': currentLanguage() }),
    lastEventId: 'now',
    onOpen: handlers.onOpen,
    onEvent: handlers.onEvent,
  });
  // A 401 or 403 ends it; the screen keeps what it shows, and its next call meets the same refusal.
  follower.done.catch(() => undefined);
  return () => follower.close();
}
