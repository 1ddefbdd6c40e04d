/**
 * The judge of the interleaving model test (test/payouts-interleave.chain.int.test.ts): the
 * project token's Transfer logs on the canonical chain against what the API (and the payout
 * tables) say. Pure: the unit test (test/interleave-checker.test.ts) feeds it synthetic logs that
 * break each rule.
 *
 * Transfers are attributed by amount, not by the hashes the service recorded (those are what is
 * being checked): every bounty of a run has its own reward, so founder -> someone of
 * `reward - fee` is that bounty's reward transfer and founder -> treasury of `fee` its fee
 * transfer, whether both travel in one transaction (a payout router) or in two.
 */

export type Rule = 'a' | 'b' | 'c' | 'd' | 'e';

export const RULES: Record<Rule, string> = {
  a: 'every approved submission is paid exactly once to its submitter (reward - fee) and its fee exactly once to the treasury',
  b: 'no fee transfer without its reward transfer',
  c: 'no rejected or superseded submission is paid, and nothing leaves the founder that no submission is owed',
  d: 'every submission the founder merged is paid, or its bounty shows payment_owed: true until the funds cover it',
  e: 'nothing stuck: no bounty in review with a confirmed payout, no payout with transactions in flight',
};

export interface ChainTransfer {
  from: string;
  to: string;
  value: bigint;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
}

export interface CheckedSubmission {
  id: string;
  agentId: string;
  /** The submitter's wallet: where its reward must go. */
  wallet: string;
  status: 'pending' | 'approved' | 'rejected' | string;
  founderMerged: boolean;
  contributorTxHash: string | null;
  platformFeeTxHash: string | null;
}

export interface CheckedBounty {
  id: string;
  /** Whole tokens. */
  reward: number;
  status: 'open' | 'claimed' | 'in_review' | 'done' | string;
  /** The API's field; undefined when the API does not have it. */
  paymentOwed: boolean | undefined;
  submissions: CheckedSubmission[];
}

export interface CheckedLeg {
  id: string;
  kind: string;
  status: string;
  txHash: string | null;
}

export interface CheckedPayout {
  id: string;
  submissionId: string;
  bountyId: string;
  status: string;
  legs: CheckedLeg[];
}

export interface CheckInput {
  /**
   * `settled`: after the quiescence wait, with the founder's funds as the schedule left them.
   * `final`: after the funds were restored and the owed payouts had time to go out: every
   * submission the founder merged must be paid by now.
   */
  phase: 'settled' | 'final';
  founder: string;
  treasury: string;
  feeBps: bigint;
  /** Token units per whole token. */
  unit: bigint;
  /** Every Transfer log of the project token on the canonical chain. */
  transfers: ChainTransfer[];
  /** Addresses the test moves the founder's tokens to and from (not payouts). */
  ignoredCounterparties: string[];
  bounties: CheckedBounty[];
  payouts: CheckedPayout[];
}

export interface Violation {
  rule: Rule;
  bountyId?: string;
  submissionId?: string;
  message: string;
  txHashes: string[];
}

const low = (a: string | null | undefined) => (a ?? '').toLowerCase();

export function split(reward: number, unit: bigint, feeBps: bigint): { contributor: bigint; fee: bigint } {
  const units = BigInt(reward) * unit;
  const fee = (units * feeBps) / 10_000n;
  return { contributor: units - fee, fee };
}

const IN_FLIGHT = new Set(['signed', 'sent']);

/** A confirmed payout with no transaction that paid or may still pay: owed again. */
export const lostAgain = (p: CheckedPayout): boolean =>
  p.status === 'confirmed' && !p.legs.some((l) => l.status === 'success' || IN_FLIGHT.has(l.status));
const DEAD = new Set(['reverted', 'dropped']);

/**
 * A payout that is still moving: a transaction signed or sent, or legs that mined and wait to be
 * recorded (confirmations, the finishing statement). A payout whose legs all died is not moving:
 * it waits for the founder or the owed-payouts job.
 */
export function payoutInFlight(p: CheckedPayout): boolean {
  if (p.legs.some((l) => IN_FLIGHT.has(l.status))) return true;
  // Paid, then taken back by a reorg with its nonce used by another transaction: the service
  // signs it again (as soon as the founder's funds cover it).
  if (lostAgain(p)) return true;
  if (p.status !== 'pending') return false;
  const live = p.legs.filter((l) => !DEAD.has(l.status));
  const mined = (kind: string) => live.some((l) => l.kind === kind && l.status === 'success');
  return mined('payout') || (mined('contributor') && mined('fee'));
}

export function checkInterleave(input: CheckInput): Violation[] {
  const out: Violation[] = [];
  const founder = low(input.founder);
  const treasury = low(input.treasury);
  const ignored = new Set(input.ignoredCounterparties.map(low));
  const outgoing = input.transfers.filter((t) => low(t.from) === founder && !ignored.has(low(t.to)));
  const claimed = new Set<ChainTransfer>();

  for (const b of input.bounties) {
    const { contributor: pay, fee } = split(b.reward, input.unit, input.feeBps);
    const rewards = outgoing.filter((t) => low(t.to) !== treasury && t.value === pay);
    const fees = outgoing.filter((t) => low(t.to) === treasury && t.value === fee);
    for (const t of [...rewards, ...fees]) claimed.add(t);
    const approved = b.submissions.filter((s) => s.status === 'approved');
    const pending = b.submissions.filter((s) => s.status === 'pending');
    const at = { bountyId: b.id };

    if (approved.length > 1) {
      out.push({
        ...at,
        rule: 'a',
        message: `${approved.length} approved submissions (${approved.map((s) => s.id).join(', ')}) on one bounty`,
        txHashes: [],
      });
    }
    if (b.status === 'done' && approved.length === 0) {
      out.push({ ...at, rule: 'a', message: 'bounty done without an approved submission', txHashes: [] });
    }
    if (approved.length > 0 && b.status !== 'done') {
      out.push({
        ...at,
        rule: 'e',
        submissionId: approved[0]?.id,
        message: `submission approved but the bounty is ${b.status}`,
        txHashes: [],
      });
    }

    const winner = approved[0];
    if (winner) {
      const mine = rewards.filter((t) => low(t.to) === low(winner.wallet));
      const sub = { ...at, submissionId: winner.id };
      const owedAgain = input.payouts.some((p) => p.submissionId === winner.id && lostAgain(p));
      // Before the founder's funds are restored, a payout a reorg took back may wait for them.
      if (mine.length === 0 && owedAgain && input.phase === 'settled') {
        // Owed again; the final check requires it paid.
      } else if (mine.length !== 1) {
        out.push({
          ...sub,
          rule: 'a',
          message:
            mine.length === 0
              ? `approved, but no transfer of ${pay} units to its submitter ${winner.wallet}`
              : `paid ${mine.length} times to its submitter ${winner.wallet}`,
          txHashes: mine.map((t) => t.txHash),
        });
      } else if (winner.contributorTxHash && low(winner.contributorTxHash) !== low(mine[0]?.txHash)) {
        out.push({
          ...sub,
          rule: 'a',
          message: `contributor_tx_hash ${winner.contributorTxHash} is not the transaction that paid it on the canonical chain`,
          txHashes: [winner.contributorTxHash, mine[0]?.txHash ?? ''],
        });
      }
      if (fees.length === 0 && owedAgain && input.phase === 'settled') {
        // Owed again (above).
      } else if (fees.length !== 1) {
        out.push({
          ...sub,
          rule: 'a',
          message:
            fees.length === 0
              ? `approved, but no fee transfer of ${fee} units to the treasury`
              : `fee paid ${fees.length} times to the treasury`,
          txHashes: fees.map((t) => t.txHash),
        });
      } else if (winner.platformFeeTxHash && low(winner.platformFeeTxHash) !== low(fees[0]?.txHash)) {
        out.push({
          ...sub,
          rule: 'a',
          message: `platform_fee_tx_hash ${winner.platformFeeTxHash} is not the transaction that paid the fee on the canonical chain`,
          txHashes: [winner.platformFeeTxHash, fees[0]?.txHash ?? ''],
        });
      }
    }

    if (fees.length > rewards.length) {
      out.push({
        ...at,
        rule: 'b',
        message: `${fees.length} fee transfer(s) but ${rewards.length} reward transfer(s)`,
        txHashes: fees.map((t) => t.txHash),
      });
    }

    // Reward transfers nobody is owed: another wallet than the winner's (a rejected or superseded
    // submission, or no submission at all), or any reward while nothing is approved.
    for (const t of rewards) {
      if (winner && low(t.to) === low(winner.wallet)) continue;
      const owner = b.submissions.find((s) => low(s.wallet) === low(t.to));
      if (!winner && owner && owner.status === 'pending') {
        // Paid on chain, never recorded: the bounty should be done by now.
        out.push({
          ...at,
          submissionId: owner.id,
          rule: 'e',
          message: `paid on chain (${t.txHash}) but the submission is still pending and the bounty ${b.status}`,
          txHashes: [t.txHash],
        });
        continue;
      }
      out.push({
        ...at,
        ...(owner ? { submissionId: owner.id } : {}),
        rule: 'c',
        message: owner
          ? `paid ${t.value} units to the wallet of ${owner.status} submission ${owner.id}`
          : `paid ${t.value} units to ${t.to}, the wallet of no submission of this bounty`,
        txHashes: [t.txHash],
      });
    }

    // The founder merged it: owed until paid, and never dropped.
    for (const s of b.submissions.filter((x) => x.founderMerged)) {
      const sub = { ...at, submissionId: s.id };
      if (s.status === 'rejected') {
        out.push({
          ...sub,
          rule: 'd',
          message: 'the founder merged it, yet it was rejected: the owed reward was dropped',
          txHashes: [],
        });
      } else if (s.status === 'pending') {
        if (input.phase === 'final') {
          out.push({
            ...sub,
            rule: 'd',
            message: `the founder merged it and the funds cover it again, yet it is unpaid (bounty ${b.status}, payment_owed ${String(b.paymentOwed)})`,
            txHashes: [],
          });
        } else if (b.paymentOwed !== true) {
          out.push({
            ...sub,
            rule: 'd',
            message: `the founder merged it, it is unpaid, and the bounty shows payment_owed: ${String(b.paymentOwed)}`,
            txHashes: [],
          });
        }
      }
    }
    if (b.paymentOwed === true && !pending.some((s) => s.founderMerged)) {
      out.push({
        ...at,
        rule: 'd',
        message: `payment_owed: true on a ${b.status} bounty with no pending submission the founder merged`,
        txHashes: [],
      });
    }
  }

  for (const t of outgoing) {
    if (claimed.has(t)) continue;
    out.push({
      rule: 'c',
      message: `${t.value} units left the founder for ${t.to}: no bounty's reward or fee`,
      txHashes: [t.txHash],
    });
  }

  const bountyById = new Map(input.bounties.map((b) => [b.id, b]));
  for (const p of input.payouts) {
    const b = bountyById.get(p.bountyId);
    if (!b) continue;
    const at = { bountyId: p.bountyId, submissionId: p.submissionId };
    const hashes = p.legs.map((l) => l.txHash ?? '').filter(Boolean);
    // A payout owed again waits for the founder's funds until the final check.
    if (payoutInFlight(p) && !(input.phase === 'settled' && lostAgain(p))) {
      out.push({
        ...at,
        rule: 'e',
        message: `payout ${p.id} (${p.status}) still in flight: legs ${p.legs.map((l) => `${l.kind}:${l.status}`).join(', ')}`,
        txHashes: hashes,
      });
    }
    const sub = b.submissions.find((s) => s.id === p.submissionId);
    if (p.status === 'confirmed' && (b.status === 'in_review' || sub?.status !== 'approved')) {
      out.push({
        ...at,
        rule: 'e',
        message: `payout ${p.id} is confirmed but the bounty is ${b.status} and its submission ${sub?.status ?? 'missing'}`,
        txHashes: hashes,
      });
    }
  }
  return out;
}

/** One line per violation, rule first, for a failure message a person can act on. */
export function formatViolations(
  violations: readonly (Omit<Violation, 'rule'> & { rule: string })[],
): string {
  return violations
    .map(
      (v) =>
        `  (${v.rule}) ${v.bountyId ? `bounty ${v.bountyId} ` : ''}${v.submissionId ? `submission ${v.submissionId} ` : ''}` +
        `${v.message}${v.txHashes.length ? ` [tx ${v.txHashes.join(', ')}]` : ''}`,
    )
    .join('\n');
}
