// Live updates: the back office's event stream (`GET /api/admin/events`) read by the typed client's
// follower (clients/typescript/events.ts: fetch with the bearer token, which EventSource cannot
// send). It starts after the log's last seq, so nothing old is replayed; a dropped stream comes back
// after a growing wait (a 429's Retry-After when given) with Last-Event-ID and gets what it missed;
// a 401 ends the session, a 403 stops trying. Here only what the screens see: the connection's
// state, and the events each screen subscribes to, after which it reloads its data (the API stays
// the only source of what is on screen).
import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import { followAdminEvents, type AdminEvent as LoggedEvent } from '../../clients/typescript/events.js';
import { ApiError, session } from './api.js';
import { locale } from './i18n.js';

/** An event of the log, or the stream's word that what it missed is gone (reload everything). */
export type AdminEvent = LoggedEvent | { type: 'stream.reset'; id?: undefined; data?: undefined };

export type LiveState = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface LiveOptions {
  onEvent(event: AdminEvent): void;
  onState(state: LiveState): void;
  onSignedOut(): void;
}

/** Opens the admin event stream and keeps it open until the returned function is called. */
export function connectLive(options: LiveOptions): () => void {
  options.onState('connecting');
  const follower = followAdminEvents({
    baseUrl: location.origin,
    token: session.token,
    headers: { 'accept-language': locale },
    lastEventId: 'now',
    onOpen: () => options.onState('live'),
    onDisconnect: () => options.onState('retrying'),
    onEvent: options.onEvent,
    onReset: () => options.onEvent({ type: 'stream.reset' }),
  });
  follower.done.then(
    () => undefined,
    (error: unknown) => {
      options.onState('stopped');
      if (error instanceof ApiError && error.status === 401) options.onSignedOut();
    },
  );
  return () => follower.close();
}

export interface Live {
  state: LiveState;
  subscribe(listener: (event: AdminEvent) => void): () => void;
}

export const LiveContext = createContext<Live>({ state: 'stopped', subscribe: () => () => {} });

/**
 * Calls `handler` for each event of `types` (or a `stream.reset`, after which anything may have
 * changed) while the screen is shown.
 */
export function useLive(types: readonly string[], handler: (event: AdminEvent) => void): void {
  const live = useContext(LiveContext);
  const current = useRef(handler);
  current.current = handler;
  const key = types.join(',');
  useEffect(
    () =>
      live.subscribe((event) => {
        if (event.type === 'stream.reset' || types.includes(event.type)) current.current(event);
      }),
    [live, key],
  );
}
