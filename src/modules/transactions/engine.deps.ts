import type { FastifyBaseLogger } from 'fastify';
import type { WalletActions } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TransactionJournal } from './journal.ts';
import type { KindPolicies } from './transactions.types.ts';

/** The node calls the transaction engine makes. */
export type EngineWallets = Pick<
  WalletActions,
  | 'nonceOf'
  | 'broadcast'
  | 'receipt'
  | 'known'
  | 'headBlock'
  | 'blockHash'
  | 'quoteFees'
  | 'dryRun'
  | 'signTx'
>;

/** What the transaction engine (engine.ts, engine-signing.ts) works with. */
export interface EngineDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  journal: TransactionJournal;
  chain: { wallets: EngineWallets };
  /** The kinds the engine follows, and what differs between them. */
  kinds: () => KindPolicies;
  /** The key that signs for `signer`: a wallet's private key, null for the sponsor, undefined: none. */
  keyOf: (signer: string) => Promise<string | null | undefined>;
  /** PAYOUT_CONFIRMATIONS: how deep a mined transaction is watched, and how deep a foreign one must be. */
  confirmations: number;
  /** PAYOUT_STUCK_AFTER_SECONDS: a sent transaction not mined after this is replaced with higher fees. */
  stuckAfterMs: number;
  /** PAYOUT_MAX_FEE_PER_GAS_GWEI, in wei: no replacement is signed above it. */
  maxFeePerGas: bigint;
}
