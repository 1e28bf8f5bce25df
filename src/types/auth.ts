// The signed-in user a request carries: set by the auth plugin (plugins/app/auth.ts) from the token
// the auth module checks (modules/auth/tokens.ts), and taken by the services. A type both layers
// name lives here, below both, since a plugin imports no module (docs/architecture.md, "Types
// shared across layers").
import type { UserRole } from '../lib/allowed-values.js';

export interface AuthUser {
  id: number;
  phone: string;
  country: string;
  role: UserRole;
  tokenId: number;
  /** When the token was issued (ms): its absolute lifetime counts from it (an open stream ends there). */
  tokenIssuedAtMs: number;
}
