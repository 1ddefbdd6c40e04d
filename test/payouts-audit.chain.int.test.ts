import { eq, isNotNull } from 'drizzle-orm';
import { encodeFunctionData, getAddress, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { bounties, payouts, submissions, walletIntents } from '../src/infra/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import type { AuditDifference } from '../src/modules/payouts/payouts-audit.ts';
import { formatAudit } from '../src/modules/payouts/payouts-audit.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
import { setRepoLogin } from './helpers/repo-login.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const STRANGER_ACCOUNT = 6;

/**
 * `npm run audit:payouts`'s comparison on a real anvil and the file's database: payouts made
 * through the app pass; a leg row changed after the fact, a founder-merged submission left
 * neither paid nor owed, a fee paid while its contributor transfer reverted (built here with the
 * payout key's own transferFroms, as two-leg payouts did), and transfers the payout key makes
 * behind the ledger's back fail it.
 */
describe('the payout audit against a real chain', () => {
  const host = new FakeRepoHost();
  const { ctx, tc } = chainAppForFile((tc) => ({ chain: tc.chain, repoHost: host }));
  let founder: TestAgent;
  let project: { id: string; repoUrl: string; tokenAddress: string; curveAddress: string };

  beforeAll(async () => {
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER_ACCOUNT).address });
    project = await fundedChainProject(ctx, tc, founder, {
      account: FOUNDER_ACCOUNT,
      eth: UNIT,
      allowance: 10n ** 30n,
    });
  });

  const audit = () => runPayoutAudit(ctx.database.db, tc.rpcUrl, tc.chain.payoutSigner.address);
  const post = (url: string, agent: TestAgent, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: agent.headers, ...(payload ? { payload } : {}) });
  /** What a report says beyond an earlier one: the chain keeps what earlier tests did. */
  const added = (before: AuditDifference[], after: AuditDifference[]) => {
    const seen = new Set(before.map((d) => `${d.code}:${d.message}`));
    return after.filter((d) => !seen.has(`${d.code}:${d.message}`));
  };

  /** A bounty claimed and submitted (with a pull request its author opened), not yet reviewed. */
  async function submittedBounty(n: number, reward: number) {
    const dev = await registerAgent(ctx.app);
    await setRepoLogin(ctx, dev.id, `audit-dev-${n}-${process.pid}`);
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
    const prUrl = `${project.repoUrl}/pull/${n}`;
    host.setPullRequest(prUrl, { authorLogin: `audit-dev-${n}-${process.pid}` });
    expect((await post(`/api/bounties/${bounty.id}/claim`, dev)).statusCode).toBe(200);
    const submitted = await post(`/api/bounties/${bounty.id}/submit`, dev, { pr_url: prUrl });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { id: submissionId } = (submitted.json() as { submission: { id: string } }).submission;
    return { dev, bountyId: bounty.id, submissionId };
  }

  async function paidBounty(n: number, reward: number) {
    const submitted = await submittedBounty(n, reward);
    const approved = await post(`/api/bounties/${submitted.bountyId}/approve`, founder);
    expect(approved.statusCode, approved.body).toBe(200);
    return submitted;
  }

  // The payout key's own transferFroms (as two-leg payouts made them, before the router) need the
  // founder's allowance for that key; the router's allowance is left alone.
  const payoutKey = () => privateKeyToAccount(tc.options.payoutKey);
  const founderWallet = () => getAddress(founder.walletAddress as string);

  async function allowPayoutKey(units: bigint): Promise<void> {
    const account = anvilAccount(FOUNDER_ACCOUNT);
    const raw = await account.signTransaction({
      chainId: tc.options.chainId,
      type: 'eip1559',
      to: getAddress(project.tokenAddress),
      data: encodeFunctionData({
        abi: projectTokenAbi,
        functionName: 'approve',
        args: [payoutKey().address, units],
      }),
      nonce: await tc.pub.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      gas: 100_000n,
      ...(await tc.pub.estimateFeesPerGas()),
    });
    const receipt = await tc.pub.waitForTransactionReceipt({
      hash: await tc.pub.sendRawTransaction({ serializedTransaction: raw }),
    });
    expect(receipt.status).toBe('success');
  }

  /** A transferFrom of the payout key's, with a fixed gas limit so one that reverts is mined. */
  async function transferFrom(to: string, units: bigint) {
    const t = { tokenAddress: project.tokenAddress, from: founderWallet(), to, amountUnits: units };
    const call = tc.chain.payoutSigner.transferFromCall(t);
    return { ...call, gas: 120_000n, valueUnits: 0n, ...(await tc.pub.estimateFeesPerGas()) };
  }
  type Unsigned = Awaited<ReturnType<typeof transferFrom>>;
  const signAt = async ({ valueUnits, ...u }: Unsigned, nonce: number) => {
    const raw = await payoutKey().signTransaction({
      ...u,
      to: getAddress(u.to),
      data: u.data as Hex,
      value: valueUnits,
      nonce,
      chainId: tc.options.chainId,
      type: 'eip1559',
    });
    return { raw, hash: keccak256(raw) };
  };
  async function send(raw: Hex) {
    const hash = await tc.pub.sendRawTransaction({ serializedTransaction: raw });
    expect(hash).toBe(keccak256(raw));
    return { hash, receipt: await tc.pub.waitForTransactionReceipt({ hash }) };
  }
  /** The payout key moves the founder's tokens behind the ledger's back. */
  async function payoutKeyTransfer(to: string, units: bigint) {
    const nonce = await tc.pub.getTransactionCount({ address: payoutKey().address, blockTag: 'pending' });
    return send((await signAt(await transferFrom(to, units), nonce)).raw);
  }
  const allowanceOfPayoutKey = () =>
    tc.pub.readContract({
      address: getAddress(project.tokenAddress),
      abi: projectTokenAbi,
      functionName: 'allowance',
      args: [founderWallet(), payoutKey().address],
    });

  it('passes after real payouts, and reports a leg row changed after it was paid', async () => {
    await paidBounty(1, 100);
    await paidBounty(2, 7);
    const clean = await audit();
    expect(clean.differences, formatAudit(clean)).toEqual([]);
    expect(clean.rows.map((r) => r.verdict)).toEqual(['ok', 'ok']);
    // One transaction per leg (an engine intent of the payout key): a router `payout` leg, or a
    // `contributor` and a `fee` leg each.
    const legs = await ctx.database.db
      .select()
      .from(walletIntents)
      .where(isNotNull(walletIntents.payoutId))
      .orderBy(walletIntents.nonce);
    expect(clean.summary.signerTxs).toBe(legs.length);

    // The leg's row names another transaction as the one that paid it.
    const [leg, other] = legs;
    if (!leg?.txHash || !other?.txHash) throw new Error('two paid legs expected');
    const tamper = (txHash: string) =>
      ctx.database.db.update(walletIntents).set({ txHash }).where(eq(walletIntents.id, leg.id));
    await tamper(other.txHash);
    try {
      const report = await audit();
      // The leg, and the approved submission that names the transaction that paid, differ from it.
      expect(report.differences.map((d) => [d.code, d.payoutId])).toEqual([
        ['leg_status_differs', leg.payoutId],
        ['submission_differs', leg.payoutId],
      ]);
      expect(report.rows.filter((r) => r.verdict === 'DIFFERENT').map((r) => r.payoutId)).toEqual([
        leg.payoutId,
      ]);
    } finally {
      await tamper(leg.txHash);
    }
    // The amount the payout says was paid, changed after it was paid: its transaction moved another.
    const [paid] = await ctx.database.db
      .select()
      .from(payouts)
      .where(eq(payouts.id, leg.payoutId ?? ''));
    if (!paid) throw new Error('no payout');
    const reword = (contributorUnits: bigint) =>
      ctx.database.db.update(payouts).set({ contributorUnits }).where(eq(payouts.id, paid.id));
    await reword(paid.contributorUnits + 1n);
    try {
      const report = await audit();
      const codes = report.differences.map((d) => [d.code, d.payoutId]);
      expect(codes).toContainEqual(['leg_transfer_differs', paid.id]);
      // The call the engine stored (and would sign again) pays what the payout said before.
      expect(codes).toContainEqual(['leg_not_as_intended', paid.id]);
      expect(new Set(report.differences.map((d) => d.payoutId))).toEqual(new Set([paid.id]));
    } finally {
      await reword(paid.contributorUnits);
    }
    expect((await audit()).differences).toEqual([]);
  });

  it('reports a founder-merged submission that is neither paid nor flagged owed', async () => {
    const { bountyId, submissionId } = await submittedBounty(3, 10);
    const flag = async (merged: boolean, owed: boolean) => {
      await ctx.database.db
        .update(submissions)
        .set({ founderMerged: merged })
        .where(eq(submissions.id, submissionId));
      await ctx.database.db.update(bounties).set({ paymentOwed: owed }).where(eq(bounties.id, bountyId));
    };
    try {
      await flag(true, false);
      const report = await audit();
      expect(
        report.differences.map((d) => d.code),
        formatAudit(report),
      ).toEqual(['merged_not_paid_or_owed']);
      expect(report.differences[0]?.message).toContain(submissionId);

      await flag(true, true);
      expect((await audit()).differences).toEqual([]);

      // The flag without a merged submission waiting is wrong the other way.
      await flag(false, true);
      expect((await audit()).differences.map((d) => d.code)).toEqual(['owed_flag_differs']);
    } finally {
      await flag(false, false);
    }
    expect((await audit()).differences).toEqual([]);
  });

  it('reports the over-commit: a fee paid by the payout key while its contributor transfer reverted', async () => {
    const { dev, bountyId, submissionId } = await submittedBounty(4, 20);
    const contributorUnits = 19n * UNIT;
    const feeUnits = UNIT;
    const treasury = getAddress(tc.chain.info?.treasuryAddress as string);
    const before = (await audit()).differences;

    // The ledger records the two transferFroms as the two-leg service did, through the engine's
    // journal before anything is sent; the founder's allowance covers the fee only, so the
    // contributor transferFrom reverts and the fee transferFrom after it pays.
    const now = ctx.clock.now();
    const payoutId = newId('payout');
    await ctx.database.db.insert(payouts).values({
      id: payoutId,
      submissionId,
      bountyId,
      tokenAddress: project.tokenAddress,
      fromAddress: founderWallet(),
      contributorAddress: getAddress(dev.walletAddress as string),
      treasuryAddress: treasury,
      rewardUnits: contributorUnits + feeUnits,
      contributorUnits,
      feeUnits,
      status: 'failed',
      lastError: 'the contributor transfer reverted',
      createdAt: now,
      updatedAt: now,
    });
    const signer = tc.chain.payoutSigner.address;
    const legged = [
      { kind: 'contributor', to: dev.walletAddress as string, units: contributorUnits },
      { kind: 'fee', to: treasury, units: feeUnits },
    ];
    const recorded = await ctx.database.db.transaction(async (tx) => {
      const out = [];
      for (const { kind, to, units } of legged) {
        const u = await transferFrom(to, units);
        const at = { kind: `payout_${kind}`, agentId: null, payoutId, projectId: null, requestKey: null };
        const pending = () => tc.chain.wallets.nonceOf(signer, 'pending');
        const journal = ctx.app.services.txJournal;
        const sign = (n: number) => signAt(u, n);
        out.push(await journal.recordIn(tx, { ...at, holder: founderWallet() }, signer, pending, sign, u));
      }
      return out;
    });
    const allowance = await allowanceOfPayoutKey();
    await allowPayoutKey(feeUnits);
    const sent = [];
    for (const r of recorded) sent.push(await send(r.signed.raw as Hex));
    await allowPayoutKey(allowance);
    expect(sent.map((t) => t.receipt.status)).toEqual(['reverted', 'success']);
    // The engine settles both from their receipts: the ledger agrees with the chain.
    await ctx.app.services.txEngine.followNow(recorded.map((r) => r.intentId));
    const legs = await payoutLegsOf(ctx.database.db, { submissionId });
    expect(legs.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['contributor', 'reverted', sent[0]?.hash],
      ['fee', 'success', sent[1]?.hash],
    ]);

    const report = await audit();
    expect(
      added(before, report.differences).map((d) => [d.code, d.payoutId, d.txHash]),
      formatAudit(report),
    ).toEqual([['fee_without_contributor', payoutId, sent[1]?.hash]]);
    expect(report.rows.find((r) => r.payoutId === payoutId)?.verdict).toBe('DIFFERENT');
    // Every leg agrees with the chain: only the rule tells.
    const attempts = await attemptsOfLegs(
      ctx.database.db,
      legs.map((l) => l.id),
    );
    expect(attempts.map((a) => a.txHash).sort()).toEqual(sent.map((t) => t.hash).sort());
  });

  it('reports transferFroms by the payout key that no leg explains: a second payment and one to a stranger', async () => {
    const { dev } = await paidBounty(5, 40);
    const before = (await audit()).differences;
    const stranger = tc.account(STRANGER_ACCOUNT).address;

    // The payout key moves the founder's tokens itself: the contributor's share once more, and
    // a token to an address no payout names.
    const allowance = await allowanceOfPayoutKey();
    await allowPayoutKey(39n * UNIT);
    const again = await payoutKeyTransfer(dev.walletAddress as string, 38n * UNIT);
    const away = await payoutKeyTransfer(stranger, UNIT);
    await allowPayoutKey(allowance);
    expect([again.receipt.status, away.receipt.status]).toEqual(['success', 'success']);

    const report = await audit();
    const fresh = added(before, report.differences);
    expect(
      fresh.map((d) => [d.code, d.txHash ?? null]),
      formatAudit(report),
    ).toEqual([
      ['unexplained_transfer', again.hash],
      ['unexplained_transfer', away.hash],
      ['founder_funds_to_stranger', away.hash],
      ['contributor_paid_twice', null],
    ]);
    expect(fresh[0]?.message).toContain(getAddress(dev.walletAddress as string));
    expect(fresh[2]?.message).toContain(`to ${stranger}`);
    expect(fresh[3]?.message).toContain(again.hash);
  });
});
