import type { Octokit } from '@octokit/rest';
import { parsePullRequestFiles } from './github-checks.ts';
import {
  badUpstream,
  type CommitComparison,
  type ComparedCommit,
  readObject,
  readOptionalCount,
  readSha,
} from './repo-host.ts';

/**
 * GitHub's compare of two commits (`GET /repos/{o}/{r}/compare/{base}...{head}`, the
 * `commit-comparison` shape), read into what the review needs: the commits between, and the files
 * with their patches. Octokit's errors pass through; GithubHost maps them.
 */

function parseCommit(item: unknown, what: string): ComparedCommit {
  const c = readObject(item, what);
  const inner = readObject(c.commit, what);
  const message = inner.message;
  if (typeof message !== 'string') throw badUpstream(what);
  const author = inner.author === null || inner.author === undefined ? null : readObject(inner.author, what);
  const name = author?.name ?? null;
  if (name !== null && typeof name !== 'string') throw badUpstream(what);
  return { sha: readSha(c, 'sha', what), authorName: name, message };
}

export function parseComparison(data: unknown): CommitComparison {
  const what = 'comparison of commits';
  const body = readObject(data, what);
  if (!Array.isArray(body.commits)) throw badUpstream(what);
  const commits = body.commits.map((c) => parseCommit(c, what));
  const total = readOptionalCount(body, 'total_commits', what) ?? commits.length;
  // GitHub leaves `files` out when the diff is too large to list.
  const files = body.files === undefined || body.files === null ? [] : parsePullRequestFiles(body.files);
  return { totalCommits: total, commits, files };
}

/** The first page of the comparison: GitHub's 250 commits and 300 files at most. */
export async function readComparison(
  octokit: Octokit,
  owner: string,
  repo: string,
  base: string,
  head: string,
): Promise<CommitComparison> {
  const res = await octokit.rest.repos.compareCommitsWithBasehead({
    owner,
    repo,
    basehead: `${base}...${head}`,
  });
  return parseComparison(res.data);
}
