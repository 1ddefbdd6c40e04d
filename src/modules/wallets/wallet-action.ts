import type { Hex } from 'viem';
import { TxPending } from '../../infra/chain/chain.ts';
import type { WalletVault } from '../../infra/chain/wallet-vault.ts';
import type { Db } from '../../infra/db/client.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { AppError } from '../../lib/errors.ts';
import { AccountLease } from '../transactions/account-lease.ts';
import type { TransactionJournal } from '../transactions/journal.ts';
import type { TxContext } from '../transactions/transactions.types.ts';
import { type ActionAnswer, answerOf, type RequestRef } from './wallet-answers.ts';
import { sealedKeyOf, type WalletOwner } from './wallet-keys.ts';
import type { JournalFor } from './wallet-kinds.ts';

/**
 * What an action may move: a project's tokens (its holder's and `to`'s, unless `moves` is false:
 * an allowance moves none), ETH always (gas, a buy, a sale, an ETH withdraw).
 */
export interface Moved {
  projectId: string | null;
  to: string | null;
  moves?: boolean;
}

export const unavailable = () =>
  new AppError('wallets_unavailable', 'In-app wallets are unavailable: no wallet master key is configured.');

/** How every wallet action runs (buy, sell, allowance, withdraw): see `run`. */
export class WalletActionRunner {
  private readonly lease: AccountLease;

  constructor(
    private readonly deps: {
      db: Db;
      vault: WalletVault | null;
      journal: TransactionJournal;
      events: Pick<DomainEvents, 'publish'>;
    },
  ) {
    this.lease = new AccountLease({ db: deps.db, waitMs: deps.journal.waitMs });
  }

  /**
   * Runs one wallet action as one request of the transaction engine: a retry with the request's
   * Idempotency-Key answers with the first request's transaction (whatever happened to its answer);
   * otherwise the owner's key is unsealed and the action runs holding the wallet's lease in the
   * database (one action per wallet at a time on every instance). A transaction that may still mine
   * when the wait ends is a 202 with the transaction.
   */
  async run<T>(
    owner: WalletOwner,
    ref: RequestRef,
    moved: Moved,
    fn: (key: Hex, address: string, journalFor: JournalFor) => Promise<T>,
  ): Promise<ActionAnswer<T>> {
    const { journal } = this.deps;
    const sealed = await sealedKeyOf(this.deps.db, owner);
    const vault = this.deps.vault;
    if (!vault) throw unavailable();
    const earlier = ref.requestKey ? await journal.byRequest(owner.id, ref.requestKey) : undefined;
    if (earlier) return answerOf<T>(earlier);
    const journalFor: JournalFor = (kind, projectId) => {
      const ctx: TxContext = {
        kind,
        agentId: owner.id,
        projectId,
        holder: sealed.address,
        requestKey: ref.requestKey,
      };
      return journal.for(ctx);
    };
    try {
      // Unsealed only when its turn comes, so a waiting action holds no plaintext key.
      return await this.lease.run(sealed.address, async (): Promise<ActionAnswer<T>> => {
        // A retry that waited for the lease finds what the first request did.
        const first = ref.requestKey ? await journal.byRequest(owner.id, ref.requestKey) : undefined;
        if (first) return answerOf<T>(first);
        return { status: 200, body: await fn(vault.unseal(sealed), sealed.address, journalFor) };
      });
    } catch (err) {
      if (!(err instanceof TxPending)) throw err;
      const intent = await journal.find(err.intentId);
      if (!intent) throw err;
      return answerOf<T>(intent) as ActionAnswer<T>;
    } finally {
      // Gas paid, ETH or tokens perhaps moved, even by an action that failed: told either way.
      const { projectId, to, moves = true } = moved;
      const holders = moves && projectId ? [sealed.address, ...(to ? [to] : [])] : [];
      await this.deps.events.publish({ type: 'wallet.acted', wallet: sealed.address, projectId, holders });
    }
  }
}
