/**
 * The payout audit: the ledger (payouts, legs, submissions, bounties) against what the chain
 * says moved (mined transactions, the project tokens' Transfer logs, the payout wallet's nonce),
 * and the payment rules against what moved (`payouts-audit.rules.ts`): a fee never without its
 * contributor transfer, one contributor transfer per submission, no founder funds to anyone else
 * through the payout key, and every reward the founder's merge made owed paid or flagged owed.
 * Pure: the reads live in `scripts/lib/payout-audit-sources.ts`, so tests can feed any difference.
 */

import { type AuditContext, groupBy, lc, tokens } from './payouts-audit.context.ts';
import { checkApprovals, checkPayouts, checkSignerTxs } from './payouts-audit.ledger.ts';
import { checkLegs } from './payouts-audit.legs.ts';
import { checkRules } from './payouts-audit.rules.ts';
import type {
  AuditBounty,
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
  AuditBounty,
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

export function auditPayouts(ledger: AuditLedger, chain: AuditChain): AuditReport {
  const differences: AuditDifference[] = [];
  const legByAttempt = new Map<string, AuditLeg>();
  for (const leg of ledger.legs) for (const h of leg.attempts) legByAttempt.set(lc(h), leg);
  const ctx: AuditContext = {
    ledger,
    chain,
    differences,
    notes: [],
    differ: (d) => differences.push(d),
    txByHash: new Map(chain.txs.map((t) => [lc(t.hash), t])),
    transfersByTx: groupBy(chain.transfers, (t) => lc(t.txHash)),
    payoutById: new Map(ledger.payouts.map((p) => [p.id, p])),
    legsByPayout: groupBy(ledger.legs, (l) => l.payoutId),
    submissionById: new Map(ledger.submissions.map((s) => [s.id, s])),
    bountyById: new Map(ledger.bounties.map((b) => [b.id, b])),
    payoutsBySubmission: groupBy(ledger.payouts, (p) => p.submissionId),
    signers: new Set(ledger.signers.map(lc)),
    legByAttempt,
  };
  checkLegs(ctx);
  const signerTxs = checkSignerTxs(ctx);
  // Before the rows: a payout that breaks a rule is DIFFERENT even where its ledger agrees.
  checkRules(ctx);
  const rows = checkPayouts(ctx);
  checkApprovals(ctx);
  return {
    rows,
    differences,
    notes: ctx.notes,
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
  const lines = formatPayoutRows(report);
  if (report.notes.length > 0) {
    lines.push('', `${report.notes.length} note(s), not differences:`);
    for (const n of report.notes) lines.push(`  - ${n}`);
  }
  lines.push('');
  if (report.differences.length === 0) {
    lines.push('OK: every payout matches the chain, and what moved keeps the payment rules.');
  } else {
    lines.push(`${report.differences.length} difference(s):`);
    for (const d of report.differences) lines.push(`  - [${d.code}] ${d.message}`);
  }
  return lines.join('\n');
}

/** The counts, then one line per payout (the money audit prints these too). */
export function formatPayoutRows(report: AuditReport): string[] {
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
  return lines;
}
