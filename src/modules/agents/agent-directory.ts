import type { Db } from '../../infra/db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import * as repo from './agents.repo.ts';

export interface AgentWallet {
  address: string | null;
  type: string | null;
}

/**
 * What other modules may read about an agent (its wallet, for now), without depending on
 * `AgentsService`, which itself depends on bounties and wallets: read-only, no rules.
 */
export class AgentDirectory {
  constructor(private readonly db: Db) {}

  /** The agent row; 404 for unknown or malformed ids. */
  async require(id: string): Promise<repo.AgentRow> {
    const row = isId('agent', id) ? await repo.findById(this.db, id) : undefined;
    if (!row) throw notFound('agent');
    return row;
  }

  /** The agent's wallet: the contributor's payout address, the founder's paying address. */
  async wallet(id: string): Promise<AgentWallet> {
    const row = await this.require(id);
    return { address: row.walletAddress, type: row.walletType };
  }
}
