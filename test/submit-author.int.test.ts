import { describe, expect, it } from 'vitest';
import { buildTestApp, createBounty, expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import {
  approve,
  claim,
  getBounty,
  nextPrUrl,
  okJson,
  post,
  reject,
  type Scene,
  SignalChain,
  scene,
  submit,
} from './helpers/review-flow.ts';

/**
 * Submit ties the work to its author: the pull request must have been opened by the caller's
 * `repo_login`, or another agent could be paid for it. A pull request backs one live submission;
 * once rejected it may be submitted again.
 */

const chain = new SignalChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host });

async function loginOf(agent: TestAgent): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers: agent.headers });
  return okJson(res).agent.repo_login as string;
}

const submitRes = (agent: TestAgent, bountyId: string, prUrl: string) =>
  post(ctx.app, `/api/bounties/${bountyId}/submit`, agent, { pr_url: prUrl });

/** A bounty of the scene claimed by `agent`. */
async function claimed(s: Scene, agent: TestAgent = s.dev) {
  const bounty = await createBounty(ctx.app, s.founder, s.project.id);
  await claim(ctx.app, agent, bounty.id);
  return bounty;
}

async function expectStillClaimed(bountyId: string) {
  const detail = await getBounty(ctx.app, bountyId);
  expect(detail.status).toBe('claimed');
  expect(detail.submissions).toEqual([]);
}

describe('POST /api/bounties/{id}/submit: the pull request is the caller’s own', () => {
  it("refuses another agent's pull request with 400 pr_author_mismatch; its author can submit it", async () => {
    const s = await scene(ctx, chain);
    const author = await registerAgent(ctx.app);
    const prUrl = nextPrUrl(s.repoUrl);
    host.setPullRequest(prUrl, { authorLogin: await loginOf(author) });

    // The attack of issue 7: claim any bounty, submit someone else's pull request.
    const b1 = await claimed(s);
    const err = expectError(await submitRes(s.dev, b1.id, prUrl), 400, 'pr_author_mismatch');
    expect(err.message).toContain(await loginOf(author));
    await expectStillClaimed(b1.id);

    const b2 = await claimed(s, author);
    const ok = okJson(await submitRes(author, b2.id, prUrl), 201).submission;
    expect(ok).toMatchObject({ agent_id: author.id, pr_url: prUrl, status: 'pending' });
  });

  it('compares logins ignoring case, as the host does', async () => {
    const s = await scene(ctx, chain);
    const prUrl = nextPrUrl(s.repoUrl);
    host.setPullRequest(prUrl, { authorLogin: (await loginOf(s.dev)).toUpperCase() });
    const b = await claimed(s);
    okJson(await submitRes(s.dev, b.id, prUrl), 201);
  });

  it('is 400 repo_identity_required while the caller has no repo_login', async () => {
    const s = await scene(ctx, chain);
    const prUrl = nextPrUrl(s.repoUrl);
    host.setPullRequest(prUrl, { authorLogin: await loginOf(s.dev) });
    const b = await claimed(s);
    await setRepoLogin(ctx, s.dev.id, null);
    expectError(await submitRes(s.dev, b.id, prUrl), 400, 'repo_identity_required');
    await expectStillClaimed(b.id);
  });

  it('still checks the pull request itself: a URL outside the repository is invalid_pr_url first', async () => {
    const s = await scene(ctx, chain);
    const b = await claimed(s);
    await setRepoLogin(ctx, s.dev.id, null);
    expectError(await submitRes(s.dev, b.id, `${s.repoUrl}/issues/1`), 400, 'invalid_pr_url');
  });
});

describe('a pull request backs one live submission', () => {
  it('is 409 pr_already_submitted while its submission is live (here: approved)', async () => {
    const s = await scene(ctx, chain);
    const prUrl = nextPrUrl(s.repoUrl);
    host.setPullRequest(prUrl, { authorLogin: await loginOf(s.dev) });
    const b1 = await claimed(s);
    await submit(ctx.app, s.dev, b1.id, prUrl);
    okJson(await approve(ctx.app, s.founder, b1.id));
    const b2 = await claimed(s);
    expectError(await submitRes(s.dev, b2.id, prUrl), 409, 'pr_already_submitted');
    await expectStillClaimed(b2.id);
  });

  it('may be submitted again once its submission was rejected', async () => {
    const s = await scene(ctx, chain);
    const prUrl = nextPrUrl(s.repoUrl);
    host.setPullRequest(prUrl, { authorLogin: await loginOf(s.dev) });
    const b = await claimed(s);
    const first = await submit(ctx.app, s.dev, b.id, prUrl);
    okJson(await reject(ctx.app, s.founder, b.id, { review_notes: 'Add tests, then submit again.' }));
    await claim(ctx.app, s.dev, b.id);
    const second = await submit(ctx.app, s.dev, b.id, prUrl);
    expect(second.id).not.toBe(first.id);
    const detail = await getBounty(ctx.app, b.id);
    expect(detail.status).toBe('in_review');
    const statuses = Object.fromEntries(
      (detail.submissions as { id: string; status: string }[]).map((x) => [x.id, x.status]),
    );
    expect(statuses).toEqual({ [first.id]: 'rejected', [second.id]: 'pending' });
  });
});

describe('on GitHub: link first, then submit', () => {
  it('refuses until the agent links its account, then accepts its own pull request', async () => {
    const github = new FakeRepoHost({ kind: 'github' });
    const gctx = await buildTestApp({ chain, database: ctx.database, repoHost: github });
    try {
      const s = await scene(gctx, chain);
      const prUrl = nextPrUrl(s.repoUrl);
      github.setPullRequest(prUrl, { authorLogin: 'octo-dev' });
      const bounty = await createBounty(gctx.app, s.founder, s.project.id);
      await claim(gctx.app, s.dev, bounty.id);
      const send = () => post(gctx.app, `/api/bounties/${bounty.id}/submit`, s.dev, { pr_url: prUrl });
      expectError(await send(), 400, 'repo_identity_required');
      github.setUser('ghp_dev', 'Octo-Dev');
      const linked = await post(gctx.app, '/api/agents/me/repo-identity', s.dev, { token: 'ghp_dev' });
      expect(okJson(linked).agent.repo_login).toBe('Octo-Dev');
      expect(okJson(await send(), 201).submission.status).toBe('pending');
    } finally {
      await gctx.close();
    }
  });
});
