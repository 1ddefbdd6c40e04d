import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { parseCommitWebhook } from '../src/infra/repo-host/host-webhooks.ts';
import { checksReport } from '../src/modules/reviews/checks-report.ts';
import { expectGithubResponse, expectGithubWebhook } from './helpers/github-openapi.ts';
import {
  api,
  BRANCH,
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
  statusPath,
  useChecksRepo,
  waitFor,
} from './helpers/local-repo-host-checks.ts';

/**
 * Commit statuses on the built-in repository host: who may post them, how they combine, the `status`
 * webhook, and the pull request page (the rest is in local-repo-host-checks.wire.int.test.ts).
 */

useChecksRepo();

describe('commit statuses', () => {
  it('lets the author of the pull request post on its head: 201, GitHub shape, context "default"', async () => {
    const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-bob' });
    const res = await octokit.rest.repos.createCommitStatus({
      owner: host.org,
      repo: REPO,
      sha: headSha,
      state: 'pending',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
    });
    expect(res.status).toBe(201);
    expectGithubResponse('/repos/{owner}/{repo}/statuses/{sha}', 'post', 201, res.data);
    expect(res.data).toMatchObject({
      state: 'pending',
      context: 'default',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
    });
    expect(res.data.creator?.login).toBe('bob');
    expect(res.headers.location).toBe(`${host.apiUrl}${statusPath(headSha)}`);

    const hook = await waitFor((d) => d.event === 'status' && d.json.id === res.data.id);
    expect(repoHost.verifyWebhook(hook.raw, hook.headers['x-hub-signature-256'] as string)).toBe(true);
    expect(
      repoHost.verifyWebhook(Buffer.from(`${hook.raw} `), hook.headers['x-hub-signature-256'] as string),
    ).toBe(false);
    expectGithubWebhook('status', hook.json);
    expect(hook.json).toMatchObject({
      sha: headSha,
      state: 'pending',
      context: 'default',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
      name: `${host.org}/${REPO}`,
      repository: { full_name: `${host.org}/${REPO}` },
      sender: { login: 'bob' },
      branches: [{ name: BRANCH, commit: { sha: headSha }, protected: false }],
    });
    expect((hook.json.commit as { commit: { message: string } }).commit.message).toBe('Work on checks');
    expect(parseCommitWebhook('status', hook.json)).toEqual({
      repositoryFullName: `${host.org}/${REPO}`,
      sha: headSha,
    });
  });

  it('lets the founder post on any commit', async () => {
    for (const [state, context] of [
      ['success', 'ci/build'],
      ['success', 'default'],
    ] as const) {
      const res = await api('POST', statusPath(headSha), { state, context }, 'key-alice');
      expect(res.status).toBe(201);
      expect((res.body.creator as Json).login).toBe('alice');
    }
    const main = await git('alice', founderDir, 'rev-parse', 'HEAD');
    expect(
      (await api('POST', statusPath(main), { state: 'failure', context: 'ci/main' }, 'key-alice')).status,
    ).toBe(201);
    // The platform (the service itself) too.
    expect(
      (await api('POST', statusPath(main), { state: 'success', context: 'ci/platform' }, PLATFORM)).status,
    ).toBe(201);
  });

  it('refuses anyone else (403), a commit not the head of their pull request (403), and anonymous posts (401)', async () => {
    const main = await git('alice', founderDir, 'rev-parse', 'HEAD');
    const stranger = await api('POST', statusPath(headSha), { state: 'success' }, 'key-carol');
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ status: '403', documentation_url: expect.any(String) });
    expect(String(stranger.body.message)).toContain('author of an open pull request');
    expect((await api('POST', statusPath(main), { state: 'success' }, 'key-bob')).status).toBe(403);
    expect((await api('POST', statusPath(headSha), { state: 'success' }, null)).status).toBe(401);
    expect((await api('POST', statusPath(headSha), { state: 'success' }, 'key-of-nobody')).status).toBe(401);
  });

  it('answers 422 for an unknown commit and for invalid fields, storing nothing', async () => {
    const unknown = await api('POST', statusPath('0123456789'.repeat(4)), { state: 'success' }, 'key-alice');
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe(`No commit found for SHA: ${'0123456789'.repeat(4)}`);
    expect((await api('POST', statusPath('main'), { state: 'success' }, 'key-alice')).status).toBe(422);
    for (const body of [
      {},
      { state: 'passed' },
      { state: 'success', context: 7 },
      { state: 'success', context: '  ' },
      { state: 'success', context: 'ci\u0000x' },
      { state: 'success', description: ['x'] },
      { state: 'success', target_url: 'javascript:alert(1)' },
      { state: 'success', target_url: 'not a url' },
    ]) {
      const res = await api('POST', statusPath(headSha), body, 'key-bob');
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ message: expect.any(String), errors: expect.any(Array) });
    }
    const combined = await api('GET', `${repoPath}/commits/${headSha}/status`, undefined, null);
    expect(combined.body.total_count).toBe(2);
  });

  it('combines the latest status of each context, by sha or by branch (GitHub shape)', async () => {
    const bySha = await api('GET', `${repoPath}/commits/${headSha}/status`, undefined, null);
    expect(bySha.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/commits/{ref}/status', 'get', 200, bySha.body);
    expect(bySha.body).toMatchObject({ state: 'success', sha: headSha, total_count: 2 });
    const contexts = (bySha.body.statuses as Json[]).map((s) => [s.context, s.state]);
    expect(contexts.sort()).toEqual([
      ['ci/build', 'success'],
      ['default', 'success'],
    ]);
    for (const ref of [encodeURIComponent(BRANCH), BRANCH]) {
      const byBranch = await api('GET', `${repoPath}/commits/${ref}/status`, undefined, null);
      expect(byBranch.status, ref).toBe(200);
      expect(byBranch.body).toMatchObject({ sha: headSha, total_count: 2 });
    }
    const main = await api('GET', `${repoPath}/commits/main/status`, undefined, null);
    expect(main.body).toMatchObject({ state: 'failure', total_count: 2 });
    expect((await api('GET', `${repoPath}/commits/no-such-branch/status`, undefined, null)).status).toBe(404);
    expect((await api('GET', `${repoPath}/commits/${'f'.repeat(40)}/status`, undefined, null)).status).toBe(
      404,
    );
    expect((await api('GET', `/repos/marketplace/nope/commits/main/status`, undefined, null)).status).toBe(
      404,
    );

    const runs = await api('GET', `${repoPath}/commits/${headSha}/check-runs`, undefined, null);
    expectGithubResponse('/repos/{owner}/{repo}/commits/{ref}/check-runs', 'get', 200, runs.body);
    expect(runs.body).toEqual({ total_count: 0, check_runs: [] });
  });

  it('sums the checks through GithubHost as the combined status has them, by who set them', async () => {
    const who = { founderLogin: 'alice', authorLogin: 'bob' };
    const report = async (sha = headSha) => checksReport(await repoHost.getChecks(host.org, REPO, sha), who);
    const none = { state: 'none', total: 0, failed: 0 };
    expect(await report()).toEqual({ state: 'success', total: 2, failed: 0, by_author: none });
    await api('POST', statusPath(headSha), { state: 'pending', context: 'ci/lint' }, 'key-bob');
    // bob's own status is his claim: shown apart, not counted with the founder's.
    expect(await report()).toEqual({
      state: 'success',
      total: 2,
      failed: 0,
      by_author: { state: 'pending', total: 1, failed: 0 },
    });
    // The founder takes bob's context over: the latest of each context counts, whoever set it.
    await api('POST', statusPath(headSha), { state: 'error', context: 'CI/LINT' }, 'key-alice');
    expect(await report()).toEqual({ state: 'failure', total: 3, failed: 1, by_author: none });
    expect((await repoHost.getChecks(host.org, REPO, headSha)).checks).toContainEqual({
      kind: 'status',
      name: 'CI/LINT',
      state: 'failure',
      creator: 'alice',
      integration: false,
    });
    const initial = (await git('alice', founderDir, 'rev-list', '--max-parents=0', 'HEAD')).trim();
    expect(await report(initial)).toEqual({ ...none, by_author: none });
  });

  it('shows the head commit and its checks on the pull request page, escaped', async () => {
    await api(
      'POST',
      statusPath(headSha),
      {
        state: 'success',
        context: 'ci/<docs>',
        description: 'built & <published>',
        target_url: 'https://ci.example.test/d',
      },
      'key-alice',
    );
    const page = await (await fetch(`${host.baseUrl}/${host.org}/${REPO}/pull/${number}`)).text();
    expect(page).toContain(headSha);
    expect(page).toContain('<code>ci/&lt;docs&gt;</code> built &amp; &lt;published&gt;');
    expect(page).toContain('<a href="https://ci.example.test/d" rel="nofollow noopener">details</a>');
    expect(page).toMatch(/<span class="error">error<\/span> <code>CI\/LINT<\/code>/);
    expect(page).not.toContain('<docs>');
  });
});
