import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { checksReport } from '../src/modules/reviews/checks-report.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { expectGithubResponse } from './helpers/github-openapi.ts';
import {
  api,
  BRANCH,
  headSha,
  host,
  type Json,
  number,
  REPO,
  repoHost,
  repoPath,
  run,
  statusPath,
  tmp,
  useChecksRepo,
} from './helpers/local-repo-host-checks.ts';

/**
 * Statuses with an author on the built-in repository host (issue 26): each status records who set
 * it; a context is its first setter's; only the pusher of a commit may speak for it as a pull
 * request's author; and a review counts the founder's statuses, with the author's own apart. alice
 * founds, bob's pull request heads `headSha`, carol is a stranger with git pushes of her own.
 */

useChecksRepo();

let carolDir: string;
let carolPull: number;
const carol = (...args: string[]) =>
  run('git', args, { cwd: carolDir, env: contributorGitEnv(tmp, 'Carol', 'key-carol') }).then((r) =>
    r.stdout.trim(),
  );
/** bob's pull request as a founder's review sees it: alice's statuses counted, bob's apart. */
const bobsReport = async () =>
  checksReport(await repoHost.getChecks(host.org, REPO, headSha), {
    founderLogin: 'alice',
    authorLogin: 'bob',
  });
const combined = async (sha = headSha) =>
  (await api('GET', `${repoPath}/commits/${sha}/status`, undefined, null)).body;
const contexts = (c: Json) =>
  (c.statuses as Json[]).map((s) => [s.context, s.state, (s.creator as Json).login]).sort();

beforeAll(async () => {
  // carol points a branch of her own at bob's head commit, and opens a pull request from it.
  carolDir = mkdtempSync(join(tmp, 'carol-'));
  await run('git', ['clone', '--quiet', `${host.baseUrl}/${host.org}/${REPO}`, carolDir], {
    env: contributorGitEnv(tmp, 'Carol', 'key-carol'),
  });
  await carol('fetch', '--quiet', 'origin', BRANCH);
  await carol('push', '--quiet', 'origin', `${headSha}:refs/heads/copy-of-bob`);
  const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-carol' });
  const pr = await octokit.rest.pulls.create({
    owner: host.org,
    repo: REPO,
    title: 'Mine',
    head: 'copy-of-bob',
    base: 'main',
  });
  carolPull = pr.data.number;
  expect(pr.data.head.sha).toBe(headSha);
});

describe('a stranger on the victim head commit', () => {
  it('may not set its statuses by opening a pull request on it: she did not push it (403)', async () => {
    const forged = await api('POST', statusPath(headSha), { state: 'failure', context: 'ci' }, 'key-carol');
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ status: '403', documentation_url: expect.any(String) });
    expect(String(forged.body.message)).toContain('who pushed it');
    expect(await combined()).toMatchObject({ total_count: 0, state: 'pending' });
    expect(await bobsReport()).toMatchObject({ state: 'none', by_author: { state: 'none' } });
  });

  it('may set the statuses of a commit she pushed herself, which count for nobody else', async () => {
    await carol('checkout', '--quiet', '-b', 'mine', headSha);
    writeFileSync(join(carolDir, 'carol.txt'), 'her own work\n');
    await carol('add', 'carol.txt');
    await carol('commit', '--quiet', '-m', 'Her own work');
    await carol('push', '--quiet', 'origin', 'HEAD:copy-of-bob');
    const own = await carol('rev-parse', 'HEAD');
    const res = await api('POST', statusPath(own), { state: 'failure', context: 'carol-ci' }, 'key-carol');
    expect(res.status).toBe(201);
    expect((res.body.creator as Json).login).toBe('carol');
    expect(await bobsReport()).toMatchObject({ state: 'none', total: 0 });
    const pr = await api('GET', `${repoPath}/pulls/${carolPull}`, undefined, null);
    expect((pr.body.head as Json).sha).toBe(own);
  });
});

describe('contexts', () => {
  it("refuses the author the founder's context (403), whatever its case; the founder's state holds", async () => {
    const founder = await api(
      'POST',
      statusPath(headSha),
      { state: 'failure', context: 'founder-ci' },
      'key-alice',
    );
    expect(founder.status).toBe(201);
    expect((founder.body.creator as Json).login).toBe('alice');
    for (const context of ['founder-ci', 'FOUNDER-CI']) {
      const res = await api('POST', statusPath(headSha), { state: 'success', context }, 'key-bob');
      expect(res.status, context).toBe(403);
      expect(res.body).toMatchObject({ status: '403', documentation_url: expect.any(String) });
      expect(String(res.body.message)).toContain('belongs to alice');
    }
    const c = await combined();
    expect(c).toMatchObject({ state: 'failure', total_count: 1 });
    expect(contexts(c)).toEqual([['founder-ci', 'failure', 'alice']]);
    expect(await bobsReport()).toEqual({
      state: 'failure',
      total: 1,
      failed: 1,
      by_author: { state: 'none', total: 0, failed: 0 },
    });
  });

  it("lets the author set his own, reported apart from the founder's", async () => {
    const own = await api('POST', statusPath(headSha), { state: 'success', context: 'bob-ci' }, 'key-bob');
    expect(own.status).toBe(201);
    expect((own.body.creator as Json).login).toBe('bob');
    expect(contexts(await combined())).toEqual([
      ['bob-ci', 'success', 'bob'],
      ['founder-ci', 'failure', 'alice'],
    ]);
    expect(await bobsReport()).toEqual({
      state: 'failure',
      total: 1,
      failed: 1,
      by_author: { state: 'success', total: 1, failed: 0 },
    });
    // carol's own context is hers on every commit of the repository.
    const taken = await api(
      'POST',
      statusPath(headSha),
      { state: 'success', context: 'carol-ci' },
      'key-bob',
    );
    expect(taken.status).toBe(403);
  });

  it('lets the founder take a context someone set first; its first setter is then refused', async () => {
    expect(
      (await api('POST', statusPath(headSha), { state: 'success', context: 'bob-ci' }, 'key-alice')).status,
    ).toBe(201);
    expect(
      (await api('POST', statusPath(headSha), { state: 'failure', context: 'bob-ci' }, 'key-bob')).status,
    ).toBe(403);
    expect(await bobsReport()).toMatchObject({ state: 'failure', total: 2, by_author: { state: 'none' } });
  });
});

describe('who set each status', () => {
  it('is listed newest first with its creator, as GitHub lists them, and on the pull request page', async () => {
    const res = await api('GET', `${repoPath}/commits/${headSha}/statuses?per_page=2`, undefined, null);
    expect(res.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/commits/{ref}/statuses', 'get', 200, res.body);
    const listed = res.body as unknown as Json[];
    expect(listed.map((s) => [s.context, (s.creator as Json).login])).toEqual([
      ['bob-ci', 'alice'],
      ['bob-ci', 'bob'],
    ]);
    const next = await api(
      'GET',
      `${repoPath}/commits/${headSha}/statuses?per_page=2&page=2`,
      undefined,
      null,
    );
    expect((next.body as unknown as Json[]).map((s) => (s.creator as Json).login)).toEqual(['alice']);
    expect((await api('GET', `${repoPath}/commits/${'f'.repeat(40)}/statuses`, undefined, null)).status).toBe(
      404,
    );
    const page = await (await fetch(`${host.baseUrl}/${host.org}/${REPO}/pull/${number}`)).text();
    expect(page).toContain('<code>founder-ci</code> · by alice');
  });
});
