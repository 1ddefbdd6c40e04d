import type { FastifyBaseLogger } from 'fastify';
import type { TxJournal, WalletActions } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './wallet-journal.repo.ts';

export type WalletTxKind =
  | 'buy'
  | 'sell'
  | 'allowance'
  | 'withdraw_token'
  | 'withdraw_eth'
  | 'sponsored_sell'
  | 'sponsored_withdraw';

export interface WalletTxContext {
  kind: WalletTxKind;
  agentId: string;
  projectId: string | null;
}

/** Recorded transactions the reconciler leaves alone for this long after their last change. */
const RESUME_AFTER_MS = 30_000;

/**
 * The database side of wallet transactions (in-app wallets and the sponsor): nonces taken under a
 * row lock that every instance shares, each transaction recorded with its signed bytes before it
 * is sent, and `resume` for what a crash left between the record and the receipt.
 */
export class WalletJournal {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      chain: { wallets: Pick<WalletActions, 'nonceOf' | 'broadcast' | 'receipt'> };
      log?: FastifyBaseLogger;
    },
  ) {}

  /** A journal for one action: who it is for and what it does. */
  for(ctx: WalletTxContext): TxJournal {
    const { db, clock } = this.deps;
    return {
      record: async (signerAddress, chainNonce, sign) => {
        const signer = signerAddress.toLowerCase();
        return db.transaction(async (tx) => {
          const next = await repo.lockNext(tx, signer);
          // Read under the lock: a count read before it may miss what the holder just sent.
          const pending = await chainNonce();
          const nonce = await this.pick(tx, signer, next, pending);
          const signed = await sign(nonce);
          const at = clock.now();
          await repo.insertTx(tx, {
            hash: signed.hash,
            signer,
            nonce,
            raw: signed.raw,
            kind: ctx.kind,
            agentId: ctx.agentId,
            projectId: ctx.projectId,
            createdAt: at,
            updatedAt: at,
          });
          await repo.setNext(tx, signer, nonce + 1);
          return signed;
        });
      },
      sent: async (hash) => {
        await repo.setStatus(db, hash, 'sent', clock.now());
      },
      refused: async (hash) => {
        await db.transaction(async (tx) => {
          const row = await repo.setStatus(tx, hash, 'failed', clock.now());
          if (row) await repo.giveBack(tx, row.signer, row.nonce);
        });
      },
      mined: async (hash, r) => {
        await repo.setStatus(db, hash, r.status === 'success' ? 'mined' : 'reverted', clock.now(), {
          gasPaidUnits: r.gasPaidUnits,
          ...(r.gasRefundUnits === undefined ? {} : { gasRefundUnits: r.gasRefundUnits }),
        });
      },
    };
  }

  /**
   * The nonce to sign at: the stored counter, unless the chain counts further (a transaction sent
   * elsewhere), or a nonce below the counter holds no recorded transaction that may still mine (a
   * node that forgot one): that gap is filled first, so later transactions are never stuck.
   */
  private async pick(tx: Parameters<typeof repo.lockNext>[0], signer: string, next: number, pending: number) {
    if (next <= pending) return pending;
    const held = new Set(await repo.heldNonces(tx, signer, pending, next));
    for (let n = pending; n < next; n++) if (!held.has(n)) return n;
    return next;
  }

  /** Sponsored token withdraws of the agent in the last 24 hours. */
  sponsoredWithdrawsToday(agentId: string): Promise<number> {
    const since = new Date(this.deps.clock.now().getTime() - 24 * 3600_000);
    return repo.sponsoredWithdrawsSince(this.deps.db, agentId, since);
  }

  /**
   * After a crash or a lost answer: a recorded transaction without a receipt is sent again from
   * its stored bytes (never signed again), or marked dropped once its nonce was used by another.
   */
  async resume(limit = 50): Promise<number> {
    const { db, clock, chain } = this.deps;
    const rows = await repo.stale(db, new Date(clock.now().getTime() - RESUME_AFTER_MS), limit);
    for (const row of rows) {
      const receipt = await chain.wallets.receipt(row.hash);
      if (receipt) {
        await repo.setStatus(db, row.hash, receipt.status === 'success' ? 'mined' : 'reverted', clock.now(), {
          gasPaidUnits: receipt.gasPaidUnits,
        });
        continue;
      }
      if ((await chain.wallets.nonceOf(row.signer, 'latest')) > row.nonce) {
        await repo.setStatus(db, row.hash, 'dropped', clock.now());
        continue;
      }
      const result = await chain.wallets.broadcast(row.raw);
      await repo.setStatus(db, row.hash, result === 'nonce_used' ? 'dropped' : 'sent', clock.now());
      this.deps.log?.info({ hash: row.hash, result }, 'wallet transaction sent again');
    }
    return rows.length;
  }
}
