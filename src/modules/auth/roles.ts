// Roles: `user` by default, `admin` for the back office. Changed from the CLI only.
import type { Executor } from '../../db/client.js';
import type { UserRole } from '../../db/schema/index.js';
import { setUserRole } from '../users/repository.js';
import { accountOfPhone } from '../users/service.js';

/** Sets the role of the phone's account; a plain Error (the CLI prints it) when there is none. */
export async function changeRole(
  db: Executor,
  rawPhone: string,
  role: UserRole,
): Promise<{ id: number; phone: string }> {
  const user = await accountOfPhone(db, rawPhone);
  await setUserRole(db, user.id, role);
  return { id: user.id, phone: user.phone };
}
