import {
  type AuditContext,
  describeTransfer,
  groupBy,
  isDead,
  isFiller,
  lc,
  paysContributor,
  paysFee,
} from './payouts-audit.context.ts';
import type { AuditRow } from './payouts-audit.types.ts';

/** Every transaction of a platform signer is a leg: by nonce, and by what it moved. Returns their count. */
export function checkSignerTxs(ctx: AuditContext): number {
  const { ledger, chain, differ, notes, transfersByTx, signers, legByAttempt } = ctx;
  let signerTxs = 0;
  for (const signer of signers) {
    const count = chain.signerNonces[signer] ?? 0;
    signerTxs += count;
    const own = ledger.legs.filter((l) => lc(l.signer) === signer);
    // A dropped leg holds its nonce, but another transaction used it: that one is judged as any.
    const legNonces = new Set(own.filter((l) => l.status !== 'dropped').map((l) => l.nonce));
    const droppedAt = new Map(own.filter((l) => l.status === 'dropped').map((l) => [l.nonce, l]));
    const bySignerNonce = new Map(chain.txs.filter((t) => lc(t.sender) === signer).map((t) => [t.nonce, t]));
    const missing: number[] = [];
    for (let n = 0; n < count; n++) {
      if (legNonces.has(n)) continue;
      const tx = bySignerNonce.get(n);
      // A transaction found at the nonce is judged below by what it moved.
      if (tx) continue;
      const dropped = droppedAt.get(n);
      // The service knew: it dropped the leg for it. Had it moved a project token, its Transfer
      // logs would have found it.
      if (dropped)
        notes.push(
          `nonce ${n} of ${signer} (leg ${dropped.id}, dropped) was used by a transaction the service did not sign; no scanned Transfer log is from it`,
        );
      else missing.push(n);
    }
    if (missing.length > 0) {
      differ({
        code: 'signer_tx_without_leg',
        message: `the payout wallet ${signer} sent ${missing.length} transaction(s) no leg explains, at nonce(s) ${missing.slice(0, 20).join(', ')} (not found on chain by nonce, so what they moved is unknown)`,
      });
    }
  }
  for (const tx of chain.txs) {
    if (!signers.has(lc(tx.sender)) || legByAttempt.has(lc(tx.hash))) continue;
    const moved = transfersByTx.get(lc(tx.hash)) ?? [];
    if (isFiller(tx) && moved.length === 0) {
      notes.push(`nonce ${tx.nonce} of ${tx.sender} was filled by ${tx.hash} (moves nothing)`);
      continue;
    }
    differ({
      code: 'unexplained_transfer',
      txHash: tx.hash,
      message: `${tx.hash} by the payout wallet (nonce ${tx.nonce}) is no leg's; it moved ${
        moved.map(describeTransfer).join('; ') || 'no tokens'
      }`,
    });
  }
  return signerTxs;
}

/**
 * Each payout: confirmed means the contributor's share and the fee paid once each (one `payout`
 * leg, or a `contributor` and a `fee` leg), and the submission says so. One row per payout.
 */
export function checkPayouts(ctx: AuditContext): AuditRow[] {
  const { ledger, differ, notes, legsByPayout, submissionById, differences } = ctx;
  const rows: AuditRow[] = [];
  for (const payout of ledger.payouts) {
    const at = { payoutId: payout.id };
    const legs = legsByPayout.get(payout.id) ?? [];
    const live = legs.filter((l) => !isDead(l));
    const succeeded = legs.filter((l) => l.status === 'success');
    const seen = new Set<string>();
    for (const [to, pays] of [
      ['contributor', paysContributor],
      ['treasury', paysFee],
    ] as const) {
      const paying = live.filter((l) => pays(l.kind));
      const which = paying.map((l) => `${l.kind} leg ${l.id}`).join(', ');
      // Two `payout` legs pay both: one difference, not two.
      if (paying.length > 1 && !seen.has(which))
        differ({
          ...at,
          code: 'two_live_legs',
          message: `payout ${payout.id} has ${paying.length} live legs paying the ${to}: ${which}`,
        });
      seen.add(which);
    }
    if (payout.contributorUnits + payout.feeUnits !== payout.rewardUnits) {
      differ({ ...at, code: 'split_differs', message: `payout ${payout.id}: contributor + fee != reward` });
    }
    const sub = submissionById.get(payout.submissionId);
    if (sub && lc(sub.submitterWallet) !== lc(payout.contributorAddress)) {
      differ({
        ...at,
        code: 'paid_to_someone_else',
        message: `payout ${payout.id} pays ${payout.contributorAddress}; the submitter's wallet is ${sub.submitterWallet ?? 'none'}`,
      });
    }
    const c = succeeded.filter((l) => paysContributor(l.kind));
    const f = succeeded.filter((l) => paysFee(l.kind));
    if (payout.status === 'confirmed') {
      if (c.length !== 1 || f.length !== 1) {
        differ({
          ...at,
          code: 'confirmed_not_paid',
          message: `confirmed payout ${payout.id} has ${c.length} paid legs to the contributor and ${f.length} to the treasury (1 each expected)`,
        });
      }
      if (sub?.status !== 'approved') {
        differ({
          ...at,
          code: 'confirmed_not_approved',
          message: `payout ${payout.id} is confirmed; its submission is ${sub?.status ?? 'missing'}`,
        });
      } else if (
        lc(sub.contributorTxHash) !== lc(c[0]?.txHash) ||
        lc(sub.platformFeeTxHash) !== lc(f[0]?.txHash) ||
        sub.rewardUnits !== payout.rewardUnits ||
        sub.feeUnits !== payout.feeUnits
      ) {
        differ({
          ...at,
          code: 'submission_differs',
          message: `submission ${sub.id} records ${sub.contributorTxHash}/${sub.platformFeeTxHash} (${sub.rewardUnits}, fee ${sub.feeUnits}); its payout paid ${c[0]?.txHash}/${f[0]?.txHash} (${payout.rewardUnits}, fee ${payout.feeUnits})`,
        });
      }
    } else if (sub?.status === 'approved') {
      differ({
        ...at,
        code: 'approved_not_confirmed',
        message: `submission ${sub.id} is approved; its payout is ${payout.status}`,
      });
    } else if (sub?.status === 'rejected' && c.length > 0) {
      differ({
        ...at,
        code: 'paid_for_rejected',
        message: `payout ${payout.id} paid the contributor of rejected submission ${sub.id}`,
      });
    } else if (payout.status === 'pending') {
      notes.push(
        `payout ${payout.id} (bounty ${payout.bountyId}) is unfinished: the reconciler will finish it`,
      );
    }
    rows.push({
      payoutId: payout.id,
      bountyId: payout.bountyId,
      status: payout.status,
      contributor: payout.contributorAddress,
      contributorUnits: payout.contributorUnits,
      feeUnits: payout.feeUnits,
      contributorTx: c[0]?.txHash ?? null,
      feeTx: f[0]?.txHash ?? null,
      verdict: differences.some((d) => d.payoutId === payout.id)
        ? 'DIFFERENT'
        : payout.status === 'pending'
          ? 'in flight'
          : 'ok',
    });
  }
  return rows;
}

/** Approved submissions and done bounties each have their one confirmed payout. */
export function checkApprovals(ctx: AuditContext): void {
  const { ledger, differ, payoutsBySubmission } = ctx;
  const approvedByBounty = groupBy(
    ledger.submissions.filter((s) => s.status === 'approved'),
    (s) => s.bountyId,
  );
  for (const sub of ledger.submissions.filter((s) => s.status === 'approved')) {
    const own = payoutsBySubmission.get(sub.id) ?? [];
    if (own.length !== 1) {
      differ({
        code: 'approved_without_payout',
        message: `approved submission ${sub.id} has ${own.length} payouts`,
      });
    }
  }
  for (const bounty of ledger.bounties) {
    const approved = approvedByBounty.get(bounty.id) ?? [];
    if ((bounty.status === 'done') !== (approved.length === 1) || approved.length > 1) {
      differ({
        code: 'bounty_differs',
        message: `bounty ${bounty.id} is ${bounty.status} with ${approved.length} approved submission(s)`,
      });
    }
  }
}
