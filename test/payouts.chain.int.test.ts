import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { getAddress, type Hex, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { Database } from '../src/infra/db/client.ts';
import { accountNonces, payouts, walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { legOf } from '../src/modules/payouts/payout-legs.ts';
import { buildTestApp, expectError, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { bountyInReview, fundedChainProject } from './helpers/builders.ts';
import {
  approvePayouts,
  expectMinedAtTheirNonces,
  startTestChain,
  type TestChain,
  tokenBalance,
  transferLogs,
} from './helpers/chain.ts';
import { openTestDatabase } from './helpers/database.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
import { type RpcProxy, startRpcProxy } from './helpers/rpc-proxy.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Payouts against a real anvil, on one database for the whole file (PGlite, or PostgreSQL with
 * TEST_DB=postgres), so the payout wallet's nonces can be checked across every test at the end.
 * Apps reach the chain through a JSON-RPC proxy whose faults each test switches on and off.
 */
describe('payouts on a real chain', () => {
  let tc: TestChain;
  let proxy: RpcProxy;
  let proxied: EvmChain;
  let database: Database;
  let base: TestContext;
  let founder: TestAgent;
  const apps: TestContext[] = [];
  let prSeq = 0;

  beforeAll(async () => {
    tc = await startTestChain();
    proxy = await startRpcProxy(tc.rpcUrl);
    proxied = new EvmChain({ ...tc.options, rpcUrl: proxy.url });
    database = await openTestDatabase();
    base = await appOn();
    founder = await registerAgent(base.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
  });
  afterAll(async () => {
    for (const ctx of apps) await ctx.close();
    await database?.close();
    await proxy?.close();
    await tc?.stop();
  });

  /** Another app instance on the file's database; by default it reaches anvil through the proxy. */
  async function appOn(env: Record<string, string> = {}, chain: EvmChain = proxied): Promise<TestContext> {
    const ctx = await buildTestApp({ chain, database, env });
    apps.push(ctx);
    return ctx;
  }

  /** An active project with its real token; the founder holds tokens and grants `allowance`. */
  const fundedProject = (opts: { allowance?: bigint; eth?: bigint } = {}) =>
    fundedChainProject(base, tc, founder, {
      account: FOUNDER_ACCOUNT,
      eth: opts.eth ?? UNIT,
      allowance: opts.allowance ?? 10n ** 30n,
    });

  /** A bounty claimed and submitted by a new contributor (own random wallet): `in_review`. */
  const inReview = (project: { id: string; repoUrl: string }, reward: number) =>
    bountyInReview(base, founder, project, reward);

  const approve = (ctx: TestContext, bountyId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/approve`, headers: founder.headers });
  const treasury = () => getAddress(tc.chain.info.treasuryAddress as string);
  /** The spender founders approve, which makes both transfers of a payout or neither. */
  const router = () => getAddress(tc.chain.info.payoutSpenderAddress as string);
  const payoutKey = () => getAddress(tc.chain.payoutSigner.address);

  async function bountyState(bountyId: string) {
    const res = await base.app.inject({ method: 'GET', url: `/api/bounties/${bountyId}` });
    expect(res.statusCode, res.body).toBe(200);
    const bounty = res.json().bounty;
    return {
      status: bounty.status as string,
      submission: bounty.submissions[0] as {
        status: string;
        contributor_tx_hash: string | null;
        platform_fee_tx_hash: string | null;
      },
    };
  }

  /** The bounty's payout transactions (the engine's intents, read as legs), with their payout's row. */
  async function legsOf(bountyId: string) {
    const rows = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    const legs = await payoutLegsOf(database.db, { bountyId });
    return legs.map((l) => {
      const p = rows.find((r) => r.id === l.payoutId);
      return { ...l, payoutStatus: p?.status, contributorUnits: p?.contributorUnits };
    });
  }

  /** Every signed attempt of a leg (a cancel at its nonce included), oldest first. */
  const attemptsOf = (legId: string) => attemptsOfLegs(database.db, [legId]);

  /** The founder's outgoing transfers on a token, as the chain's Transfer events record them. */
  async function paidFrom(token: string) {
    return (await transferLogs(tc, token)).filter((l) => same(l.from, founder.walletAddress as string));
  }

  /**
   * The chain holds exactly one payout of this bounty, as answered: one transaction, sent by the
   * payout key to the payout router, whose Transfer logs are reward minus fee from the founder to
   * the contributor and the fee from the founder to the treasury, and nothing else; the contributor
   * received nothing in any other transaction. The answer names that one transaction twice.
   */
  async function expectPaidOnce(
    token: string,
    contributor: string,
    reward: bigint,
    fee: bigint,
    hashes: { contributor_tx_hash: string; platform_fee_tx_hash: string },
  ) {
    const hash = hashes.contributor_tx_hash;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(hashes.platform_fee_tx_hash).toBe(hash);
    const all = await transferLogs(tc, token);
    expect(
      all.filter((l) => same(l.to, contributor)).map((l) => [getAddress(l.from), l.value, l.txHash]),
    ).toEqual([[getAddress(founder.walletAddress as string), reward - fee, hash]]);
    expect(
      all.filter((l) => l.txHash === hash).map((l) => [getAddress(l.from), getAddress(l.to), l.value]),
    ).toEqual([
      [getAddress(founder.walletAddress as string), getAddress(contributor), reward - fee],
      [getAddress(founder.walletAddress as string), treasury(), fee],
    ]);
    await expectRouterPayout(hash);
    expect(await tokenBalance(tc, token, contributor)).toBe(reward - fee);
  }

  /** A mined router call by the payout key: the one transaction a payout is. */
  async function expectRouterPayout(hash: string, status: 'success' | 'reverted' = 'success') {
    const tx = await tc.pub.getTransaction({ hash: hash as Hex });
    expect([getAddress(tx.from), tx.to && getAddress(tx.to)]).toEqual([payoutKey(), router()]);
    expect((await tc.pub.getTransactionReceipt({ hash: hash as Hex })).status).toBe(status);
  }

  /** The founder paid the treasury on this token in exactly these transactions, once each. */
  async function expectFeeTransfers(token: string, feeHashes: string[]) {
    const toTreasury = (await paidFrom(token)).filter((l) => same(l.to, treasury()));
    expect(toTreasury.map((l) => l.txHash).sort()).toEqual([...feeHashes].sort());
  }

  /** Nothing left the founder's wallet in this transaction (a router call that reverted whole). */
  async function expectMovedNothing(token: string, hash: string) {
    expect((await transferLogs(tc, token)).filter((l) => l.txHash === hash)).toEqual([]);
  }

  /**
   * The answer to an approval whose payout mined reverted: the approval that signed it on its
   * first look hands the revert to the driver, which tries to sign again and is refused by the
   * funds check (400); when the driver signed it (the first payout of a fresh nonce counter), its
   * own wait sees the revert (502). Either way nothing was paid and the payout is failed.
   */
  function expectRevertedApproval(res: Awaited<ReturnType<typeof approve>>) {
    if (res.statusCode === 502) {
      expect(expectError(res, 502, 'upstream_error').message).toMatch(/payout reverted/);
    } else {
      expectError(res, 400, 'insufficient_funds');
    }
  }

  it('pays reward minus fee and the fee exactly, to the base unit, for several fee rates', async () => {
    const project = await fundedProject({ eth: 2n * UNIT });
    // Expected fee units written out, not computed with the code's formula. With 18 decimals and
    // whole-token rewards, floor(reward * bps / 10000) is exact in base units; the small cases
    // (1 token at 1 bp = 0.0001 token) would round to 0 in whole tokens.
    const cases: { bps: number; reward: number; fee: bigint }[] = [
      { bps: 1, reward: 1, fee: 100_000_000_000_000n },
      { bps: 1, reward: 12_345, fee: 1_234_500_000_000_000_000n },
      { bps: 7, reward: 3, fee: 2_100_000_000_000_000n },
      { bps: 333, reward: 7, fee: 233_100_000_000_000_000n },
      { bps: 333, reward: 1_001, fee: 33_333_300_000_000_000_000n },
      { bps: 500, reward: 1, fee: 50_000_000_000_000_000n },
      { bps: 500, reward: 100, fee: 5_000_000_000_000_000_000n },
      { bps: 10_000, reward: 9, fee: 9_000_000_000_000_000_000n },
    ];
    const byBps = new Map<number, TestContext>();
    const feeHashes: string[] = [];
    for (const c of cases) {
      expect(c.fee).toBe((BigInt(c.reward) * UNIT * BigInt(c.bps)) / 10_000n);
      let ctx = byBps.get(c.bps);
      if (!ctx) {
        ctx = await appOn({ PLATFORM_FEE_BPS: String(c.bps) });
        byBps.set(c.bps, ctx);
      }
      const { bountyId, contributor } = await inReview(project, c.reward);
      const founderBefore = await tokenBalance(tc, project.tokenAddress, founder.walletAddress as string);
      const treasuryBefore = await tokenBalance(tc, project.tokenAddress, treasury());
      const res = await approve(ctx, bountyId);
      expect(res.statusCode, res.body).toBe(200);
      const reward = BigInt(c.reward) * UNIT;
      await expectPaidOnce(project.tokenAddress, contributor, reward, c.fee, res.json());
      feeHashes.push(res.json().platform_fee_tx_hash);
      expect(await tokenBalance(tc, project.tokenAddress, treasury())).toBe(treasuryBefore + c.fee);
      expect(await tokenBalance(tc, project.tokenAddress, founder.walletAddress as string)).toBe(
        founderBefore - reward,
      );
      // One leg: the router call, recorded with the amount for the contributor and its one hash.
      const legs = await legsOf(bountyId);
      expect(legs.map((l) => [l.kind, l.contributorUnits, l.status, l.txHash])).toEqual([
        ['payout', reward - c.fee, 'success', res.json().contributor_tx_hash],
      ]);
    }
    await expectFeeTransfers(project.tokenAddress, feeHashes);
    // Two transfers per payout (the 100% fee case pays the contributor 0, still a transfer), in
    // one transaction per payout.
    const logs = await paidFrom(project.tokenAddress);
    expect(logs).toHaveLength(2 * cases.length);
    expect(new Set(logs.map((l) => l.txHash)).size).toBe(cases.length);
  });

  it('answers 502 when the broadcast fails, stores the payout signed, and a retry pays exactly once', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    const sendsBefore = proxy.forwarded('eth_sendRawTransaction');
    proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'http500' } });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    expect(proxy.forwarded('eth_sendRawTransaction')).toBe(sendsBefore);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending', contributor_tx_hash: null },
    });
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'signed']]);
    const stored = await attemptsOf(legs[0]?.id as string);
    expect(stored).toHaveLength(1);
    // What was stored is one router call by the payout key at the leg's nonce.
    const parsed = parseTransaction(stored[0]?.rawTx as Hex);
    expect([parsed.to && getAddress(parsed.to), parsed.nonce]).toEqual([router(), legs[0]?.nonce]);
    expect(await paidFrom(project.tokenAddress)).toEqual([]);

    // Through a healthy chain: the stored bytes are broadcast, nothing is signed again.
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect([res.json().contributor_tx_hash, res.json().platform_fee_tx_hash]).toEqual([
      stored[0]?.txHash,
      stored[0]?.txHash,
    ]);
    await expectPaidOnce(project.tokenAddress, contributor, 100n * UNIT, 5n * UNIT, res.json());
    expect((await legsOf(bountyId)).map((l) => l.status)).toEqual(['success']);
    expect(await attemptsOf(legs[0]?.id as string)).toHaveLength(1);
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'done',
      submission: {
        status: 'approved',
        contributor_tx_hash: res.json().contributor_tx_hash,
        platform_fee_tx_hash: res.json().platform_fee_tx_hash,
      },
    });
  });

  it('after a lost answer to a broadcast that reached the chain, a retry answers the mined payout without asking for the funds again', async () => {
    // The allowance covers this reward exactly: once the payout has mined nothing is left of it,
    // and the retry must find the payout paid instead of asking the founder to cover it again.
    const project = await fundedProject({ allowance: 100n * UNIT });
    const { bountyId, contributor } = await inReview(project, 100);
    proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'reset', afterForwarding: true } });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    // The payout reached anvil and mined, both transfers in its one transaction.
    const mined = await paidFrom(project.tokenAddress);
    expect(mined.map((l) => [getAddress(l.to), l.value])).toEqual([
      [getAddress(contributor), 95n * UNIT],
      [treasury(), 5n * UNIT],
    ]);
    expect(mined[1]?.txHash).toBe(mined[0]?.txHash);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    const sendsBefore = proxy.seen('eth_sendRawTransaction');
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contributor_tx_hash).toBe(mined[0]?.txHash);
    await expectPaidOnce(project.tokenAddress, contributor, 100n * UNIT, 5n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(proxy.seen('eth_sendRawTransaction')).toBe(sendsBefore);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status, l.txHash])).toEqual([['payout', 'success', mined[0]?.txHash]]);
    expect(await attemptsOf(legs[0]?.id as string)).toHaveLength(1);
  });

  it('refuses when the founder revokes the allowance mid-approval (the payout reverts whole); a retry after re-approving pays once', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 40);
    let revoked = false;
    // The funds check has passed and the payout is signed; before it reaches the node, the
    // founder sets the allowance to 0, so the router call mines reverted. The approval then tries
    // to sign the payout again, and the funds check refuses that.
    proxy.set({
      beforeSend: async () => {
        if (revoked) return;
        revoked = true;
        await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 0n);
      },
    });
    try {
      expectRevertedApproval(await approve(base, bountyId));
    } finally {
      proxy.set({});
    }
    expect(revoked).toBe(true);
    const failed = await legsOf(bountyId);
    expect(failed.map((l) => [l.kind, l.status, l.payoutStatus])).toEqual([['payout', 'reverted', 'failed']]);
    await expectRouterPayout(failed[0]?.txHash as string, 'reverted');
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    // Without an allowance the retry is refused before anything is signed.
    expectError(await approve(base, bountyId), 400, 'insufficient_funds');
    expect(await legsOf(bountyId)).toHaveLength(1);

    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 1000n * UNIT);
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    await expectPaidOnce(project.tokenAddress, contributor, 40n * UNIT, 2n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['payout', 'reverted'],
      ['payout', 'success'],
    ]);
    expect(legs[1]?.txHash).toBe(res.json().contributor_tx_hash);
    expect(legs.map((l) => l.nonce)).toEqual([0, 1].map((i) => (legs[0]?.nonce ?? 0) + i));
  });

  it('never sends a fee without its reward: an allowance that covers the reward minus fee but not the fee moves nothing', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 20);
    let cut = false;
    // After the funds check, the founder lowers the allowance to exactly what the contributor's
    // transfer needs: that transfer alone would succeed, the fee's cannot, so neither may land.
    proxy.set({
      beforeSend: async () => {
        if (cut) return;
        cut = true;
        await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 19n * UNIT);
      },
    });
    try {
      expectRevertedApproval(await approve(base, bountyId));
    } finally {
      proxy.set({});
    }
    expect(cut).toBe(true);
    const first = await legsOf(bountyId);
    expect(first.map((l) => [l.kind, l.status, l.payoutStatus])).toEqual([['payout', 'reverted', 'failed']]);
    await expectRouterPayout(first[0]?.txHash as string, 'reverted');
    await expectMovedNothing(project.tokenAddress, first[0]?.txHash as string);
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    expect(await tokenBalance(tc, project.tokenAddress, contributor)).toBe(0n);

    // Nothing was paid, so the whole reward is still owed: 19 tokens are not enough for a retry.
    expectError(await approve(base, bountyId), 400, 'insufficient_funds');
    expect(await legsOf(bountyId)).toHaveLength(1);
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 20n * UNIT);
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    await expectPaidOnce(project.tokenAddress, contributor, 20n * UNIT, 1n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['payout', 'reverted'],
      ['payout', 'success'],
    ]);
    expect(legs.map((l) => l.nonce)).toEqual([0, 1].map((i) => (legs[0]?.nonce ?? 0) + i));
  });

  it('answers 502 when receipts cannot be read after broadcasting; the retry sends nothing again', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    // Once the payout is on its way, the node stops answering receipt queries.
    let sends = 0;
    proxy.set({
      beforeSend: async () => {
        if (++sends === 1) proxy.set({ fail: { methods: ['eth_getTransactionReceipt'], mode: 'reset' } });
      },
    });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    expect(sends).toBe(1);
    // The payout is on chain; the database still says only that it was sent.
    expect((await legsOf(bountyId)).map((l) => [l.kind, l.status])).toEqual([['payout', 'sent']]);
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    const sendsBefore = proxy.seen('eth_sendRawTransaction');
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect(proxy.seen('eth_sendRawTransaction')).toBe(sendsBefore);
    await expectPaidOnce(project.tokenAddress, contributor, 100n * UNIT, 5n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect((await legsOf(bountyId)).map((l) => [l.status, l.txHash])).toEqual([
      ['success', res.json().contributor_tx_hash],
    ]);
  });

  it('never pays a payout whose submission was rejected before anything was signed', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 30);
    // The approval stops before signing: the payout wallet's nonce cannot be read (signing reads
    // the chain's pending count under the counter lock, in the transaction that records the
    // payout). Nothing is recorded, nothing signed, so the founder may still reject.
    proxy.set({ fail: { methods: ['eth_getTransactionCount'], mode: 'http500' } });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    expect(await legsOf(bountyId)).toEqual([]);
    const recorded = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    expect(recorded.map((p) => [p.contributorAddress, p.status])).toEqual([]);
    const rejected = await base.app.inject({
      method: 'POST',
      url: `/api/bounties/${bountyId}/reject`,
      headers: founder.headers,
      payload: { review_notes: 'Not what we asked for.' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);

    // Someone else takes the bounty back to review; the reconciler must not pay the rejected one.
    const next = await registerAgent(base.app);
    const claimed = await base.app.inject({
      method: 'POST',
      url: `/api/bounties/${bountyId}/claim`,
      headers: next.headers,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const submitted = await base.app.inject({
      method: 'POST',
      url: `/api/bounties/${bountyId}/submit`,
      headers: next.headers,
      payload: { pr_url: `${project.repoUrl}/pull/${++prSeq}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    await base.app.services.approvals.reconcile();
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    expect(await legsOf(bountyId)).toEqual([]);
    const abandoned = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    expect(abandoned.map((p) => [p.contributorAddress, p.status])).toEqual([]);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    await expectPaidOnce(
      project.tokenAddress,
      next.walletAddress as string,
      30n * UNIT,
      (15n * UNIT) / 10n,
      res.json(),
    );
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(await tokenBalance(tc, project.tokenAddress, contributor)).toBe(0n);
    const paid = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    expect(paid.map((p) => [p.contributorAddress, p.status])).toEqual([[next.walletAddress, 'confirmed']]);
  });

  it('pays once when 20 approvals of one bounty arrive together', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 250);
    // A slow node keeps the winner's payout in flight while the other 19 arrive.
    proxy.set({ delayMs: 100 });
    let responses: Awaited<ReturnType<typeof approve>>[];
    try {
      responses = await Promise.all(Array.from({ length: 20 }, () => approve(base, bountyId)));
    } finally {
      proxy.set({});
    }
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const r of responses.filter((x) => x.statusCode !== 200)) {
      const code = r.json().error?.code;
      expect([r.statusCode, code], r.body).toSatisfy(
        ([s, c]: [number, string]) =>
          (s === 409 && c === 'operation_in_progress') || (s === 400 && c === 'not_in_review'),
      );
    }
    const paid = ok[0]?.json();
    await expectPaidOnce(project.tokenAddress, contributor, 250n * UNIT, 12_500_000_000_000_000_000n, paid);
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect((await legsOf(bountyId)).map((l) => [l.kind, l.status])).toEqual([['payout', 'success']]);
    // Once done, approving again is a plain 400 and moves nothing.
    expectError(await approve(base, bountyId), 400, 'not_in_review');
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
  });

  it('re-broadcasts a dropped transaction with the same bytes and finishes the approval', async () => {
    const ctx = await appOn({ PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1' });
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 60);
    const droppedBefore = proxy.dropped.length;
    proxy.set({ dropSends: true });
    try {
      expectError(await approve(ctx, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    const dropped = proxy.dropped.slice(droppedBefore);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'sent']]);
    const stored = (await attemptsOf(legs[0]?.id as string)).map((x) => x.txHash);
    expect(stored).toHaveLength(1);
    expect(dropped.map((raw) => parseTransaction(raw).nonce)).toEqual([legs[0]?.nonce]);
    await expect(tc.pub.getTransaction({ hash: stored[0] as Hex })).rejects.toThrow();
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    await ctx.app.services.approvals.reconcile();
    const state = await bountyState(bountyId);
    expect(state).toMatchObject({
      status: 'done',
      submission: {
        status: 'approved',
        contributor_tx_hash: stored[0],
        platform_fee_tx_hash: stored[0],
      },
    });
    await expectPaidOnce(project.tokenAddress, contributor, 60n * UNIT, 3n * UNIT, {
      contributor_tx_hash: stored[0] as string,
      platform_fee_tx_hash: stored[0] as string,
    });
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const after = await legsOf(bountyId);
    expect(after.map((l) => [l.status, l.txHash])).toEqual([['success', stored[0]]]);
    expect(await attemptsOf(after[0]?.id as string)).toHaveLength(1);
  });

  it('replaces a stuck transaction at the same nonce with fees raised by at least 10%', async () => {
    const ctx = await appOn({ PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', PAYOUT_STUCK_AFTER_SECONDS: '30' });
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 80);
    await tc.test.setAutomine(false);
    let leg: Awaited<ReturnType<typeof legsOf>>[0];
    try {
      expectError(await approve(ctx, bountyId), 502, 'upstream_error');
      const legs = await legsOf(bountyId);
      expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'sent']]);
      leg = legs[0] as (typeof legs)[0];
      expect(await attemptsOf(leg.id)).toHaveLength(1);

      // Not stuck yet: the reconciler leaves the pending transaction alone.
      await ctx.app.services.approvals.reconcile();
      expect(await attemptsOf(leg.id)).toHaveLength(1);

      ctx.clock.advance(31_000);
      await ctx.app.services.approvals.reconcile();
      expect((await bountyState(bountyId)).status).toBe('in_review');
      const replaced = await attemptsOf(leg.id);
      expect(replaced).toHaveLength(2);
      const [old, next] = replaced as [(typeof replaced)[0], (typeof replaced)[0]];
      expect(parseTransaction(next.rawTx as Hex).nonce).toBe(leg.nonce);
      expect(parseTransaction(old.rawTx as Hex).nonce).toBe(leg.nonce);
      // The replacement is the same router call: same recipient, same call data.
      expect(parseTransaction(next.rawTx as Hex).to).toBe(parseTransaction(old.rawTx as Hex).to);
      expect(parseTransaction(next.rawTx as Hex).data).toBe(parseTransaction(old.rawTx as Hex).data);
      expect(next.maxFeePerGas * 10n).toBeGreaterThanOrEqual(old.maxFeePerGas * 11n);
      expect(next.maxPriorityFeePerGas * 10n).toBeGreaterThanOrEqual(old.maxPriorityFeePerGas * 11n);
      const signed = parseTransaction(next.rawTx as Hex);
      expect([signed.maxFeePerGas, signed.maxPriorityFeePerGas]).toEqual([
        next.maxFeePerGas,
        next.maxPriorityFeePerGas,
      ]);
      await tc.test.mine({ blocks: 1 });
    } finally {
      await tc.test.setAutomine(true);
    }
    await ctx.app.services.approvals.reconcile();
    const legs = await legsOf(bountyId);
    const attempts = await attemptsOf(leg.id);
    expect(legs.map((l) => [l.status, l.txHash])).toEqual([['success', attempts[1]?.txHash]]);
    await expect(tc.pub.getTransactionReceipt({ hash: attempts[0]?.txHash as Hex })).rejects.toThrow();
    const state = await bountyState(bountyId);
    expect(state.status).toBe('done');
    await expectPaidOnce(project.tokenAddress, contributor, 80n * UNIT, 4n * UNIT, {
      contributor_tx_hash: state.submission.contributor_tx_hash as string,
      platform_fee_tx_hash: state.submission.platform_fee_tx_hash as string,
    });
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(state.submission.contributor_tx_hash).toBe(attempts[1]?.txHash);
  });

  it('two instances approving different bounties at once take unique, gap-free nonces', async () => {
    const a = await appOn({}, new EvmChain(tc.options));
    const b = await appOn({}, new EvmChain(tc.options));
    const project = await fundedProject();
    const scenes = [];
    for (let i = 0; i < 10; i++) scenes.push(await inReview(project, 10 + i));
    const responses = await Promise.all(scenes.map((s, i) => approve(i % 2 === 0 ? a : b, s.bountyId)));
    for (const [i, r] of responses.entries()) {
      expect(r.statusCode, r.body).toBe(200);
      const s = scenes[i] as (typeof scenes)[0];
      const reward = BigInt(10 + i) * UNIT;
      await expectPaidOnce(project.tokenAddress, s.contributor, reward, (reward * 500n) / 10_000n, r.json());
    }
    await expectFeeTransfers(
      project.tokenAddress,
      responses.map((r) => r.json().platform_fee_tx_hash),
    );
    expect(await paidFrom(project.tokenAddress)).toHaveLength(20);

    // Every leg this file ever signed: one per nonce, no nonce skipped, each the nonce it mined at.
    const signer = tc.chain.payoutSigner.address;
    const all = await payoutLegsOfSigner(signer);
    expect(all.map((l) => l.kind)).toEqual(all.map(() => 'payout'));
    expect(all.filter((l) => l.status !== 'success' && l.status !== 'reverted')).toEqual([]);
    const nonces = all.map((l) => l.nonce);
    const firstNonce = nonces[0] ?? 0;
    expect(nonces).toEqual(Array.from({ length: all.length }, (_, i) => firstNonce + i));
    await expectMinedAtTheirNonces(tc, signer, all);
    const [counter] = await database.db
      .select()
      .from(accountNonces)
      .where(eq(accountNonces.address, signer.toLowerCase()));
    const chainNonce = await tc.pub.getTransactionCount({ address: getAddress(signer), blockTag: 'pending' });
    expect(counter?.nextNonce).toBe(chainNonce);
    expect(chainNonce).toBe(firstNonce + all.length);
    // One nonce per payout: ten payouts, ten legs, ten distinct nonces.
    const thisTest = await database.db
      .select({ nonce: walletIntents.nonce })
      .from(walletIntents)
      .innerJoin(payouts, eq(payouts.id, walletIntents.payoutId))
      .where(
        inArray(
          payouts.bountyId,
          scenes.map((s) => s.bountyId),
        ),
      );
    expect(thisTest).toHaveLength(10);
    expect(new Set(thisTest.map((l) => l.nonce)).size).toBe(10);
  });

  /** Every payout transaction the key signed (the engine's payout intents), in nonce order. */
  async function payoutLegsOfSigner(signer: string) {
    const intents = await database.db
      .select()
      .from(walletIntents)
      .where(and(eq(walletIntents.signer, signer.toLowerCase()), isNotNull(walletIntents.payoutId)))
      .orderBy(asc(walletIntents.nonce));
    const ids = intents.map((i) => i.id);
    const txs = ids.length
      ? await database.db.select().from(walletTxs).where(inArray(walletTxs.intentId, ids))
      : [];
    return intents.map((i) =>
      legOf(
        i,
        txs.filter((t) => t.intentId === i.id),
      ),
    );
  }
});
