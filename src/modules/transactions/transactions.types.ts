import type { FastifyBaseLogger } from 'fastify';
import type { Fees, TxReceipt, WalletActions } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppError } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { IntentRow } from './transactions.repo.ts';

export type { IntentRow, TxRow } from './transactions.repo.ts';

/** The kind of a transaction that moves nothing: the engine's cancel at a request's nonce, or a gap filler. */
export const CANCEL_KIND = 'nonce_filler';

/** Who a request is for and what it does: one intent of the transaction engine. */
export interface TxContext {
  /** A kind its client module declared (`KindPolicies`): buy, sell, sponsored_withdraw, ... */
  kind: string;
  /** The agent who asked (its wallet action); null for the payout key's transactions. */
  agentId: string | null;
  /** The payout it pays (the payouts module's row), for the payout key's transactions. */
  payoutId?: string | null;
  projectId: string | null;
  /** The account whose action it is (for a sponsored one, not the signer). */
  holder: string;
  /** The hash of the request's Idempotency-Key, when it had one. */
  requestKey: string | null;
}

/**
 * What the module that records requests of one kind tells the engine about them (the wallets
 * module declares its kinds in `wallet-kinds.ts`). The engine itself knows no kind: it records,
 * signs, sends and follows transactions, and asks the kind's policy where a kind differs.
 */
export interface KindPolicy {
  /**
   * At most `max` counted requests of this kind per agent within `windowMs`, checked under the
   * signer's nonce lock, so it holds across instances; past it, `refuse()` is thrown and nothing
   * is recorded.
   */
  quota?: { max: number; windowMs: number; refuse: () => AppError };
  /** The answer's fields from a successful receipt (besides `tx_hash`). */
  resultOf?: (r: TxReceipt) => Record<string, unknown>;
  /** What a mined transaction of this kind paid its signer back (a sponsored sale's gas refund). */
  refundOf?: (r: TxReceipt) => bigint;
  /**
   * The call data to sign at `fees` when the engine signs the request anew (a replacement, or at
   * a fresh nonce): a sponsored sale is authorized again by its holder with a gas cap that covers
   * them. Without it the request is signed as it was asked.
   */
  dataFor?: (intent: IntentRow, fees: Fees) => Promise<string>;
  /**
   * Blocks on top of a reverted receipt before the revert counts (a payout's
   * PAYOUT_REVERT_CONFIRMATIONS): until then a reorg may still mine the call, and the request
   * stays pending. 0 when omitted.
   */
  revertDepth?: number;
  /**
   * When another transaction took the request's nonce for good: 'resign' (the default: the engine
   * signs it again at a fresh nonce) or 'fail' (it fails having moved nothing, and its client signs
   * anew under its own rules: a payout checks the founder's funds again first).
   */
  nonceTaken?: 'resign' | 'fail';
  /**
   * When the node refuses the signer's bytes for want of ETH: 'fail' the request (the default: an
   * agent's wallet), or 'wait' for an operator to top the key up (the payout key). A request once
   * told it confirmed (a reorg took it back) waits whatever its kind says: it was promised.
   */
  unpayable?: 'fail' | 'wait';
  /**
   * After the settling transaction committed, once a request of this kind confirmed (a payout
   * whose earlier transaction a reorg took back is paid by this one).
   */
  afterConfirmed?: (intent: IntentRow) => Promise<void>;
}

export type KindPolicies = Readonly<Record<string, KindPolicy>>;

/** What a mined attempt paid its signer back: its kind's refund (`refundOf`); a cancel's none. */
export function refundFor(policy: KindPolicy | undefined, attemptKind: string, r: TxReceipt) {
  return attemptKind === CANCEL_KIND ? undefined : policy?.refundOf?.(r);
}

export interface JournalDeps {
  db: Db;
  clock: Clock;
  chain: { wallets: Pick<WalletActions, 'nonceOf'> };
  activity: Pick<ActivityService, 'record'>;
  /** The kinds the journal records, and what differs between them. */
  kinds: () => KindPolicies;
  /** PAYOUT_RECEIPT_TIMEOUT_SECONDS: the longest a request waits for its receipt before a 202. */
  waitMs: number;
  /** Told when a signer's recorded nonces run ahead of the chain's: the engine looks at once. */
  onGap?: (signer: string) => void;
  log?: FastifyBaseLogger;
}
