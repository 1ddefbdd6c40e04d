import { type BountyClient, ok, type paths } from '../../typescript/index.ts';
import { roughUnits, usdSuffix } from '../output.ts';

/** A bounty as `GET /api/bounties/{id}` answers it, with its submissions (newest first). */
export type BountyDetail =
  paths['/api/bounties/{id}']['get']['responses'][200]['content']['application/json']['bounty'];
export type SubmissionJson = BountyDetail['submissions'][number];
export type PullRequestReport = NonNullable<SubmissionJson['pull_request']>;

/**
 * The submission a reader of the bounty wants to hear about: the pending one, else the latest
 * (the one sent back, rejected or approved); null before any.
 */
export function currentSubmission(b: Pick<BountyDetail, 'submissions'>): SubmissionJson | null {
  return b.submissions.find((s) => s.status === 'pending') ?? b.submissions[0] ?? null;
}

/** `success (3/3)`, `failure (1 of 3 failed)`, `pending (3 checks)`, `none`. */
export function checksText(c: Omit<PullRequestReport['checks'], 'by_author'>): string {
  switch (c.state) {
    case 'success':
      return `success (${c.total - c.failed}/${c.total})`;
    case 'failure':
      return `failure (${c.failed} of ${c.total} failed)`;
    case 'pending':
      return `pending (${c.total} ${c.total === 1 ? 'check' : 'checks'}${c.failed ? `, ${c.failed} failed` : ''})`;
    default:
      return 'none';
  }
}

const yesNo = (v: boolean | null) => (v === null ? 'unknown' : v ? 'yes' : 'no');

/**
 * One line: `PR #12 'title' by login · open · +10 −2 in 3 files · mergeable: yes · checks: success (3/3)`.
 * The size is left out while the host has not said it. Statuses the author set itself follow as
 * `author's own: success (1/1), not counted`: its claim, never mixed with the checks that count.
 */
export function pullRequestLine(pr: PullRequestReport): string {
  const parts = [`PR #${pr.number} '${pr.title}' by ${pr.author}`, pr.state];
  if (pr.additions !== null && pr.deletions !== null) {
    const files =
      pr.changed_files === null ? '' : ` in ${pr.changed_files} ${pr.changed_files === 1 ? 'file' : 'files'}`;
    parts.push(`+${pr.additions} −${pr.deletions}${files}`);
  }
  parts.push(`mergeable: ${yesNo(pr.mergeable)}`, `checks: ${checksText(pr.checks)}`);
  const own = pr.checks.by_author;
  if (own && own.total > 0) parts.push(`author's own: ${checksText(own)}, not counted`);
  return parts.join(' · ');
}

/** `2026-11-22 12:00 UTC`: a deadline, to the minute. */
export function deadlineText(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The review lines of `bounty show`: the current submission's pull request, the revision deadline
 * and the notes of a review, as `[label, value]` rows (`fields`); none that do not apply.
 */
export function reviewRows(b: BountyDetail): [string, string][] {
  const rows: [string, string][] = [];
  const s = currentSubmission(b);
  if (s?.pull_request) rows.push(['pull request', pullRequestLine(s.pull_request)]);
  else if (s) rows.push(['pull request', `${s.pr_url} (no report)`]);
  if (b.revision_due_at)
    rows.push(['review', `changes requested: resubmit by ${deadlineText(b.revision_due_at)}`]);
  if (s && s.status !== 'pending' && s.review_notes) {
    rows.push(['review notes', s.review_notes]);
  }
  return rows;
}

/** `≈ 0.0123 ETH`, ` ($12.34)` added where the service has an ETH/USD price; `-` while the token has none. */
export const ethText = (units: string | null, usd?: string | null) =>
  units === null ? '-' : `≈ ${roughUnits(units)} ETH${usdSuffix(usd)}`;

/**
 * A page of the founder's review queue (`GET /api/reviews`): each pending submission with its
 * bounty and what approving pays, as the service splits it; oldest first.
 */
export function reviewQueue(client: BountyClient, page: { limit?: number; offset?: number } = {}) {
  return ok(client.GET('/api/reviews', { params: { query: page } }));
}
