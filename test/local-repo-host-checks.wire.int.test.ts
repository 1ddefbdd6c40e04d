import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { parsePullRequestWebhook } from '../src/infra/repo-host/host-webhooks.ts';
import { expectGithubResponse, expectGithubWebhook } from './helpers/github-openapi.ts';
import {
  api,
  BRANCH,
  bobDir,
  deliveries,
  founderDir,
  git,
  headSha,
  host,
  type Json,
  number,
  PLATFORM,
  REPO,
  repoHost,
  repoPath,
  SECRET,
  setHeadSha,
  statusPath,
  tmp,
  useChecksRepo,
  waitFor,
} from './helpers/local-repo-host-checks.ts';

/**
 * What the founder's review reads from the built-in repository host: a pull request's head commit
 * and mergeability, its files with their patches, and its commit statuses (posted by the author
 * of the pull request or the founder, combined as GitHub combines them), with the `status` and
 * `pull_request` `synchronize` webhooks. Every body is checked against GitHub's OpenAPI
 * description, and GithubHost must read back exactly what git holds.
 */

useChecksRepo();

describe('the pull request', () => {
  it('reads its head commit, mergeability and exact diff stats through GithubHost', async () => {
    const numstat = (await git('bob', bobDir, 'diff', '--numstat', '--find-renames', 'origin/main...HEAD'))
      .split('\n')
      .map((l) => l.split('\t'));
    const pr = await repoHost.getPullRequest(host.org, REPO, number);
    expect(pr).toMatchObject({
      number,
      state: 'open',
      headRef: BRANCH,
      authorLogin: 'bob',
      headSha,
      mergeable: true,
      additions: numstat.reduce((n, [a]) => n + (Number(a) || 0), 0),
      deletions: numstat.reduce((n, [, d]) => n + (Number(d) || 0), 0),
      changedFiles: numstat.length,
    });
    expect(pr?.changedFiles).toBe(6);
  });

  it('lists its files in GitHub shape, as git diff base...head has them', async () => {
    const res = await api('GET', `${repoPath}/pulls/${number}/files`, undefined, null);
    expect(res.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/files', 'get', 200, res.body);
    const files = res.body as unknown as Json[];
    const byName = new Map(files.map((f) => [f.filename, f]));
    expect([...byName.keys()].sort()).toEqual(
      ['gone.txt', 'hello.txt', 'logo.bin', 'new-name.txt', 'notes.md', 'with space.md'].sort(),
    );
    expect(byName.get('new-name.txt')).toMatchObject({
      status: 'renamed',
      previous_filename: 'old-name.txt',
      additions: 0,
      deletions: 0,
      changes: 0,
    });
    expect(byName.get('new-name.txt')).not.toHaveProperty('patch');
    expect(byName.get('gone.txt')).toMatchObject({ status: 'removed', additions: 0, deletions: 2 });
    expect(byName.get('hello.txt')).toMatchObject({
      status: 'added',
      additions: 2,
      deletions: 0,
      changes: 2,
    });
    expect(byName.get('logo.bin')).toMatchObject({ status: 'added', additions: 0, deletions: 0 });
    expect(byName.get('logo.bin')).not.toHaveProperty('patch');
    expect(byName.get('with space.md')).toMatchObject({ status: 'added', additions: 1 });
    expect(String(byName.get('with space.md')?.blob_url)).toContain('with%20space.md');
    // The patch is git's hunks for the file, from the first @@ line, without a final newline.
    const notes = await git('bob', bobDir, 'diff', 'origin/main...HEAD', '--', 'notes.md');
    expect(byName.get('notes.md')).toMatchObject({
      status: 'modified',
      additions: 2,
      deletions: 1,
      changes: 3,
      patch: notes.slice(notes.indexOf('@@')),
    });
    expect(byName.get('hello.txt')?.patch).toBe('@@ -0,0 +1,2 @@\n+hello\n+world');
    expect(byName.get('hello.txt')?.sha).toBe(await git('bob', bobDir, 'rev-parse', 'HEAD:hello.txt'));

    const page = await api('GET', `${repoPath}/pulls/${number}/files?per_page=4&page=2`, undefined, null);
    expect((page.body as unknown as Json[]).map((f) => f.filename)).toEqual(
      files.slice(4).map((f) => f.filename),
    );
    expect((await api('GET', `${repoPath}/pulls/99/files`, undefined, null)).status).toBe(404);

    expect(await repoHost.listPullRequestFiles(host.org, REPO, number)).toEqual(
      files.map((f) => ({
        filename: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch ?? null,
      })),
    );
  });
});

describe('pushing to the head branch', () => {
  it('sends a signed pull_request synchronize webhook and moves the head; its old statuses stay behind', async () => {
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\nworld\nagain\n');
    await git('bob', bobDir, 'commit', '--quiet', '-am', 'More work');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    const after = await git('bob', bobDir, 'rev-parse', 'HEAD');
    const hook = await waitFor((d) => d.event === 'pull_request' && d.json.action === 'synchronize');
    expect(repoHost.verifyWebhook(hook.raw, hook.headers['x-hub-signature-256'] as string)).toBe(true);
    expectGithubWebhook('pull-request-synchronize', hook.json);
    expect(hook.json).toMatchObject({ number, before: headSha, after, sender: { login: 'bob' } });
    expect(parsePullRequestWebhook(hook.json)).toMatchObject({
      action: 'synchronize',
      number,
      headSha: after,
    });

    // notes.md +2, hello.txt +3 (one line more), with space.md +1.
    expect(await repoHost.getPullRequest(host.org, REPO, number)).toMatchObject({
      headSha: after,
      additions: 6,
    });
    expect(await repoHost.getChecks(host.org, REPO, after)).toEqual({ checks: [], unlistedRuns: 0 });
    // bob's old head is no longer his pull request's: he may not set its statuses any more.
    expect((await api('POST', statusPath(headSha), { state: 'success' }, 'key-bob')).status).toBe(403);
    expect((await api('POST', statusPath(after), { state: 'success' }, 'key-bob')).status).toBe(201);
    setHeadSha(after);
  });

  it('sends nothing for a push to a branch that heads no open pull request', async () => {
    const unrelated = await git('bob', bobDir, 'rev-parse', 'HEAD');
    await git('bob', bobDir, 'push', '--quiet', 'origin', 'HEAD:unrelated');
    // A push the service does see (the head branch again), so the one before had its chance.
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\n');
    await git('bob', bobDir, 'commit', '--quiet', '-am', 'Less work');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    const tip = await git('bob', bobDir, 'rev-parse', 'HEAD');
    await waitFor((d) => d.event === 'pull_request' && d.json.after === tip);
    const syncs = deliveries.filter((d) => d.event === 'pull_request' && d.json.action === 'synchronize');
    // The first is the push of the test before, of the same commit as `unrelated`.
    expect(syncs.map((d) => d.json.after)).toEqual([unrelated, tip]);
  });

  it('reports a head that conflicts with the base as not mergeable', async () => {
    writeFileSync(join(founderDir, 'notes.md'), 'line 1\nline TWO by the founder\nline 3\n');
    await git('alice', founderDir, 'commit', '--quiet', '-am', 'Founder edits notes');
    await git('alice', founderDir, 'push', '--quiet', 'origin', 'main');
    expect(await repoHost.getPullRequest(host.org, REPO, number)).toMatchObject({ mergeable: false });
  });

  it('keeps statuses across a restart on the same data directory', async () => {
    const again = await startLocalRepoHost({
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: null, secret: SECRET },
      platformToken: PLATFORM,
    });
    try {
      const other = new GithubHost({
        kind: 'local',
        apiUrl: again.apiUrl,
        org: again.org,
        token: PLATFORM,
        webhookSecret: SECRET,
      });
      const before = await repoHost.getChecks(host.org, REPO, headSha);
      expect(before.checks.length).toBeGreaterThan(0);
      expect(await other.getChecks(again.org, REPO, headSha)).toEqual(before);
    } finally {
      await again.stop();
    }
  });
});
