import type postgres from 'postgres';
import { legOf } from '../../src/modules/payouts/payout-legs.ts';
import type { IntentRow, TxRow } from '../../src/modules/transactions/transactions.types.ts';
import type { CheckedBounty, CheckedPayout } from './interleave-checker.ts';
import type { Env, World } from './interleave-world.ts';

/**
 * The interleaving model test's reads and calls: JSON calls to an instance that never throw (an
 * instance killed mid-request is an answer too), the API's view of a world's bounties and the
 * payout tables, as the checker takes them.
 */

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes.
  body: any;
  /** `status` plus the error code, or the network error: for the trace. */
  text: string;
}

/** One JSON call; a network error (an instance killed mid-request) is status 0, never a throw. */
export async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { key?: string; body?: unknown; timeoutMs?: number; idempotencyKey?: string } = {},
): Promise<Answer> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
        ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
    const raw = await res.text();
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const code = (body as { error?: { code?: string } } | null)?.error?.code;
    return { status: res.status, body, text: `${res.status}${code ? ` ${code}` : ''}` };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { status: 0, body: null, text: `network ${cause ?? (err as Error).name}` };
  }
}

export async function must(answer: Promise<Answer>, want: number, what: string): Promise<Answer> {
  const a = await answer;
  if (a.status !== want) throw new Error(`${what}: ${a.text} ${JSON.stringify(a.body).slice(0, 500)}`);
  return a;
}

interface BountyView {
  id: string;
  status: string;
  claimed_by: string | null;
  payment_owed?: boolean;
  submissions: {
    id: string;
    agent_id: string;
    pr_url: string;
    status: string;
    founder_merged: boolean;
    contributor_tx_hash: string | null;
    platform_fee_tx_hash: string | null;
  }[];
}

export async function readBounty(env: Env, via: number, id: string): Promise<BountyView | null> {
  const res = await call(env.cluster.url(via), 'GET', `/api/bounties/${id}`);
  return res.status === 200 ? (res.body.bounty as BountyView) : null;
}

export async function listBounties(
  env: Env,
  w: World,
  via: number,
): Promise<{ id: string; claimed_by: string | null; status: string }[]> {
  const res = await call(env.cluster.url(via), 'GET', `/api/bounties?project_id=${w.project.id}&limit=100`);
  return res.body?.bounties ?? [];
}

/**
 * Payouts and their legs of the world's bounties, straight from the tables: each leg is a payout
 * intent of the transaction engine (`wallet_intents`) with its attempts (`wallet_txs`), read as the
 * payout rules read them (`legOf`).
 */
export async function readPayouts(sql: postgres.Sql, bountyIds: string[]): Promise<CheckedPayout[]> {
  const pays = await sql<{ id: string; submission_id: string; bounty_id: string; status: string }[]>`
    select id, submission_id, bounty_id, status from payouts where bounty_id in ${sql(bountyIds)}`;
  if (pays.length === 0) return [];
  const intents = await sql<IntentRow[]>`
    select id, payout_id as "payoutId", kind, signer, nonce::int as nonce, status, tx_hash as "txHash",
      block_number as "blockNumber", created_at as "createdAt"
    from wallet_intents where payout_id in ${sql(pays.map((p) => p.id))} order by created_at, nonce`;
  const attempts = intents.length
    ? await sql<TxRow[]>`
        select hash, intent_id as "intentId", kind, status, broadcast_at as "broadcastAt"
        from wallet_txs where intent_id in ${sql(intents.map((i) => i.id))}`
    : [];
  const legs = intents.map((i) =>
    legOf(
      i,
      attempts.filter((a) => a.intentId === i.id),
    ),
  );
  return pays.map((p) => ({
    id: p.id,
    submissionId: p.submission_id,
    bountyId: p.bounty_id,
    status: p.status,
    legs: legs
      .filter((l) => l.payoutId === p.id)
      .map((l) => ({ id: l.id, kind: l.kind, status: l.status, txHash: l.txHash })),
  }));
}

/** The API's view of the world's bounties, as the checker takes them. */
export async function readBounties(env: Env, w: World): Promise<CheckedBounty[]> {
  const wallets = new Map([...w.devs, w.founder].map((a) => [a.id, a.wallet]));
  const out: CheckedBounty[] = [];
  for (const [i, b] of w.bounties.entries()) {
    let view = await readBounty(env, i, b.id);
    if (!view) view = await readBounty(env, i + 1, b.id);
    if (!view) throw new Error(`GET /api/bounties/${b.id} failed on both instances`);
    out.push({
      id: b.id,
      reward: b.reward,
      status: view.status,
      paymentOwed: view.payment_owed,
      submissions: view.submissions.map((s) => ({
        id: s.id,
        agentId: s.agent_id,
        wallet: wallets.get(s.agent_id) ?? '(unknown agent)',
        status: s.status,
        founderMerged: s.founder_merged,
        contributorTxHash: s.contributor_tx_hash,
        platformFeeTxHash: s.platform_fee_tx_hash,
      })),
    });
  }
  return out;
}
