import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../src/infra/db/client.ts';
import { payoutLegs, payouts } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, randomAddress, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import {
  approve,
  claim,
  expectOnePayout,
  getBounty,
  inReview,
  nextPrUrl,
  okJson,
  paidOn,
  reject,
  scene,
  submit,
  UNIT,
} from './helpers/review-flow.ts';

// Approval against the founder's review: the submission paid is the one still pending when the
// legs are signed, and the funds checked are those the frozen payout will actually move.
let ctx: TestContext;
const chain = new FakeChain();
const LEASE_MS = 120_000;
const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };

beforeAll(async () => {
  ctx = await buildTestApp({
    chain,
    env: {
      PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1',
      CHAIN_POLLING_INTERVAL_MS: '10',
      APPROVAL_LEASE_SECONDS: String(LEASE_MS / 1000),
    },
  });
});
afterAll(() => ctx.close());
afterEach(() => {
  chain.onReadFunds = null;
  chain.onSign = null;
  chain.revertNextTo = null;
});

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

const signedOn = (token: string) => chain.signed.filter((t) => t.tokenAddress === token.toLowerCase());

describe('approval against a changing review', () => {
  it('refuses (409) when the submission it read before the lease was rejected and replaced meanwhile', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const next = await registerAgent(ctx.app);
    const directory = ctx.app.services.directory;
    const wallet = directory.wallet.bind(directory);
    let raced = false;
    // Approve reads the pending submission, then the wallets, then takes the lease. Between the
    // two, the founder rejects it and another agent claims the bounty and submits.
    const spy = vi.spyOn(directory, 'wallet').mockImplementation(async (id) => {
      if (!raced) {
        raced = true;
        okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Not this one.' }));
        await claim(ctx.app, next, bounty.id);
        await submit(ctx.app, next, bounty.id, nextPrUrl(s.repoUrl));
      }
      return wallet(id);
    });
    try {
      expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'invalid_state');
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(true);
    // Refused under the lease, before any payout of the rejected submission was even recorded.
    expect(await payoutOf(submission.id)).toBeUndefined();
    expect(signedOn(s.tokenAddress)).toEqual([]);

    // The new submission is approved on its own and paid to its own submitter.
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).not.toBe(submission.id);
    expectOnePayout(chain, s, next.walletAddress as string, amounts, body);
    expect(paidOn(chain, s.tokenAddress, s.dev.walletAddress).contributor).toEqual([]);
  });

  it('never signs for a submission rejected once the lease ran out: the signing transaction locks it', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    // The funds check passed; the approval stalls past its lease, and the founder rejects.
    chain.onReadFunds = async () => {
      ctx.clock.advance(LEASE_MS + 1000);
      okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Changed my mind.' }));
    };
    expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'invalid_state');
    expect(signedOn(s.tokenAddress)).toEqual([]);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
    expect(await payoutOf(submission.id)).toMatchObject({ status: 'failed' });
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('open');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'rejected' });
    // Nothing is left for the reconciler either.
    await ctx.app.services.approvals.reconcile();
    expect(signedOn(s.tokenAddress)).toEqual([]);
  });

  it('abandon takes the payout lock: it waits for a signing in progress and then leaves its legs alone', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const services = ctx.app.services;
    // The payout row as approve records it (approve finds this one and reuses it).
    const payout = await services.payouts.prepare({
      submissionId: submission.id,
      bountyId: bounty.id,
      tokenAddress: s.tokenAddress,
      founderAddress: s.founder.walletAddress as string,
      contributorAddress: s.dev.walletAddress as string,
      split: services.payouts.split(100),
      reviewNotes: null,
    });
    let abandoning: Promise<boolean> | null = null;
    // Inside the signing transaction (the payout row locked, no leg committed yet), a reconciler
    // decides to abandon the payout. On PostgreSQL the hook waits until abandon is blocked on a
    // row lock; PGlite runs one transaction at a time, so there abandon simply runs afterwards.
    chain.onSign = async () => {
      abandoning = services.payouts.abandon(payout.id, 'the submission is no longer pending');
      if (ctx.database.kind === 'postgres') await blockedOnALock();
    };
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(abandoning).not.toBeNull();
    expect(await (abandoning as unknown as Promise<boolean>)).toBe(false);
    expect(await payoutOf(submission.id)).toMatchObject({ status: 'confirmed' });
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    const legs = await ctx.database.db.select().from(payoutLegs).where(eq(payoutLegs.payoutId, payout.id));
    expect(legs.map((l) => l.status).sort()).toEqual(['success', 'success']);
  });

  it("checks the wallet the frozen payout pays from, not the founder's current one", async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty } = await inReview(ctx.app, s, { reward: 100 });
    const paying = s.founder.walletAddress as string;
    chain.revertNextTo = chain.info.treasuryAddress;
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    // The contributor was paid; the fee (5) is owed from the wallet the payout recorded. The
    // founder empties it and moves to a new, well-funded wallet.
    chain.setFunds(s.tokenAddress, paying, 0n);
    const fresh = randomAddress();
    const moved = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/agents/me/wallet',
      headers: s.founder.headers,
      payload: { wallet_address: fresh },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    chain.setFunds(s.tokenAddress, fresh, 1_000n);
    const signedBefore = chain.signed.length;
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'insufficient_funds');
    expect(chain.signed).toHaveLength(signedBefore);

    chain.setFunds(s.tokenAddress, paying, 5n);
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expectOnePayout(
      chain,
      { ...s, founder: { ...s.founder, walletAddress: paying } },
      s.dev.walletAddress as string,
      amounts,
      body,
    );
    expect((await chain.readFunds(s.tokenAddress, fresh)).balanceUnits).toBe(1_000n * UNIT);
  });

  it('checks the frozen fee, not the fee split of the instance that retries', async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty } = await inReview(ctx.app, s, { reward: 100 });
    chain.revertNextTo = chain.info.treasuryAddress;
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    // 5 tokens of fee are owed (500 bps when approved); an instance now charging 100 bps retries.
    const cheaper = await buildTestApp({
      chain,
      database: ctx.database,
      clock: ctx.clock,
      env: { PLATFORM_FEE_BPS: '100', PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' },
    });
    try {
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 3n);
      const signedBefore = chain.signed.length;
      expectError(await approve(cheaper.app, s.founder, bounty.id), 400, 'insufficient_funds');
      expect(chain.signed).toHaveLength(signedBefore);

      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 5n);
      const body = okJson(await approve(cheaper.app, s.founder, bounty.id));
      expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    } finally {
      await cheaper.close();
    }
  });
});

/** Waits until some session of this database waits on a row lock (PostgreSQL only). */
async function blockedOnALock(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const rows = rowsOf<{ n: number }>(
      await ctx.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('abandon never waited on a lock');
}
