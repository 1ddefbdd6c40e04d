import { and, asc, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { Database } from '../src/infra/db/client.ts';
import { activityEvents, bounties, payouts, submissions, walletIntents } from '../src/infra/db/schema.ts';
import type { PayoutLeg } from '../src/modules/payouts/payout-legs.ts';
import { formatAudit } from '../src/modules/payouts/payouts-audit.ts';
import {
  buildTestApp,
  createBounty,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { fundedChainProject } from './helpers/builders.ts';
import { approvePayouts, startTestChain, type TestChain, transferLogs } from './helpers/chain.ts';
import { TestClock } from './helpers/clock.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { openTestDatabase } from './helpers/database.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { deliverMerge } from './helpers/merge-webhook.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { type Faults, type RpcProxy, startRpcProxy } from './helpers/rpc-proxy.ts';

/**
 * A model test of the money path: random interleavings of claim, unclaim, submit, reject,
 * approve, merge webhooks (a founder's merge makes the reward owed; the owed-payouts job pays it),
 * claim expiry, crash-and-restart of the payout driver and RPC faults, on a real anvil and the
 * file's database. After every step the chain's Transfer logs are the judge: each approved
 * submission paid exactly once to its own submitter, in one router transaction that also paid the
 * fee, nothing else paid, never a fee without its reward; owed rewards stay owed until paid. At
 * the end of each run no bounty is stuck, every owed reward was paid by the job, and
 * `npm run audit:payouts` finds no difference. MODEL_SEED replays a run; MODEL_RUNS sets how many.
 * Seeds that once found a failure run again on every push, as fixed cases.
 */

const UNIT = 10n ** 18n;
const FEE_BPS = 500n;
const FOUNDER_ACCOUNT = 3;
const FOUNDER_LOGIN = 'model-founder';
// 6 runs on every push, 25 with TEST_FULL=1 (see helpers/counts.ts); MODEL_RUNS wins over both.
const RUNS = randomRuns('MODEL_RUNS', 6, 25);
const SEED = randomSeed('MODEL_SEED');
const CLAIM_TTL_MS = 3_600_000;
// Batches of `runs` more runs after one whose runs paid nothing during their steps (modelRuns).
const TOP_UPS = 2;
const lower = (a: string | null | undefined) => (a ?? '').toLowerCase();

const FAULTS = {
  none: null,
  /** The node refuses broadcasts: legs stay signed, nothing reaches the chain. */
  send500: { fail: { methods: ['eth_sendRawTransaction'], mode: 'http500' } },
  /** A broadcast reaches the node but its answer is lost. */
  lostAnswer: { fail: { methods: ['eth_sendRawTransaction'], mode: 'reset', afterForwarding: true } },
  /** Broadcasts are acknowledged and silently dropped, as by a node that forgets its pool. */
  dropSends: { dropSends: true },
  /** Receipts cannot be read. */
  receiptsDown: { fail: { methods: ['eth_getTransactionReceipt'], mode: 'reset' } },
} satisfies Record<string, Faults | null>;
type Fault = keyof typeof FAULTS;
const fault = fc.constantFrom<Fault>(
  'none',
  'none',
  'none',
  'send500',
  'lostAnswer',
  'dropSends',
  'receiptsDown',
);

const bountyIx = fc.nat(2);
const step = fc.oneof(
  {
    // The bounty's next move in its life (claim, submit, then approve or a founder's merge), so
    // runs reach the money path often; the other steps interleave around it.
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('advance' as const),
      bounty: bountyIx,
      agent: fc.nat(2),
      viaMerge: fc.boolean(),
      fault,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ t: fc.constant('claim' as const), agent: fc.nat(2), bounty: bountyIx }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('unclaim' as const), bounty: bountyIx, wrongActor: fc.boolean() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('submit' as const),
      bounty: bountyIx,
      foreign: fc.nat(5).map((n) => n === 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('reject' as const), bounty: bountyIx }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('approve' as const), bounty: bountyIx, fault }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('merge' as const),
      bounty: bountyIx,
      byFounder: fc.boolean(),
      fault,
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('expire' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('crash' as const), bounty: bountyIx, midPayout: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('allowance' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('reconcile' as const) }) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Wall time plus the test's jumps: the driver's "unsent for a while" needs time to pass. */
class WallClock extends TestClock {
  private offset = 0;
  override now(): Date {
    return new Date(Date.now() + this.offset);
  }
  override advance(ms: number): void {
    this.offset += ms;
  }
}

interface Run {
  n: number;
  projectId: string;
  repoUrl: string;
  token: string;
  devs: (TestAgent & { login: string })[];
  bountyIds: string[];
  allowanceOn: boolean;
}

describe('the money path under random interleavings', () => {
  let tc: TestChain;
  let proxy: RpcProxy;
  let database: Database;
  let ctx: TestContext;
  let founder: TestAgent;
  const clock = new WallClock();
  const host = new FakeRepoHost();
  const env = {
    PLATFORM_FEE_BPS: String(FEE_BPS),
    PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1',
    APPROVAL_LEASE_SECONDS: '5',
    CLAIM_TTL_HOURS: '1',
    // The model expects a claim of an open bounty by a free contributor to succeed, also right
    // after that contributor gave it back or let it lapse; the cooldown has its own tests
    // (claim-limits.int.test.ts).
    RECLAIM_COOLDOWN_HOURS: '0',
  };
  let prSeq = 0;
  /** Merged pull requests: merged by the founder (true) or by someone else. */
  const mergedBy = new Map<string, boolean>();
  const stats = new Map<string, number>();
  /** Runs of the file so far: each run's contributors get their own repository logins. */
  let runNo = 0;
  const count = (k: string) => stats.set(k, (stats.get(k) ?? 0) + 1);

  /** An app as a fresh process would build it: its own chain client through the proxy. */
  const startApp = () =>
    buildTestApp({
      chain: new EvmChain({ ...tc.options, rpcUrl: proxy.url }),
      database,
      clock,
      repoHost: host,
      env,
    });

  beforeAll(async () => {
    tc = await startTestChain();
    proxy = await startRpcProxy(tc.rpcUrl);
    database = await openTestDatabase();
    ctx = await startApp();
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
    await setRepoLogin(ctx, founder.id, FOUNDER_LOGIN);
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.close();
    await proxy?.close();
    await tc?.stop();
  });

  const post = (url: string, agent: TestAgent, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: agent.headers, ...(payload ? { payload } : {}) });

  /** A project with its own token (so each run's Transfer logs are its own), 3 contributors, bounties. */
  async function newRun(n: number, rewards: number[]): Promise<Run> {
    const funds = { account: FOUNDER_ACCOUNT, eth: UNIT / 100n, allowance: 10n ** 30n };
    const deployed = await fundedChainProject(ctx, tc, founder, funds);
    const devs = [];
    for (let i = 0; i < 3; i++) {
      const dev = await registerAgent(ctx.app);
      const login = `model-${process.pid}-${n}-${i}`;
      await setRepoLogin(ctx, dev.id, login);
      devs.push({ ...dev, login });
    }
    const bountyIds = [];
    for (const reward of rewards) {
      bountyIds.push((await createBounty(ctx.app, founder, deployed.id, { reward_amount: reward })).id);
    }
    return {
      n,
      projectId: deployed.id,
      repoUrl: deployed.repoUrl,
      token: deployed.tokenAddress,
      devs,
      bountyIds,
      allowanceOn: true,
    };
  }

  async function snapshot(run: Run) {
    const db = database.db;
    const bs = await db.select().from(bounties).where(inArray(bounties.id, run.bountyIds));
    const subs = await db.select().from(submissions).where(inArray(submissions.bountyId, run.bountyIds));
    const pays = await db.select().from(payouts).where(inArray(payouts.bountyId, run.bountyIds));
    const legs: PayoutLeg[] = [];
    for (const bountyId of run.bountyIds) legs.push(...(await payoutLegsOf(db, { bountyId })));
    const attempts = await attemptsOfLegs(
      db,
      legs.map((l) => l.id),
    );
    const bounty = (i: number) => {
      const b = bs.find((x) => x.id === run.bountyIds[i]);
      if (!b) throw new Error(`no bounty ${i}`);
      const pending = subs.find((s) => s.bountyId === b.id && s.status === 'pending');
      const payout = pending && pays.find((p) => p.submissionId === pending.id);
      const own = payout ? legs.filter((l) => l.payoutId === payout.id) : [];
      // A leg that may still move the tokens, or has: the founder may no longer reject.
      const paying = own.some((l) => l.status !== 'reverted' && l.status !== 'dropped');
      return { ...b, pending, paying };
    };
    const failures = await db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, 'payout.failed'), inArray(activityEvents.bountyId, run.bountyIds)))
      .orderBy(asc(activityEvents.id));
    return { bs, subs, pays, legs, attempts, failures, bounty };
  }

  /**
   * The invariants, from the token's Transfer logs: every leg is one router call, and each
   * transaction that moved tokens out of the founder's wallet is a mined attempt of one of them,
   * for a submission approved or still pending, with exactly two transfers: reward minus fee to
   * that submission's author, then the fee to the treasury (never a fee without its reward); at
   * most one such transaction per payout. Each approved submission records that one transaction
   * as both its contributor and its fee hash. Bounty and submission states agree; a bounty owes
   * payment exactly while its pending submission was merged by the founder; `payout.failed` goes
   * only for such a submission, to the founder and its author, never twice in a row for one
   * reason. With `settled`, nothing moves but the approved submissions' transfers.
   */
  async function checkInvariants(run: Run, settled: boolean) {
    const s = await snapshot(run);
    const treasury = lower(tc.chain.info.treasuryAddress);
    const founderAddress = lower(founder.walletAddress);
    const logs = (await transferLogs(tc, run.token)).filter((l) => lower(l.from) === founderAddress);
    const walletOf = new Map(run.devs.map((d) => [d.id, lower(d.walletAddress)]));
    const split = (bountyId: string | undefined) => {
      const reward = BigInt(s.bs.find((b) => b.id === bountyId)?.rewardAmount ?? 0) * UNIT;
      const fee = (reward * FEE_BPS) / 10_000n;
      return { reward, fee };
    };
    for (const leg of s.legs) expect(leg.kind, `leg ${leg.id} is one router call`).toBe('payout');
    const approved = s.subs.filter((x) => x.status === 'approved');
    for (const sub of approved) {
      const { reward, fee } = split(sub.bountyId);
      expect(sub.contributorTxHash, `submission ${sub.id} records its payout`).toMatch(/^0x[0-9a-f]{64}$/);
      expect(sub.platformFeeTxHash, `submission ${sub.id}: one transaction pays both`).toBe(
        sub.contributorTxHash,
      );
      expect(
        logs.filter((l) => l.txHash === sub.contributorTxHash).map((l) => [lower(l.to), l.value]),
        `submission ${sub.id} paid to its submitter and the treasury once, together`,
      ).toEqual([
        [walletOf.get(sub.agentId), reward - fee],
        [treasury, fee],
      ]);
    }
    const legOfTx = new Map(
      s.attempts.map((a) => [lower(a.txHash), s.legs.find((l) => l.id === a.legId)] as const),
    );
    const byTx = new Map<string, typeof logs>();
    for (const l of logs) byTx.set(lower(l.txHash), [...(byTx.get(lower(l.txHash)) ?? []), l]);
    const paidPayouts = new Set<string>();
    for (const [hash, moved] of byTx) {
      const leg = legOfTx.get(hash);
      expect(leg, `transaction ${hash} out of the founder's wallet is a payout leg`).toBeDefined();
      const payout = s.pays.find((p) => p.id === leg?.payoutId);
      const sub = s.subs.find((x) => x.id === payout?.submissionId);
      expect(['approved', 'pending'], `transaction ${hash} is for a live submission`).toContain(sub?.status);
      const { reward, fee } = split(sub?.bountyId);
      expect(
        moved.map((l) => [lower(l.to), l.value]),
        `transaction ${hash}: reward and fee together, nothing else`,
      ).toEqual([
        [walletOf.get(sub?.agentId ?? ''), reward - fee],
        [treasury, fee],
      ]);
      expect(paidPayouts.has(payout?.id ?? ''), `payout ${payout?.id} paid twice`).toBe(false);
      paidPayouts.add(payout?.id ?? '');
    }
    if (settled) expect(logs).toHaveLength(2 * approved.length);
    for (const b of s.bs) {
      const mine = s.subs.filter((x) => x.bountyId === b.id);
      expect(mine.filter((x) => x.status === 'approved').length, b.id).toBe(b.status === 'done' ? 1 : 0);
      expect(mine.filter((x) => x.status === 'pending').length, b.id).toBe(b.status === 'in_review' ? 1 : 0);
      const pending = mine.find((x) => x.status === 'pending');
      expect(b.paymentOwed, `bounty ${b.id} owes payment exactly while the founder's merge is unpaid`).toBe(
        b.status === 'in_review' && pending?.founderMerged === true,
      );
    }
    const lastReason = new Map<string, unknown>();
    for (const e of s.failures) {
      const subId = e.data.submission_id as string;
      const sub = s.subs.find((x) => x.id === subId);
      expect(sub?.founderMerged, `payout.failed ${e.id} is for an owed reward`).toBe(true);
      expect(e.recipients?.toSorted()).toEqual([founder.id, sub?.agentId].toSorted());
      expect(lastReason.get(subId), `payout.failed ${e.id} told twice in a row`).not.toBe(e.data.reason);
      lastReason.set(subId, e.data.reason);
    }
    return s;
  }

  /** One pass of each background job, as an instance with jobs on runs them every interval. */
  async function runJobs() {
    await ctx.app.services.approvals.reconcile();
    await ctx.app.services.owedPayouts.run();
  }

  async function withFault<T>(f: Fault, action: () => Promise<T>): Promise<T> {
    const faults = FAULTS[f];
    if (faults) proxy.set(faults as Faults);
    try {
      return await action();
    } finally {
      proxy.set({});
    }
  }

  async function restart() {
    await ctx.close();
    ctx = await startApp();
  }

  /**
   * Legs (pending payout intents) of other payouts not settled yet (a fault cut them): the node may
   * hold a new payout's transactions behind them until the reconciler sends them, so a healthy
   * approval may time out.
   */
  async function backlogBefore(bountyId: string): Promise<boolean> {
    const open = await database.db
      .select({ bountyId: payouts.bountyId })
      .from(walletIntents)
      .innerJoin(payouts, eq(payouts.id, walletIntents.payoutId))
      .where(eq(walletIntents.status, 'pending'));
    return open.some((l) => l.bountyId !== bountyId);
  }

  /** One step, with what the pre-step state says it must answer. */
  async function perform(run: Run, st: Step): Promise<string> {
    const s = await snapshot(run);
    const code = (res: { statusCode: number; body: string }) => {
      const json = res.statusCode >= 400 ? (JSON.parse(res.body) as { error?: { code?: string } }) : null;
      return `${res.statusCode}${json?.error?.code ? ` ${json.error.code}` : ''}`;
    };
    const noServerError = (res: { statusCode: number; body: string }, allow502: boolean) => {
      if (allow502 && res.statusCode === 502) return;
      expect(res.statusCode, res.body).toBeLessThan(500);
    };
    switch (st.t) {
      case 'advance': {
        const b = s.bounty(st.bounty);
        if (b.status === 'open') {
          const free = run.devs.filter(
            (d) => !s.bs.some((x) => x.claimedBy === d.id && ['claimed', 'in_review'].includes(x.status)),
          );
          const agent = run.devs.indexOf(
            free[st.agent % Math.max(free.length, 1)] ?? (run.devs[0] as Run['devs'][0]),
          );
          return `claim: ${await perform(run, { t: 'claim', bounty: st.bounty, agent })}`;
        }
        if (b.status === 'claimed')
          return `submit: ${await perform(run, { t: 'submit', bounty: st.bounty, foreign: false })}`;
        if (b.status === 'in_review' && st.viaMerge) {
          return `merge: ${await perform(run, { t: 'merge', bounty: st.bounty, byFounder: true, fault: st.fault })}`;
        }
        if (b.status === 'in_review')
          return `approve: ${await perform(run, { t: 'approve', bounty: st.bounty, fault: st.fault })}`;
        return 'done already';
      }
      case 'claim': {
        const b = s.bounty(st.bounty);
        const dev = run.devs[st.agent] as TestAgent;
        const busy = s.bs.some((x) => x.claimedBy === dev.id && ['claimed', 'in_review'].includes(x.status));
        const res = await post(`/api/bounties/${b.id}/claim`, dev);
        noServerError(res, false);
        expect(res.statusCode === 200, res.body).toBe(b.status === 'open' && !busy);
        return code(res);
      }
      case 'unclaim': {
        const b = s.bounty(st.bounty);
        const claimer = run.devs.find((d) => d.id === b.claimedBy);
        const actor =
          st.wrongActor || !claimer ? (run.devs.find((d) => d.id !== b.claimedBy) as TestAgent) : claimer;
        const res = await post(`/api/bounties/${b.id}/unclaim`, actor);
        noServerError(res, false);
        expect(res.statusCode === 200, res.body).toBe(b.status === 'claimed' && actor === claimer);
        return code(res);
      }
      case 'submit': {
        const b = s.bounty(st.bounty);
        const actor = run.devs.find((d) => d.id === b.claimedBy) ?? (run.devs[0] as Run['devs'][0]);
        const author = st.foreign ? (run.devs.find((d) => d.id !== actor.id) as Run['devs'][0]) : actor;
        const prUrl = `${run.repoUrl}/pull/${++prSeq}`;
        host.setPullRequest(prUrl, { authorLogin: author.login });
        const res = await post(`/api/bounties/${b.id}/submit`, actor, { pr_url: prUrl });
        noServerError(res, false);
        const allowed = b.status === 'claimed' && b.claimedBy === actor.id;
        if (allowed && st.foreign) expect(code(res)).toBe('400 pr_author_mismatch');
        else expect(res.statusCode === 201, res.body).toBe(allowed);
        return code(res);
      }
      case 'reject': {
        const b = s.bounty(st.bounty);
        const res = await post(`/api/bounties/${b.id}/reject`, founder, { review_notes: 'Not this time.' });
        noServerError(res, false);
        if (b.status === 'in_review' && b.pending?.founderMerged) {
          // Merged by the founder: the reward is owed, whatever happened to its payout.
          expect(code(res), res.body).toBe('409 payment_owed');
          count('reject refused: owed');
        } else if (b.status === 'in_review' && b.paying) {
          // A payout under way (or paid, unrecorded): never rejected.
          expect(code(res), res.body).toBe('409 invalid_state');
        } else {
          expect(res.statusCode === 200, res.body).toBe(b.status === 'in_review');
        }
        return code(res);
      }
      case 'approve': {
        const b = s.bounty(st.bounty);
        const backlog = await backlogBefore(b.id);
        const res = await withFault(st.fault, () => post(`/api/bounties/${b.id}/approve`, founder));
        noServerError(res, st.fault !== 'none' || backlog);
        if (b.status !== 'in_review') expect(code(res)).toBe('400 not_in_review');
        else if (st.fault === 'none' && run.allowanceOn && !backlog)
          expect(res.statusCode, res.body).toBe(200);
        else if (res.statusCode === 400) expect(code(res)).toBe('400 insufficient_funds');
        if (res.statusCode === 200) {
          // One transaction pays both: the answer names it twice.
          expect(res.json().platform_fee_tx_hash).toBe(res.json().contributor_tx_hash);
          count('paid by approve');
        }
        return `${code(res)} (${st.fault})`;
      }
      case 'merge': {
        const b = s.bounty(st.bounty);
        const prUrl = b.pending?.prUrl ?? `${run.repoUrl}/pull/${++prSeq}`;
        const author = run.devs.find((d) => d.id === b.pending?.agentId) ?? (run.devs[0] as Run['devs'][0]);
        // A pull request is merged once: a later delivery for it says who merged it then.
        const byFounder = mergedBy.get(prUrl) ?? st.byFounder;
        mergedBy.set(prUrl, byFounder);
        host.setPullRequest(prUrl, {
          state: 'closed',
          merged: true,
          authorLogin: author.login,
          mergedByLogin: byFounder ? FOUNDER_LOGIN : author.login,
        });
        const backlog = await backlogBefore(b.id);
        // The delivery, then the owed-payouts pass it nudged (joined: it may have started), both
        // under the fault.
        const res = await withFault(st.fault, async () => {
          const delivered = await deliverMerge(ctx.app, host.webhookSecret, prUrl);
          await ctx.app.services.owedPayouts.run();
          return delivered;
        });
        // The webhook never waits on the chain: whatever the node does, it answers at once.
        expect(res.statusCode, res.body).toBe(200);
        const outcome = res.json().status as string;
        const after = (await snapshot(run)).bounty(st.bounty);
        if (!b.pending) expect(outcome).toBe('ignored');
        else if (!byFounder) {
          expect(res.json()).toMatchObject({
            status: 'merged',
            bounty_id: b.id,
            submission_id: b.pending.id,
          });
          expect(after.status).toBe('in_review');
          expect(after.paymentOwed).toBe(false);
        } else {
          expect(res.json()).toEqual({ status: 'owed', bounty_id: b.id, submission_id: b.pending.id });
          if (st.fault === 'none' && run.allowanceOn && !backlog) expect(after.status).toBe('done');
          if (after.status === 'done') {
            expect(after.paymentOwed).toBe(false);
            count('paid by the owed job');
          } else {
            // The owed pass could not finish the payout: still in review, owed, flagged.
            expect(after.status).toBe('in_review');
            expect(after.pending?.id).toBe(b.pending.id);
            expect(after.pending?.founderMerged).toBe(true);
            expect(after.paymentOwed).toBe(true);
            count('owed, left unpaid');
            if (st.fault === 'none' && !run.allowanceOn) {
              // Told to both, once for this reason (maybe in an earlier step).
              const told = (await snapshot(run)).failures.filter(
                (e) => e.data.submission_id === b.pending?.id && e.data.reason === 'insufficient_funds',
              );
              expect(told.length, 'payout.failed insufficient_funds').toBeGreaterThan(0);
            }
          }
        }
        return `${outcome}${after.status === 'done' ? ' paid' : ''} (${byFounder ? 'founder' : 'contributor'}, ${st.fault})`;
      }
      case 'expire': {
        clock.advance(CLAIM_TTL_MS + 1_000);
        await ctx.app.services.bounties.expireClaims();
        const after = await snapshot(run);
        for (const b of after.bs) expect(b.status, b.id).not.toBe('claimed');
        return 'expired';
      }
      case 'crash': {
        const b = s.bounty(st.bounty);
        let cut = 'restart';
        if (st.midPayout && b.status === 'in_review' && run.allowanceOn) {
          // The driver signs and "sends", but nothing reaches the chain before the process dies.
          const res = await withFault('dropSends', () => post(`/api/bounties/${b.id}/approve`, founder));
          expect([200, 502], res.body).toContain(res.statusCode);
          cut = `cut approve ${res.statusCode}`;
        }
        await restart();
        await runJobs();
        if (st.midPayout && b.status === 'in_review' && run.allowanceOn) {
          // Legs of other cut payouts below this one's nonces may need a pass of their own first.
          for (let pass = 0; pass < 3; pass++) {
            if ((await snapshot(run)).bounty(st.bounty).status === 'done') break;
            await runJobs();
          }
          expect(
            (await snapshot(run)).bounty(st.bounty).status,
            'the reconciler finished the cut payout',
          ).toBe('done');
          count('paid after a crash');
        }
        return cut;
      }
      case 'allowance': {
        await approvePayouts(tc, FOUNDER_ACCOUNT, run.token, st.on ? 10n ** 30n : 0n);
        run.allowanceOn = st.on;
        return st.on ? 'allowance on' : 'allowance 0';
      }
      case 'reconcile': {
        await runJobs();
        return 'reconciled';
      }
    }
  }

  /**
   * Healthy chain, funds restored, job passes: every owed reward is paid by the job on its own,
   * and every bounty still in review can still end well.
   */
  async function settle(run: Run) {
    proxy.set({});
    if (!run.allowanceOn) {
      await approvePayouts(tc, FOUNDER_ACCOUNT, run.token, 10n ** 30n);
      run.allowanceOn = true;
    }
    await runJobs();
    // Legs of cut payouts may hold later ones in the node's queue for a pass or two.
    for (let pass = 0; pass < 3; pass++) {
      if (!(await snapshot(run)).bs.some((b) => b.paymentOwed)) break;
      await runJobs();
    }
    const s = await snapshot(run);
    for (const b of s.bs) {
      expect(b.paymentOwed, `bounty ${b.id}: the owed reward was not paid by the job`).toBe(false);
      expect(['open', 'claimed', 'in_review', 'done']).toContain(b.status);
      if (b.status !== 'in_review') continue;
      // In review means a pending submission the founder can still approve: prove it.
      const res = await post(`/api/bounties/${b.id}/approve`, founder);
      expect(res.statusCode, `bounty ${b.id} is stuck: ${res.body}`).toBe(200);
      count('paid at the end');
    }
  }

  /** `runs` runs of the model from `seed`, each checked step by step and settled. */
  async function runModel(seed: number, runs: number) {
    console.log(`[payouts-model] seed=${seed} runs=${runs}: replay with MODEL_SEED=${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 3 }),
        fc.array(step, { minLength: 15, maxLength: 25 }),
        async (rewards, steps) => {
          const run = await newRun(++runNo, rewards);
          const trace: string[] = [];
          try {
            for (const st of steps) {
              if (st.t !== 'expire' && st.t !== 'reconcile' && st.t !== 'allowance' && 'bounty' in st) {
                if (st.bounty >= run.bountyIds.length) continue;
              }
              trace.push(`${st.t}${'bounty' in st ? ` b${st.bounty}` : ''}: ${await perform(run, st)}`);
              await checkInvariants(run, false);
            }
            await settle(run);
            await checkInvariants(run, true);
            if (process.env.MODEL_TRACE)
              console.log(`[payouts-model] run ${run.n}:\n  ${trace.join('\n  ')}`);
          } catch (err) {
            console.log(`[payouts-model] run ${run.n} failed after:\n  ${trace.join('\n  ')}`);
            throw err;
          }
        },
      ),
      { numRuns: runs, seed, endOnFailure: true },
    );
  }

  const paidInSteps = () =>
    ['paid by approve', 'paid by the owed job', 'paid after a crash'].reduce(
      (n, k) => n + (stats.get(k) ?? 0),
      0,
    );

  /**
   * `runs` runs of the model from `seed`; then `npm run audit:payouts` finds no difference, and
   * the runs reached the money path during their steps, not only in the final settling. About
   * half of all runs pay during their steps, so a batch of 6 pays nothing once in ~64: such a
   * batch is topped up with up to TOP_UPS more batches from seeds derived from `seed` (each
   * printed for its replay) until one pays. A generator that stopped reaching the money path
   * still fails here.
   */
  async function modelRuns(seed: number, runs: number) {
    const started = Date.now();
    stats.clear();
    await runModel(seed, runs);
    let batchSeed = seed;
    let batches = 1;
    for (; batches <= TOP_UPS && paidInSteps() === 0; batches++) {
      batchSeed = (batchSeed * 48271) % 2147483647 || 1;
      console.log(`[payouts-model] seed=${seed}: nothing paid during the steps; ${runs} more runs`);
      await runModel(batchSeed, runs);
    }
    const report = await runPayoutAudit(database.db, tc.rpcUrl, tc.chain.payoutSigner.address);
    expect(report.differences, formatAudit(report)).toEqual([]);
    console.log(
      `[payouts-model] seed=${seed}: runs in ${Date.now() - started} ms; ${JSON.stringify(
        Object.fromEntries(stats),
      )}; audit: ${report.summary.payouts} payouts, no difference`,
    );
    expect(paidInSteps(), `nothing paid during the steps of ${batches} batches`).toBeGreaterThan(0);
    return batches;
  }

  // Seeds that once failed, kept as fixed cases: each replays the runs that found the failure.
  // 1614211012 (run 5): an owed payout's transaction reverted because the founder's allowance
  // was 0 at its block; once the allowance was back, the owed job must pay it on its next pass
  // (it used to back off 30 s as if the token refused the transfer).
  it('pays an owed reward as soon as the allowance is back after its payout reverted for it (seed 1614211012)', {
    timeout: 600_000,
  }, async () => {
    await modelRuns(1614211012, 6);
  });

  // 1843172648: its 6 runs paid nothing during their steps (allowance 0 or a fault each time a
  // bounty was approved or merged): the batch is topped up until one does.
  it('tops up a batch whose runs paid nothing during their steps (seed 1843172648)', {
    timeout: 600_000,
  }, async () => {
    // More than one batch: this seed still exercises the top-up (unless the generator changed).
    expect(await modelRuns(1843172648, 6)).toBeGreaterThan(1);
  });

  it(`keeps every payout exactly once over ${RUNS} random runs (seed ${SEED})`, {
    timeout: 600_000,
  }, async () => {
    await modelRuns(SEED, RUNS);
  });
});
