import { eq } from 'drizzle-orm';
import { createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { payoutLegs } from '../src/infra/db/schema.ts';
import { formatAudit } from '../src/modules/payouts/payouts-audit.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
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
} from './helpers/chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;

/**
 * `npm run audit:payouts`'s comparison on a real anvil and the file's database: a payout made
 * through the app passes; a transfer the payout wallet makes behind the ledger's back, or a leg
 * row changed after the fact, fails it.
 */
describe('the payout audit against a real chain', () => {
  let tc: TestChain;
  let ctx: TestContext;
  let host: FakeRepoHost;
  let founder: TestAgent;
  let project: { id: string; repoUrl: string; tokenAddress: string; curveAddress: string };

  beforeAll(async () => {
    tc = await startTestChain();
    host = new FakeRepoHost();
    ctx = await buildTestApp({ chain: tc.chain, repoHost: host });
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
    const created = await createProject(ctx.app, founder);
    project = { id: created.id, ...(await activateOnChain(ctx, tc, created.id, created.token_symbol)) };
    await buyTokens(tc, FOUNDER_ACCOUNT, project.curveAddress, UNIT);
    await approvePayouts(tc, FOUNDER_ACCOUNT, project.tokenAddress, 10n ** 30n);
  });
  afterAll(async () => {
    await ctx?.close();
    await tc?.stop();
  });

  const audit = () => runPayoutAudit(ctx.database.db, tc.rpcUrl, tc.chain.payoutSigner.address);

  /** A bounty claimed, submitted (with a pull request its author opened) and approved. */
  async function paidBounty(n: number, reward: number) {
    const dev = await registerAgent(ctx.app);
    await setRepoLogin(ctx, dev.id, `audit-dev-${n}-${process.pid}`);
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
    const prUrl = `${project.repoUrl}/pull/${n}`;
    host.setPullRequest(prUrl, { authorLogin: `audit-dev-${n}-${process.pid}` });
    const post = (url: string, agent: TestAgent, payload?: object) =>
      ctx.app.inject({ method: 'POST', url, headers: agent.headers, ...(payload ? { payload } : {}) });
    expect((await post(`/api/bounties/${bounty.id}/claim`, dev)).statusCode).toBe(200);
    const submitted = await post(`/api/bounties/${bounty.id}/submit`, dev, { pr_url: prUrl });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const approved = await post(`/api/bounties/${bounty.id}/approve`, founder);
    expect(approved.statusCode, approved.body).toBe(200);
    return { dev, bountyId: bounty.id };
  }

  it('passes after real payouts, and reports a leg row changed after it was paid', async () => {
    await paidBounty(1, 100);
    await paidBounty(2, 7);
    const clean = await audit();
    expect(clean.differences, formatAudit(clean)).toEqual([]);
    expect(clean.rows.map((r) => r.verdict)).toEqual(['ok', 'ok']);
    expect(clean.summary.signerTxs).toBe(4);

    const [leg] = await ctx.database.db
      .select()
      .from(payoutLegs)
      .where(eq(payoutLegs.kind, 'contributor'))
      .orderBy(payoutLegs.nonce);
    if (!leg) throw new Error('no contributor leg');
    const tamper = (amountUnits: bigint) =>
      ctx.database.db.update(payoutLegs).set({ amountUnits }).where(eq(payoutLegs.id, leg.id));
    await tamper(leg.amountUnits + 1n);
    try {
      const report = await audit();
      expect(report.differences.map((d) => [d.code, d.payoutId])).toEqual([
        ['leg_not_as_intended', leg.payoutId],
      ]);
      expect(report.rows.filter((r) => r.verdict === 'DIFFERENT').map((r) => r.payoutId)).toEqual([
        leg.payoutId,
      ]);
    } finally {
      await tamper(leg.amountUnits);
    }
    expect((await audit()).differences).toEqual([]);
  });

  // Last: the bogus transaction takes a nonce the service's counter will hand out next.
  it('reports a transferFrom by the payout wallet that no leg explains', async () => {
    const { dev } = await paidBounty(3, 40);
    expect((await audit()).differences).toEqual([]);

    // The payout key moves the founder's tokens once more, straight on the chain.
    const payoutWallet = createWalletClient({
      account: privateKeyToAccount(tc.options.payoutKey),
      chain: foundry,
      transport: http(tc.rpcUrl),
    });
    const bogus = await payoutWallet.writeContract({
      address: getAddress(project.tokenAddress),
      abi: projectTokenAbi,
      functionName: 'transferFrom',
      args: [
        getAddress(founder.walletAddress as string),
        getAddress(dev.walletAddress as string),
        38n * UNIT,
      ],
    });
    await tc.pub.waitForTransactionReceipt({ hash: bogus });

    const report = await audit();
    expect(report.differences.map((d) => [d.code, d.txHash])).toEqual([['unexplained_transfer', bogus]]);
    expect(report.differences[0]?.message).toContain(getAddress(dev.walletAddress as string));
    expect(formatAudit(report)).toContain('1 difference(s):');
  });
});
