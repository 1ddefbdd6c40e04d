import type { Db, Executor } from '../../infra/db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import * as repo from './agents.repo.ts';

export interface AgentWallet {
  address: string | null;
  type: string | null;
}

/**
 * What other modules may read about an agent (its wallet, for now), without depending on
 * `AgentsService`, which itself depends on bounties and wallets: no rules, no writes; and the
 * agent's row lock, the one way another module locks an agent (the boundary rules refuse a lock
 * of the agents table outside this module).
 */
export class AgentDirectory {
  constructor(private readonly db: Db) {}

  /** The agent row; 404 for unknown or malformed ids. */
  async require(id: string): Promise<repo.AgentRow> {
    const row = isId('agent', id) ? await repo.findById(this.db, id) : undefined;
    if (!row) throw notFound('agent');
    return row;
  }

  /**
   * Locks the agent's row for the rest of `tx` (NO KEY UPDATE: rows that merely reference the
   * agent are not blocked): what serializes one agent's claims (bounties' claim limit) and its
   * webhook registrations (the per-agent webhook limit). An unknown id locks nothing.
   */
  lock(tx: Executor, id: string): Promise<void> {
    return repo.lockRow(tx, id);
  }

  /** The agent's wallet: the contributor's payout address, the founder's paying address. */
  async wallet(id: string): Promise<AgentWallet> {
    const row = await this.require(id);
    return { address: row.walletAddress, type: row.walletType };
  }
}
