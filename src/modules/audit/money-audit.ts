/**
 * The money audit (`npm run audit:money`): the payout audit (`payouts/payouts-audit.ts`) and the
 * rules on every other transaction the service signs, for an in-app wallet or with the sponsor
 * key, each traced to the request (`wallet_intents`) it carries out:
 *   1. no request executed twice (`money-audit.once.ts`);
 *   2. every sponsor nonce held by a recorded transaction of a request or a nonce filler, and
 *   3. the sponsor's spend paid back by the sales it relays, no sponsor transaction reverted
 *      (`money-audit.sponsor.ts`);
 *   4. the sponsored-withdraw quota (`money-audit.quota.ts`);
 *   5. no reward owed longer than a minute while the founder's funds cover it (`money-audit.owed.ts`);
 *   6. everything judged at one final block, head minus PAYOUT_CONFIRMATIONS: what mined after it
 *      is in flight, a note.
 * Pure, as the payout audit is: the reads live in `scripts/lib/money-audit-sources.ts`.
 */
import { type AuditReport, auditPayouts, formatPayoutRows } from '../payouts/payouts-audit.ts';
import { moneyContext } from './money-audit.context.ts';
import { checkOnce } from './money-audit.once.ts';
import { checkOwed } from './money-audit.owed.ts';
import { checkWithdrawQuota } from './money-audit.quota.ts';
import { checkSponsorNonces, checkSponsorSpend } from './money-audit.sponsor.ts';
import type { MoneyAuditInput, MoneyDifference, MoneyReport, MoneyRule } from './money-audit.types.ts';

export type * from './money-audit.types.ts';

export function auditMoney(input: MoneyAuditInput): MoneyReport {
  const payouts: AuditReport = auditPayouts(input.payouts.ledger, input.payouts.chain);
  const differences: MoneyDifference[] = payouts.differences.map((d) => ({ rule: 'payouts', ...d }));
  const notes = [...payouts.notes];
  const { ledger, chain } = input.money;
  const ctx = moneyContext(ledger, chain, differences, notes);
  checkOnce(ctx);
  const sponsorTxs = checkSponsorNonces(ctx);
  checkSponsorSpend(ctx);
  checkWithdrawQuota(ctx);
  checkOwed(ctx, input.payouts, input.now);
  return {
    payouts,
    differences,
    notes,
    summary: {
      head: chain.head,
      finalBlock: chain.finalBlock,
      confirmations: input.confirmations,
      intents: ledger.intents.length,
      walletTxs: ledger.walletTxs.length,
      sponsorTxs,
      owed: ledger.owed.length,
    },
  };
}

/** Each rule as the report names it, in the order it is checked. */
export const MONEY_RULES: [MoneyRule, string][] = [
  ['payouts', 'payouts match the chain and keep the payment rules'],
  ['once', '1. no request executed twice (confirmed: once, failed: never)'],
  ['sponsor_nonces', '2. every sponsor transaction is a request’s or a nonce filler'],
  ['sponsor_spend', '3. sponsored sales refund their gas; no sponsor transaction reverted'],
  ['withdraw_quota', '4. sponsored withdraws within the daily quota'],
  ['owed', '5. no reward owed over a minute while the funds cover it'],
];

/** The report as text: what was read and where, the payouts, each rule's verdict, notes, differences. */
export function formatMoneyAudit(report: MoneyReport): string {
  const { summary: s } = report;
  const lines = [
    `Read at block ${s.finalBlock} (head ${s.head} minus ${s.confirmations} confirmation(s), PAYOUT_CONFIRMATIONS); what mined after it is not final.`,
    `${s.intents} wallet requests, ${s.walletTxs} wallet transactions, ${
      s.sponsorTxs === null ? 'no sponsor' : `${s.sponsorTxs} sponsor transactions`
    }, ${s.owed} owed reward(s)`,
    ...formatPayoutRows(report.payouts),
    '',
    'Rules:',
  ];
  for (const [rule, name] of MONEY_RULES) {
    const n = report.differences.filter((d) => d.rule === rule).length;
    lines.push(`  ${(n === 0 ? 'ok' : `${n} difference(s)`).padEnd(18)}${name}`);
  }
  if (report.notes.length > 0) {
    lines.push('', `${report.notes.length} note(s), not differences:`);
    for (const n of report.notes) lines.push(`  - ${n}`);
  }
  lines.push('');
  if (report.differences.length === 0) {
    lines.push(
      'OK: every payout and wallet transaction matches the chain, and what moved keeps the money rules.',
    );
  } else {
    lines.push(`${report.differences.length} difference(s):`);
    for (const d of report.differences) lines.push(`  - [${d.code}] ${d.message}`);
  }
  return lines.join('\n');
}
