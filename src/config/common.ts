// What the configuration's pieces share: the conditions a default follows (the running environment)
// and the one way a rule says a chosen driver lacks a setting it needs.
import { ConfigError, type ReadEarlier } from '../lib/env-settings.js';

export const inTests = (earlier: ReadEarlier) => earlier('APP_ENV') === 'test';
export const inProduction = (earlier: ReadEarlier) => earlier('APP_ENV') === 'production';

/** Settings a choice needs: the first one unset stops the start with `NAME is required when <when>`. */
export function requireSet(when: string, settings: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) throw new ConfigError(`${name} is required when ${when}`);
  }
}
