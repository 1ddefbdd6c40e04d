/** What the money audit compares and reports (see money-audit.ts). */
import type { AuditChain, AuditDifference, AuditLedger, AuditReport } from '../payouts/payouts-audit.ts';

/** One agent request for a wallet transaction (`wallet_intents`). */
export interface AuditIntent {
  id: string;
  agentId: string;
  /** buy, sell, allowance, withdraw_token, withdraw_eth, sponsored_sell, sponsored_withdraw */
  kind: string;
  holder: string;
  signer: string;
  nonce: number;
  status: 'pending' | 'confirmed' | 'failed';
  txHash: string | null;
  errorCode: string | null;
  /** A sponsored withdraw that counts against the daily quota. */
  counted: boolean;
  createdAt: Date;
}

/** One signed transaction of an in-app wallet or of the sponsor (`wallet_txs`): an attempt. */
export interface AuditWalletTx {
  hash: string;
  signer: string;
  nonce: number;
  kind: string;
  agentId: string | null;
  /** The request it carries out; null for nonce fillers and rows from before requests were recorded. */
  intentId: string | null;
  status: 'signed' | 'sent' | 'mined' | 'reverted' | 'failed' | 'dropped' | 'replaced';
  gasPaidUnits: bigint | null;
  gasRefundUnits: bigint | null;
  createdAt: Date;
}

/** A reward the founder owes: a pending submission whose pull request the founder merged. */
export interface AuditOwed {
  submissionId: string;
  bountyId: string;
  /** Its payout, when an approval recorded one. */
  payoutId: string | null;
  tokenAddress: string | null;
  /** The founder's wallet today: the next payout is sent from it. */
  founderWallet: string | null;
  /** The whole reward (contributor's share and fee), both taken from the founder. */
  rewardUnits: bigint;
  /** Since when it is owed: when the host reported the merge. */
  owedSince: Date;
}

export interface MoneyLedger {
  intents: AuditIntent[];
  walletTxs: AuditWalletTx[];
  owed: AuditOwed[];
  /** The sponsor key's address; null when none is configured. */
  sponsor: string | null;
  /** SPONSORED_WITHDRAWALS_PER_DAY. */
  withdrawalsPerDay: number;
}

/** A mined transaction's receipt, at whatever block it mined. */
export interface AuditReceipt {
  hash: string;
  from: string;
  status: 'success' | 'reverted';
  blockNumber: bigint;
  /** gasUsed x effectiveGasPrice: what the sender paid. */
  gasPaidUnits: bigint;
  /** A signed sale's GasRefunded to its relayer; null when the receipt has none. */
  gasRefundUnits: bigint | null;
}

/** What a transaction carried (read only for nonce fillers). */
export interface AuditSentTx {
  hash: string;
  from: string;
  nonce: number;
  to: string | null;
  value: bigint;
  input: string;
}

/** A founder's funds on a project token at the final block, for the payout router. */
export interface AuditFunds {
  token: string;
  owner: string;
  balance: bigint;
  allowance: bigint;
}

export interface MoneyChain {
  head: bigint;
  /** Head minus PAYOUT_CONFIRMATIONS: what mined after it is not final and decides nothing. */
  finalBlock: bigint;
  /** Receipts of the ledger's hashes that mined (at any block; the rules judge them at the final one). */
  receipts: AuditReceipt[];
  /** The transactions of the nonce fillers. */
  txs: AuditSentTx[];
  /** How many transactions the sponsor had mined at the final block; null without a sponsor. */
  sponsorNonce: number | null;
  /** Funds of each owed reward's founder wallet and token; absent when the router is unknown. */
  funds: AuditFunds[] | null;
}

/** Which rule a difference breaks: the payout audit's, or one of the money audit's own. */
export type MoneyRule = 'payouts' | 'once' | 'sponsor_nonces' | 'sponsor_spend' | 'withdraw_quota' | 'owed';

export interface MoneyDifference extends AuditDifference {
  rule: MoneyRule;
  intentId?: string;
}

export interface MoneyAuditInput {
  payouts: { ledger: AuditLedger; chain: AuditChain };
  money: { ledger: MoneyLedger; chain: MoneyChain };
  /** When the audit runs: an owed reward's age is counted to it. */
  now: Date;
  /** PAYOUT_CONFIRMATIONS, for the report. */
  confirmations: number;
}

export interface MoneyReport {
  payouts: AuditReport;
  /** Every difference: the payout audit's (rule `payouts`) and the money rules'. */
  differences: MoneyDifference[];
  notes: string[];
  summary: {
    head: bigint;
    finalBlock: bigint;
    confirmations: number;
    intents: number;
    walletTxs: number;
    sponsorTxs: number | null;
    owed: number;
  };
}
