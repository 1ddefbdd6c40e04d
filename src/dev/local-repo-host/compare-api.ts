import { commitJson, diffEntry } from './commit-shapes.ts';
import { type BareRepo, FULL_SHA } from './git.ts';
import { type ApiResponse, notFound } from './responses.ts';
import type { Views } from './views.ts';

/** GitHub lists at most this many commits in one compare answer, and this many files. */
const MAX_COMMITS = 250;
const MAX_FILES = 300;

/** A commit id, or a branch of the repository (GitHub takes either on both sides). */
async function resolve(git: BareRepo, ref: string): Promise<string | null> {
  return FULL_SHA.test(ref) ? git.commitSha(ref) : git.branchSha(ref);
}

/**
 * `GET /repos/{owner}/{repo}/compare/{base}...{head}` (GitHub's `commit-comparison`): how head
 * stands to base (ahead, behind, diverged, identical), the commits head has that base lacks and
 * the diff from their merge base to head, file by file, as `git diff base...head` has it. What the
 * founder's review reads to show what changed since the head it last reviewed.
 */
export async function compareCommits(
  views: Views,
  [owner = '', name = '', basehead = '']: string[],
): Promise<ApiResponse> {
  const repo = await views.store.get(owner, name);
  const dots = basehead.indexOf('...');
  if (!repo || dots <= 0) return notFound();
  const git = views.store.git(owner, name);
  const [baseSha, headSha] = await Promise.all([
    resolve(git, basehead.slice(0, dots)),
    resolve(git, basehead.slice(dots + 3)),
  ]);
  if (!baseSha || !headSha) return notFound();
  const range = await git.compareRange(baseSha, headSha, MAX_COMMITS);
  // Unrelated histories: GitHub answers 404 (no common ancestor).
  if (!range.mergeBase) return notFound();
  const u = views.urls;
  const [base, mergeBase, commits, files] = await Promise.all([
    git.commitInfo(baseSha),
    git.commitInfo(range.mergeBase),
    Promise.all(range.shas.map((sha) => git.commitInfo(sha))),
    git.diffFiles(baseSha, headSha),
  ]);
  const html = `${u.baseUrl}/${repo.org}/${repo.name}`;
  const { aheadBy, behindBy } = range;
  return {
    status: 200,
    body: {
      url: `${u.apiUrl}/repos/${repo.org}/${repo.name}/compare/${basehead}`,
      html_url: `${html}/compare/${basehead}`,
      permalink_url: `${html}/compare/${repo.org}:${baseSha}...${repo.org}:${headSha}`,
      diff_url: `${html}/compare/${basehead}.diff`,
      patch_url: `${html}/compare/${basehead}.patch`,
      base_commit: commitJson(u, repo, base),
      merge_base_commit: commitJson(u, repo, mergeBase),
      status:
        aheadBy > 0 && behindBy > 0
          ? 'diverged'
          : aheadBy > 0
            ? 'ahead'
            : behindBy > 0
              ? 'behind'
              : 'identical',
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      commits: commits.map((c) => commitJson(u, repo, c)),
      files: files.slice(0, MAX_FILES).map((f) => diffEntry(u, repo, headSha, f)),
    },
  };
}
