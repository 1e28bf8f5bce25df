// Adds a hook to one route as it is registered (from an `onRoute` hook): the plugins whose work
// depends on the route (its recorder, its schema, its idempotency scope) decide once, at
// registration, instead of reading `request.routeOptions` on every request (Fastify builds that
// object anew on each read) or running on routes that have nothing to do.
import type { RouteOptions } from 'fastify';

type HookName = 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

export function addRouteHook<K extends HookName>(
  route: RouteOptions,
  name: K,
  hook: NonNullable<RouteOptions[K]> extends (infer H)[] | infer H ? H : never,
  position: 'first' | 'last' = 'last',
): void {
  const own = route[name] as unknown;
  const hooks = own === undefined ? [] : Array.isArray(own) ? own : [own];
  (route as unknown as Record<string, unknown>)[name] =
    position === 'first' ? [hook, ...hooks] : [...hooks, hook];
}
