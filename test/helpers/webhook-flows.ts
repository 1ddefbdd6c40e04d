import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { activityEvents, webhookDeliveries } from '../../src/infra/db/schema.ts';
import { signWebhook } from '../../src/infra/repo-host/webhook-signature.ts';
import { createBounty, registerAgent, type TestAgent, type TestContext } from './app.ts';
import { type ActiveProject, activeProject, claim, getBounty, ok } from './bounty-flows.ts';
import type { FakeChain } from './fake-chain.ts';
import type { FakeRepoHost } from './fake-repo-host.ts';
import { setRepoLogin } from './repo-login.ts';

/** A bounty in review on the fake host: founder and contributor with host logins, the PR open. */
export interface Scene extends ActiveProject {
  dev: TestAgent;
  founderLogin: string;
  devLogin: string;
  bounty: { id: string };
  prUrl: string;
  submissionId: string;
}

export interface DeliveryOpts {
  id?: string | null;
  event?: string | null;
  /** A header value, null for none; by default the right signature of the body. */
  signature?: string | null;
  secret?: string;
}

export interface BountyState {
  status: string;
  payment_owed: boolean;
  submissions: {
    id: string;
    status: string;
    review_notes: string | null;
    merged_at: string | null;
    merged_by: string | null;
    founder_merged: boolean;
    contributor_tx_hash: string | null;
    platform_fee_tx_hash: string | null;
  }[];
}

/** A host login unique to the agent (logins are unique across agents, case-insensitively). */
export const loginOf = (agent: TestAgent, role: string) => `${role}-${agent.id.slice(-12)}`;

/**
 * The merge webhook's test kit over one app, fake chain and fake repository host. A merge by the
 * founder answers `owed` at once and only nudges the owed-payouts job; `payOwed` runs a pass.
 */
export function webhookKit(ctx: TestContext, chain: FakeChain, host: FakeRepoHost) {
  let prNumber = 100;

  /** A bounty in review: claimed by a fresh contributor who submitted `{repo_url}/pull/{n}`. */
  async function inReview(reward = 100): Promise<Scene> {
    const p = await activeProject(ctx, chain);
    const dev = await registerAgent(ctx.app);
    const founderLogin = loginOf(p.founder, 'founder');
    const devLogin = loginOf(dev, 'dev');
    await setRepoLogin(ctx, p.founder.id, founderLogin);
    await setRepoLogin(ctx, dev.id, devLogin);
    const bounty = await createBounty(ctx.app, p.founder, p.project.id, { reward_amount: reward });
    ok(await claim(ctx.app, dev, bounty.id));
    const prUrl = `${p.repoUrl}/pull/${++prNumber}`;
    host.setPullRequest(prUrl, { state: 'open', authorLogin: devLogin });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: dev.headers,
      payload: { pr_url: prUrl },
    });
    const submission = ok<{ submission: { id: string; status: string } }>(res, 201).submission;
    expect(submission.status).toBe('pending');
    return { ...p, dev, founderLogin, devLogin, bounty, prUrl, submissionId: submission.id };
  }

  /** The host merges the scene's pull request; by the founder unless a login is given. */
  function mergeOnHost(s: Scene, by: string | null = s.founderLogin): void {
    host.setPullRequest(s.prUrl, {
      state: 'closed',
      merged: true,
      mergedByLogin: by,
      authorLogin: s.devLogin,
    });
  }

  function deliver(body: unknown, opts: DeliveryOpts = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const id = opts.id === undefined ? randomUUID() : opts.id;
    const event = opts.event === undefined ? 'pull_request' : opts.event;
    const signature =
      opts.signature === undefined ? signWebhook(opts.secret ?? host.webhookSecret, raw) : opts.signature;
    if (id !== null) headers['x-github-delivery'] = id;
    if (event !== null) headers['x-github-event'] = event;
    if (signature !== null) headers['x-hub-signature-256'] = signature;
    return ctx.app.inject({ method: 'POST', url: '/api/webhooks/github', headers, payload: raw });
  }

  async function bountyState(s: Scene): Promise<BountyState> {
    return ok<{ bounty: BountyState }>(await getBounty(ctx.app, s.bounty.id)).bounty;
  }

  async function recorded(id: string): Promise<boolean> {
    const rows = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    return rows.length === 1;
  }

  /** Events of a type about a bounty, public or personal, read from the table (oldest first). */
  function eventsOf(s: Scene, type: string) {
    return ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, type), eq(activityEvents.bountyId, s.bounty.id)))
      .orderBy(activityEvents.id);
  }

  /**
   * One pass of the owed-payouts job, as the merge webhook's nudge (or the job's timer) starts it;
   * it joins a running pass and runs once more after it. Resolves to how many rewards it paid.
   */
  function payOwed(): Promise<number> {
    return ctx.app.services.owedPayouts.run();
  }

  /**
   * Keeps the merge webhook's nudge from starting a pass on its own, so a test runs each pass
   * itself (`payOwed`) and sees the state in between; `calls()` counts the nudges the webhook
   * made. `release()` restores the nudge.
   */
  function holdNudges() {
    const spy = vi.spyOn(ctx.app.services.owedPayouts, 'nudge').mockImplementation(() => {});
    return { calls: () => spy.mock.calls.length, release: () => spy.mockRestore() };
  }

  /** The transactions the payout key signed on the scene's token, in order. */
  function signedFor(s: Scene) {
    return chain.signed.filter((t) => t.tokenAddress === s.tokenAddress.toLowerCase());
  }

  /** The bounty as GET /api/bounties lists it (the list carries `payment_owed` too). */
  async function listed(s: Scene): Promise<{ id: string; status: string; payment_owed: boolean }> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/bounties?project_id=${s.project.id}&limit=100`,
    });
    const found = ok<{ bounties: { id: string; status: string; payment_owed: boolean }[] }>(
      res,
    ).bounties.find((b) => b.id === s.bounty.id);
    expect(found, `bounty ${s.bounty.id} in its project's list`).toBeDefined();
    return found as { id: string; status: string; payment_owed: boolean };
  }

  /** The project's `review_stats` (GET /api/projects/{id}). */
  async function reviewStats(s: Scene): Promise<Record<string, number | null>> {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/projects/${s.project.id}` });
    return ok<{ project: { review_stats: Record<string, number | null> } }>(res).project.review_stats;
  }

  return {
    inReview,
    mergeOnHost,
    deliver,
    bountyState,
    recorded,
    eventsOf,
    payOwed,
    holdNudges,
    signedFor,
    listed,
    reviewStats,
  };
}

/** A GitHub `pull_request` delivery body for a pull request URL `{html_url of repo}/pull/{n}`. */
export function prPayload(prUrl: string, opts: { action?: string; merged?: boolean | null } = {}) {
  const number = Number(prUrl.split('/').pop());
  const repoHtml = prUrl.replace(/\/pull\/\d+$/, '');
  const fullName = new URL(repoHtml).pathname.slice(1);
  const merged = opts.merged === undefined ? true : opts.merged;
  return {
    action: opts.action ?? 'closed',
    number,
    pull_request: {
      number,
      html_url: prUrl,
      state: opts.action === 'opened' ? 'open' : 'closed',
      merged,
      title: 'Work',
      head: { ref: 'work' },
    },
    repository: { full_name: fullName, html_url: repoHtml },
  };
}
