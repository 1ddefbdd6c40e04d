import {
  type AuditContext,
  describeTransfer,
  groupBy,
  lc,
  paysContributor,
  tokens,
} from './payouts-audit.context.ts';
import type { AuditPayout, AuditTransfer } from './payouts-audit.types.ts';

/**
 * The payment rules, judged on what moved (the tokens' Transfer logs in the payout key's
 * transactions) rather than on what the ledger recorded: a ledger that agrees with the chain can
 * still record a fee paid without its contributor transfer.
 */

/** What the payout key moved out of a payout's founder wallet: to its contributor, to the treasury. */
interface Moves {
  contributor: AuditTransfer[];
  fee: AuditTransfer[];
}

interface Match {
  payout: AuditPayout;
  role: keyof Moves;
  exact: boolean;
}

const walletKey = (token: string, from: string) => `${lc(token)}:${lc(from)}`;
const hashes = (ts: AuditTransfer[]) => [...new Set(ts.map((t) => t.txHash))].join(', ');

export function checkRules(ctx: AuditContext): void {
  const moves = movesByPayout(ctx);
  checkPairs(ctx, moves);
  checkMerged(ctx, moves);
}

/**
 * Every transfer out of a founder wallet (the from of any payout) in a successful transaction a
 * payout signer sent, directly or through the router, put to the payout it pays: a leg's to its
 * own payout, any other to a payout of that wallet and token whose contributor or treasury it
 * reached (of several, one of that amount not yet paid). What reached anyone else is reported.
 */
function movesByPayout(ctx: AuditContext): Map<string, Moves> {
  const { ledger, chain, differ, signers, txByHash, legByAttempt, payoutById } = ctx;
  const moves = new Map<string, Moves>(ledger.payouts.map((p) => [p.id, { contributor: [], fee: [] }]));
  const byWallet = groupBy(ledger.payouts, (p) => walletKey(p.tokenAddress, p.fromAddress));
  const founders = new Set(ledger.payouts.map((p) => lc(p.fromAddress)));
  const legPayout = (t: AuditTransfer) => {
    const leg = legByAttempt.get(lc(t.txHash));
    return leg ? payoutById.get(leg.payoutId) : undefined;
  };
  const sent = chain.transfers.filter((t) => {
    const tx = txByHash.get(lc(t.txHash));
    return founders.has(lc(t.from)) && tx?.status === 'success' && signers.has(lc(tx.sender));
  });
  // Legs' transfers first, so a transfer no leg explains goes to the payout it could be.
  const ordered = [...sent.filter((t) => legPayout(t)), ...sent.filter((t) => !legPayout(t))];
  for (const t of ordered) {
    const own = legPayout(t);
    const key = walletKey(t.token, t.from);
    const candidates = own
      ? [own].filter((p) => walletKey(p.tokenAddress, p.fromAddress) === key)
      : (byWallet.get(key) ?? []);
    const match = pick(ctx, candidates, t, moves);
    if (match) {
      moves.get(match.payout.id)?.[match.role].push(t);
      continue;
    }
    differ({
      ...(own ? { payoutId: own.id } : {}),
      code: 'founder_funds_to_stranger',
      txHash: t.txHash,
      message: `${t.txHash}, sent by the payout key, moved ${describeTransfer(t)}: out of a founder wallet to neither ${
        own ? `payout ${own.id}'s submitter` : 'a submitter paid from that wallet'
      } nor the treasury`,
    });
  }
  return moves;
}

function pick(ctx: AuditContext, candidates: AuditPayout[], t: AuditTransfer, moves: Map<string, Moves>) {
  const matches = candidates.flatMap((p): Match[] => {
    const submitter = ctx.submissionById.get(p.submissionId)?.submitterWallet;
    if (lc(t.to) === lc(p.contributorAddress) || (submitter && lc(t.to) === lc(submitter)))
      return [{ payout: p, role: 'contributor', exact: t.value === p.contributorUnits }];
    if (lc(t.to) === lc(p.treasuryAddress))
      return [{ payout: p, role: 'fee', exact: t.value === p.feeUnits }];
    return [];
  });
  const rank = (m: Match) => (m.exact ? 0 : 2) + ((moves.get(m.payout.id)?.[m.role].length ?? 0) > 0 ? 1 : 0);
  // A stable sort: among equals, ledger order.
  return matches.sort((a, b) => rank(a) - rank(b))[0];
}

/** A fee never moves without its contributor transfer, and neither moves twice. */
function checkPairs(ctx: AuditContext, moves: Map<string, Moves>): void {
  const { ledger, differ, notes, legsByPayout, txByHash } = ctx;
  for (const payout of ledger.payouts) {
    const m = moves.get(payout.id);
    if (!m) continue;
    const at = { payoutId: payout.id };
    if (m.fee.length > 0 && m.contributor.length === 0) {
      // An earlier payout's contributor transfer reverted beside its fee; a new one is on its way.
      const coming = (legsByPayout.get(payout.id) ?? []).find(
        (l) =>
          payout.status === 'pending' &&
          paysContributor(l.kind) &&
          (l.status === 'signed' || l.status === 'sent') &&
          !l.attempts.some((h) => txByHash.has(lc(h))),
      );
      if (coming) {
        notes.push(
          `payout ${payout.id}: the fee moved in ${hashes(m.fee)}; its contributor transfer is still to mine (${coming.kind} leg ${coming.id}, nonce ${coming.nonce})`,
        );
      } else {
        differ({
          ...at,
          txHash: m.fee[0]?.txHash,
          code: 'fee_without_contributor',
          message: `payout ${payout.id} (submission ${payout.submissionId}): the fee of ${tokens(payout.feeUnits)} reached the treasury in ${hashes(m.fee)}, and no transfer to the contributor ${payout.contributorAddress} is on chain`,
        });
      }
    }
    if (m.contributor.length > 1) {
      differ({
        ...at,
        code: 'contributor_paid_twice',
        message: `submission ${payout.submissionId} was paid ${m.contributor.length} contributor transfers (${m.contributor
          .map(describeTransfer)
          .join('; ')}) in ${hashes(m.contributor)}`,
      });
    }
    if (m.fee.length > 1) {
      differ({
        ...at,
        code: 'fee_paid_twice',
        message: `payout ${payout.id} paid the treasury ${m.fee.length} fees in ${hashes(m.fee)}`,
      });
    }
  }
}

/**
 * Once the founder merged a submission's pull request its reward is owed: it is paid (approved
 * with its payout confirmed, or its contributor transfer on chain) or, while it is pending, its
 * bounty says `payment_owed`. And a bounty says so only while such a submission waits.
 */
function checkMerged(ctx: AuditContext, moves: Map<string, Moves>): void {
  const { ledger, differ, notes, payoutsBySubmission, bountyById } = ctx;
  for (const sub of ledger.submissions) {
    if (!sub.founderMerged) continue;
    const payout = payoutsBySubmission.get(sub.id)?.[0];
    const onChain = payout ? (moves.get(payout.id)?.contributor.length ?? 0) > 0 : false;
    if (onChain || (sub.status === 'approved' && payout?.status === 'confirmed')) continue;
    const pending = sub.status === 'pending';
    if (pending && bountyById.get(sub.bountyId)?.paymentOwed) continue;
    if (pending && payout?.status === 'pending') {
      notes.push(`submission ${sub.id}: merged by the founder, its payout ${payout.id} is being made`);
      continue;
    }
    differ({
      ...(payout ? { payoutId: payout.id } : {}),
      code: 'merged_not_paid_or_owed',
      message: `submission ${sub.id} (bounty ${sub.bountyId}) was merged by the founder and is not paid: it is ${sub.status}, ${
        payout ? `its payout ${payout.id} ${payout.status}` : 'with no payout'
      }, no contributor transfer on chain, ${pending ? 'and its bounty is not flagged payment_owed' : 'so it can no longer be owed'}`,
    });
  }
  const waiting = new Set(
    ledger.submissions.filter((s) => s.status === 'pending' && s.founderMerged).map((s) => s.bountyId),
  );
  for (const bounty of ledger.bounties) {
    if (!bounty.paymentOwed || waiting.has(bounty.id)) continue;
    differ({
      code: 'owed_flag_differs',
      message: `bounty ${bounty.id} (${bounty.status}) is flagged payment_owed, but none of its submissions is pending with its pull request merged by the founder`,
    });
  }
}
