import type { FastifyBaseLogger } from 'fastify';
import type { Chain, PayoutSigner, TxReceipt, WalletActions } from '../../infra/chain/chain.ts';
import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { TransactionJournal } from '../transactions/journal.ts';
import type { RewardSplit } from './fee-split.ts';

export type { RewardSplit };

export interface PayoutsDeps {
  db: Db;
  clock: Clock;
  chain: Chain;
  funds: FundsService;
  log: FastifyBaseLogger;
  platformFeeBps: number;
  payoutsEnabled: boolean;
  pollIntervalMs: number;
  /** The transaction engine's journal: a payout's transactions are its intents. */
  journal: Pick<TransactionJournal, 'recordIn' | 'sent' | 'settle' | 'settleMinedIn' | 'ofPayouts'>;
  /** The transaction engine, following these intents at once (wired in compose.ts). */
  follow: (intentIds: string[]) => Promise<number>;
  /** PAYOUT_REVERT_CONFIRMATIONS; 0 (act on a revert at once) when omitted. */
  revertConfirmations?: number;
  /** PAYOUT_MAX_FEE_PER_GAS_GWEI; 500 when omitted. */
  maxFeePerGasGwei?: number;
  /** PAYOUT_CONFIRMATIONS; 0 (final once mined) when omitted. */
  confirmations?: number;
  /** The reviews module's row lock on a submission (its status, locked): a port, wired in compose.ts. */
  lockSubmission: SubmissionLock;
}

/**
 * The status of the payout's submission, its row locked for the rest of the transaction: a reject
 * updates that row, so a payout is signed either before the reject starts or never.
 */
export type SubmissionLock = (tx: Executor, submissionId: string) => Promise<string | undefined>;

export type RepaidKind = 'payout' | 'contributor' | 'fee';

/** Told when a confirmed payout was paid by another transaction than the one recorded. */
export type RepaidListener = (p: {
  submissionId: string;
  /** Which hash it replaces: `payout` (one router transaction) is both. */
  kind: RepaidKind;
  txHash: string;
}) => Promise<void>;

export interface PayoutIntent {
  submissionId: string;
  bountyId: string;
  tokenAddress: string;
  founderAddress: string;
  contributorAddress: string;
  split: RewardSplit;
  reviewNotes: string | null;
}

export const LEG_KINDS = ['payout', 'contributor', 'fee'] as const;
export type LegKind = (typeof LEG_KINDS)[number];

export type DriveResult =
  | {
      status: 'confirmed';
      contributorTxHash: string;
      platformFeeTxHash: string;
      /** The receipt a first approval saw itself, for its finishing transaction to record. */
      mined?: { hash: string; receipt: TxReceipt };
    }
  | { status: 'failed'; error: string }
  | { status: 'pending' };

export interface DriverDeps {
  db: Db;
  clock: Clock;
  /** The payout key: its address, the calls it makes, the latest block. */
  signer: PayoutSigner;
  /** The chain as the transaction engine speaks to it: the payout key's nonces, signing, receipts. */
  chain: Pick<WalletActions, 'nonceOf' | 'signTx' | 'broadcast' | 'receipt' | 'quoteFees'>;
  /** The transaction engine's journal: a payout's transactions are its intents (kind `payout`). */
  journal: Pick<TransactionJournal, 'recordIn' | 'sent' | 'settle' | 'settleMinedIn' | 'ofPayouts'>;
  /** The transaction engine, following these intents at once (sent again, replaced, settled). */
  follow: (intentIds: string[]) => Promise<number>;
  log: FastifyBaseLogger;
  /** The funds rule, which the reservation asks with what the wallet has in flight. */
  funds: Pick<FundsService, 'assertCovers'>;
  pollIntervalMs: number;
  /** Blocks on top of a reverted receipt before the revert counts (PAYOUT_REVERT_CONFIRMATIONS). */
  revertConfirmations: number;
  /** PAYOUT_CONFIRMATIONS: how deep a mined payout is watched (a reorg may drop it until then). */
  confirmations: number;
  /** The highest fee cap ever signed, in wei (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
  maxFeePerGas: bigint;
  /** PAYOUTS_ENABLED: while false no new transaction is signed; signed ones are still sent and settled. */
  signNewLegs: boolean;
  lockSubmission: SubmissionLock;
}

/**
 * The caller's hold on the bounty while a first payout is signed (the approval lease, a fencing
 * token). `renew` runs in the signing transaction, after the submission's row lock (the order a
 * reject takes them in too), and answers false once another process holds the lease. The lease
 * lives on the bounty, which the bounties module owns: the caller brings the renewal.
 */
export interface SigningLease {
  /** Extends the lease for the caller's full term (by the database's clock) while it holds it. */
  renew: (tx: Executor) => Promise<boolean>;
}
