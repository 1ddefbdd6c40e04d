import { asc, eq, inArray } from 'drizzle-orm';
import { getAddress, type Hex, parseTransaction } from 'viem';
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
  expectMinedAtTheirNonces,
  startTestChain,
  type TestChain,
  tokenBalance,
  transferLogs,
} from './helpers/chain.ts';
import { openTestDatabase } from './helpers/database.ts';
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
  async function fundedProject(opts: { allowance?: bigint; eth?: bigint } = {}) {
    const project = await createProject(base.app, founder);
    const deployed = await activateOnChain(base, tc, project.id, project.token_symbol);
    await buyTokens(tc, FOUNDER_ACCOUNT, deployed.curveAddress, opts.eth ?? UNIT);
    await approvePayouts(tc, FOUNDER_ACCOUNT, deployed.tokenAddress, opts.allowance ?? 10n ** 30n);
    return { id: project.id, ...deployed };
  }

  /** A bounty claimed and submitted by a new contributor (own random wallet): `in_review`. */
  async function inReview(project: { id: string; repoUrl: string }, reward: number) {
    const dev = await registerAgent(base.app);
    const bounty = await createBounty(base.app, founder, project.id, { reward_amount: reward });
    const claimed = await base.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/claim`,
      headers: dev.headers,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const submitted = await base.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: dev.headers,
      payload: { pr_url: `${project.repoUrl}/pull/${++prSeq}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    return { bountyId: bounty.id, dev, contributor: dev.walletAddress as string };
  }

  const approve = (ctx: TestContext, bountyId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/approve`, headers: founder.headers });

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

  async function legsOf(bountyId: string) {
    const rows = await database.db
      .select({ leg: payoutLegs, payoutStatus: payouts.status })
      .from(payoutLegs)
      .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
      .where(eq(payouts.bountyId, bountyId))
      .orderBy(asc(payoutLegs.nonce));
    return rows.map((r) => ({ ...r.leg, payoutStatus: r.payoutStatus }));
  }

  async function attemptsOf(legId: string) {
    return database.db
      .select()
      .from(legAttempts)
      .where(eq(legAttempts.legId, legId))
      .orderBy(asc(legAttempts.createdAt));
  }

  /** The founder's outgoing transfers on a token, as the chain's Transfer events record them. */
  async function paidFrom(token: string) {
    return (await transferLogs(tc, token)).filter((l) => same(l.from, founder.walletAddress as string));
  }

  /** The chain holds exactly one contributor transfer of this bounty and its fee transfer, as answered. */
  async function expectPaidOnce(
    token: string,
    contributor: string,
    reward: bigint,
    fee: bigint,
    hashes: { contributor_tx_hash: string; platform_fee_tx_hash: string },
  ) {
    const logs = await paidFrom(token);
    const toContributor = logs.filter((l) => same(l.to, contributor));
    expect(toContributor.map((l) => [l.value, l.txHash])).toEqual([
      [reward - fee, hashes.contributor_tx_hash],
    ]);
    const feeTx = logs.filter((l) => l.txHash === hashes.platform_fee_tx_hash);
    expect(feeTx.map((l) => [l.to, l.value])).toEqual([
      [getAddress(tc.chain.info.treasuryAddress as string), fee],
    ]);
    expect(await tokenBalance(tc, token, contributor)).toBe(reward - fee);
  }

  /** The founder paid the treasury on this token in exactly these transactions, once each. */
  async function expectFeeTransfers(token: string, feeHashes: string[]) {
    const toTreasury = (await paidFrom(token)).filter((l) =>
      same(l.to, tc.chain.info.treasuryAddress as string),
    );
    expect(toTreasury.map((l) => l.txHash).sort()).toEqual([...feeHashes].sort());
  }

  it('pays reward minus fee and the fee exactly, to the base unit, for several fee rates', async () => {
    const project = await fundedProject({ eth: 2n * UNIT });
    const treasury = tc.chain.info.treasuryAddress as string;
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
      const treasuryBefore = await tokenBalance(tc, project.tokenAddress, treasury);
      const res = await approve(ctx, bountyId);
      expect(res.statusCode, res.body).toBe(200);
      const reward = BigInt(c.reward) * UNIT;
      await expectPaidOnce(project.tokenAddress, contributor, reward, c.fee, res.json());
      feeHashes.push(res.json().platform_fee_tx_hash);
      expect(await tokenBalance(tc, project.tokenAddress, treasury)).toBe(treasuryBefore + c.fee);
      expect(await tokenBalance(tc, project.tokenAddress, founder.walletAddress as string)).toBe(
        founderBefore - reward,
      );
      const legs = await legsOf(bountyId);
      expect(legs.map((l) => [l.kind, l.amountUnits, l.status])).toEqual([
        ['contributor', reward - c.fee, 'success'],
        ['fee', c.fee, 'success'],
      ]);
    }
    await expectFeeTransfers(project.tokenAddress, feeHashes);
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2 * cases.length);
  });

  it('answers 502 when the broadcast fails, stores the legs signed, and a retry pays exactly once', async () => {
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
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'signed'],
      ['fee', 'signed'],
    ]);
    const stored = await Promise.all(legs.map((l) => attemptsOf(l.id)));
    expect(stored.map((a) => a.length)).toEqual([1, 1]);
    expect(await paidFrom(project.tokenAddress)).toEqual([]);

    // Through a healthy chain: the stored bytes are broadcast, nothing is signed again.
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect([res.json().contributor_tx_hash, res.json().platform_fee_tx_hash]).toEqual(
      stored.map((a) => a[0]?.txHash),
    );
    await expectPaidOnce(project.tokenAddress, contributor, 100n * UNIT, 5n * UNIT, res.json());
    expect((await legsOf(bountyId)).map((l) => l.status)).toEqual(['success', 'success']);
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

  it('after a lost answer to a broadcast that reached the chain, a retry pays only the rest', async () => {
    // The allowance covers this reward exactly: once the contributor leg has mined, only the fee
    // is left to pay, and the retry must not ask the founder to cover the whole reward again.
    const project = await fundedProject({ allowance: 100n * UNIT });
    const { bountyId, contributor } = await inReview(project, 100);
    proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'reset', afterForwarding: true } });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    // The contributor leg reached anvil and mined; the fee leg was never sent.
    const mined = await paidFrom(project.tokenAddress);
    expect(mined.map((l) => [l.to, l.value])).toEqual([[getAddress(contributor), 95n * UNIT]]);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contributor_tx_hash).toBe(mined[0]?.txHash);
    await expectPaidOnce(project.tokenAddress, contributor, 100n * UNIT, 5n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'success'],
      ['fee', 'success'],
    ]);
  });

  it('answers 502 when the founder revokes the allowance mid-approval; a retry after re-approving pays once', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 40);
    let revoked = false;
    // The funds check has passed and both legs are signed; before the first one reaches the
    // node, the founder sets the allowance to 0, so both transfers mine reverted.
    proxy.set({
      beforeSend: async () => {
        if (revoked) return;
        revoked = true;
        await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 0n);
      },
    });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    expect(revoked).toBe(true);
    const failed = await legsOf(bountyId);
    expect(failed.map((l) => [l.kind, l.status, l.payoutStatus])).toEqual([
      ['contributor', 'reverted', 'failed'],
      ['fee', 'reverted', 'failed'],
    ]);
    for (const leg of failed) {
      expect((await tc.pub.getTransactionReceipt({ hash: leg.txHash as Hex })).status).toBe('reverted');
    }
    expect(await paidFrom(project.tokenAddress)).toEqual([]);
    expect(await bountyState(bountyId)).toMatchObject({
      status: 'in_review',
      submission: { status: 'pending' },
    });

    // Without an allowance the retry is refused before anything is signed.
    expectError(await approve(base, bountyId), 400, 'insufficient_funds');
    expect(await legsOf(bountyId)).toHaveLength(2);

    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 1000n * UNIT);
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    await expectPaidOnce(project.tokenAddress, contributor, 40n * UNIT, 2n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'reverted'],
      ['fee', 'reverted'],
      ['contributor', 'success'],
      ['fee', 'success'],
    ]);
    expect(legs.map((l) => l.nonce)).toEqual(Array.from({ length: 4 }, (_, i) => (legs[0]?.nonce ?? 0) + i));
  });

  it('when only the fee leg reverts, the retry signs a new fee leg and leaves the paid contributor leg', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 20);
    let sends = 0;
    // The contributor leg reaches the node and mines; before the fee leg does, the allowance is gone.
    proxy.set({
      beforeSend: async () => {
        if (++sends === 2) await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 0n);
      },
    });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    const first = await legsOf(bountyId);
    expect(first.map((l) => [l.kind, l.status, l.payoutStatus])).toEqual([
      ['contributor', 'success', 'failed'],
      ['fee', 'reverted', 'failed'],
    ]);
    expect((await paidFrom(project.tokenAddress)).map((l) => l.value)).toEqual([19n * UNIT]);

    // Only the fee is still owed: an allowance of exactly the fee is enough for the retry.
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 1n * UNIT);
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contributor_tx_hash).toBe(first[0]?.txHash);
    await expectPaidOnce(project.tokenAddress, contributor, 20n * UNIT, 1n * UNIT, res.json());
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const legs = await legsOf(bountyId);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'success'],
      ['fee', 'reverted'],
      ['fee', 'success'],
    ]);
    expect(legs.map((l) => l.nonce)).toEqual([0, 1, 2].map((i) => (legs[0]?.nonce ?? 0) + i));
  });

  it('answers 502 when receipts cannot be read after broadcasting; the retry sends nothing again', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    // Once both legs are on their way, the node stops answering receipt queries.
    let sends = 0;
    proxy.set({
      beforeSend: async () => {
        if (++sends === 2) proxy.set({ fail: { methods: ['eth_getTransactionReceipt'], mode: 'reset' } });
      },
    });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    // Both transfers are on chain; the database still says only that they were sent.
    expect((await legsOf(bountyId)).map((l) => l.status)).toEqual(['sent', 'sent']);
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
  });

  it('never pays a payout whose submission was rejected before anything was signed', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 30);
    // The approval stops before signing: the payout wallet's nonce cannot be read. (The counter is
    // seeded from the chain only when missing; with nothing in flight, dropping it is harmless.)
    // Its payout row exists, no leg does, so the founder may still reject.
    await database.db.delete(signerNonces);
    proxy.set({ fail: { methods: ['eth_getTransactionCount'], mode: 'http500' } });
    try {
      expectError(await approve(base, bountyId), 502, 'upstream_error');
    } finally {
      proxy.set({});
    }
    expect(await legsOf(bountyId)).toEqual([]);
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
    const abandoned = await database.db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
    expect(abandoned.map((p) => [p.contributorAddress, p.status])).toEqual([[contributor, 'failed']]);
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
    expect(await legsOf(bountyId)).toHaveLength(2);
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
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'sent'],
      ['fee', 'sent'],
    ]);
    const stored = (await Promise.all(legs.map((l) => attemptsOf(l.id)))).map((a) => a.map((x) => x.txHash));
    expect(stored.map((a) => a.length)).toEqual([1, 1]);
    expect(dropped.map((raw) => parseTransaction(raw).nonce)).toEqual(legs.map((l) => l.nonce));
    for (const [hash] of stored) {
      await expect(tc.pub.getTransaction({ hash: hash as Hex })).rejects.toThrow();
    }
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
        contributor_tx_hash: stored[0]?.[0],
        platform_fee_tx_hash: stored[1]?.[0],
      },
    });
    await expectPaidOnce(project.tokenAddress, contributor, 60n * UNIT, 3n * UNIT, {
      contributor_tx_hash: stored[0]?.[0] as string,
      platform_fee_tx_hash: stored[1]?.[0] as string,
    });
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    const after = await legsOf(bountyId);
    expect((await Promise.all(after.map((l) => attemptsOf(l.id)))).map((a) => a.length)).toEqual([1, 1]);
    expect(after.map((l) => l.status)).toEqual(['success', 'success']);
  });

  it('replaces a stuck transaction at the same nonce with fees raised by at least 10%', async () => {
    const ctx = await appOn({ PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', PAYOUT_STUCK_AFTER_SECONDS: '30' });
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 80);
    await tc.test.setAutomine(false);
    try {
      expectError(await approve(ctx, bountyId), 502, 'upstream_error');
      const legs = await legsOf(bountyId);
      expect(legs.map((l) => l.status)).toEqual(['sent', 'sent']);
      const first = await Promise.all(legs.map((l) => attemptsOf(l.id)));
      expect(first.map((a) => a.length)).toEqual([1, 1]);

      // Not stuck yet: the reconciler leaves the pending transactions alone.
      await ctx.app.services.approvals.reconcile();
      expect((await Promise.all(legs.map((l) => attemptsOf(l.id)))).map((a) => a.length)).toEqual([1, 1]);

      ctx.clock.advance(31_000);
      await ctx.app.services.approvals.reconcile();
      expect((await bountyState(bountyId)).status).toBe('in_review');
      const replaced = await Promise.all(legs.map((l) => attemptsOf(l.id)));
      expect(replaced.map((a) => a.length)).toEqual([2, 2]);
      for (const [i, leg] of legs.entries()) {
        const [old, next] = replaced[i] as [(typeof replaced)[0][0], (typeof replaced)[0][0]];
        expect(parseTransaction(next.rawTx as Hex).nonce).toBe(leg.nonce);
        expect(parseTransaction(old.rawTx as Hex).nonce).toBe(leg.nonce);
        expect(next.maxFeePerGas * 10n).toBeGreaterThanOrEqual(old.maxFeePerGas * 11n);
        expect(next.maxPriorityFeePerGas * 10n).toBeGreaterThanOrEqual(old.maxPriorityFeePerGas * 11n);
        const signed = parseTransaction(next.rawTx as Hex);
        expect([signed.maxFeePerGas, signed.maxPriorityFeePerGas]).toEqual([
          next.maxFeePerGas,
          next.maxPriorityFeePerGas,
        ]);
      }
      await tc.test.mine({ blocks: 1 });
    } finally {
      await tc.test.setAutomine(true);
    }
    await ctx.app.services.approvals.reconcile();
    const legs = await legsOf(bountyId);
    const attempts = await Promise.all(legs.map((l) => attemptsOf(l.id)));
    expect(legs.map((l) => [l.status, l.txHash])).toEqual(attempts.map((a) => ['success', a[1]?.txHash]));
    for (const a of attempts) {
      await expect(tc.pub.getTransactionReceipt({ hash: a[0]?.txHash as Hex })).rejects.toThrow();
    }
    const state = await bountyState(bountyId);
    expect(state.status).toBe('done');
    await expectPaidOnce(project.tokenAddress, contributor, 80n * UNIT, 4n * UNIT, {
      contributor_tx_hash: state.submission.contributor_tx_hash as string,
      platform_fee_tx_hash: state.submission.platform_fee_tx_hash as string,
    });
    expect(await paidFrom(project.tokenAddress)).toHaveLength(2);
    expect(state.submission.contributor_tx_hash).toBe(attempts[0]?.[1]?.txHash);
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
    const all = await database.db
      .select()
      .from(payoutLegs)
      .where(eq(payoutLegs.signer, signer))
      .orderBy(asc(payoutLegs.nonce));
    const nonces = all.map((l) => l.nonce);
    const firstNonce = nonces[0] ?? 0;
    expect(nonces).toEqual(Array.from({ length: all.length }, (_, i) => firstNonce + i));
    await expectMinedAtTheirNonces(tc, signer, all);
    const [counter] = await database.db.select().from(signerNonces).where(eq(signerNonces.address, signer));
    const chainNonce = await tc.pub.getTransactionCount({ address: getAddress(signer), blockTag: 'pending' });
    expect(counter?.nextNonce).toBe(chainNonce);
    expect(chainNonce).toBe(firstNonce + all.length);
    const thisTest = await database.db
      .select({ nonce: payoutLegs.nonce })
      .from(payoutLegs)
      .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
      .where(
        inArray(
          payouts.bountyId,
          scenes.map((s) => s.bountyId),
        ),
      );
    expect(new Set(thisTest.map((l) => l.nonce)).size).toBe(20);
  });
});
