// Every table of the service; Drizzle generates the SQL migrations from this module.
export * from './account.js';
export * from './admin.js';
export * from './devices.js';
export * from './events.js';
export * from './fixtures.js';
export * from './football.js';
export * from './idempotency.js';
export * from './money.js';
export * from './pronostics.js';
export * from './slips.js';
export * from './support.js';
export * from './users.js';
