import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../src/infra/db/schema.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  expectError,
  randomAddress,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { hostPullRequest, type RepoScene, repoLoginOf, repoScene } from './helpers/repo-scene.ts';
import { claim, okJson, post } from './helpers/review-flow.ts';

/**
 * `GET /api/bounties/{id}/repository` and `POST /api/bounties/{id}/pull-request` on the built-in
 * repository host: who may read the instructions (claimant, founder), the push they describe
 * working as written, and the pull request opened as the claimant, read back from the host.
 */

const run = promisify(execFile);
let s: RepoScene;
let founder: TestAgent;
let dev: TestAgent;
let other: TestAgent;
let bounty: { id: string };
let open: { id: string };
let repoUrl: string;

const app = () => s.ctx.app;
const repository = (agent: TestAgent | null, id = bounty.id) =>
  app().inject({
    method: 'GET',
    url: `/api/bounties/${id}/repository`,
    ...(agent ? { headers: agent.headers } : {}),
  });
const openPr = (agent: TestAgent | null, payload: unknown, id = bounty.id) =>
  post(app(), `/api/bounties/${id}/pull-request`, agent, payload);
const loginOf = (agent: TestAgent) => repoLoginOf(s.ctx, agent);

beforeAll(async () => {
  s = await repoScene('bounty-repository');
  ({ founder, repoUrl } = s);
  dev = await registerAgent(app());
  other = await registerAgent(app());
  bounty = await createBounty(app(), founder, s.project.id, { title: 'Add a greeting' });
  open = await createBounty(app(), founder, s.project.id);
  await claim(app(), dev, bounty.id);
});

afterAll(() => s?.close());

describe('GET /api/bounties/{id}/repository', () => {
  it('tells the claimant where to push and how, and the push works as told', async () => {
    const r = okJson(await repository(dev)).repository;
    expect(r).toMatchObject({
      host: 'local',
      repo_url: repoUrl,
      clone_url: repoUrl,
      branch: `bounty-${bounty.id}`,
      base: 'main',
      repo_login: await loginOf(dev),
      compare_url: `${repoUrl}/compare/main...bounty-${bounty.id}?expand=1&title=Add+a+greeting`,
    });
    expect(r.push).toMatch(/any user name, your marketplace API key as the password/);
    expect(r.pull_request).toContain(`POST /api/bounties/${bounty.id}/pull-request`);
    expect(JSON.stringify(r)).not.toContain(dev.apiKey);

    // Its own shell lines, with the key in BOUNTY_API_KEY and no credential helper configured.
    const env = { ...contributorGitEnv(s.tmp, 'Dev'), BOUNTY_API_KEY: dev.apiKey };
    const sh = (line: string, cwd: string) => run('sh', ['-c', line], { cwd, env });
    await sh(r.commands.clone, s.tmp);
    await sh(r.commands.branch, s.tmp);
    const work = join(s.tmp, repoUrl.split('/').pop() as string);
    writeFileSync(join(work, 'hello.txt'), 'hello\n');
    await sh('git add -A && git commit --quiet -m "Add a greeting"', work);
    await sh(r.commands.push, work);
    const { stdout } = await run('git', ['ls-remote', '--heads', repoUrl], { env });
    expect(stdout).toContain(`refs/heads/${r.branch}`);
  });

  it("answers the founder, even before anyone claimed the bounty, with the founder's own login", async () => {
    const r = okJson(await repository(founder, open.id)).repository;
    expect(r).toMatchObject({ branch: `bounty-${open.id}`, repo_login: await loginOf(founder) });
  });

  it('refuses another agent (403) and the unknown bounty (404)', async () => {
    expectError(await repository(other), 403, 'forbidden');
    expectError(await repository(dev, open.id), 403, 'forbidden');
    expectError(await repository(dev, 'bnt_00000000000000000000000000000000'), 404, 'not_found');
    expectError(await repository(dev, 'nope'), 404, 'not_found');
  });
});

describe('POST /api/bounties/{id}/pull-request', () => {
  const body = { title: 'Add a greeting', head: '', body: 'For the bounty.' };

  it('validates the body (400) before anything else', async () => {
    for (const bad of [
      {},
      { title: 'x' },
      { ...body, head: 'has space' },
      { ...body, head: 'b', base: 'dev' },
    ]) {
      const err = expectError(await openPr(dev, bad), 400, 'validation_error');
      expect(err.details?.length ?? 0).toBeGreaterThan(0);
    }
  });

  it('refuses the founder and other agents (403) and an unknown bounty (404)', async () => {
    const ok = { ...body, head: `bounty-${bounty.id}` };
    expectError(await openPr(founder, ok), 403, 'forbidden');
    expectError(await openPr(other, ok), 403, 'forbidden');
    expectError(await openPr(dev, ok, 'bnt_00000000000000000000000000000000'), 404, 'not_found');
  });

  it("says the host's refusal of a branch never pushed (400)", async () => {
    expectError(await openPr(dev, { ...body, head: 'never-pushed' }), 400, 'validation_error');
  });

  it('opens it as the claimant (201), and the host has it with the claimant as author', async () => {
    const branch = `bounty-${bounty.id}`;
    const res = okJson(await openPr(dev, { ...body, head: branch }), 201);
    expect(res.html_url).toMatch(new RegExp(`^${repoUrl}/pull/\\d+$`));
    expect(res.pull_request).toMatchObject({
      html_url: res.html_url,
      title: 'Add a greeting',
      head: branch,
      base: 'main',
      author_login: await loginOf(dev),
      state: 'open',
    });
    expect(await hostPullRequest(s, res.pull_request.number)).toMatchObject({
      html_url: res.html_url,
      title: 'Add a greeting',
      body: 'For the bounty.',
      user: { login: await loginOf(dev) },
      head: { ref: branch },
      base: { ref: 'main' },
      state: 'open',
    });
    // It is the claimant's own: submit takes it.
    const submitted = await post(app(), `/api/bounties/${bounty.id}/submit`, dev, { pr_url: res.html_url });
    expect(submitted.statusCode, submitted.body).toBe(201);
  });

  it('is 409 once the bounty is in review', async () => {
    expectError(await openPr(dev, { ...body, head: `bounty-${bounty.id}` }), 409, 'invalid_state');
  });
});

describe('where the repositories are on GitHub', () => {
  it('answers the push with your GitHub account, refuses to open the pull request (409); no repository: 409', async () => {
    const { chain } = s;
    const gh = await buildTestApp({ chain, repoHost: new FakeRepoHost({ kind: 'github' }) });
    try {
      const f = await registerAgent(gh.app);
      const d = await registerAgent(gh.app);
      const project = await createProject(gh.app, f);
      const tokenAddress = randomAddress();
      await gh.database.db
        .update(projects)
        .set({ status: 'active', repoUrl: `https://github.com/bounty-org/${project.id}`, tokenAddress })
        .where(eq(projects.id, project.id));
      chain.setFunds(tokenAddress, f.walletAddress as string, 1_000_000n);
      const b = await createBounty(gh.app, f, project.id);
      await claim(gh.app, d, b.id);
      const get = await gh.app.inject({
        method: 'GET',
        url: `/api/bounties/${b.id}/repository`,
        headers: d.headers,
      });
      const r = okJson(get).repository;
      expect(r).toMatchObject({ host: 'github', commands: { push: `git push origin bounty-${b.id}` } });
      expect(r.push).toMatch(/your own GitHub account/);
      const res = await post(gh.app, `/api/bounties/${b.id}/pull-request`, d, { title: 't', head: 'x' });
      expect(expectError(res, 409, 'invalid_state').message).toMatch(/GitHub/);
      // A project without its repository (not activated, or a failed activation): 409, not a guess.
      await gh.database.db.update(projects).set({ repoUrl: null }).where(eq(projects.id, project.id));
      const none = await gh.app.inject({
        method: 'GET',
        url: `/api/bounties/${b.id}/repository`,
        headers: d.headers,
      });
      expect(expectError(none, 409, 'invalid_state').message).toMatch(/no repository/);
    } finally {
      await gh.close();
    }
  });
});
