/** What the payout audit compares and reports (see payouts-audit.ts). */

export interface AuditPayout {
  id: string;
  submissionId: string;
  bountyId: string;
  tokenAddress: string;
  fromAddress: string;
  contributorAddress: string;
  treasuryAddress: string;
  rewardUnits: bigint;
  contributorUnits: bigint;
  feeUnits: bigint;
  status: 'pending' | 'confirmed' | 'failed';
}

/**
 * One transaction of a payout. Kind `payout`: one call to the payout router that moves both
 * transfers (its to and amount are the contributor's); kinds `contributor` and `fee`: one
 * transferFrom each (payouts signed before the router). `dropped`: a transaction the service did
 * not sign took its nonce, so it moved nothing.
 */
export interface AuditLeg {
  id: string;
  payoutId: string;
  kind: 'payout' | 'contributor' | 'fee';
  signer: string;
  nonce: number;
  toAddress: string;
  amountUnits: bigint;
  status: 'signed' | 'sent' | 'success' | 'reverted' | 'dropped';
  txHash: string | null;
  /** Hashes of every signed attempt of the leg (replacements share its nonce). */
  attempts: string[];
}

export interface AuditSubmission {
  id: string;
  bountyId: string;
  status: 'pending' | 'approved' | 'rejected' | 'changes_requested';
  /** The submitter's wallet address today. */
  submitterWallet: string | null;
  contributorTxHash: string | null;
  platformFeeTxHash: string | null;
  rewardUnits: bigint | null;
  feeUnits: bigint | null;
  /** The founder merged its pull request: its reward is owed. */
  founderMerged: boolean;
}

export interface AuditBounty {
  id: string;
  status: string;
  /** The founder merged the pending submission and it is not paid yet. */
  paymentOwed: boolean;
}

export interface AuditLedger {
  payouts: AuditPayout[];
  legs: AuditLeg[];
  /** Every approved or founder-merged submission and every submission a payout belongs to. */
  submissions: AuditSubmission[];
  /** Every done or owed bounty and every bounty of a listed submission. */
  bounties: AuditBounty[];
  /** Every platform payout signer: the payout wallet and any earlier one found on legs. */
  signers: string[];
}

export interface AuditTx {
  hash: string;
  sender: string;
  nonce: number;
  status: 'success' | 'reverted';
  to: string | null;
  value: bigint;
  input: string;
}

export interface AuditTransfer {
  token: string;
  from: string;
  to: string;
  value: bigint;
  txHash: string;
  logIndex: number;
}

export interface AuditChain {
  /**
   * Mined transactions: the legs' attempts that mined, every transaction that moved a project
   * token between two holders (so every such Transfer's sender is known), and what the signers
   * sent at nonces no live leg holds, where the node can tell.
   */
  txs: AuditTx[];
  /** Transfer logs of the project tokens (and of the legs' transactions). */
  transfers: AuditTransfer[];
  /** How many transactions each signer has had mined (its nonce at the block read: the final one). */
  signerNonces: Record<string, number>;
  /**
   * Legs' attempts that mined after the block read (head minus PAYOUT_CONFIRMATIONS): not final,
   * so they decide nothing yet (a reorg may drop them); a leg with one is work in flight.
   */
  unfinal?: string[];
}

export interface AuditDifference {
  code: string;
  message: string;
  payoutId?: string;
  txHash?: string;
}

export interface AuditRow {
  payoutId: string;
  bountyId: string;
  status: AuditPayout['status'];
  contributor: string;
  contributorUnits: bigint;
  feeUnits: bigint;
  contributorTx: string | null;
  feeTx: string | null;
  verdict: 'ok' | 'in flight' | 'DIFFERENT';
}

export interface AuditReport {
  rows: AuditRow[];
  differences: AuditDifference[];
  /** Not differences: work in flight the service finishes on its own (an unfinished payout). */
  notes: string[];
  summary: { payouts: number; legs: number; transfersScanned: number; signerTxs: number };
}
