import type { FastifyBaseLogger } from 'fastify';
import type { Chain } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FundsService } from '../funds/funds.service.ts';

export interface PayoutsDeps {
  db: Db;
  clock: Clock;
  chain: Chain;
  funds: FundsService;
  log: FastifyBaseLogger;
  platformFeeBps: number;
  payoutsEnabled: boolean;
  pollIntervalMs: number;
  stuckAfterMs: number;
  /** PAYOUT_REVERT_CONFIRMATIONS; 0 (act on a revert at once) when omitted. */
  revertConfirmations?: number;
  /** PAYOUT_MAX_FEE_PER_GAS_GWEI; 500 when omitted. */
  maxFeePerGasGwei?: number;
  /** PAYOUT_CONFIRMATIONS; 0 (final once mined) when omitted. */
  confirmations?: number;
}

export type RepaidKind = 'payout' | 'contributor' | 'fee';

/** Told when a confirmed payout was paid by another transaction than the one recorded. */
export type RepaidListener = (p: {
  submissionId: string;
  /** Which hash it replaces: `payout` (one router transaction) is both. */
  kind: RepaidKind;
  txHash: string;
}) => Promise<void>;

export interface RewardSplit {
  rewardUnits: bigint;
  feeUnits: bigint;
  contributorUnits: bigint;
}

export interface PayoutIntent {
  submissionId: string;
  bountyId: string;
  tokenAddress: string;
  founderAddress: string;
  contributorAddress: string;
  split: RewardSplit;
  reviewNotes: string | null;
}
