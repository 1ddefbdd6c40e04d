import type { PullRequestReport } from '../../infra/db/schema.ts';
import { type Amount, ethAmount, formatUsd, timeLeft, tokenAmount } from './format.ts';

/**
 * What the review pages say, computed before the templates see it: the pull request report in
 * words, what an approval sends, and deadlines with their time left.
 */

export interface ReportView {
  number: number;
  title: string;
  author: string;
  state: PullRequestReport['state'];
  /** Lines added and removed, in how many files ("+12 −3 in 2 files"); null when the host did not say. */
  size: { additions: number; deletions: number; files: string | null } | null;
  mergeable: 'yes' | 'no' | 'unknown';
  checks: { state: PullRequestReport['checks']['state']; mark: string; text: string };
  /** The statuses the author set on the head commit, shown apart (never counted); null without any. */
  byAuthor: { state: PullRequestReport['checks']['state']; mark: string; text: string } | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "✗ 1 of 3 checks failed", "✓ 3 checks passed", "● checks running", "no checks". */
export function checksText(c: Omit<PullRequestReport['checks'], 'by_author'>): {
  mark: string;
  text: string;
} {
  switch (c.state) {
    case 'success':
      return { mark: '✓', text: `${plural(c.total, 'check')} passed` };
    case 'failure':
      return { mark: '✗', text: `${c.failed} of ${plural(c.total, 'check')} failed` };
    case 'pending':
      return { mark: '●', text: c.total > 0 ? `${plural(c.total, 'check')} running` : 'checks running' };
    default:
      return { mark: '', text: 'no checks' };
  }
}

export function reportView(r: PullRequestReport): ReportView {
  const size =
    r.additions === null || r.deletions === null
      ? null
      : {
          additions: r.additions,
          deletions: r.deletions,
          files: r.changed_files === null ? null : plural(r.changed_files, 'file'),
        };
  return {
    number: r.number,
    title: r.title,
    author: r.author,
    state: r.state,
    size,
    mergeable: r.mergeable === null ? 'unknown' : r.mergeable ? 'yes' : 'no',
    checks: { state: r.checks.state, ...checksText(r.checks) },
    byAuthor:
      r.checks.by_author && r.checks.by_author.total > 0
        ? { state: r.checks.by_author.state, ...checksText(r.checks.by_author) }
        : null,
  };
}

export interface ApprovalAmounts {
  /** The contributor's share of the reward, in the project's token. */
  contributor: Amount;
  /** The platform fee: floor(reward * bps / 10000). */
  fee: Amount;
  /** What the contributor's share sells for now; null when the curve could not be read. */
  worth: Amount | null;
  /** That in dollars ("1,234.56"), where the service has an ETH/USD price; null otherwise. */
  usd: string | null;
}

/**
 * What approving sends, as the review queue says it (`payout`, split by the payouts module), and
 * what the contributor's share sells for now (the bounty's `reward_eth_units`).
 */
export function approvalAmounts(
  payout: { contributor_units: string; fee_units: string },
  rewardEthUnits: string | null,
  rewardUsd: string | null = null,
): ApprovalAmounts {
  return {
    contributor: tokenAmount(payout.contributor_units),
    fee: tokenAmount(payout.fee_units),
    worth: rewardEthUnits === null ? null : ethAmount(rewardEthUnits),
    usd: formatUsd(rewardUsd),
  };
}

/** What a paid submission sent: the contributor's share and the platform fee (null before it was paid). */
export function paidAmounts(
  rewardUnits: bigint | null,
  feeUnits: bigint | null,
): { toContributor: Amount; fee: Amount } | null {
  if (rewardUnits === null || feeUnits === null) return null;
  return { toContributor: tokenAmount(rewardUnits - feeUnits), fee: tokenAmount(feeUnits) };
}

/** A moment for a `<time>`: its ISO form, "2025-01-04 12:00 UTC", and the time left ("in 2 d 5 h"). */
export interface Deadline {
  iso: string;
  text: string;
  left: string;
  /** Less than a day left (or none). */
  soon: boolean;
}

export function deadline(at: Date | string, now: Date): Deadline {
  const d = new Date(at);
  const ms = d.getTime() - now.getTime();
  return {
    iso: d.toISOString(),
    text: `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    left: ms <= 0 ? 'passed' : `in ${timeLeft(ms)}`,
    soon: ms < 24 * 3_600_000,
  };
}
