import { eq, inArray } from 'drizzle-orm';
import { type Address, encodeFunctionData, getAddress, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import {
  bounties,
  legAttempts,
  payoutLegs,
  payouts,
  signerNonces,
  submissions,
} from '../src/infra/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import type { AuditDifference } from '../src/modules/payouts/payouts-audit.ts';
import { formatAudit } from '../src/modules/payouts/payouts-audit.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
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

  /** A transferFrom signed by the payout key with a fixed gas limit, so one that reverts is mined. */
  async function payoutKeyTransfer(to: string, units: bigint) {
    const key = payoutKey();
    const fees = await tc.pub.estimateFeesPerGas();
    const nonce = await tc.pub.getTransactionCount({ address: key.address, blockTag: 'pending' });
    const raw = await key.signTransaction({
      chainId: tc.options.chainId,
      type: 'eip1559',
      to: getAddress(project.tokenAddress),
      data: encodeFunctionData({
        abi: projectTokenAbi,
        functionName: 'transferFrom',
        args: [founderWallet(), getAddress(to), units],
      }),
      nonce,
      gas: 120_000n,
      ...fees,
    });
    const hash = await tc.pub.sendRawTransaction({ serializedTransaction: raw });
    expect(hash).toBe(keccak256(raw));
    const receipt = await tc.pub.waitForTransactionReceipt({ hash });
    return { hash: hash as Hex, raw, nonce, fees, receipt };
  }

  /** The service takes nonces from its counter: after the key's own transactions it must follow the chain. */
  async function syncNonceCounter(): Promise<void> {
    const { address } = tc.chain.payoutSigner;
    const next = await tc.pub.getTransactionCount({ address: address as Address, blockTag: 'pending' });
    await ctx.database.db
      .update(signerNonces)
      .set({ nextNonce: next })
      .where(eq(signerNonces.address, address));
  }

  it('passes after real payouts, and reports a leg row changed after it was paid', async () => {
    await paidBounty(1, 100);
    await paidBounty(2, 7);
    const clean = await audit();
    expect(clean.differences, formatAudit(clean)).toEqual([]);
    expect(clean.rows.map((r) => r.verdict)).toEqual(['ok', 'ok']);
    // One transaction per leg: a router `payout` leg, or a `contributor` and a `fee` leg each.
    const legs = await ctx.database.db.select().from(payoutLegs).orderBy(payoutLegs.nonce);
    expect(clean.summary.signerTxs).toBe(legs.length);

    const leg = legs.find((l) => l.kind !== 'fee');
    if (!leg) throw new Error('no leg pays the contributor');
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

    // The founder's allowance covers the fee only: the contributor transferFrom reverts, the fee
    // transferFrom after it pays, each in its own transaction.
    const allowance = await tc.pub.readContract({
      address: getAddress(project.tokenAddress),
      abi: projectTokenAbi,
      functionName: 'allowance',
      args: [founderWallet(), payoutKey().address],
    });
    await allowPayoutKey(feeUnits);
    const contributorTx = await payoutKeyTransfer(dev.walletAddress as string, contributorUnits);
    const feeTx = await payoutKeyTransfer(treasury, feeUnits);
    await allowPayoutKey(allowance);
    await syncNonceCounter();
    expect([contributorTx.receipt.status, feeTx.receipt.status]).toEqual(['reverted', 'success']);

    // The ledger records exactly that, as the two-leg service did: it agrees with the chain.
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
    const legged = [
      {
        kind: 'contributor' as const,
        sent: contributorTx,
        to: dev.walletAddress as string,
        units: contributorUnits,
      },
      { kind: 'fee' as const, sent: feeTx, to: treasury, units: feeUnits },
    ];
    for (const { kind, sent, to, units } of legged) {
      const legId = newId('leg');
      await ctx.database.db.insert(payoutLegs).values({
        id: legId,
        payoutId,
        kind,
        signer: tc.chain.payoutSigner.address,
        nonce: sent.nonce,
        toAddress: getAddress(to),
        amountUnits: units,
        status: sent.receipt.status,
        txHash: sent.hash,
        blockNumber: Number(sent.receipt.blockNumber),
        createdAt: now,
        updatedAt: now,
      });
      await ctx.database.db.insert(legAttempts).values({
        txHash: sent.hash,
        legId,
        rawTx: sent.raw,
        maxFeePerGas: sent.fees.maxFeePerGas,
        maxPriorityFeePerGas: sent.fees.maxPriorityFeePerGas,
        createdAt: now,
        broadcastAt: now,
      });
    }

    const report = await audit();
    expect(
      added(before, report.differences).map((d) => [d.code, d.payoutId, d.txHash]),
      formatAudit(report),
    ).toEqual([['fee_without_contributor', payoutId, feeTx.hash]]);
    expect(report.rows.find((r) => r.payoutId === payoutId)?.verdict).toBe('DIFFERENT');
    // Every leg agrees with the chain: only the rule tells.
    const legIds = (
      await ctx.database.db.select().from(payoutLegs).where(eq(payoutLegs.payoutId, payoutId))
    ).map((l) => l.id);
    expect(legIds).toHaveLength(2);
    const attempts = await ctx.database.db
      .select()
      .from(legAttempts)
      .where(inArray(legAttempts.legId, legIds));
    expect(attempts.map((a) => a.txHash).sort()).toEqual([contributorTx.hash, feeTx.hash].sort());
  });

  it('reports transferFroms by the payout key that no leg explains: a second payment and one to a stranger', async () => {
    const { dev } = await paidBounty(5, 40);
    const before = (await audit()).differences;
    const stranger = tc.account(STRANGER_ACCOUNT).address;

    // The payout key moves the founder's tokens itself: the contributor's share once more, and
    // a token to an address no payout names.
    const allowance = await tc.pub.readContract({
      address: getAddress(project.tokenAddress),
      abi: projectTokenAbi,
      functionName: 'allowance',
      args: [founderWallet(), payoutKey().address],
    });
    await allowPayoutKey(39n * UNIT);
    const again = await payoutKeyTransfer(dev.walletAddress as string, 38n * UNIT);
    const away = await payoutKeyTransfer(stranger, UNIT);
    await allowPayoutKey(allowance);
    await syncNonceCounter();
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
