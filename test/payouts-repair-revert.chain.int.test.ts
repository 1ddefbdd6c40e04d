import { getAddress } from 'viem';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { approvePayouts, transferLogs } from './helpers/chain.ts';
import { payoutLegsOf } from './helpers/payout-rows.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A paid payout a reorg took back, whose same bytes, sent again, revert because the founder
 * revoked the allowance meanwhile: the contributor is unpaid again, so the payout is signed again
 * at a fresh nonce, and pays once when the funds allow. (Found by the interleaving model, seed
 * 363239958: the ledger recorded it as paid and nothing paid.)
 */
describe('a paid payout whose re-sent transaction reverts', () => {
  const { ctx, tc } = chainAppForFile((tc) => ({
    chain: tc.chain,
    env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '2' },
  }));
  let founder: TestAgent;

  beforeAll(async () => {
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
  });

  const legsOf = (bountyId: string) => payoutLegsOf(ctx.database.db, { bountyId });
  /**
   * One pass of what runs on timers: the transaction engine (the clock past its follow-up delay),
   * then the approvals' reconciler.
   */
  const pass = async () => {
    ctx.clock.advance(5_000);
    await ctx.app.services.txEngine.run();
    await ctx.app.services.approvals.reconcile();
  };

  /** A funded project's bounty of `reward` tokens, claimed and submitted: in review. */
  const inReview = async (reward: number) => {
    const funds = { account: FOUNDER_ACCOUNT, eth: UNIT, allowance: 10n ** 30n };
    const project = await fundedChainProject(ctx, tc, founder, funds);
    const dev = await registerAgent(ctx.app);
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
    const post = (url: string, who: TestAgent, payload?: object) =>
      ctx.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
    expect((await post(`/api/bounties/${bounty.id}/claim`, dev)).statusCode).toBe(200);
    const pr = { pr_url: `${project.repoUrl}/pull/1` };
    expect((await post(`/api/bounties/${bounty.id}/submit`, dev, pr)).statusCode).toBe(201);
    return { project, dev, bounty, post };
  };

  it('is signed again at a fresh nonce once the revert is final and the funds are back: it pays once', async () => {
    const { project, dev, bounty, post } = await inReview(60);
    const snapshot = await tc.test.snapshot();
    const res = await post(`/api/bounties/${bounty.id}/approve`, founder);
    expect(res.statusCode, res.body).toBe(200);
    const lost = res.json().contributor_tx_hash as string;
    const paidTo = async () =>
      (await transferLogs(tc, project.tokenAddress))
        .filter((l) => same(l.from, founder.walletAddress as string))
        .map((l) => [getAddress(l.to), l.value, l.txHash]);

    // The chain rolls back (the payment is gone) and the founder revokes the allowance.
    await tc.test.revert({ id: snapshot });
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 0n);
    const warn = vi.spyOn(ctx.app.log, 'warn');
    const error = vi.spyOn(ctx.app.log, 'error');
    for (let i = 0; i < 3; i++) await pass();
    // Waiting for the founder's funds is said once (a warning, at most once a minute), not per pass.
    const said = (spy: typeof warn, what: RegExp) =>
      spy.mock.calls.filter((c) => c.some((a) => typeof a === 'string' && what.test(a))).length;
    expect(said(warn, /waits for its founder's funds/)).toBe(1);
    expect(said(error, /could not be signed again/)).toBe(0);
    warn.mockRestore();
    error.mockRestore();
    // The same bytes went out again and reverted: nothing paid, and no new leg while funds lack.
    expect(await paidTo()).toEqual([]);
    const [first, ...more] = await legsOf(bounty.id);
    expect(first).toMatchObject({ status: 'reverted', txHash: lost });
    expect(more).toEqual([]);

    // The founder allows payouts again: the next pass signs the payout at a fresh nonce.
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
    for (let i = 0; i < 3; i++) await pass();
    const moved = await paidTo();
    const paid = moved[0]?.[2] as string;
    expect(moved).toEqual([
      [getAddress(dev.walletAddress as string), 57n * UNIT, paid],
      [getAddress(tc.chain.info.treasuryAddress as string), 3n * UNIT, paid],
    ]);
    expect(paid).not.toBe(lost);
    expect((await legsOf(bounty.id)).map((l) => [l.status, l.txHash])).toEqual([
      ['reverted', lost],
      ['success', paid],
    ]);
    const after = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${bounty.id}` })).json().bounty;
    expect(after.status).toBe('done');
    expect(after.submissions[0]).toMatchObject({ status: 'approved', contributor_tx_hash: paid });
    // More passes pay nothing more.
    for (let i = 0; i < 2; i++) await pass();
    expect(await paidTo()).toEqual(moved);
  });

  /**
   * The same, with a second reorg that takes the reverted re-send out too: the engine cancels it at
   * its nonce (the bytes would revert again), the leg stays reverted, and the audit finds the cancel
   * on chain as that leg's. (Found by the interleaving model, seed 688393248: the audit looked for
   * the leg's payout transaction only and reported `leg_not_on_chain`.)
   */
  it('a reverted re-send a second reorg took out is cancelled at its nonce, and the audit reads it so', async () => {
    const { project, dev, bounty, post } = await inReview(40);
    const audit = () => runPayoutAudit(ctx.database.db, tc.rpcUrl, tc.chain.payoutSigner.address);
    const before = new Set((await audit()).differences.map((d) => d.message));
    const newDifferences = async () => (await audit()).differences.filter((d) => !before.has(d.message));
    const beforePayment = await tc.test.snapshot();
    const res = await post(`/api/bounties/${bounty.id}/approve`, founder);
    expect(res.statusCode, res.body).toBe(200);
    const lost = res.json().contributor_tx_hash as string;

    // First reorg: the payment is gone, the allowance revoked; the same bytes go out and revert.
    await tc.test.revert({ id: beforePayment });
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 0n);
    const beforeResend = await tc.test.snapshot();
    for (let i = 0; i < 3; i++) await pass();
    expect((await legsOf(bounty.id))[0]).toMatchObject({ status: 'reverted', txHash: lost });

    // Second reorg: the reverted re-send is gone too. The engine cancels it at its nonce.
    await tc.test.revert({ id: beforeResend });
    for (let i = 0; i < 3; i++) await pass();
    const [cancelled, ...more] = await legsOf(bounty.id);
    expect(cancelled?.status).toBe('reverted');
    expect(more).toEqual([]);
    // The cancel is the leg's transaction on chain; what the audit reports is only the truth that
    // the contributor is unpaid for now.
    expect((await newDifferences()).map((d) => d.code)).toEqual(['confirmed_not_paid', 'submission_differs']);

    // The founder allows payouts again: paid once, at a fresh nonce; the audit agrees.
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
    for (let i = 0; i < 3; i++) await pass();
    const paid = (await transferLogs(tc, project.tokenAddress)).filter(
      (l) => same(l.from, founder.walletAddress as string) && same(l.to, dev.walletAddress as string),
    );
    expect(paid.map((l) => l.value)).toEqual([38n * UNIT]);
    expect((await legsOf(bounty.id)).map((l) => l.status)).toEqual(['reverted', 'success']);
    expect(await newDifferences()).toEqual([]);
  });
});
