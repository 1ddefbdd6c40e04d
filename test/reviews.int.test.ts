import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bounties, payouts } from '../src/infra/db/schema.ts';
import { AppError } from '../src/lib/errors.ts';
import { buildTestApp, createBounty, expectError, registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { payoutLegsOf } from './helpers/payout-rows.ts';
import {
  approve,
  claim,
  expectOnePayout,
  getBounty,
  inReview,
  nextPrUrl,
  okJson,
  paidOn,
  post,
  reject,
  type Scene,
  SignalChain,
  scene,
  submit,
  UNIT,
} from './helpers/review-flow.ts';

const UNKNOWN_BOUNTY = `bnt_${'0'.repeat(32)}`;
const TX_HASH = /^0x[0-9a-f]{64}$/;

const chain = new SignalChain();

const ctx = appForFile({ chain });
afterEach(() => {
  chain.failNextBroadcast = null;
  stopReverting();
  chain.payoutDelayMs = 0;
  chain.receiptDelayMs = 0;
});

/** Every payout signed from now on mines reverted (a revert that persists), until `stopReverting`. */
function revertEveryPayout(): void {
  const hook = async () => {
    chain.revertNext = true;
    chain.onSign = hook;
  };
  chain.onSign = hook;
}

function stopReverting(): void {
  chain.onSign = null;
  chain.revertNext = false;
}

/** The status of a submission's payout. */
async function payoutStatus(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row?.status;
}

/** The transactions the payout key signed on the scene's token, in order. */
const signedOn = (s: Scene) => chain.signed.filter((t) => t.tokenAddress === s.tokenAddress.toLowerCase());

/**
 * What the chain paid for the scene's contributor: successful transfers of the scene's token to
 * the contributor, and fee transfers of that token to the treasury. Each scene has its own token
 * and founder, so these are exactly the payouts of the scene's approvals.
 */
const paidFor = (s: Scene, to: string | null = s.dev.walletAddress) => paidOn(chain, s.tokenAddress, to);
/** Nothing moved on the scene's token: no transfer mined, not even a reverted one. */
const expectNothingPaid = (s: Scene) =>
  expect(chain.transfers.filter((t) => t.tokenAddress === s.tokenAddress.toLowerCase())).toEqual([]);

async function activeClaims(agent: Scene['dev']) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers: agent.headers });
  return okJson(res).agent.active_claims as { bounty_id: string; status: string }[];
}

describe('POST /api/bounties/{id}/submit', () => {
  it('creates a pending submission and moves the bounty to in_review', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    await claim(ctx.app, s.dev, bounty.id);
    const prUrl = `${s.repoUrl}/pull/42`;
    const res = await post(ctx.app, `/api/bounties/${bounty.id}/submit`, s.dev, { pr_url: prUrl });
    const { submission } = okJson(res, 201);
    expect(submission).toEqual({
      id: expect.stringMatching(/^sub_[0-9a-f]{32}$/),
      bounty_id: bounty.id,
      agent_id: s.dev.id,
      pr_url: prUrl,
      status: 'pending',
      review_notes: null,
      contributor_tx_hash: null,
      platform_fee_tx_hash: null,
      created_at: ctx.clock.now().toISOString(),
      reviewed_at: null,
      merged_at: null,
      merged_by: null,
      founder_merged: false,
      // What the host reports (the fake host: no checks, no diff size).
      pull_request: expect.objectContaining({
        author: expect.any(String),
        state: 'open',
        checks: { state: 'none', total: 0, failed: 0, by_author: { state: 'none', total: 0, failed: 0 } },
      }),
    });
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.claimed_by).toBe(s.dev.id);
    expect(detail.submissions).toEqual([submission]);
    expect(await activeClaims(s.dev)).toEqual([
      expect.objectContaining({ bounty_id: bounty.id, status: 'in_review' }),
    ]);
  });

  it.each([
    ['another repository', (r: string) => `${r.replace(/\/[^/]+$/, '/other-repo')}/pull/1`],
    ['a look-alike repository', (r: string) => `${r}-fork/pull/1`],
    ['a missing number', (r: string) => `${r}/pull/`],
    ['no pull segment', (r: string) => r],
    ['an issue', (r: string) => `${r}/issues/1`],
    ['pull number 0', (r: string) => `${r}/pull/0`],
    ['a negative number', (r: string) => `${r}/pull/-3`],
    ['a non-numeric number', (r: string) => `${r}/pull/abc`],
    ['a sub-page of the pull request', (r: string) => `${r}/pull/1/files`],
    ['garbage', () => 'not a url at all'],
  ])('rejects a pr_url with %s as 400 invalid_pr_url', async (_label, make) => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    await claim(ctx.app, s.dev, bounty.id);
    const res = await post(ctx.app, `/api/bounties/${bounty.id}/submit`, s.dev, { pr_url: make(s.repoUrl) });
    expectError(res, 400, 'invalid_pr_url');
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('claimed');
    expect(detail.submissions).toEqual([]);
  });

  it('validates the body: pr_url required, no unknown fields, a string', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    await claim(ctx.app, s.dev, bounty.id);
    const url = `/api/bounties/${bounty.id}/submit`;
    const missing = expectError(await post(ctx.app, url, s.dev, {}), 400, 'validation_error');
    expect(missing.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'pr_url' })]));
    expectError(await post(ctx.app, url, s.dev, { pr_url: 7 }), 400, 'validation_error');
    expectError(
      await post(ctx.app, url, s.dev, { pr_url: `${s.repoUrl}/pull/1`, extra: true }),
      400,
      'validation_error',
    );
    expectError(await post(ctx.app, url, s.dev), 400, 'validation_error');
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('claimed');
  });

  it('is 403 for anyone but the claimant, the founder included', async () => {
    const s = await scene(ctx, chain);
    const other = await registerAgent(ctx.app);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    await claim(ctx.app, s.dev, bounty.id);
    for (const agent of [other, s.founder]) {
      const res = await post(ctx.app, `/api/bounties/${bounty.id}/submit`, agent, {
        pr_url: nextPrUrl(s.repoUrl),
      });
      expectError(res, 403, 'forbidden');
    }
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('claimed');
  });

  it('is 409 invalid_state when the bounty is not claimed', async () => {
    const s = await scene(ctx, chain);
    const open = await createBounty(ctx.app, s.founder, s.project.id);
    expectError(
      await post(ctx.app, `/api/bounties/${open.id}/submit`, s.dev, { pr_url: nextPrUrl(s.repoUrl) }),
      409,
      'invalid_state',
    );
    expect((await getBounty(ctx.app, open.id)).status).toBe('open');

    // Already in review: a second submission by the claimant is not allowed.
    const { bounty } = await inReview(ctx.app, s);
    expectError(
      await post(ctx.app, `/api/bounties/${bounty.id}/submit`, s.dev, { pr_url: nextPrUrl(s.repoUrl) }),
      409,
      'invalid_state',
    );
    // Done: nothing more can be submitted.
    okJson(await approve(ctx.app, s.founder, bounty.id));
    expectError(
      await post(ctx.app, `/api/bounties/${bounty.id}/submit`, s.dev, { pr_url: nextPrUrl(s.repoUrl) }),
      409,
      'invalid_state',
    );
    expect((await getBounty(ctx.app, bounty.id)).submissions).toHaveLength(1);
  });

  // pr_already_submitted (the same author, a live submission) and resubmission after a
  // rejection are in submit-author.int.test.ts.
  it('is 400 pr_author_mismatch for a pull request another agent opened and submitted', async () => {
    const s = await scene(ctx, chain);
    const dev2 = await registerAgent(ctx.app);
    const b1 = await createBounty(ctx.app, s.founder, s.project.id);
    const b2 = await createBounty(ctx.app, s.founder, s.project.id);
    await claim(ctx.app, s.dev, b1.id);
    await claim(ctx.app, dev2, b2.id);
    const prUrl = nextPrUrl(s.repoUrl);
    await submit(ctx.app, s.dev, b1.id, prUrl);
    const res = await post(ctx.app, `/api/bounties/${b2.id}/submit`, dev2, { pr_url: prUrl });
    expectError(res, 400, 'pr_author_mismatch');
    const detail = await getBounty(ctx.app, b2.id);
    expect(detail.status).toBe('claimed');
    expect(detail.submissions).toEqual([]);
    // A different pull request still goes through.
    await submit(ctx.app, dev2, b2.id, nextPrUrl(s.repoUrl));
  });

  it('is 404 for an unknown or malformed bounty id', async () => {
    const s = await scene(ctx, chain);
    for (const id of [UNKNOWN_BOUNTY, 'nope']) {
      expectError(
        await post(ctx.app, `/api/bounties/${id}/submit`, s.dev, { pr_url: nextPrUrl(s.repoUrl) }),
        404,
        'not_found',
      );
    }
  });
});

describe('POST /api/bounties/{id}/reject', () => {
  it('rejects the pending submission, stores the notes and reopens the bounty for anyone', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    ctx.clock.advance(1000);
    const res = await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Tests are missing.' });
    expect(okJson(res)).toEqual({ bounty_id: bounty.id, status: 'open', submission_id: submission.id });

    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail).toMatchObject({ status: 'open', claimed_by: null, claimed_at: null });
    expect(detail.submissions).toEqual([
      expect.objectContaining({
        id: submission.id,
        status: 'rejected',
        review_notes: 'Tests are missing.',
        contributor_tx_hash: null,
        platform_fee_tx_hash: null,
        reviewed_at: ctx.clock.now().toISOString(),
      }),
    ]);
    expect(await activeClaims(s.dev)).toEqual([]);
    expectNothingPaid(s);

    // Anyone may take it now, and the new claimant's work can be approved.
    const other = await registerAgent(ctx.app);
    const claimed = await claim(ctx.app, other, bounty.id);
    expect(claimed.bounty).toMatchObject({ status: 'claimed', claimed_by: other.id });
    const second = await submit(ctx.app, other, bounty.id, nextPrUrl(s.repoUrl));
    const approved = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(approved.submission_id).toBe(second.id);
    // Only the new claimant was paid; the rejected contributor got nothing.
    expectOnePayout(
      chain,
      s,
      other.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      approved,
    );
    expect(paidFor(s).contributor).toEqual([]);
    const after = await getBounty(ctx.app, bounty.id);
    expect(after.submissions.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      [second.id, 'approved'],
      [submission.id, 'rejected'],
    ]);
  });

  it('lets the rejected contributor claim again', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'No.' }));
    const claimed = await claim(ctx.app, s.dev, bounty.id);
    expect(claimed.bounty.claimed_by).toBe(s.dev.id);
  });

  it('is 403 for anyone but the founder', async () => {
    const s = await scene(ctx, chain);
    const other = await registerAgent(ctx.app);
    const { bounty, submission } = await inReview(ctx.app, s);
    for (const agent of [s.dev, other]) {
      expectError(await reject(ctx.app, agent, bounty.id, { review_notes: 'Nope.' }), 403, 'forbidden');
    }
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'pending', review_notes: null });
  });

  it('requires review_notes of at most 5000 characters', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    const missing = expectError(await reject(ctx.app, s.founder, bounty.id, {}), 400, 'validation_error');
    expect(missing.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'review_notes' })]),
    );
    expectError(await reject(ctx.app, s.founder, bounty.id, { review_notes: '' }), 400, 'validation_error');
    expectError(await reject(ctx.app, s.founder, bounty.id, { review_notes: 5 }), 400, 'validation_error');
    const long = expectError(
      await reject(ctx.app, s.founder, bounty.id, { review_notes: 'x'.repeat(5001) }),
      400,
      'validation_error',
    );
    expect(long.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'review_notes' })]),
    );
    expectError(await post(ctx.app, `/api/bounties/${bounty.id}/reject`, s.founder), 400, 'validation_error');
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');

    const notes = 'y'.repeat(5000);
    okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: notes }));
    expect((await getBounty(ctx.app, bounty.id)).submissions[0].review_notes).toBe(notes);
  });

  it('is 400 not_in_review for open, claimed and done bounties', async () => {
    const s = await scene(ctx, chain);
    const open = await createBounty(ctx.app, s.founder, s.project.id);
    expectError(await reject(ctx.app, s.founder, open.id, { review_notes: 'n' }), 400, 'not_in_review');
    await claim(ctx.app, s.dev, open.id);
    expectError(await reject(ctx.app, s.founder, open.id, { review_notes: 'n' }), 400, 'not_in_review');
    await submit(ctx.app, s.dev, open.id, nextPrUrl(s.repoUrl));
    okJson(await approve(ctx.app, s.founder, open.id));
    expectError(await reject(ctx.app, s.founder, open.id, { review_notes: 'n' }), 400, 'not_in_review');
    const detail = await getBounty(ctx.app, open.id);
    expect(detail.status).toBe('done');
    expect(detail.submissions[0].status).toBe('approved');
  });

  it('is 404 for an unknown bounty', async () => {
    const s = await scene(ctx, chain);
    expectError(await reject(ctx.app, s.founder, UNKNOWN_BOUNTY, { review_notes: 'n' }), 404, 'not_found');
  });
});

describe('POST /api/bounties/{id}/approve', () => {
  it('pays the contributor minus a 5% fee and marks the bounty done', async () => {
    const s = await scene(ctx, chain, { funds: 1000n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    expect(await activeClaims(s.dev)).toHaveLength(1);
    ctx.clock.advance(5000);

    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body).toEqual({
      bounty_id: bounty.id,
      status: 'done',
      submission_id: submission.id,
      contributor_tx_hash: expect.stringMatching(TX_HASH),
      platform_fee_tx_hash: expect.stringMatching(TX_HASH),
    });
    // One router transaction pays both, so the two hashes are the same one.
    expect(body.contributor_tx_hash).toBe(body.platform_fee_tx_hash);
    expect(signedOn(s)).toEqual([
      expect.objectContaining({
        hash: body.contributor_tx_hash,
        signer: chain.payoutSigner.address.toLowerCase(),
        from: (s.founder.walletAddress as string).toLowerCase(),
        to: (s.dev.walletAddress as string).toLowerCase(),
        amountUnits: 95n * UNIT,
        feeUnits: 5n * UNIT,
      }),
    ]);

    // One payout: token, founder, contributor, exact amounts and the answered hashes.
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
    const funds = await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string);
    expect(funds.balanceUnits).toBe(900n * UNIT);
    expect((await chain.readFunds(s.tokenAddress, s.dev.walletAddress as string)).balanceUnits).toBe(
      95n * UNIT,
    );

    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('done');
    expect(detail.submissions).toEqual([
      {
        ...submission,
        status: 'approved',
        review_notes: null,
        contributor_tx_hash: body.contributor_tx_hash,
        platform_fee_tx_hash: body.platform_fee_tx_hash,
        reviewed_at: ctx.clock.now().toISOString(),
      },
    ]);
    expect(await activeClaims(s.dev)).toEqual([]);
  });

  it('stores review_notes from the body', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    okJson(await approve(ctx.app, s.founder, bounty.id, { review_notes: 'Clean work, thanks.' }));
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.submissions[0]).toMatchObject({
      id: submission.id,
      status: 'approved',
      review_notes: 'Clean work, thanks.',
    });
  });

  it('accepts an empty object and an empty JSON body', async () => {
    const s = await scene(ctx, chain);
    const a = await inReview(ctx.app, s);
    okJson(await approve(ctx.app, s.founder, a.bounty.id, {}));
    const dev2 = await registerAgent(ctx.app);
    const b = await inReview(ctx.app, s, { dev: dev2 });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${b.bounty.id}/approve`,
      headers: { ...s.founder.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(okJson(res).status).toBe('done');
    expect((await getBounty(ctx.app, a.bounty.id)).submissions[0].review_notes).toBeNull();
  });

  it('validates the body', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    expectError(
      await approve(ctx.app, s.founder, bounty.id, { review_notes: 'x'.repeat(5001) }),
      400,
      'validation_error',
    );
    expectError(await approve(ctx.app, s.founder, bounty.id, { review_notes: 3 }), 400, 'validation_error');
    expectError(await approve(ctx.app, s.founder, bounty.id, { notes: 'typo' }), 400, 'validation_error');
    expectNothingPaid(s);
    expect((await getBounty(ctx.app, bounty.id)).submissions[0]).toMatchObject({
      id: submission.id,
      status: 'pending',
    });
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');
  });

  it('takes the fee in base units: 1 token at 500 bps is 0.05 tokens', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 1 });
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 950_000_000_000_000_000n, feeUnits: 50_000_000_000_000_000n },
      body,
    );
  });

  it('uses PLATFORM_FEE_BPS from the configuration', async () => {
    // A second instance on the same database and chain, configured with another fee.
    const other = await buildTestApp({
      chain,
      database: ctx.database,
      env: { PLATFORM_FEE_BPS: '1234' },
    });
    try {
      const s = await scene(other, chain);
      const reward = 3;
      const { bounty, submission } = await inReview(other.app, s, { reward });
      const body = okJson(await approve(other.app, s.founder, bounty.id));
      expect(body.submission_id).toBe(submission.id);
      const rewardUnits = BigInt(reward) * UNIT;
      const fee = (rewardUnits * 1234n) / 10_000n;
      expect(fee).toBe(370_200_000_000_000_000n);
      expectOnePayout(
        chain,
        s,
        s.dev.walletAddress as string,
        { contributorUnits: rewardUnits - fee, feeUnits: fee },
        body,
      );
    } finally {
      await other.close();
    }
  });

  it('is 403 for anyone but the founder, and pays nothing', async () => {
    const s = await scene(ctx, chain);
    const other = await registerAgent(ctx.app);
    const { bounty, submission } = await inReview(ctx.app, s);
    for (const agent of [s.dev, other]) {
      expectError(await approve(ctx.app, agent, bounty.id), 403, 'forbidden');
    }
    expectNothingPaid(s);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'pending' });
  });

  it('is 400 not_in_review for open and claimed bounties', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'not_in_review');
    await claim(ctx.app, s.dev, bounty.id);
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'not_in_review');
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('claimed');
  });

  it('pays once: approving a done bounty is 400 not_in_review', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const first = okJson(await approve(ctx.app, s.founder, bounty.id));
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'not_in_review');
    expectError(
      await approve(ctx.app, s.founder, bounty.id, { review_notes: 'again' }),
      400,
      'not_in_review',
    );
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      first,
    );
    expect(first.submission_id).toBe(submission.id);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.submissions[0]).toMatchObject({
      status: 'approved',
      review_notes: null,
      contributor_tx_hash: first.contributor_tx_hash,
    });
  });

  it('is 400 contributor_without_wallet while the contributor has no wallet, and works once one is set', async () => {
    const s = await scene(ctx, chain, { devWallet: null });
    expect(s.dev.walletAddress).toBeNull();
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    const claimed = await claim(ctx.app, s.dev, bounty.id);
    expect(claimed.warnings).toHaveLength(1);
    const submission = await submit(ctx.app, s.dev, bounty.id, nextPrUrl(s.repoUrl));

    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'contributor_without_wallet');
    expectNothingPaid(s);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.submissions[0].status).toBe('pending');

    const wallet = '0x00000000000000000000000000000000000c0de1';
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/agents/me/wallet',
      headers: s.dev.headers,
      payload: { wallet_address: wallet },
    });
    okJson(patched);
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(chain, s, wallet, { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT }, body);
  });

  it.each([
    ['balance', 99n, 1000n],
    ['allowance', 1000n, 99n],
  ])(
    'is 400 insufficient_funds when the founder %s is below the reward, and pays nothing',
    async (_l, bal, allow) => {
      const s = await scene(ctx, chain, { funds: 1000n });
      const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, bal, allow);
      const started = chain.payoutsStarted;
      const signed = chain.signed.length;
      expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'insufficient_funds');
      expect(chain.payoutsStarted).toBe(started);
      expect(chain.signed).toHaveLength(signed);
      expectNothingPaid(s);
      const detail = await getBounty(ctx.app, bounty.id);
      expect(detail.status).toBe('in_review');
      expect(detail.submissions[0].status).toBe('pending');

      // Exactly enough is enough; the failed attempt left no lease behind.
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 100n, 100n);
      const body = okJson(await approve(ctx.app, s.founder, bounty.id));
      expect(body.submission_id).toBe(submission.id);
      expectOnePayout(
        chain,
        s,
        s.dev.walletAddress as string,
        { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
        body,
      );
      expect(await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string)).toEqual({
        balanceUnits: 0n,
        allowanceUnits: 0n,
      });
    },
  );

  it('is 503 payouts_disabled when the operator disabled payouts', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const disabled = await buildTestApp({ chain, database: ctx.database, env: { PAYOUTS_ENABLED: 'false' } });
    try {
      expectError(await approve(disabled.app, s.founder, bounty.id), 503, 'payouts_disabled');
      // Role is still checked first.
      expectError(await approve(disabled.app, s.dev, bounty.id), 403, 'forbidden');
    } finally {
      await disabled.close();
    }
    expectNothingPaid(s);
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');
    expect(okJson(await approve(ctx.app, s.founder, bounty.id)).submission_id).toBe(submission.id);
    expect(paidFor(s).contributor).toHaveLength(1);
  });

  it('is 503 chain_unavailable when no chain is configured', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const chainless = await buildTestApp({ database: ctx.database });
    try {
      expectError(await approve(chainless.app, s.founder, bounty.id), 503, 'chain_unavailable');
    } finally {
      await chainless.close();
    }
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.submissions[0].status).toBe('pending');
    expectNothingPaid(s);
    // Nothing is left held: the configured instance can approve at once.
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
  });

  it('is 409 operation_in_progress for concurrent approvals, and pays once', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    chain.payoutDelayMs = 400;
    const results = await Promise.all([
      approve(ctx.app, s.founder, bounty.id),
      approve(ctx.app, s.founder, bounty.id),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses, results.map((r) => r.body).join('\n')).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409);
    expectError(loser as NonNullable<typeof loser>, 409, 'operation_in_progress');
    const winner = results.find((r) => r.statusCode === 200);
    const body = okJson(winner as NonNullable<typeof winner>);
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('done');
  });

  it('is 409 operation_in_progress for an approval or rejection while another approval holds the bounty', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    // Another instance's approval holds the lease, before it signs anything.
    await ctx.database.db
      .update(bounties)
      .set({
        approvalLeaseUntil: sql`now() + interval '60 seconds'`,
        approvalLeaseOwner: 'another-instance',
      })
      .where(eq(bounties.id, bounty.id));
    expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'operation_in_progress');
    expectError(
      await reject(ctx.app, s.founder, bounty.id, { review_notes: 'too late' }),
      409,
      'operation_in_progress',
    );
    expect(signedOn(s)).toEqual([]);
    expect((await getBounty(ctx.app, bounty.id)).submissions[0]).toMatchObject({
      id: submission.id,
      status: 'pending',
    });
    // A lease that ran out (by the database's clock, which every instance shares) holds nothing.
    await ctx.database.db
      .update(bounties)
      .set({ approvalLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(bounties.id, bounty.id));
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body).toMatchObject({ status: 'done', submission_id: submission.id });
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
  });

  it('is 409 for an approval (operation_in_progress) or a rejection (the payout started) while the payout confirms', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    // The payout is sent and mined, but its receipt shows only a second later.
    chain.receiptDelayMs = 1000;
    const first = approve(ctx.app, s.founder, bounty.id);
    await expect.poll(() => signedOn(s).length, { interval: 10 }).toBe(1);
    expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'operation_in_progress');
    const refused = expectError(
      await reject(ctx.app, s.founder, bounty.id, { review_notes: 'too late' }),
      409,
      'invalid_state',
    );
    expect(refused.message).toMatch(/payout of this submission has started/);
    const body = okJson(await first);
    expect(body).toMatchObject({ status: 'done', submission_id: submission.id });
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
    expect(signedOn(s)).toHaveLength(1);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.submissions[0]).toMatchObject({ status: 'approved', review_notes: null });
  });

  it('a payout that reverts answers 502 and nothing signs it again on its own; approving again signs one new payout and pays once', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    chain.revertNext = true;
    const failed = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('the payout reverted');
    const [reverted, ...none] = signedOn(s);
    expect(none).toEqual([]);
    // Both or neither: the reverted transaction moved neither the reward nor the fee.
    expect(
      chain.transfers.filter((t) => t.hash === reverted?.hash).map((t) => [t.amountUnits, t.status]),
    ).toEqual([
      [95n * UNIT, 'reverted'],
      [5n * UNIT, 'reverted'],
    ]);
    expect(paidFor(s)).toEqual({ contributor: [], fee: [] });
    expect(await payoutStatus(submission.id)).toBe('failed');
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('in_review');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'pending', reviewed_at: null });

    // Nothing signs it again on its own: not the reconciler, however many passes.
    for (let pass = 0; pass < 3; pass++) await ctx.app.services.approvals.reconcile();
    expect(signedOn(s)).toEqual([reverted]);
    expect(await payoutStatus(submission.id)).toBe('failed');

    // Approving again signs exactly one new payout, at a fresh nonce, which pays once.
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    const [first, paid, ...more] = signedOn(s);
    expect(first).toBe(reverted);
    expect(more).toEqual([]);
    expect(paid?.hash).toBe(body.contributor_tx_hash);
    expect(paid?.nonce).toBeGreaterThan(reverted?.nonce as number);
    const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    const funds = await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string);
    expect(funds.balanceUnits).toBe(1_000_000n * UNIT - 100n * UNIT);
    expect(await payoutStatus(submission.id)).toBe('confirmed');
  });

  it('never signs a reverted payout again on its own, however many reconciler passes see the revert deep enough (PAYOUT_REVERT_CONFIRMATIONS=3)', async () => {
    // The old bug: once a revert counted, every reconciler pass signed the payout again, forever.
    const deep = new FakeChain();
    const other = await buildTestApp({
      chain: deep,
      env: {
        PAYOUT_REVERT_CONFIRMATIONS: '3',
        PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1',
        CHAIN_POLLING_INTERVAL_MS: '10',
      },
    });
    try {
      const s = await scene(other, deep);
      const { bounty, submission } = await inReview(other.app, s);
      // A chain on which every payout signed reverts.
      const hook = async () => {
        deep.revertNext = true;
        deep.onSign = hook;
      };
      deep.onSign = hook;
      // The reverted receipt is at the head: not deep enough to count yet.
      const first = expectError(await approve(other.app, s.founder, bounty.id), 502, 'upstream_error');
      expect(first.message).toContain('not confirmed in time');
      const signed = deep.signed.length;
      expect(signed).toBe(1);
      for (let round = 0; round < 5; round++) {
        deep.mineEmpty(3);
        expect(await other.app.services.approvals.reconcile()).toBe(0);
        expect(deep.signed).toHaveLength(signed);
      }
      const [payout] = await other.database.db
        .select()
        .from(payouts)
        .where(eq(payouts.submissionId, submission.id));
      expect(payout?.status).toBe('failed');
      const legs = await payoutLegsOf(other.database.db, { submissionId: submission.id });
      expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'reverted']]);
      expect(paidOn(deep, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
      const detail = await getBounty(other.app, bounty.id);
      expect(detail.status).toBe('in_review');
      expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'pending' });
    } finally {
      deep.onSign = null;
      await other.close();
    }
  });

  it.each([
    [
      'the payout transaction reverts on chain, as every one signed would',
      () => {
        revertEveryPayout();
      },
    ],
    [
      'the node fails to take the transaction',
      () => {
        chain.failNextBroadcast = new AppError('upstream_error', 'the node refused the payout');
      },
    ],
  ])(
    'is 502 upstream_error when the payout fails (%s); the bounty stays in review and a retry pays once',
    async (failure, fail) => {
      const s = await scene(ctx, chain);
      const { bounty, submission } = await inReview(ctx.app, s);
      fail();
      expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
      // Both or neither: neither the contributor nor the fee was paid.
      expect(paidFor(s)).toEqual({ contributor: [], fee: [] });
      if (failure.includes('node')) expectNothingPaid(s);
      else expect(chain.transfers.filter((t) => t.hash === signedOn(s)[0]?.hash)).toHaveLength(2);
      stopReverting();
      const failed = await getBounty(ctx.app, bounty.id);
      expect(failed.status).toBe('in_review');
      expect(failed.submissions[0]).toMatchObject({
        id: submission.id,
        status: 'pending',
        contributor_tx_hash: null,
        platform_fee_tx_hash: null,
        reviewed_at: null,
      });
      expect(await activeClaims(s.dev)).toEqual([
        expect.objectContaining({ bounty_id: bounty.id, status: 'in_review' }),
      ]);

      const retry = okJson(await approve(ctx.app, s.founder, bounty.id, { review_notes: 'Second try.' }));
      expect(retry).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
      const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };
      expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, retry);
      const detail = await getBounty(ctx.app, bounty.id);
      expect(detail.submissions[0]).toMatchObject({
        status: 'approved',
        review_notes: 'Second try.',
        contributor_tx_hash: retry.contributor_tx_hash,
        platform_fee_tx_hash: retry.platform_fee_tx_hash,
      });
      expect(retry.contributor_tx_hash).toBe(retry.platform_fee_tx_hash);
      expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'not_in_review');
      expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, retry);
      const funds = await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string);
      expect(funds.balanceUnits).toBe(1_000_000n * UNIT - 100n * UNIT);
    },
  );

  it('reserves the funds of a payout in flight: another payout from the same wallet and token is 400 insufficient_funds until they cover both', async () => {
    const s = await scene(ctx, chain);
    const a = await inReview(ctx.app, s, { reward: 100 });
    const b = await inReview(ctx.app, s, { reward: 100, dev: await registerAgent(ctx.app) });
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 150n);
    // A's payout is signed but the node did not take it: in flight, its 100 tokens reserved.
    chain.failNextBroadcast = new AppError('upstream_error', 'the node is down');
    expectError(await approve(ctx.app, s.founder, a.bounty.id), 502, 'upstream_error');
    expect(signedOn(s)).toHaveLength(1);
    expect((await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string)).balanceUnits).toBe(
      150n * UNIT,
    );
    // 150 spendable covers B's 100 alone, not beside A's 100 on its way.
    const refused = expectError(await approve(ctx.app, s.founder, b.bounty.id), 400, 'insufficient_funds');
    expect(refused.message).toContain('already on their way');
    expect(signedOn(s)).toHaveLength(1);
    expect((await getBounty(ctx.app, b.bounty.id)).status).toBe('in_review');

    // A's retry sends its signed payout; the 50 left do not cover B either.
    const paidA = okJson(await approve(ctx.app, s.founder, a.bounty.id));
    expect(paidA.contributor_tx_hash).toBe(signedOn(s)[0]?.hash);
    expectError(await approve(ctx.app, s.founder, b.bounty.id), 400, 'insufficient_funds');
    // Funded for B: paid once.
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 100n);
    const paidB = okJson(await approve(ctx.app, s.founder, b.bounty.id));
    expect(paidB.submission_id).toBe(b.submission.id);
    expect(signedOn(s)).toHaveLength(2);
    expect(paidOn(chain, s.tokenAddress).contributor.map((t) => t.amountUnits)).toEqual([
      95n * UNIT,
      95n * UNIT,
    ]);
    expect(paidOn(chain, s.tokenAddress).fee.map((t) => t.amountUnits)).toEqual([5n * UNIT, 5n * UNIT]);
  });

  it('hides the message of an unexpected chain failure', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    // The RPC call itself fails with a message naming the node.
    chain.failNextBroadcast = new Error('ECONNRESET secret-rpc-host:8545');
    const res = await approve(ctx.app, s.founder, bounty.id);
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expectError(res, 502, 'upstream_error');
    expect(res.body).not.toContain('secret-rpc-host');
    expect(res.body).not.toContain('ECONNRESET');
    expectNothingPaid(s);
    expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
  });

  it('is 404 for an unknown bounty', async () => {
    const s = await scene(ctx, chain);
    expectError(await approve(ctx.app, s.founder, UNKNOWN_BOUNTY), 404, 'not_found');
    expectError(await approve(ctx.app, s.founder, 'bnt_short'), 404, 'not_found');
  });
});
