import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGithubResponse } from './helpers/github-openapi.ts';
import {
  api,
  BRANCH,
  bobDir,
  git,
  headSha,
  host,
  type Json,
  number,
  REPO,
  repoHost,
  repoPath,
  useChecksRepo,
} from './helpers/local-repo-host-checks.ts';

/**
 * What a founder's second review reads from the built-in repository host: the compare of the head
 * it reviewed with the head the contributor pushed since (`GET .../compare/{base}...{head}`, in
 * GitHub's shape), through GithubHost.compareCommits; and the pull request's description.
 */

useChecksRepo();

describe('GET /repos/{owner}/{repo}/compare/{base}...{head}', () => {
  it('answers only what a new commit changed, in GitHub shape, and GithubHost reads it', async () => {
    const reviewed = headSha;
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\nbrave new\nworld\n');
    await git('bob', bobDir, 'commit', '--quiet', '-am', 'Greet the brave');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    const pushed = await git('bob', bobDir, 'rev-parse', 'HEAD');

    const res = await api('GET', `${repoPath}/compare/${reviewed}...${pushed}`, undefined, null);
    expect(res.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/compare/{basehead}', 'get', 200, res.body);
    expect(res.body).toMatchObject({ status: 'ahead', ahead_by: 1, behind_by: 0, total_commits: 1 });
    expect((res.body.base_commit as Json).sha).toBe(reviewed);
    expect((res.body.merge_base_commit as Json).sha).toBe(reviewed);

    const compared = await repoHost.compareCommits(host.org, REPO, reviewed, pushed);
    expect(compared?.totalCommits).toBe(1);
    expect(compared?.commits).toEqual([{ sha: pushed, authorName: 'Bob', message: 'Greet the brave' }]);
    // Only the new commit's change: none of the pull request's other files.
    expect(compared?.files).toEqual([
      {
        filename: 'hello.txt',
        status: 'modified',
        additions: 1,
        deletions: 0,
        patch: '@@ -1,2 +1,3 @@\n hello\n+brave new\n world',
      },
    ]);
    // The whole pull request, from main, still has all of them.
    expect((await repoHost.compareCommits(host.org, REPO, 'main', BRANCH))?.files.length).toBe(6);
    // The same commit on both sides: nothing changed.
    const same = await api('GET', `${repoPath}/compare/${pushed}...${pushed}`, undefined, null);
    expect(same.body).toMatchObject({ status: 'identical', ahead_by: 0, total_commits: 0, files: [] });
  });

  it('is 404 for a commit or branch the repository does not have; GithubHost reads null', async () => {
    const missing = 'f'.repeat(40);
    expect((await api('GET', `${repoPath}/compare/${missing}...${BRANCH}`, undefined, null)).status).toBe(
      404,
    );
    expect((await api('GET', `${repoPath}/compare/main...no-such-branch`, undefined, null)).status).toBe(404);
    expect((await api('GET', `${repoPath}/compare/main`, undefined, null)).status).toBe(404);
    expect(await repoHost.compareCommits(host.org, REPO, missing, BRANCH)).toBeNull();
    expect(await repoHost.compareCommits(host.org, 'no-such-repo', 'main', BRANCH)).toBeNull();
  });
});

describe("the pull request's description", () => {
  it('is read as GithubHost.getPullRequest body: null while empty, the text once written', async () => {
    expect((await repoHost.getPullRequest(host.org, REPO, number))?.body).toBeNull();
    const text = 'Adds a greeting.\n\nCloses the issue.';
    expect((await api('PATCH', `${repoPath}/pulls/${number}`, { body: text })).status).toBe(200);
    expect((await repoHost.getPullRequest(host.org, REPO, number))?.body).toBe(text);
  });
});
