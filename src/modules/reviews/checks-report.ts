import type { ChecksSummary, CommitCheck, CommitChecks } from '../../infra/repo-host/repo-host.ts';
import type { ChecksReportJson } from '../bounties/bounties.schemas.ts';

/**
 * Whose checks a founder's review counts. A status is a claim by whoever set it, and on a shared
 * commit anyone with a pull request there could set one: only the founder's own and the
 * repository's integrations' (apps' check runs, bots' statuses, the platform's) are counted; the
 * contributor's own are shown apart (`by_author`), and anyone else's are left out.
 */
export interface ChecksAudience {
  /** The founder's repository-host login; null while the founder has none. */
  founderLogin: string | null;
  /** The pull request's author. */
  authorLogin: string;
}

const sameLogin = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

/** Checks summed as GitHub sums them on a pull request; `extra` passed checks not read one by one. */
export function summarize(checks: CommitCheck[], extra = 0): ChecksSummary {
  const failed = checks.filter((c) => c.state === 'failure').length;
  const total = checks.length + extra;
  const state =
    failed > 0
      ? 'failure'
      : checks.some((c) => c.state === 'pending')
        ? 'pending'
        : total > 0
          ? 'success'
          : 'none';
  return { state, total, failed };
}

/** The report's `checks`: what the founder and the integrations say, and the author's own apart. */
export function checksReport(c: CommitChecks, who: ChecksAudience): ChecksReportJson {
  const counted = c.checks.filter((x) => x.integration || sameLogin(x.creator, who.founderLogin));
  const own = c.checks.filter(
    (x) => !counted.includes(x) && x.kind === 'status' && sameLogin(x.creator, who.authorLogin),
  );
  return { ...summarize(counted, c.unlistedRuns), by_author: summarize(own) };
}

export const NO_CHECKS: ChecksReportJson = {
  state: 'none',
  total: 0,
  failed: 0,
  by_author: { state: 'none', total: 0, failed: 0 },
};
