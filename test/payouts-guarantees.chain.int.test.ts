import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createWalletClient, getAddress, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { Database } from '../src/infra/db/client.ts';
import { accountNonces, activityEvents, bounties } from '../src/infra/db/schema.ts';
import * as idempotencyRepo from '../src/infra/http/idempotency.repo.ts';
import { requestHash } from '../src/infra/http/idempotency.ts';
import * as bountiesRepo from '../src/modules/bounties/bounty-state.repo.ts';
import { buildTestApp, expectError, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { bountyInReview, fundedChainProject } from './helpers/builders.ts';
import {
  approvePayouts,
  startTestChain,
  type TestChain,
  type TransferLog,
  transferLogs,
} from './helpers/chain.ts';
import { openTestDatabase } from './helpers/database.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { deliverMerge } from './helpers/merge-webhook.ts';
import { payoutLegsOf } from './helpers/payout-rows.ts';
import { setRepoLogin } from './helpers/repo-login.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const FOUNDER_LOGIN = 'guarantee-founder';
const PAYOUT_KEY_ACCOUNT = 1;
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/**
 * "A payment the contributor can count on" (contract), on a real anvil and the file's database:
 * funds reserved across concurrent approvals, the reward and the fee in one transaction that
 * succeeds or fails whole, owed rewards after the founder's merge, reorgs, a payout nonce used
 * outside the service, fenced leases, and a retried approval that died mid-payout. The token's
 * Transfer logs are the judge.
 */
describe('payments the contributor can count on', () => {
  let tc: TestChain;
  let database: Database;
  let base: TestContext;
  let other: TestContext;
  let founder: TestAgent;
  const host = new FakeRepoHost();
  let devSeq = 0;

  beforeAll(async () => {
    tc = await startTestChain();
    database = await openTestDatabase();
    const env = { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '5', APPROVAL_LEASE_SECONDS: '10' };
    base = await buildTestApp({ chain: tc.chain, database, repoHost: host, env });
    // A second instance on the same database and chain, with its own chain client.
    other = await buildTestApp({ chain: new EvmChain(tc.options), database, repoHost: host, env });
    founder = await registerAgent(base.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
    await setRepoLogin(base, founder.id, FOUNDER_LOGIN);
  });
  afterAll(async () => {
    await other?.close();
    await base?.close();
    await database?.close();
    await tc?.stop();
  });

  const fundedProject = (allowance: bigint = 10n ** 30n) =>
    fundedChainProject(base, tc, founder, { account: FOUNDER_ACCOUNT, eth: UNIT / 100n, allowance });

  const inReview = (project: { id: string; repoUrl: string }, reward: number) =>
    bountyInReview(base, founder, project, reward, { login: `guarantee-dev-${process.pid}-${++devSeq}` });

  const post = (ctx: TestContext, url: string, agent: TestAgent, payload?: object, headers = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...agent.headers, ...headers },
      ...(payload ? { payload } : {}),
    });
  const approve = (ctx: TestContext, bountyId: string, headers = {}) =>
    post(ctx, `/api/bounties/${bountyId}/approve`, founder, undefined, headers);

  async function bounty(bountyId: string) {
    const res = await base.app.inject({ method: 'GET', url: `/api/bounties/${bountyId}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().bounty as {
      status: string;
      payment_owed: boolean;
      submissions: { id: string; status: string; contributor_tx_hash: string | null }[];
    };
  }

  /** Transfers from the founder on the token: to each contributor and to the treasury. */
  async function paidFrom(token: string) {
    const logs = (await transferLogs(tc, token)).filter((l) =>
      same(l.from, tc.account(FOUNDER_ACCOUNT).address),
    );
    const treasury = tc.chain.info.treasuryAddress;
    return {
      contributor: (to: string) => logs.filter((l) => same(l.to, to)),
      fees: logs.filter((l) => same(l.to, treasury)),
      all: logs,
    };
  }

  /** Every fee transfer sits in a transaction that also pays a contributor. */
  function expectNoFeeWithoutReward(logs: TransferLog[], treasury: string) {
    for (const fee of logs.filter((l) => same(l.to, treasury))) {
      const reward = logs.filter((l) => l.txHash === fee.txHash && !same(l.to, treasury));
      expect(reward, `fee in ${fee.txHash}`).toHaveLength(1);
    }
  }

  async function withBlockTime<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
    await tc.test.setAutomine(false);
    await tc.test.setIntervalMining({ interval: seconds });
    try {
      return await fn();
    } finally {
      await tc.test.setIntervalMining({ interval: 0 });
      await tc.test.setAutomine(true);
    }
  }

  it('reserves funds: two approvals that together exceed the allowance pay one and refuse the other (400, nothing sent)', async () => {
    const project = await fundedProject();
    const a = await inReview(project, 100);
    const b = await inReview(project, 100);
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 150n * UNIT);
    // Blocks every second: the first payout is still in flight when the second checks the funds.
    const results = await withBlockTime(1, () =>
      Promise.all([approve(base, a.bountyId), approve(other, b.bountyId)]),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes, results.map((r) => r.body).join('\n')).toEqual([200, 400]);
    const refused = results.find((r) => r.statusCode === 400);
    expect(refused?.json().error.code).toBe('insufficient_funds');
    const paid = await paidFrom(project.tokenAddress);
    expect(paid.fees).toHaveLength(1);
    expect(paid.fees[0]?.value).toBe(5n * UNIT);
    expect([...paid.contributor(a.contributor), ...paid.contributor(b.contributor)]).toHaveLength(1);
    expectNoFeeWithoutReward(paid.all, tc.chain.info.treasuryAddress as string);
    // The refused one is still in review and can be paid once the founder raises the allowance.
    const waiting = results[0]?.statusCode === 400 ? a : b;
    expect((await bounty(waiting.bountyId)).status).toBe('in_review');
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
    expect((await approve(base, waiting.bountyId)).statusCode).toBe(200);
    expect((await paidFrom(project.tokenAddress)).fees).toHaveLength(2);
  });

  it('never sends a fee without its reward: a founder who cuts the allowance before the payout mines makes it fail whole', async () => {
    const project = await fundedProject(100n * UNIT);
    const { bountyId, contributor } = await inReview(project, 100);
    const founderWallet = createWalletClient({
      account: anvilAccount(FOUNDER_ACCOUNT),
      chain: foundry,
      transport: http(tc.rpcUrl),
    });
    const res = await withBlockTime(2, async () => {
      const pending = approve(base, bountyId);
      // Once the payout is on its way, the founder lowers the allowance with a far higher tip: the
      // block orders the founder's transaction first, and the payout cannot take the fee alone.
      await waitFor(async () => (await legRows(bountyId)).some((l) => l.status === 'sent'));
      await founderWallet.writeContract({
        address: getAddress(project.tokenAddress),
        abi: projectTokenAbi,
        functionName: 'approve',
        args: [getAddress(tc.chain.info.payoutSpenderAddress as string), 97n * UNIT],
        maxPriorityFeePerGas: 50n * 10n ** 9n,
        maxFeePerGas: 100n * 10n ** 9n,
      });
      return pending;
    });
    // The payout transaction reverted on chain, whole: a 502, and nothing is signed on its own.
    expectError(res, 502, 'upstream_error');
    expect((await legRows(bountyId)).map((l) => l.status)).toEqual(['reverted']);
    // Approving again is refused by the funds check before anything is signed.
    expectError(await approve(base, bountyId), 400, 'insufficient_funds');
    expect((await legRows(bountyId)).map((l) => l.status)).toEqual(['reverted']);
    const paid = await paidFrom(project.tokenAddress);
    expect(paid.contributor(contributor)).toHaveLength(0);
    expect(paid.fees).toHaveLength(0);
    expect((await bounty(bountyId)).status).toBe('in_review');
    // Not merged by the founder: the founder may still reject it.
    const rejected = await post(base, `/api/bounties/${bountyId}/reject`, founder, {
      review_notes: 'No funds',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
  });

  it('owes a merged reward: reject is 409 payment_owed, the failure is told once to both, and the service pays when funds return', async () => {
    const project = await fundedProject();
    const { bountyId, dev, prUrl, contributor } = await inReview(project, 100);
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n * UNIT);
    host.setPullRequest(prUrl, {
      state: 'closed',
      merged: true,
      mergedByLogin: FOUNDER_LOGIN,
      authorLogin: 'x',
    });
    const merged = await deliverMerge(base.app, host.webhookSecret, prUrl);
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ status: 'owed', bounty_id: bountyId });
    await base.app.services.owedPayouts.run();
    await other.app.services.owedPayouts.run();
    const b = await bounty(bountyId);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
    const projectJson = (await base.app.inject({ method: 'GET', url: `/api/projects/${project.id}` })).json();
    expect(projectJson.project.review_stats.owed).toBe(1);
    const failures = await database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, 'payout.failed'), eq(activityEvents.bountyId, bountyId)));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.recipients?.toSorted()).toEqual([founder.id, dev.id].toSorted());
    expect(failures[0]?.data).toMatchObject({ reason: 'insufficient_funds' });
    expectError(
      await post(base, `/api/bounties/${bountyId}/reject`, founder, { review_notes: 'changed my mind' }),
      409,
      'payment_owed',
    );
    expect((await paidFrom(project.tokenAddress)).all).toHaveLength(0);
    // The founder's funds cover it again: the next pass pays it, once.
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
    await Promise.all([base.app.services.owedPayouts.run(), other.app.services.owedPayouts.run()]);
    expect(await bounty(bountyId)).toMatchObject({ status: 'done', payment_owed: false });
    const paid = await paidFrom(project.tokenAddress);
    expect(paid.contributor(contributor).map((l) => l.value)).toEqual([95n * UNIT]);
    expect(paid.fees.map((l) => l.value)).toEqual([5n * UNIT]);
  });

  it('pays an owed reward within seconds of the founder restoring the allowance its payout reverted for', async () => {
    const project = await fundedProject();
    const { bountyId, prUrl, contributor } = await inReview(project, 100);
    host.setPullRequest(prUrl, {
      state: 'closed',
      merged: true,
      mergedByLogin: FOUNDER_LOGIN,
      authorLogin: 'x',
    });
    const founderWallet = createWalletClient({
      account: anvilAccount(FOUNDER_ACCOUNT),
      chain: foundry,
      transport: http(tc.rpcUrl),
    });
    await withBlockTime(2, async () => {
      // The merge nudges the owed-payouts job, which signs and sends the payout.
      const merged = await deliverMerge(base.app, host.webhookSecret, prUrl);
      expect(merged.json()).toMatchObject({ status: 'owed', bounty_id: bountyId });
      await waitFor(async () => (await legRows(bountyId)).some((l) => l.status === 'sent'));
      // Before it mines, the founder drops the allowance to nothing, with a far higher tip: the
      // block orders the founder's transaction first and the payout reverts.
      await founderWallet.writeContract({
        address: getAddress(project.tokenAddress),
        abi: projectTokenAbi,
        functionName: 'approve',
        args: [getAddress(tc.chain.info.payoutSpenderAddress as string), 0n],
        maxPriorityFeePerGas: 50n * 10n ** 9n,
        maxFeePerGas: 100n * 10n ** 9n,
      });
      await waitFor(async () => (await legRows(bountyId)).some((l) => l.status === 'reverted'));
      await base.app.services.owedPayouts.idle();
    });
    expect((await legRows(bountyId)).map((l) => l.status)).toEqual(['reverted']);
    expect(await bounty(bountyId)).toMatchObject({ status: 'in_review', payment_owed: true });
    // The chain watcher follows the token from here (its first poll starts at the head).
    await base.app.services.chainWatcher.poll();

    // The founder restores the allowance. The watcher sees the Approval and wakes the job, which
    // pays at once: the revert was the allowance's (0 at its block), not a token that refuses
    // the transfer, so nothing waits the 30 s back-off of an unexplained revert. No pass of the
    // job is run by hand, and the test's clock stands still.
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
    const restored = Date.now();
    await base.app.services.chainWatcher.poll();
    await waitFor(async () => (await bounty(bountyId)).status === 'done', 5_000);
    expect(Date.now() - restored).toBeLessThan(5_000);
    expect(await bounty(bountyId)).toMatchObject({ status: 'done', payment_owed: false });
    expect((await legRows(bountyId)).map((l) => l.status)).toEqual(['reverted', 'success']);
    const paid = await paidFrom(project.tokenAddress);
    expect(paid.contributor(contributor).map((l) => l.value)).toEqual([95n * UNIT]);
    expect(paid.fees.map((l) => l.value)).toEqual([5n * UNIT]);
  });

  it('puts a payout a reorg dropped back on chain with the same bytes, and pays once', async () => {
    const project = await fundedProject();
    const { bountyId, contributor } = await inReview(project, 100);
    const snapshot = await tc.test.snapshot();
    const res = await approve(base, bountyId);
    expect(res.statusCode, res.body).toBe(200);
    const hash = res.json().contributor_tx_hash as string;
    expect((await paidFrom(project.tokenAddress)).contributor(contributor)).toHaveLength(1);
    // The block with the payout is gone, and the node forgot the transaction.
    await tc.test.revert({ id: snapshot });
    await tc.test.mine({ blocks: 2 });
    expect((await paidFrom(project.tokenAddress)).contributor(contributor)).toHaveLength(0);
    // The transaction engine's pass puts it back; the reconciler then finds nothing left to do.
    const repair = async () => {
      await base.app.services.txEngine.run();
      await base.app.services.approvals.reconcile();
    };
    await repair();
    await waitFor(async () => (await paidFrom(project.tokenAddress)).contributor(contributor).length === 1);
    // A pass follows a transaction a second after its last change (the test's clock stands still).
    base.clock.advance(2_000);
    await repair();
    const paid = await paidFrom(project.tokenAddress);
    expect(paid.contributor(contributor).map((l) => l.txHash)).toEqual([hash]);
    expect(paid.fees.map((l) => l.txHash)).toEqual([hash]);
    expect((await legRows(bountyId)).map((l) => [l.status, l.txHash])).toEqual([['success', hash]]);
  });

  it('notices a payout nonce used outside the service, signs again at a fresh nonce, and never pays twice', async () => {
    const project = await fundedProject();
    const first = await inReview(project, 10);
    expect((await approve(base, first.bountyId)).statusCode).toBe(200);
    // The same payout key sends a transaction of its own (another deployment, a person).
    const payoutWallet = createWalletClient({
      account: anvilAccount(PAYOUT_KEY_ACCOUNT),
      chain: foundry,
      transport: http(tc.rpcUrl),
    });
    const outside = await payoutWallet.sendTransaction({ to: payoutWallet.account.address, value: 0n });
    const taken = (await tc.pub.getTransaction({ hash: outside })).nonce;
    await tc.pub.waitForTransactionReceipt({ hash: outside });
    // Mined before the next payout is signed: signing reads the chain's count and skips past it.
    const second = await inReview(project, 100);
    const res = await approve(base, second.bountyId);
    expect(res.statusCode, res.body).toBe(200);
    expect((await legRows(second.bountyId)).map((l) => [l.status, l.nonce])).toEqual([
      ['success', taken + 1],
    ]);
    // Used while the next payout waits in the node's pool: the outside transaction, at its nonce
    // with a far higher tip, takes its place; the engine gives that payout transaction up and the
    // reconciler signs the payout again at a fresh nonce.
    const { bountyId, contributor } = await inReview(project, 100);
    const answer = await withBlockTime(3_600, async () => {
      const pending = approve(base, bountyId);
      await waitFor(async () => (await legRows(bountyId)).some((l) => l.status === 'sent'));
      const [leg] = await legRows(bountyId);
      await payoutWallet.sendTransaction({
        to: payoutWallet.account.address,
        value: 0n,
        nonce: leg?.nonce as number,
        maxPriorityFeePerGas: 50n * 10n ** 9n,
        maxFeePerGas: 100n * 10n ** 9n,
      });
      await tc.test.mine({ blocks: 1 });
      return pending;
    });
    expectError(answer, 502, 'upstream_error');
    base.clock.advance(2_000);
    await base.app.services.txEngine.run();
    await base.app.services.approvals.reconcile();
    expect(await bounty(bountyId)).toMatchObject({ status: 'done' });
    const legs = await legRows(bountyId);
    expect(legs.map((l) => l.status)).toEqual(['dropped', 'success']);
    const paid = await paidFrom(project.tokenAddress);
    for (const c of [first.contributor, second.contributor, contributor]) {
      expect(paid.contributor(c)).toHaveLength(1);
    }
    expect(paid.contributor(contributor).map((l) => l.txHash)).toEqual([legs[1]?.txHash]);
    expect(paid.fees).toHaveLength(3);
    expectNoFeeWithoutReward(paid.all, tc.chain.info.treasuryAddress as string);
    const [counter] = await database.db
      .select()
      .from(accountNonces)
      .where(eq(accountNonces.address, tc.chain.payoutSigner.address.toLowerCase()));
    expect(counter?.nextNonce).toBe(
      await tc.pub.getTransactionCount({ address: getAddress(tc.chain.payoutSigner.address) }),
    );
  });

  it('fences leases: an approval that outlived its lease never releases the lease another took', async () => {
    const project = await fundedProject();
    const { bountyId } = await inReview(project, 10);
    // A lease that lapsed a second ago (by the database's clock), then another's.
    expect(await bountiesRepo.takeLease(database.db, bountyId, 'stale', -1000)).toBeDefined();
    expect(await bountiesRepo.takeLease(database.db, bountyId, 'fresh', 60_000)).toBeDefined();
    await bountiesRepo.releaseLease(database.db, bountyId, 'stale');
    const [row] = await database.db.select().from(bounties).where(eq(bounties.id, bountyId));
    expect(row?.approvalLeaseOwner).toBe('fresh');
    expectError(await approve(base, bountyId), 409, 'operation_in_progress');
    await bountiesRepo.releaseLease(database.db, bountyId, 'fresh');
    expect((await approve(base, bountyId)).statusCode).toBe(200);
  });

  it('answers an Idempotency-Key retry of an approval that died mid-payout with its outcome', async () => {
    const project = await fundedProject();
    const { bountyId } = await inReview(project, 10);
    const key = `approve-${bountyId}`;
    const url = `/api/bounties/${bountyId}/approve`;
    // The first request reserved its key and died; its lock has lapsed.
    const now = base.clock.now();
    await idempotencyRepo.claim(
      database.db,
      {
        scope: founder.id,
        key: createHash('sha256').update(key).digest('hex'),
        method: 'POST',
        path: url,
        requestHash: requestHash(undefined),
      },
      { now, lockSeconds: -1, expiresAt: new Date(now.getTime() + 3_600_000) },
    );
    // Meanwhile the payout finished (here by another approval, as the reconciler would).
    const done = await approve(other, bountyId);
    expect(done.statusCode, done.body).toBe(200);
    const retry = await approve(base, bountyId, { 'idempotency-key': key });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(done.json());
    // Without the key it is an ordinary approve of a done bounty.
    expectError(await approve(base, bountyId), 400, 'not_in_review');
  });

  /** The bounty's payout transactions (the engine's intents, read as legs), in the order signed. */
  const legRows = (bountyId: string) => payoutLegsOf(database.db, { bountyId });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
