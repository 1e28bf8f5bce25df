// Roles: `user` by default, `admin` for the back office. Changed from the CLI only.
import type { Executor } from '../../db/client.js';
import type { UserRole } from '../../db/schema/index.js';
import { findUserByPhone, setUserRole } from '../users/repository.js';
import { normalizePhone } from './phone.js';

/** Sets the role of the phone's account; a plain Error (the CLI prints it) when there is none. */
export async function changeRole(
  db: Executor,
  rawPhone: string,
  role: UserRole,
): Promise<{ id: number; phone: string }> {
  const phone = normalizePhone(rawPhone);
  if (!phone) throw new Error(`"${rawPhone}" is not a valid international phone number (e.g. +237690000000)`);
  const user = await findUserByPhone(db, phone);
  if (!user) throw new Error(`no account has the phone ${phone}`);
  await setUserRole(db, user.id, role);
  return { id: user.id, phone };
}
