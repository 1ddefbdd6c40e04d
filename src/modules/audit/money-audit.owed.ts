import { groupBy, lc, paysContributor, tokens } from '../payouts/payouts-audit.context.ts';
import type { AuditChain, AuditLedger } from '../payouts/payouts-audit.ts';
import type { MoneyContext } from './money-audit.context.ts';

/** How long an owed reward may wait while the founder's funds cover it. */
export const OWED_GRACE_MS = 60_000;

const walletKey = (token: string, owner: string) => `${lc(token)}:${lc(owner)}`;

/**
 * Rule 5, owed rewards paid as soon as the funds cover them: at the final block, the founder's
 * spendable funds on the project token (min of balance and allowance for the payout router) go
 * to the owed rewards oldest first, after what payouts still in flight from that wallet will take;
 * an owed reward those funds cover, owed longer than a minute, is a difference (not paid though
 * it could be). One whose contributor transfer already mined is being finished, not owed.
 */
export function checkOwed(
  ctx: MoneyContext,
  payouts: { ledger: AuditLedger; chain: AuditChain },
  now: Date,
): void {
  const { ledger, chain, differ, notes } = ctx;
  if (ledger.owed.length === 0) return;
  if (!chain.funds) {
    notes.push('the payout router is not known: owed rewards are not checked against the funds');
    return;
  }
  const mined = new Set(payouts.chain.txs.filter((t) => t.status === 'success').map((t) => lc(t.hash)));
  const legs = groupBy(payouts.ledger.legs, (l) => l.payoutId);
  const paidOnChain = (payoutId: string | null) =>
    payoutId !== null &&
    (legs.get(payoutId) ?? []).some(
      (l) => paysContributor(l.kind) && l.attempts.some((h) => mined.has(lc(h))),
    );
  const left = new Map(chain.funds.map((f) => [walletKey(f.token, f.owner), min(f.balance, f.allowance)]));
  const owedPayouts = new Set(ledger.owed.map((o) => o.payoutId));
  for (const p of payouts.ledger.payouts) {
    if (p.status !== 'pending' || owedPayouts.has(p.id) || paidOnChain(p.id)) continue;
    const key = walletKey(p.tokenAddress, p.fromAddress);
    const have = left.get(key);
    if (have !== undefined) left.set(key, have > p.rewardUnits ? have - p.rewardUnits : 0n);
  }
  const oldestFirst = [...ledger.owed].sort(
    (a, b) => a.owedSince.getTime() - b.owedSince.getTime() || a.submissionId.localeCompare(b.submissionId),
  );
  for (const o of oldestFirst) {
    if (!o.tokenAddress || !o.founderWallet || paidOnChain(o.payoutId)) continue;
    const key = walletKey(o.tokenAddress, o.founderWallet);
    const have = left.get(key);
    if (have === undefined) continue;
    const covered = o.rewardUnits <= have;
    if (covered) left.set(key, have - o.rewardUnits);
    const waited = now.getTime() - o.owedSince.getTime();
    if (waited <= OWED_GRACE_MS) continue;
    const funds = chain.funds.find((f) => walletKey(f.token, f.owner) === key);
    const figures = `balance ${tokens(funds?.balance ?? 0n)}, allowance for the payout router ${tokens(funds?.allowance ?? 0n)}`;
    const what = `submission ${o.submissionId} (bounty ${o.bountyId}) has been owed ${tokens(o.rewardUnits)} for ${Math.round(waited / 1000)} s`;
    if (covered) {
      differ('owed', {
        ...(o.payoutId ? { payoutId: o.payoutId } : {}),
        code: 'owed_while_funded',
        message: `${what}, and the founder's funds at block ${chain.finalBlock} cover it (${figures} of ${o.tokenAddress} in ${o.founderWallet})`,
      });
    } else {
      notes.push(`${what}; the founder's funds do not cover it (${figures})`);
    }
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
