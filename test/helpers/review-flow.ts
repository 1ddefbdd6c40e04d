import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { accountNonces } from '../../src/infra/db/schema.ts';
import {
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestApp,
  type TestContext,
} from './app.ts';
import { FakeChain, type FakeTransfer } from './fake-chain.ts';

export const UNIT = 10n ** 18n;

/**
 * A FakeChain that tells a test when a payout has started signing (its fee quote: inside the
 * signing transaction, after the funds lock and the funds check passed), so races can be set up
 * without sleeps. Whatever a waiter does meanwhile must not need the rows that transaction holds
 * (the submission, the wallet's funds lock, the signer's nonce counter), or it deadlocks.
 */
export class SignalChain extends FakeChain {
  private waiters: (() => void)[] = [];
  payoutsStarted = 0;

  protected override quoteFees() {
    this.payoutsStarted++;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
    return super.quoteFees();
  }

  /** Resolves once the next payout has begun. */
  nextPayoutStarted(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * What the chain paid on a token: its successful transfers to the contributor `to` (all of them
 * when `to` is omitted) and to the treasury (the platform fees).
 */
export function paidOn(
  chain: FakeChain,
  tokenAddress: string,
  to?: string | null,
): { contributor: FakeTransfer[]; fee: FakeTransfer[] } {
  const paid = chain.paid.filter((t) => same(t.tokenAddress, tokenAddress));
  const treasury = chain.info.treasuryAddress;
  return {
    contributor: paid.filter((t) => !same(t.to, treasury) && (to === undefined || same(t.to, to))),
    fee: paid.filter((t) => same(t.to, treasury)),
  };
}

/**
 * Asserts that the chain made exactly one payout on the scene's token, as one PayoutRouter
 * transaction: one transfer to the contributor and one fee transfer, from the founder, of these
 * amounts, both carried by the same transaction (one hash, one nonce, one block), which the payout
 * key signed exactly once as a router call (`feeUnits` set) and which is both hashes the approval
 * answered. Returns the two transfers.
 */
export function expectOnePayout(
  chain: FakeChain,
  s: { tokenAddress: string; founder: TestAgent },
  to: string,
  amounts: { contributorUnits: bigint; feeUnits: bigint },
  hashes?: { contributor_tx_hash: string; platform_fee_tx_hash: string },
): { contributor: FakeTransfer; fee: FakeTransfer } {
  const { contributor, fee } = paidOn(chain, s.tokenAddress);
  expect(contributor).toHaveLength(1);
  expect(fee).toHaveLength(1);
  const [c, f] = [contributor[0] as FakeTransfer, fee[0] as FakeTransfer];
  const founder = (s.founder.walletAddress as string).toLowerCase();
  expect(c).toMatchObject({
    tokenAddress: s.tokenAddress.toLowerCase(),
    from: founder,
    to: to.toLowerCase(),
  });
  expect(f).toMatchObject({
    tokenAddress: s.tokenAddress.toLowerCase(),
    from: founder,
    to: chain.info.treasuryAddress.toLowerCase(),
  });
  expect(c.amountUnits).toBe(amounts.contributorUnits);
  expect(f.amountUnits).toBe(amounts.feeUnits);
  // Both transfers are one router transaction: both or neither.
  expect(f.hash).toBe(c.hash);
  expect(f.nonce).toBe(c.nonce);
  expect(f.blockNumber).toBe(c.blockNumber);
  const signed = chain.signed.filter((t) => t.hash === c.hash);
  expect(signed).toHaveLength(1);
  expect(signed[0]).toMatchObject({
    tokenAddress: s.tokenAddress.toLowerCase(),
    from: founder,
    to: to.toLowerCase(),
    amountUnits: amounts.contributorUnits,
    feeUnits: amounts.feeUnits,
    nonce: c.nonce,
  });
  if (hashes) {
    expect(hashes.contributor_tx_hash).toBe(c.hash);
    expect(hashes.platform_fee_tx_hash).toBe(c.hash);
  }
  return { contributor: c, fee: f };
}

/**
 * The router payouts the payout key signed on a token (`feeUnits` set), whether or not they
 * mined: each is one transaction carrying both transfers.
 */
export function routerPayoutsSigned(chain: FakeChain, tokenAddress: string): FakeChain['signed'] {
  return chain.signed.filter(
    (t) => !t.filler && t.feeUnits !== undefined && same(t.tokenAddress, tokenAddress),
  );
}

/**
 * The next `n` payout transactions the chain's payout key signs mine reverted, whatever the funds
 * (uses `onSign`: clear it after the test). Nothing signs a reverted payout again on its own: each
 * approval after a revert signs one new transaction, so `n` reverts fail the next `n` approvals.
 */
export function revertNextPayouts(chain: FakeChain, n: number): void {
  let left = n;
  // Armed as each is signed (before its broadcast), so it is that transaction that reverts.
  const hook = async () => {
    chain.revertNext = true;
    left--;
    chain.onSign = left > 0 ? hook : null;
  };
  chain.onSign = hook;
}

/**
 * Seeds the payout key's nonce counter from the chain, as the first payout ever does: every first
 * approval after it takes the fast path (FreshPayout), whichever test of a file runs first.
 */
export async function seedPayoutNonce(ctx: TestContext, chain: FakeChain): Promise<void> {
  await ctx.database.db
    .insert(accountNonces)
    .values({ address: chain.payoutSigner.address.toLowerCase(), nextNonce: chain.ledgerNonce })
    .onConflictDoNothing();
}

/**
 * A payout signed before the PayoutRouter, as its approval left it after signing and storing both
 * transferFroms (a `contributor` leg, then a `fee` leg, at consecutive nonces from the signer's
 * counter) and before broadcasting either: the payout row, both legs and their first attempts.
 * The engine still drives such a payout its own way (it never mixes in a router leg).
 */
export async function legacyTwoLegPayout(
  ctx: TestContext,
  chain: FakeChain,
  s: Pick<Scene, 'tokenAddress' | 'founder' | 'dev'>,
  w: { bounty: { id: string; reward_amount: number }; submission: { id: string } },
  contributorAddress = s.dev.walletAddress as string,
) {
  const { db } = ctx.database;
  const { payouts } = ctx.app.services;
  const payout = await payouts.prepare({
    submissionId: w.submission.id,
    bountyId: w.bounty.id,
    tokenAddress: s.tokenAddress,
    founderAddress: s.founder.walletAddress as string,
    contributorAddress,
    split: payouts.split(w.bounty.reward_amount),
    reviewNotes: null,
  });
  const signer = chain.payoutSigner;
  const fees = await chain.wallets.quoteFees();
  // Recorded through the transaction engine's journal, as the payouts module records its own.
  await db.transaction(async (tx) => {
    for (const kind of ['contributor', 'fee'] as const) {
      const call = signer.transferFromCall({
        tokenAddress: payout.tokenAddress,
        from: payout.fromAddress,
        to: kind === 'fee' ? payout.treasuryAddress : payout.contributorAddress,
        amountUnits: kind === 'fee' ? payout.feeUnits : payout.contributorUnits,
      });
      const unsigned = { ...call, valueUnits: 0n, ...fees };
      await ctx.app.services.txJournal.recordIn(
        tx,
        {
          kind: `payout_${kind}`,
          agentId: null,
          payoutId: payout.id,
          projectId: null,
          holder: payout.fromAddress,
          requestKey: null,
        },
        signer.address,
        () => chain.wallets.nonceOf(signer.address, 'pending'),
        (nonce) => chain.wallets.signTx(signer.key, unsigned, nonce),
        unsigned,
      );
    }
  });
  return payout;
}

export interface Scene {
  founder: TestAgent;
  dev: TestAgent;
  project: { id: string; name: string };
  repoUrl: string;
  tokenAddress: string;
}

/** A founder with funds on an active project and one would-be contributor. */
export async function scene(
  ctx: TestContext,
  chain: FakeChain,
  opts: { funds?: bigint; devWallet?: null } = {},
): Promise<Scene> {
  const founder = await registerAgent(ctx.app);
  const dev = await registerAgent(ctx.app, opts.devWallet === null ? { wallet_address: null } : {});
  const project = await createProject(ctx.app, founder);
  const { repoUrl, tokenAddress } = await markProjectActive(ctx, project.id);
  chain.setFunds(tokenAddress, founder.walletAddress as string, opts.funds ?? 1_000_000n);
  return { founder, dev, project, repoUrl, tokenAddress };
}

let prSeq = 0;
/** A pull request URL on the scene's repository that no other test uses. */
export const nextPrUrl = (repoUrl: string) => `${repoUrl}/pull/${++prSeq}`;

export function post(app: TestApp, url: string, agent: TestAgent | null, payload?: unknown) {
  return app.inject({
    method: 'POST',
    url,
    ...(agent ? { headers: agent.headers } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export async function claim(app: TestApp, agent: TestAgent, bountyId: string) {
  const res = await post(app, `/api/bounties/${bountyId}/claim`, agent);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function submit(app: TestApp, agent: TestAgent, bountyId: string, prUrl: string) {
  const res = await post(app, `/api/bounties/${bountyId}/submit`, agent, { pr_url: prUrl });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().submission as { id: string; pr_url: string; status: string };
}

export const approve = (app: TestApp, founder: TestAgent, bountyId: string, payload?: unknown) =>
  post(app, `/api/bounties/${bountyId}/approve`, founder, payload);

export const reject = (app: TestApp, founder: TestAgent, bountyId: string, payload: unknown) =>
  post(app, `/api/bounties/${bountyId}/reject`, founder, payload);

export async function getBounty(app: TestApp, bountyId: string) {
  const res = await app.inject({ method: 'GET', url: `/api/bounties/${bountyId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().bounty;
}

/** A bounty created, claimed by the scene's dev and submitted: state `in_review`. */
export async function inReview(app: TestApp, s: Scene, opts: { reward?: number; dev?: TestAgent } = {}) {
  const dev = opts.dev ?? s.dev;
  const bounty = await createBounty(app, s.founder, s.project.id, { reward_amount: opts.reward ?? 100 });
  await claim(app, dev, bounty.id);
  const submission = await submit(app, dev, bounty.id, nextPrUrl(s.repoUrl));
  return { bounty, submission };
}

export const okJson = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};
