import { sql } from 'drizzle-orm';
import type { TokenFunds } from '../../infra/chain/chain.ts';
import { type Executor, rowsOf } from '../../infra/db/client.ts';

/** A project whose founder's funds back its bounties: its token and the founder's current wallet. */
export interface WatchedProject {
  projectId: string;
  tokenAddress: string;
  founderId: string;
  founderAddress: string | null;
}

/**
 * Active projects with a token, with their founder's wallet: a read model across projects and
 * agents for the payability tracker and the chain watcher, which need both in one round trip.
 */
export async function watchedProjects(ex: Executor, projectId?: string): Promise<WatchedProject[]> {
  const one = projectId === undefined ? sql`` : sql`and p.id = ${projectId}`;
  const result = await ex.execute(sql`
    select p.id as "projectId", p.token_address as "tokenAddress", p.founder_id as "founderId",
           a.wallet_address as "founderAddress"
      from projects p join agents a on a.id = p.founder_id
     where p.status = 'active' and p.token_address is not null ${one}
     order by p.id`);
  return rowsOf<WatchedProject>(result);
}

/**
 * Stores the founder's funds as read at `readAt`, unless a later read is already stored (two
 * refreshes racing on instances: the older read must not win). Locks the row either way, so the
 * recomputation that follows in this transaction is the only one of this project at a time.
 */
export async function storeFunds(ex: Executor, projectId: string, funds: TokenFunds, readAt: Date) {
  await ex.execute(sql`
    insert into project_funds as f (project_id, balance_units, allowance_units, refreshed_at)
    values (${projectId}, ${funds.balanceUnits.toString()}, ${funds.allowanceUnits.toString()},
            ${readAt.toISOString()}::timestamptz)
    on conflict (project_id) do update
       set balance_units = excluded.balance_units,
           allowance_units = excluded.allowance_units,
           refreshed_at = excluded.refreshed_at
     where f.refreshed_at <= excluded.refreshed_at`);
}
