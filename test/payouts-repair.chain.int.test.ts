import { eq } from 'drizzle-orm';
import { createWalletClient, getAddress, type Hex, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { Database } from '../src/infra/db/client.ts';
import { accountNonces, payouts } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { bountyInReview, fundedChainProject } from './helpers/builders.ts';
import { startTestChain, type TestChain, transferLogs } from './helpers/chain.ts';
import { openTestDatabase } from './helpers/database.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
import { type RpcProxy, startRpcProxy } from './helpers/rpc-proxy.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
/** Anvil's account 1 is the dev chain's payout key. */
const PAYOUT_KEY_ACCOUNT = 1;
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
  const others: TestContext[] = [];

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
    for (const o of others) await o.close();
    await ctx?.close();
    await database?.close();
    await proxy?.close();
    await tc?.stop();
  });

  const fundedProject = () =>
    fundedChainProject(ctx, tc, founder, { account: FOUNDER_ACCOUNT, eth: UNIT, allowance: 10n ** 30n });
  const inReview = (project: { id: string; repoUrl: string }, reward: number) =>
    bountyInReview(ctx, founder, project, reward);

  const approve = (bountyId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/approve`, headers: founder.headers });

  /** The bounty's payout transactions (the engine's intents), in nonce order. */
  const legsOf = async (bountyId: string) =>
    (await payoutLegsOf(database.db, { bountyId })).sort((a, b) => a.nonce - b.nonce);
  const attemptsOf = (legId: string) => attemptsOfLegs(database.db, [legId]);
  /**
   * One pass of what runs on timers: the transaction engine (the clock past its follow-up delay),
   * then the approvals' reconciler; what the engine put on the chain.
   */
  async function pass(app: TestContext = ctx) {
    app.clock.advance(5_000);
    const put = await app.app.services.txEngine.run();
    await app.app.services.approvals.reconcile();
    return put;
  }

  /** The founder's transfers on the token from the chain's Transfer logs: [to, value, tx hash]. */
  async function paidFrom(token: string) {
    return (await transferLogs(tc, token))
      .filter((l) => same(l.from, founder.walletAddress as string))
      .map((l) => [getAddress(l.to), l.value, l.txHash]);
  }

  const treasury = () => getAddress(tc.chain.info.treasuryAddress as string);
  const router = () => getAddress(tc.chain.info.payoutSpenderAddress as string);

  /** A payout's one transaction: a router call the payout key sent at the leg's nonce. */
  async function expectRouterCall(hash: string, nonce: number) {
    const tx = await tc.pub.getTransaction({ hash: hash as Hex });
    expect([getAddress(tx.from), tx.to && getAddress(tx.to), tx.nonce]).toEqual([
      getAddress(tc.chain.payoutSigner.address),
      router(),
      nonce,
    ]);
    expect((await tc.pub.getTransactionReceipt({ hash: hash as Hex })).status).toBe('success');
  }

  it('re-broadcasts the stored bytes of a paid payout the chain lost: it lands once, and the next approval pays', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    const snapshot = await tc.test.snapshot();
    const res = await approve(bountyId);
    expect(res.statusCode, res.body).toBe(200);
    const paid = res.json();
    // One payout, one transaction: the reward and the fee move together.
    const hash = paid.contributor_tx_hash as string;
    expect(paid.platform_fee_tx_hash).toBe(hash);
    const expected = [
      [getAddress(contributor), 95n * UNIT, hash],
      [treasury(), 5n * UNIT, hash],
    ];
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);
    const [paidLeg] = await legsOf(bountyId);
    expect(paidLeg).toMatchObject({ kind: 'payout', status: 'success', txHash: hash });
    await expectRouterCall(hash, paidLeg?.nonce as number);

    // The chain rolls back under the database: both transfers are gone, the ledger says paid.
    await tc.test.revert({ id: snapshot });
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    await expect(tc.pub.getTransactionReceipt({ hash: hash as Hex })).rejects.toThrow();
    expect((await legsOf(bountyId)).map((l) => l.status)).toEqual(['success']);

    // The engine puts the same transaction (same bytes, same hash) back: it mines again, once.
    expect(await pass()).toBe(1);
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);
    // The next pass settles it from its receipt, sending nothing.
    expect(await pass()).toBe(0);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status, l.txHash, l.nonce])).toEqual([
      ['payout', 'success', hash, paidLeg?.nonce],
    ]);
    await expectRouterCall(hash, paidLeg?.nonce as number);
    expect(await attemptsOf(paidLeg?.id as string)).toHaveLength(1);
    const signer = tc.chain.payoutSigner.address;
    const [counter] = await database.db
      .select()
      .from(accountNonces)
      .where(eq(accountNonces.address, signer.toLowerCase()));
    const chainNonce = await tc.pub.getTransactionCount({ address: getAddress(signer), blockTag: 'pending' });
    expect(counter?.nextNonce).toBe(chainNonce);

    // A second pass finds nothing to repair.
    expect(await pass()).toBe(0);
    expect(await paidFrom(project.tokenAddress)).toEqual(expected);

    // The nonce counter is not ahead of the chain: the next approval pays at once (no 502).
    const next = await inReview(project, 40);
    const later = await approve(next.bountyId);
    expect(later.statusCode, later.body).toBe(200);
    const laterHash = later.json().contributor_tx_hash as string;
    expect(later.json().platform_fee_tx_hash).toBe(laterHash);
    expect(await paidFrom(project.tokenAddress)).toEqual([
      ...expected,
      [getAddress(next.contributor), 38n * UNIT, laterHash],
      [treasury(), 2n * UNIT, laterHash],
    ]);
    await expectRouterCall(laterHash, (paidLeg?.nonce as number) + 1);
  });

  it('replaces a payout whose stored fee cap fell below the base fee: the node refuses those bytes', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 70);
    proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'http500' } });
    try {
      expectError(await approve(bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    const signed = await legsOf(bountyId);
    expect(signed.map((l) => [l.kind, l.status])).toEqual([['payout', 'signed']]);
    const [stored] = await attemptsOf(signed[0]?.id as string);
    const storedFee = stored?.maxFeePerGas as bigint;

    // The base fee jumps to four times the stored cap before the payout reaches the node.
    await tc.test.setNextBlockBaseFeePerGas({ baseFeePerGas: storedFee * 4n });
    await tc.test.mine({ blocks: 1 });
    await expect(
      tc.pub.request({ method: 'eth_sendRawTransaction', params: [stored?.rawTx as Hex] }),
    ).rejects.toThrow(/base fee|underpriced/i);

    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const legs = await legsOf(bountyId);
    const attempts = await Promise.all(legs.map((l) => attemptsOf(l.id)));
    expect(attempts.map((a) => a.length)).toEqual([2]);
    expect(legs.map((l) => [l.nonce, l.status, l.txHash])).toEqual(
      signed.map((l, i) => [l.nonce, 'success', attempts[i]?.[1]?.txHash]),
    );
    for (const a of attempts) expect(a[1]?.maxFeePerGas).toBeGreaterThan(storedFee * 3n);
    // The replacement's one transaction paid both, and the refused bytes never landed.
    expect(await paidFrom(project.tokenAddress)).toEqual([
      [getAddress(contributor), (665n * UNIT) / 10n, legs[0]?.txHash],
      [treasury(), (35n * UNIT) / 10n, legs[0]?.txHash],
    ]);
    await expectRouterCall(legs[0]?.txHash as string, signed[0]?.nonce as number);
    await expect(tc.pub.getTransaction({ hash: stored?.txHash as Hex })).rejects.toThrow();
    const [payout] = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    expect(payout?.status).toBe('confirmed');
  });

  it('signs a lost payout again at a fresh nonce when another transaction took its nonce: it pays once', async () => {
    // Mined payouts are watched 5 blocks deep: a reorg that replaces the payout's block at the
    // same height is within reach (with 0, the dev chain's default, a mined payout is final).
    // Fails at ca93e39: the payout stays `confirmed` with its leg back at `sent`, and only a
    // pending payout's driver marks a taken nonce's leg dropped, so nothing is ever signed again.
    const deep = await buildTestApp({
      chain: new EvmChain({ ...tc.options, rpcUrl: proxy.url }),
      database,
      env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '2', PAYOUT_CONFIRMATIONS: '5' },
    });
    others.push(deep);
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 50);
    const snapshot = await tc.test.snapshot();
    const res = await approve(bountyId);
    expect(res.statusCode, res.body).toBe(200);
    const lost = res.json().contributor_tx_hash as string;
    const [leg] = await legsOf(bountyId);
    expect(leg).toMatchObject({ kind: 'payout', status: 'success', txHash: lost });

    // The chain rolls back under the database, and the payout key sends a transaction of its own
    // (another deployment, a person) at the lost payout's nonce: those bytes can never mine now.
    await tc.test.revert({ id: snapshot });
    const payoutWallet = createWalletClient({
      account: anvilAccount(PAYOUT_KEY_ACCOUNT),
      chain: foundry,
      transport: http(tc.rpcUrl),
    });
    expect(getAddress(payoutWallet.account.address)).toBe(getAddress(tc.chain.payoutSigner.address));
    const outside = await payoutWallet.sendTransaction({
      to: payoutWallet.account.address,
      value: 0n,
      nonce: leg?.nonce as number,
    });
    await tc.pub.waitForTransactionReceipt({ hash: outside });
    expect(await paidFrom(project.tokenAddress)).toEqual([]);

    // The service looks while the payout's block is within its watch: the payout is in flight again.
    await pass(deep);
    expect((await legsOf(bountyId)).map((l) => l.status)).not.toEqual(['success']);
    // Deep enough that the outside transaction is final: the lost bytes' nonce is used for good.
    await tc.test.mine({ blocks: 6 });
    for (let i = 0; i < 3; i++) await pass(deep);
    // The contributor is paid, once, by a new transaction; the fee with it.
    const moved = await paidFrom(project.tokenAddress);
    const paid = moved[0]?.[2] as string;
    expect(moved).toEqual([
      [getAddress(contributor), (475n * UNIT) / 10n, paid],
      [treasury(), (25n * UNIT) / 10n, paid],
    ]);
    expect(paid).not.toBe(lost);
    await expectRouterCall(paid, (leg?.nonce as number) + 1);
    const legs = await legsOf(bountyId);
    // A dropped transaction names no hash as its own (it moved nothing); its attempt is the lost one.
    expect(legs.map((l) => [l.kind, l.status, l.nonce, l.txHash, l.hashes])).toEqual([
      ['payout', 'dropped', leg?.nonce, null, [lost]],
      ['payout', 'success', (leg?.nonce as number) + 1, paid, [paid]],
    ]);
    // The approved submission names the transaction that paid, not the one that never will.
    const bounty = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${bountyId}` })).json().bounty;
    expect(bounty.status).toBe('done');
    expect(bounty.submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: paid,
      platform_fee_tx_hash: paid,
    });
  });
});
