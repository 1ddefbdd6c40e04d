import { asc, eq } from 'drizzle-orm';
import { getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { Database } from '../src/infra/db/client.ts';
import { legAttempts, payoutLegs, payouts, signerNonces } from '../src/infra/db/schema.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  expectError,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import {
  activateOnChain,
  approvePayouts,
  buyTokens,
  startTestChain,
  type TestChain,
  transferLogs,
} from './helpers/chain.ts';
import { openTestDatabase } from './helpers/database.ts';
import { type RpcProxy, startRpcProxy } from './helpers/rpc-proxy.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The ledger against a real anvil that loses transactions under it (a snapshot reverted, as anvil
 * restarted from an older state file after a crash) or refuses stored bytes for their fees.
 */
describe('payout ledger repair on a real chain', () => {
  let tc: TestChain;
  let proxy: RpcProxy;
  let database: Database;
  let ctx: TestContext;
  let founder: TestAgent;
  let prSeq = 0;

  beforeAll(async () => {
    tc = await startTestChain();
    proxy = await startRpcProxy(tc.rpcUrl);
    database = await openTestDatabase();
    ctx = await buildTestApp({
      chain: new EvmChain({ ...tc.options, rpcUrl: proxy.url }),
      database,
      env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '2' },
    });
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.close();
    await proxy?.close();
    await tc?.stop();
  });

  async function fundedProject() {
    const project = await createProject(ctx.app, founder);
    const deployed = await activateOnChain(ctx, tc, project.id, project.token_symbol);
    await buyTokens(tc, FOUNDER_ACCOUNT, deployed.curveAddress, UNIT);
    await approvePayouts(tc, FOUNDER_ACCOUNT, deployed.tokenAddress, 10n ** 30n);
    return { id: project.id, ...deployed };
  }

  async function inReview(project: { id: string; repoUrl: string }, reward: number) {
    const dev = await registerAgent(ctx.app);
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
    const claimed = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/claim`,
      headers: dev.headers,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const submitted = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: dev.headers,
      payload: { pr_url: `${project.repoUrl}/pull/${++prSeq}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    return { bountyId: bounty.id, contributor: dev.walletAddress as string };
  }

  const approve = (bountyId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/approve`, headers: founder.headers });

  async function legsOf(bountyId: string) {
    const rows = await database.db
      .select({ leg: payoutLegs })
      .from(payoutLegs)
      .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
      .where(eq(payouts.bountyId, bountyId))
      .orderBy(asc(payoutLegs.nonce));
    return rows.map((r) => r.leg);
  }

  /** The founder's transfers on the token from the chain's Transfer logs: [to, value, tx hash]. */
  async function paidFrom(token: string) {
    return (await transferLogs(tc, token))
      .filter((l) => same(l.from, founder.walletAddress as string))
      .map((l) => [getAddress(l.to), l.value, l.txHash]);
  }

  const treasury = () => getAddress(tc.chain.info.treasuryAddress as string);

  it('re-broadcasts the stored bytes of a paid payout the chain lost: it lands once, and the next approval pays', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    const snapshot = await tc.test.snapshot();
    const res = await approve(bountyId);
    expect(res.statusCode, res.body).toBe(200);
    const paid = res.json();
    const expected = [
      [getAddress(contributor), 95n * UNIT, paid.contributor_tx_hash],
      [treasury(), 5n * UNIT, paid.platform_fee_tx_hash],
    ];
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);

    // The chain rolls back under the database: both transfers are gone, the ledger says paid.
    await tc.test.revert({ id: snapshot });
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    await expect(tc.pub.getTransactionReceipt({ hash: paid.contributor_tx_hash as Hex })).rejects.toThrow();
    expect((await legsOf(bountyId)).map((l) => l.status)).toEqual(['success', 'success']);

    await ctx.app.services.approvals.reconcile();
    // The same transactions (same bytes, same hashes) mined again, once each.
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.status, l.txHash])).toEqual([
      ['success', paid.contributor_tx_hash],
      ['success', paid.platform_fee_tx_hash],
    ]);
    const signer = tc.chain.payoutSigner.address;
    const [counter] = await database.db.select().from(signerNonces).where(eq(signerNonces.address, signer));
    const chainNonce = await tc.pub.getTransactionCount({ address: getAddress(signer), blockTag: 'pending' });
    expect(counter?.nextNonce).toBe(chainNonce);

    // A second pass finds nothing to repair.
    expect(await ctx.app.services.payouts.repairLedger()).toBe(0);
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);

    // The nonce counter is not ahead of the chain: the next approval pays at once (no 502).
    const next = await inReview(project, 40);
    const later = await approve(next.bountyId);
    expect(later.statusCode, later.body).toBe(200);
    expect(await paidFrom(project.tokenAddress)).toEqual([
      ...expected,
      [getAddress(next.contributor), 38n * UNIT, later.json().contributor_tx_hash],
      [treasury(), 2n * UNIT, later.json().platform_fee_tx_hash],
    ]);
  });

  it('replaces legs whose stored fee cap fell below the base fee: the node refuses those bytes', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 70);
    proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'http500' } });
    try {
      expectError(await approve(bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    const signed = await legsOf(bountyId);
    expect(signed.map((l) => l.status)).toEqual(['signed', 'signed']);
    const [stored] = await database.db
      .select()
      .from(legAttempts)
      .where(eq(legAttempts.legId, signed[0]?.id as string));
    const storedFee = stored?.maxFeePerGas as bigint;

    // The base fee jumps to four times the stored cap before the legs reach the node.
    await tc.test.setNextBlockBaseFeePerGas({ baseFeePerGas: storedFee * 4n });
    await tc.test.mine({ blocks: 1 });
    await expect(
      tc.pub.request({ method: 'eth_sendRawTransaction', params: [stored?.rawTx as Hex] }),
    ).rejects.toThrow(/base fee|underpriced/i);

    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const legs = await legsOf(bountyId);
    const attempts = await Promise.all(
      legs.map((l) =>
        database.db
          .select()
          .from(legAttempts)
          .where(eq(legAttempts.legId, l.id))
          .orderBy(asc(legAttempts.createdAt), asc(legAttempts.maxFeePerGas)),
      ),
    );
    expect(attempts.map((a) => a.length)).toEqual([2, 2]);
    expect(legs.map((l) => [l.nonce, l.status, l.txHash])).toEqual(
      signed.map((l, i) => [l.nonce, 'success', attempts[i]?.[1]?.txHash]),
    );
    for (const a of attempts) expect(a[1]?.maxFeePerGas).toBeGreaterThan(storedFee * 3n);
    expect(await paidFrom(project.tokenAddress)).toEqual([
      [getAddress(contributor), (665n * UNIT) / 10n, legs[0]?.txHash],
      [treasury(), (35n * UNIT) / 10n, legs[1]?.txHash],
    ]);
  });
});
