import { formatUnits } from 'viem';

/**
 * The payout audit: the ledger (payouts, legs, submissions, bounties) against what the chain
 * says moved (mined transactions, the project tokens' Transfer logs, the payout wallet's nonce).
 * Pure: the reads live in `scripts/lib/payout-audit-sources.ts`, so tests can feed any difference.
 */

import type {
  AuditChain,
  AuditDifference,
  AuditLedger,
  AuditLeg,
  AuditPayout,
  AuditReport,
  AuditRow,
  AuditSubmission,
  AuditTransfer,
  AuditTx,
} from './payouts-audit.types.ts';

export type {
  AuditChain,
  AuditDifference,
  AuditLedger,
  AuditLeg,
  AuditPayout,
  AuditReport,
  AuditRow,
  AuditSubmission,
  AuditTransfer,
  AuditTx,
};

const lc = (a: string | null | undefined) => (a ?? '').toLowerCase();
const short = (a: string) => `${a.slice(0, 10)}…`;
const tokens = (units: bigint) => formatUnits(units, 18);

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** A nonce filler: 0 ETH from the signer to itself, no call. It moves nothing. */
const isFiller = (tx: AuditTx) => lc(tx.sender) === lc(tx.to) && tx.value === 0n && tx.input === '0x';

const describeTransfer = (t: { token: string; from: string; to: string; value: bigint }) =>
  `${tokens(t.value)} of ${short(t.token)} from ${t.from} to ${t.to}`;

export function auditPayouts(ledger: AuditLedger, chain: AuditChain): AuditReport {
  const differences: AuditDifference[] = [];
  const notes: string[] = [];
  const differ = (d: AuditDifference) => differences.push(d);

  const txByHash = new Map(chain.txs.map((t) => [lc(t.hash), t]));
  const transfersByTx = groupBy(chain.transfers, (t) => lc(t.txHash));
  const payoutById = new Map(ledger.payouts.map((p) => [p.id, p]));
  const legsByPayout = groupBy(ledger.legs, (l) => l.payoutId);
  const submissionById = new Map(ledger.submissions.map((s) => [s.id, s]));
  const payoutsBySubmission = groupBy(ledger.payouts, (p) => p.submissionId);
  const signers = new Set(ledger.signers.map(lc));
  const legByAttempt = new Map<string, AuditLeg>();
  for (const leg of ledger.legs) for (const h of leg.attempts) legByAttempt.set(lc(h), leg);

  // 1. Every leg against the chain: what mined is what the leg says, to the right place.
  for (const leg of ledger.legs) {
    const payout = payoutById.get(leg.payoutId);
    if (!payout) {
      differ({ code: 'leg_without_payout', message: `leg ${leg.id} belongs to no payout` });
      continue;
    }
    const at = { payoutId: payout.id };
    const want = {
      to: leg.kind === 'contributor' ? payout.contributorAddress : payout.treasuryAddress,
      value: leg.kind === 'contributor' ? payout.contributorUnits : payout.feeUnits,
    };
    if (lc(leg.toAddress) !== lc(want.to) || leg.amountUnits !== want.value) {
      differ({
        ...at,
        code: 'leg_not_as_intended',
        message: `${leg.kind} leg ${leg.id} pays ${tokens(leg.amountUnits)} to ${leg.toAddress}; the payout says ${tokens(want.value)} to ${want.to}`,
      });
    }
    const mined = leg.attempts.map((h) => txByHash.get(lc(h))).filter((t): t is AuditTx => t !== undefined);
    if (mined.length > 1) {
      differ({
        ...at,
        code: 'leg_mined_twice',
        message: `${leg.kind} leg ${leg.id} mined ${mined.length} times`,
      });
    }
    const tx = mined[0];
    if (!tx) {
      if (leg.status === 'success' || leg.status === 'reverted') {
        differ({
          ...at,
          code: 'leg_not_on_chain',
          txHash: leg.txHash ?? undefined,
          message: `${leg.kind} leg ${leg.id} is recorded ${leg.status} but none of its transactions is on chain`,
        });
      } else if (leg.nonce < (chain.signerNonces[lc(leg.signer)] ?? 0)) {
        differ({
          ...at,
          code: 'leg_nonce_used_elsewhere',
          message: `${leg.kind} leg ${leg.id} holds nonce ${leg.nonce} of ${leg.signer}, which a transaction not of this leg used`,
        });
      } else if (payout.status === 'pending') {
        notes.push(
          `payout ${payout.id}: ${leg.kind} leg at nonce ${leg.nonce} not mined yet (${leg.status})`,
        );
      } else {
        differ({
          ...at,
          code: 'leg_open_on_closed_payout',
          message: `${leg.kind} leg ${leg.id} of a ${payout.status} payout may still mine (${leg.status}, nonce ${leg.nonce})`,
        });
      }
      continue;
    }
    if (lc(tx.sender) !== lc(leg.signer) || tx.nonce !== leg.nonce) {
      differ({
        ...at,
        code: 'leg_tx_not_as_signed',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} mined from ${tx.sender} at nonce ${tx.nonce}; it was signed by ${leg.signer} at nonce ${leg.nonce}`,
      });
    }
    const moved = transfersByTx.get(lc(tx.hash)) ?? [];
    // A filler took the leg's nonce so that the leg can never mine: the leg must not count as paid.
    if (isFiller(tx)) {
      if (leg.status === 'success') {
        differ({
          ...at,
          code: 'leg_status_differs',
          txHash: tx.hash,
          message: `${leg.kind} leg ${leg.id} is recorded paid; its nonce ${leg.nonce} was filled by ${tx.hash}, which moved nothing`,
        });
      }
      continue;
    }
    const expected = { token: payout.tokenAddress, from: payout.fromAddress, ...want };
    const exact =
      moved.length === 1 &&
      moved.every(
        (t) =>
          lc(t.token) === lc(expected.token) &&
          lc(t.from) === lc(expected.from) &&
          lc(t.to) === lc(expected.to) &&
          t.value === expected.value,
      );
    if (tx.status === 'success' && !exact) {
      differ({
        ...at,
        code: 'leg_transfer_differs',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} should move ${describeTransfer(expected)}; its transaction moved ${
          moved.map(describeTransfer).join('; ') || 'nothing'
        }`,
      });
    }
    if (tx.status === 'reverted' && moved.length > 0) {
      differ({
        ...at,
        code: 'reverted_tx_moved_tokens',
        txHash: tx.hash,
        message: `reverted ${tx.hash} has Transfer logs`,
      });
    }
    const recorded = leg.status === 'success' || leg.status === 'reverted';
    if (recorded && (leg.status !== tx.status || lc(leg.txHash) !== lc(tx.hash))) {
      differ({
        ...at,
        code: 'leg_status_differs',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} is recorded ${leg.status} in ${leg.txHash ?? 'no transaction'}; the chain has ${tx.hash} ${tx.status}`,
      });
    } else if (!recorded && payout.status === 'pending') {
      notes.push(`payout ${payout.id}: ${leg.kind} leg mined ${tx.status} in ${tx.hash}, not recorded yet`);
    } else if (!recorded) {
      differ({
        ...at,
        code: 'leg_mined_unrecorded',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} of a ${payout.status} payout mined ${tx.status} in ${tx.hash} unrecorded`,
      });
    }
  }

  // 2. Every transaction of a platform signer is a leg: by nonce, and by what it moved.
  let signerTxs = 0;
  for (const signer of signers) {
    const count = chain.signerNonces[signer] ?? 0;
    signerTxs += count;
    const legNonces = new Set(ledger.legs.filter((l) => lc(l.signer) === signer).map((l) => l.nonce));
    const bySignerNonce = new Map(chain.txs.filter((t) => lc(t.sender) === signer).map((t) => [t.nonce, t]));
    const missing: number[] = [];
    for (let n = 0; n < count; n++) {
      if (legNonces.has(n)) continue;
      const tx = bySignerNonce.get(n);
      // A transaction found at the nonce is judged below by what it moved.
      if (!tx) missing.push(n);
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

  // 3. Each payout: confirmed means both legs paid, and the submission says so.
  const rows: AuditRow[] = [];
  for (const payout of ledger.payouts) {
    const at = { payoutId: payout.id };
    const legs = legsByPayout.get(payout.id) ?? [];
    const live = legs.filter((l) => l.status !== 'reverted');
    const paid = (kind: AuditLeg['kind']) => legs.filter((l) => l.kind === kind && l.status === 'success');
    for (const kind of ['contributor', 'fee'] as const) {
      const n = live.filter((l) => l.kind === kind).length;
      if (n > 1)
        differ({ ...at, code: 'two_live_legs', message: `payout ${payout.id} has ${n} live ${kind} legs` });
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
    const [c, f] = [paid('contributor'), paid('fee')];
    if (payout.status === 'confirmed') {
      if (c.length !== 1 || f.length !== 1) {
        differ({
          ...at,
          code: 'confirmed_not_paid',
          message: `confirmed payout ${payout.id} has ${c.length} paid contributor and ${f.length} paid fee legs (1 each expected)`,
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
    } else if (sub?.status === 'rejected' && f.length > 0) {
      // The founder may reject only once the contributor transfer reverted; the fee had gone.
      notes.push(`payout ${payout.id}: fee paid, contributor transfer reverted, submission rejected`);
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

  // 4. Approved submissions and done bounties each have their one confirmed payout.
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

  return {
    rows,
    differences,
    notes,
    summary: {
      payouts: ledger.payouts.length,
      legs: ledger.legs.length,
      transfersScanned: chain.transfers.length,
      signerTxs,
    },
  };
}

/** The report as text: one line per payout, then every difference and note. */
export function formatAudit(report: AuditReport): string {
  const lines: string[] = [];
  const { summary: s } = report;
  lines.push(
    `${s.payouts} payouts, ${s.legs} legs, ${s.signerTxs} payout-wallet transactions, ${s.transfersScanned} Transfer logs scanned`,
  );
  if (report.rows.length > 0) {
    lines.push('');
    lines.push(['payout', 'bounty', 'status', 'contributor', 'paid', 'fee', 'verdict'].join('\t'));
    for (const r of report.rows) {
      lines.push(
        [
          r.payoutId,
          r.bountyId,
          r.status,
          r.contributor,
          tokens(r.contributorUnits),
          tokens(r.feeUnits),
          r.verdict,
        ].join('\t'),
      );
    }
  }
  if (report.notes.length > 0) {
    lines.push('', `${report.notes.length} note(s), not differences:`);
    for (const n of report.notes) lines.push(`  - ${n}`);
  }
  lines.push('');
  if (report.differences.length === 0) {
    lines.push('OK: every payout matches the chain.');
  } else {
    lines.push(`${report.differences.length} difference(s):`);
    for (const d of report.differences) lines.push(`  - [${d.code}] ${d.message}`);
  }
  return lines.join('\n');
}
