import { inArray, isNotNull, or, sql } from 'drizzle-orm';
import {
  createPublicClient,
  decodeFunctionData,
  getAddress,
  type Hex,
  http,
  type Log,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  toHex,
  zeroAddress,
} from 'viem';
import { payoutRouterAbi } from '../../src/infra/chain/contracts/PayoutRouter.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { Db } from '../../src/infra/db/client.ts';
import {
  agents,
  bounties,
  payouts,
  projects,
  submissions,
  walletIntents,
  walletTxs,
} from '../../src/infra/db/schema.ts';
import { legOf } from '../../src/modules/payouts/payout-legs.ts';
import {
  type AuditChain,
  type AuditLedger,
  type AuditReport,
  type AuditTransfer,
  type AuditTx,
  auditPayouts,
} from '../../src/modules/payouts/payouts-audit.ts';

/** Reads of the payout audit: the ledger from the database, the facts from the chain. */

/** Whom a payout key's stored call pays, and how much (a router `pay` or a `transferFrom`); null when unreadable. */
function payeeOfCall(data: string): { to: string; amountUnits: bigint } | null {
  for (const abi of [payoutRouterAbi, projectTokenAbi] as const) {
    try {
      const { functionName, args } = decodeFunctionData({ abi: abi as never, data: data as Hex }) as {
        functionName: string;
        args: readonly unknown[];
      };
      if (functionName === 'pay') return { to: args[2] as string, amountUnits: args[3] as bigint };
      if (functionName === 'transferFrom') return { to: args[1] as string, amountUnits: args[2] as bigint };
    } catch {
      // not this contract's call
    }
  }
  return null;
}

export interface LedgerWithTokens extends AuditLedger {
  /** Every project token: transfers on any of them by the payout wallet need a leg. */
  tokens: string[];
}

/** Everything the audit compares, read without writing. */
export async function readLedger(db: Db, payoutSigner: string): Promise<LedgerWithTokens> {
  const payoutRows = await db.select().from(payouts);
  // A payout's transactions are the transaction engine's intents of the payout key, read as legs.
  const intentRows = await db
    .select()
    .from(walletIntents)
    .where(isNotNull(walletIntents.payoutId))
    .orderBy(walletIntents.createdAt, walletIntents.nonce);
  const attemptRows = await db
    .select()
    .from(walletTxs)
    .where(
      inArray(
        walletTxs.intentId,
        db.select({ id: walletIntents.id }).from(walletIntents).where(isNotNull(walletIntents.payoutId)),
      ),
    );
  const legRows = intentRows.map((i) => {
    const mine = attemptRows.filter((a) => a.intentId === i.id);
    const leg = legOf(i, mine);
    // What the stored call pays, decoded (the engine signs it again as stored when it replaces a
    // transaction): checked against the payout by `leg_not_as_intended`, mined or not.
    const call = payeeOfCall(i.data);
    return {
      id: leg.id,
      payoutId: leg.payoutId,
      kind: leg.kind,
      signer: leg.signer,
      nonce: leg.nonce,
      toAddress: call?.to ?? '',
      amountUnits: call?.amountUnits ?? -1n,
      status: leg.status,
      txHash: leg.txHash,
      // Every transaction signed at the leg's nonce for it, the engine's cancel too: a leg
      // recorded reverted because its cancel took the nonce is on chain as that cancel.
      attempts: mine.map((a) => a.hash),
    };
  });
  const paidSubmissions = db.select({ id: payouts.submissionId }).from(payouts);
  // A founder-merged submission is owed its reward whether or not a payout was ever recorded.
  const subRows = await db
    .select({ s: submissions, wallet: agents.walletAddress })
    .from(submissions)
    .innerJoin(agents, sql`${agents.id} = ${submissions.agentId}`)
    .where(
      or(
        sql`${submissions.status} = 'approved'`,
        sql`${submissions.founderMerged}`,
        inArray(submissions.id, paidSubmissions),
      ),
    );
  const bountyIds = [...new Set(subRows.map((r) => r.s.bountyId))];
  const doneOrOwed = or(sql`${bounties.status} = 'done'`, sql`${bounties.paymentOwed}`);
  const bountyRows = await db
    .select({ id: bounties.id, status: bounties.status, paymentOwed: bounties.paymentOwed })
    .from(bounties)
    .where(bountyIds.length > 0 ? or(doneOrOwed, inArray(bounties.id, bountyIds)) : doneOrOwed);
  const tokenRows = await db
    .select({ token: projects.tokenAddress })
    .from(projects)
    .where(isNotNull(projects.tokenAddress));
  return {
    payouts: payoutRows,
    legs: legRows,
    submissions: subRows.map(({ s, wallet }) => ({ ...s, submitterWallet: wallet })),
    bounties: bountyRows,
    signers: [...new Set([payoutSigner, ...legRows.map((l) => l.signer)].map((a) => a.toLowerCase()))],
    tokens: [...new Set(tokenRows.map((t) => (t.token as string).toLowerCase()))],
  };
}

export interface ChainReadOptions {
  /** First block to scan for Transfer logs (0 by default). */
  fromBlock?: bigint;
  /** Blocks per eth_getLogs call; hosted providers cap the range. */
  blockRange?: bigint;
  /**
   * The block everything is read at (the money audit's final block: head minus
   * PAYOUT_CONFIRMATIONS); the latest by default. A leg mined after it is listed in `unfinal`.
   */
  toBlock?: bigint;
}

export async function inChunks<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

function transfersOf(logs: Log[]): AuditTransfer[] {
  return parseEventLogs({ abi: projectTokenAbi, eventName: 'Transfer', logs, strict: false }).flatMap((l) => {
    const args = l.args as { from?: string; to?: string; value?: bigint };
    if (!args.from || !args.to || args.value === undefined || !l.transactionHash) return [];
    return [
      {
        token: l.address,
        from: args.from,
        to: args.to,
        value: args.value,
        txHash: l.transactionHash,
        logIndex: l.logIndex ?? 0,
      },
    ];
  });
}

/**
 * The chain's side: every Transfer log of the project tokens, the legs' transactions that mined
 * (with their own logs, whatever the scanned range), the sender of every transaction that moved
 * tokens between two holders (so the rules know which transfers out of founder wallets the payout
 * key made, directly or through the router), each signer's mined nonce, and what it sent at
 * nonces no live leg holds.
 */
export async function readChain(
  pub: PublicClient,
  ledger: LedgerWithTokens,
  opts: ChainReadOptions = {},
): Promise<AuditChain> {
  const latest = opts.toBlock ?? (await pub.getBlockNumber());
  const range = opts.blockRange ?? 100_000n;
  const transfers = new Map<string, AuditTransfer>();
  const add = (t: AuditTransfer) => transfers.set(`${t.txHash.toLowerCase()}:${t.logIndex}`, t);
  if (ledger.tokens.length > 0) {
    for (let from = opts.fromBlock ?? 0n; from <= latest; from += range) {
      const to = from + range - 1n < latest ? from + range - 1n : latest;
      const logs = await pub.getLogs({
        address: ledger.tokens.map((t) => getAddress(t)),
        fromBlock: from,
        toBlock: to,
      });
      for (const t of transfersOf(logs)) add(t);
    }
  }

  const txs = new Map<string, AuditTx>();
  const unfinal: string[] = [];
  const attempts = ledger.legs.flatMap((l) => l.attempts);
  await inChunks(attempts, 50, async (hash) => {
    const receipt = await pub.getTransactionReceipt({ hash: hash as Hex }).catch((err: unknown) => {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    });
    if (!receipt) return;
    if (receipt.blockNumber > latest) {
      unfinal.push(hash.toLowerCase());
      return;
    }
    const tx = await pub.getTransaction({ hash: hash as Hex });
    txs.set(hash.toLowerCase(), { ...txFacts(tx), status: receipt.status });
    for (const t of transfersOf(receipt.logs)) add(t);
  });

  // A transfer between two holders (not a mint or burn of the curve) was sent by someone: the
  // payout wallet's must be legs.
  const moved = [
    ...new Set(
      [...transfers.values()]
        .filter((t) => t.from !== zeroAddress && t.to !== zeroAddress)
        .map((t) => t.txHash.toLowerCase()),
    ),
  ];
  await inChunks(
    moved.filter((h) => !txs.has(h)),
    50,
    async (hash) => {
      const tx = await pub.getTransaction({ hash: hash as Hex }).catch((err: unknown) => {
        if (err instanceof TransactionNotFoundError) return null;
        throw err;
      });
      // Only a successful transaction leaves logs.
      if (tx) txs.set(hash, { ...txFacts(tx), status: 'success' });
    },
  );

  const signerNonces: Record<string, number> = {};
  for (const signer of ledger.signers) {
    const count = await pub.getTransactionCount({ address: getAddress(signer), blockNumber: latest });
    signerNonces[signer] = count;
    // A nonce no leg holds, or one a dropped leg lost to another transaction: find what was sent
    // at it, where the node can tell (anvil, Erigon).
    const held = new Set(
      ledger.legs
        .filter((l) => l.signer.toLowerCase() === signer && l.status !== 'dropped')
        .map((l) => l.nonce),
    );
    const free = Array.from({ length: count }, (_, n) => n).filter((n) => !held.has(n));
    await inChunks(free, 20, async (nonce) => {
      const tx = await txBySenderAndNonce(pub, signer, nonce);
      if (!tx || txs.has(tx.hash.toLowerCase())) return;
      const receipt = await pub.getTransactionReceipt({ hash: tx.hash });
      txs.set(tx.hash.toLowerCase(), { ...txFacts(tx), status: receipt.status });
      for (const t of transfersOf(receipt.logs)) add(t);
    });
  }
  return { txs: [...txs.values()], transfers: [...transfers.values()], signerNonces, unfinal };
}

function txFacts(tx: {
  hash: string;
  from: string;
  nonce: number;
  to: string | null;
  value: bigint;
  input: string;
}) {
  return { hash: tx.hash, sender: tx.from, nonce: tx.nonce, to: tx.to, value: tx.value, input: tx.input };
}

/** Otterscan's lookup by sender and nonce; null where the node does not offer it. */
async function txBySenderAndNonce(pub: PublicClient, sender: string, nonce: number) {
  try {
    const found = (await pub.request({
      method: 'ots_getTransactionBySenderAndNonce' as never,
      params: [getAddress(sender), toHex(nonce)] as never,
    })) as Hex | { hash: Hex } | null;
    if (!found) return null;
    return await pub.getTransaction({ hash: typeof found === 'string' ? found : found.hash });
  } catch {
    return null;
  }
}

export function auditClient(rpcUrl: string): PublicClient {
  return createPublicClient({ transport: http(rpcUrl, { batch: { batchSize: 100 }, retryCount: 2 }) });
}

/** Reads both sides and compares them. */
export async function runPayoutAudit(
  db: Db,
  rpcUrl: string,
  payoutSigner: string,
  opts: ChainReadOptions = {},
): Promise<AuditReport> {
  const ledger = await readLedger(db, payoutSigner);
  const chain = await readChain(auditClient(rpcUrl), ledger, opts);
  return auditPayouts(ledger, chain);
}
