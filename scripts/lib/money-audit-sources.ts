import { isNull, ne, sql } from 'drizzle-orm';
import { tokensToUnits } from '../../src/infra/chain/chain.ts';
import { type Db, rowsOf } from '../../src/infra/db/client.ts';
import { walletIntents, walletTxs } from '../../src/infra/db/schema.ts';
import {
  type AuditFunds,
  type AuditIntent,
  type AuditOwed,
  type AuditReceipt,
  type AuditSentTx,
  type AuditWalletTx,
  auditMoney,
  type MoneyChain,
  type MoneyLedger,
  type MoneyReport,
} from '../../src/modules/audit/money-audit.ts';
import type { AuditChain } from '../../src/modules/payouts/payouts-audit.ts';
import { inChunks, type LedgerWithTokens, readLedger } from './payout-audit-sources.ts';

/**
 * Reads of the money audit: the ledger from the database (read only), the chain through a
 * `MoneyChainReader` (viem in `money-audit-chain.ts`; a fake in tests), everything on chain at
 * one final block: head minus PAYOUT_CONFIRMATIONS.
 */

/** What the money audit asks the chain; every read that can be pinned is pinned to `block`. */
export interface MoneyChainReader {
  head(): Promise<bigint>;
  /** The receipt of a mined transaction (at whatever block), null while it is not mined. */
  receipt(hash: string): Promise<AuditReceipt | null>;
  /** A transaction by hash, null when the node does not know it. */
  transaction(hash: string): Promise<AuditSentTx | null>;
  /** How many transactions the address had mined at the block. */
  nonceAt(address: string, block: bigint): Promise<number>;
  /** The owner's balance of the token and its allowance for the spender, at the block. */
  funds(
    token: string,
    owner: string,
    spender: string,
    block: bigint,
  ): Promise<{ balance: bigint; allowance: bigint }>;
  /** The payout audit's chain side, read at the block. */
  payouts(ledger: LedgerWithTokens, block: bigint): Promise<AuditChain>;
}

export interface MoneyAuditOptions {
  /** The payout key's address (the payout audit's signer). */
  payoutSigner: string;
  /** The sponsor key's address; null when none is configured. */
  sponsor: string | null;
  /** The payout router (the spender of founders' allowances); null when unknown. */
  routerAddress: string | null;
  /** PAYOUT_CONFIRMATIONS: the final block is the head minus this. */
  confirmations: number;
  /** SPONSORED_WITHDRAWALS_PER_DAY. */
  withdrawalsPerDay: number;
  /** The audit's time (owed rewards' age); the clock by default. */
  now?: Date;
}

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The wallet requests, their transactions and the owed rewards. */
export async function readMoneyLedger(
  db: Db,
  opts: Pick<MoneyAuditOptions, 'sponsor' | 'withdrawalsPerDay' | 'payoutSigner'>,
): Promise<MoneyLedger> {
  // The payout key's transactions are the payout audit's (read as legs there): the wallet side
  // checks the wallets' and the sponsor's.
  const payoutKey = opts.payoutSigner.toLowerCase();
  const walletRows = await db
    .select()
    .from(walletIntents)
    .where(isNull(walletIntents.payoutId))
    .orderBy(walletIntents.createdAt);
  const intents: AuditIntent[] = walletRows.map((i) => ({
    id: i.id,
    agentId: i.agentId as string,
    kind: i.kind,
    holder: i.holder,
    signer: i.signer,
    nonce: i.nonce,
    status: i.status,
    txHash: i.txHash,
    errorCode: i.errorCode,
    counted: i.counted,
    createdAt: i.createdAt,
  }));
  const txs: AuditWalletTx[] = await db
    .select({
      hash: walletTxs.hash,
      signer: walletTxs.signer,
      nonce: walletTxs.nonce,
      kind: walletTxs.kind,
      agentId: walletTxs.agentId,
      intentId: walletTxs.intentId,
      status: walletTxs.status,
      gasPaidUnits: walletTxs.gasPaidUnits,
      gasRefundUnits: walletTxs.gasRefundUnits,
      createdAt: walletTxs.createdAt,
    })
    .from(walletTxs)
    .where(ne(walletTxs.signer, payoutKey))
    .orderBy(walletTxs.signer, walletTxs.nonce);
  // A founder-merged submission still pending is owed; its founder's wallet today pays it.
  const owedRows = rowsOf<{
    submissionId: string;
    bountyId: string;
    payoutId: string | null;
    tokenAddress: string | null;
    founderWallet: string | null;
    rewardAmount: number | string;
    owedSince: Date | string;
  }>(
    await db.execute(sql`
      select s.id as "submissionId", b.id as "bountyId", po.id as "payoutId",
             p.token_address as "tokenAddress", f.wallet_address as "founderWallet",
             b.reward_amount as "rewardAmount", coalesce(s.merged_at, s.updated_at) as "owedSince"
        from submissions s
        join bounties b on b.id = s.bounty_id
        join projects p on p.id = b.project_id
        join agents f on f.id = p.founder_id
        left join payouts po on po.submission_id = s.id
       where s.status = 'pending' and s.founder_merged
       order by s.id`),
  );
  const owed: AuditOwed[] = owedRows.map((r) => ({
    ...r,
    rewardUnits: tokensToUnits(BigInt(r.rewardAmount)),
    owedSince: date(r.owedSince),
  }));
  return { intents, walletTxs: txs, owed, sponsor: opts.sponsor, withdrawalsPerDay: opts.withdrawalsPerDay };
}

/** The chain's side of the money rules, judged at `finalBlock`. */
export async function readMoneyChain(
  reader: MoneyChainReader,
  ledger: MoneyLedger,
  at: { head: bigint; finalBlock: bigint; routerAddress: string | null },
): Promise<MoneyChain> {
  const { finalBlock } = at;
  const hashes = [
    ...new Set(
      [
        ...ledger.walletTxs.map((t) => t.hash),
        ...ledger.intents.flatMap((i) => (i.txHash ? [i.txHash] : [])),
      ].map((h) => h.toLowerCase()),
    ),
  ];
  const receipts = (await inChunks(hashes, 50, (h) => reader.receipt(h))).filter(
    (r): r is AuditReceipt => r !== null,
  );
  const minedFinal = new Set(
    receipts.filter((r) => r.blockNumber <= finalBlock).map((r) => r.hash.toLowerCase()),
  );
  const fillers = ledger.walletTxs.filter(
    (t) => t.kind === 'nonce_filler' && minedFinal.has(t.hash.toLowerCase()),
  );
  const txs = (await inChunks(fillers, 50, (t) => reader.transaction(t.hash))).filter(
    (t): t is AuditSentTx => t !== null,
  );
  const sponsorNonce = ledger.sponsor ? await reader.nonceAt(ledger.sponsor, finalBlock) : null;
  let funds: AuditFunds[] | null = null;
  const { routerAddress } = at;
  if (routerAddress) {
    const wallets = new Map<string, { token: string; owner: string }>();
    for (const o of ledger.owed) {
      if (!o.tokenAddress || !o.founderWallet) continue;
      wallets.set(`${o.tokenAddress}:${o.founderWallet}`.toLowerCase(), {
        token: o.tokenAddress,
        owner: o.founderWallet,
      });
    }
    funds = await inChunks([...wallets.values()], 20, async (w) => ({
      ...w,
      ...(await reader.funds(w.token, w.owner, routerAddress, finalBlock)),
    }));
  }
  return { head: at.head, finalBlock, receipts, txs, sponsorNonce, funds };
}

/**
 * Reads both sides and compares them. The head is read first, so whatever the database says
 * happened later is judged at the final block (head minus PAYOUT_CONFIRMATIONS) too.
 */
export async function runMoneyAudit(
  db: Db,
  reader: MoneyChainReader,
  opts: MoneyAuditOptions,
): Promise<MoneyReport> {
  const head = await reader.head();
  const confirmations = BigInt(opts.confirmations);
  const finalBlock = head > confirmations ? head - confirmations : 0n;
  const payoutLedger = await readLedger(db, opts.payoutSigner);
  const ledger = await readMoneyLedger(db, opts);
  const payoutChain = await reader.payouts(payoutLedger, finalBlock);
  const chain = await readMoneyChain(reader, ledger, { head, finalBlock, routerAddress: opts.routerAddress });
  return auditMoney({
    payouts: { ledger: payoutLedger, chain: payoutChain },
    money: { ledger, chain },
    now: opts.now ?? new Date(),
    confirmations: opts.confirmations,
  });
}
