// The dashboard: the user's full user (with both balances), their pronostics counted by status,
// their 5 newest pronostics and 5 newest operations. It owns no table; it composes the users,
// pronostics and wallet services, in a fixed number of queries whatever the history (four: the
// user row, the grouped counts, the newest pronostics, the newest operations), run together.
import { NotFound } from '../../lib/errors.js';
import type { WalletService } from '../../money/index.js';
import type { PronosticService } from '../pronostics/service.js';
import type { UserService } from '../users/service.js';
import { fullUserView } from '../users/views.js';

export interface DashboardServiceDeps {
  users: Pick<UserService, 'findById'>;
  pronostics: Pick<PronosticService, 'summaryOwn'>;
  wallet: Pick<WalletService, 'latestOwn'>;
}

export function createDashboardService({ users, pronostics, wallet }: DashboardServiceDeps) {
  return {
    async of(user: { id: number }) {
      const [account, summary, operations] = await Promise.all([
        users.findById(user.id),
        pronostics.summaryOwn(user),
        wallet.latestOwn(user),
      ]);
      // The token was valid a moment ago; an account gone since is simply not found.
      if (!account) throw new NotFound();
      return {
        user: fullUserView(account),
        data: {
          pronostics: summary.counts,
          latest_pronostics: summary.latest,
          latest_operations: operations,
        },
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
