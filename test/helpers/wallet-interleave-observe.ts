import { createHash } from 'node:crypto';
import { getAddress } from 'viem';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { call } from './interleave-api.ts';
import type { ChainTx, WalletCheckInput, WalletFacts } from './wallet-interleave-checker.ts';
import type { WalletWorld } from './wallet-interleave-world.ts';

/**
 * What the wallet checker judges, read after quiescence: the curve's Sold and Bought events, the
 * token's Transfer and Approval logs and the followed signers' transactions on the canonical chain
 * (from the world's first block), the signers' nonce counts on chain and in the database, what is
 * still pending in the database, and each request's transaction as GET shows it.
 */

const low = (a: string) => a.toLowerCase();
/** The service keeps a request's Idempotency-Key as its SHA-256 (src/infra/http/idempotency.ts). */
const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The signers the model follows: the sponsor, the agents' wallets and the founder's. */
export const signersOf = (x: WalletWorld): string[] =>
  [x.sponsor, x.w.founder.wallet, ...x.agents.map((a) => a.wallet)].map(low);

/** What of the wallets is still moving: requests pending, attempts open, transactions in the pool. */
export async function walletsMoving(x: WalletWorld): Promise<string[]> {
  const { sql, chain } = x.h;
  const intents = await sql<{ id: string; kind: string; nonce: number }[]>`
    select id, kind, nonce from wallet_intents where status = 'pending'`;
  const open = await sql<{ hash: string; signer: string; nonce: number; status: string }[]>`
    select hash, signer, nonce, status from wallet_txs where status in ('signed', 'sent')`;
  // A request whose client gave up may still run on its instance (waiting for its wallet's lease,
  // say): its Idempotency-Key is held. One whose instance died holds it too, but runs no more.
  const held = await sql<{ scope: string; key: string }[]>`
    select scope, key from idempotency_keys where status = 'in_progress' and locked_until > now()`;
  const heldKeys = new Set(held.map((r) => `${r.scope}|${r.key}`));
  const running = x.requests.filter(
    (r) => !r.answers.some((a) => a.cut) && heldKeys.has(`${r.agentId}|${keyHash(r.key)}`),
  );
  const pool: string[] = [];
  for (const s of signersOf(x)) {
    for (const t of await chain.pendingOf(s)) pool.push(`pool ${s.slice(0, 10)} nonce ${t.nonce} ${t.hash}`);
  }
  return [
    ...intents.map((i) => `wallet request ${i.id} (${i.kind}) pending at nonce ${i.nonce}`),
    ...open.map(
      (a) => `attempt ${a.hash.slice(0, 12)} of ${a.signer.slice(0, 10)} nonce ${a.nonce} ${a.status}`,
    ),
    ...running.map((r) => `${r.kind} request ${r.key.slice(0, 8)} still running on an instance`),
    ...pool,
  ];
}

async function chainTxs(x: WalletWorld): Promise<ChainTx[]> {
  const { pub } = x.h.chain;
  const follow = new Set(signersOf(x));
  const head = await pub.getBlockNumber({ cacheTime: 0 });
  const out: ChainTx[] = [];
  for (let n = x.fromBlock + 1n; n <= head; n++) {
    const block = await pub.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (typeof tx === 'string' || !follow.has(low(tx.from))) continue;
      const r = await pub.getTransactionReceipt({ hash: tx.hash });
      out.push({
        hash: tx.hash,
        from: tx.from,
        to: tx.to,
        nonce: tx.nonce,
        value: tx.value,
        status: r.status,
      });
    }
  }
  return out;
}

export async function readWalletFacts(x: WalletWorld): Promise<WalletFacts> {
  const { pub } = x.h.chain;
  const { sql } = x.h;
  const curve = getAddress(x.w.project.curve);
  const token = getAddress(x.w.project.token);
  const fromBlock = x.fromBlock;
  const [soldLogs, boughtLogs, approvalLogs] = await Promise.all([
    pub.getContractEvents({ address: curve, abi: bondingCurveAbi, eventName: 'Sold', fromBlock }),
    pub.getContractEvents({ address: curve, abi: bondingCurveAbi, eventName: 'Bought', fromBlock }),
    pub.getContractEvents({ address: token, abi: projectTokenAbi, eventName: 'Approval', fromBlock }),
  ]);
  const transfers = (await x.h.chain.transfers(token)).filter((t) => t.blockNumber > fromBlock);
  const signers: WalletFacts['signers'] = [];
  for (const address of signersOf(x)) {
    const [row] = await sql<{ next: number }[]>`
      select next_nonce::int as next from account_nonces where address = ${address}`;
    const [chainLatest, chainPending] = await Promise.all([
      pub.getTransactionCount({ address: getAddress(address), blockTag: 'latest' }),
      pub.getTransactionCount({ address: getAddress(address), blockTag: 'pending' }),
    ]);
    signers.push({
      address,
      dbNext: row?.next ?? null,
      chainLatest,
      chainPending,
      outside: x.outside.has(address),
    });
  }
  const pendingIntents = await sql<{ id: string; kind: string; signer: string; nonce: number }[]>`
    select id, kind, signer, nonce::int as nonce from wallet_intents where status = 'pending'`;
  const openAttempts = await sql<{ hash: string; signer: string; nonce: number; status: string }[]>`
    select hash, signer, nonce::int as nonce, status from wallet_txs where status in ('signed', 'sent')`;
  const quota = await sql<{ agent_id: string; n: number }[]>`
    select agent_id, count(*)::int as n from wallet_intents where kind = 'sponsored_withdraw' group by agent_id`;
  type Args = Record<string, unknown>;
  const args = (l: { args: unknown }) => l.args as Args;
  return {
    sold: soldLogs.map((l) => ({
      seller: args(l).seller as string,
      tokensIn: args(l).tokensIn as bigint,
      txHash: l.transactionHash as string,
    })),
    bought: boughtLogs.map((l) => ({
      buyer: args(l).buyer as string,
      ethIn: args(l).ethIn as bigint,
      txHash: l.transactionHash as string,
    })),
    transfers: transfers.map((t) => ({ from: t.from, to: t.to, value: t.value, txHash: t.txHash })),
    approvals: approvalLogs.map((l) => ({
      owner: args(l).owner as string,
      spender: args(l).spender as string,
      value: args(l).value as bigint,
      txHash: l.transactionHash as string,
    })),
    txs: await chainTxs(x),
    signers,
    pendingIntents: [...pendingIntents],
    openAttempts: [...openAttempts],
    sponsoredWithdrawIntents: Object.fromEntries(quota.map((q) => [q.agent_id, q.n])),
  };
}

/** Each request's transaction as GET /api/agents/me/wallet/transactions/{id} shows it now. */
export async function readTransactions(x: WalletWorld): Promise<void> {
  const keys = new Map([...x.agents, x.w.founder].map((a) => [a.id, a.key]));
  for (const [i, r] of x.requests.entries()) {
    const [row] = await x.h.sql<{ id: string }[]>`
      select id from wallet_intents where agent_id = ${r.agentId} and request_key = ${keyHash(r.key)}`;
    if (!row) {
      r.transaction = undefined;
      continue;
    }
    let got: { id: string; status: string; tx_hash: string | null; kind: string } | null = null;
    for (let attempt = 0; attempt < 3 && !got; attempt++) {
      const res = await call(
        x.h.cluster.url(i + attempt),
        'GET',
        `/api/agents/me/wallet/transactions/${row.id}`,
        {
          key: keys.get(r.agentId) as string,
        },
      );
      if (res.status === 200) got = res.body.transaction;
    }
    r.transaction = got
      ? { id: got.id, status: got.status, txHash: got.tx_hash, kind: got.kind }
      : { id: row.id, status: 'unreadable', txHash: null, kind: '?' };
  }
}

export async function walletCheckInput(x: WalletWorld): Promise<WalletCheckInput> {
  await readTransactions(x);
  return {
    sponsor: x.sponsor,
    founder: x.w.founder.wallet,
    spender: x.w.spender,
    quota: x.quota,
    requests: x.requests,
    facts: await readWalletFacts(x),
  };
}

/** What the wallet part of a schedule reached, for the summary line. */
export function walletReach(x: WalletWorld, input: WalletCheckInput, trace: string[]): string {
  const byStatus = new Map<string, number>();
  for (const r of x.requests) {
    const k = `${r.kind}:${r.transaction?.status ?? (r.answers.some((a) => a.status === 200) ? 'ok' : 'none')}`;
    byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
  }
  const sponsorTxs = input.facts.txs.filter((t) => low(t.from) === low(x.sponsor)).length;
  const answers = x.requests.flatMap((r) => r.answers.map((a) => a.status));
  const count = (s: number) => answers.filter((a) => a === s).length;
  const hits = {
    lost: trace.filter((t) => /^r\d+\.\d+ .*\blose\(.*->.*\b(202|502|network)/.test(t)).length,
    late: trace.filter((t) => /^r\d+\.\d+ .*\bslow\(.*->.*\b202\b/.test(t)).length,
    reorged: trace.filter((t) => /wallet txs undone: 0x/.test(t)).length,
    stolen: trace.filter((t) => /\bwsteal\(.*displaced 0x/.test(t)).length,
    killed: trace.filter((t) => /SIGKILL .* wallet attempts? in flight: [1-9]/.test(t)).length,
  };
  return (
    `wallet requests ${[...byStatus].map(([k, v]) => `${v} ${k}`).join(', ')}; answers ${answers.length} ` +
    `(${count(200)}x200, ${count(202)}x202, ${count(502)}x502, ${count(0)}x none); ${sponsorTxs} sponsor txs; ` +
    `faults that met a wallet action: ${Object.entries(hits)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`
  );
}
