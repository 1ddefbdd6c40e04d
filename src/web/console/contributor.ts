import type { FastifyInstance } from 'fastify';
import { SubmitBody } from '../../modules/reviews/reviews.schemas.ts';
import { WithdrawBody } from '../../modules/wallets/wallets.schemas.ts';
import { submissionsOf } from './console.repo.ts';
import { ethField, tokensField } from './format.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';

/** What a contributor sees: claims with time left, submissions and notes, earnings, bounties to claim. */
export async function loadOverview(ctx: ConsoleCtx) {
  const { services, session, config } = ctx;
  const [agent, wallet, submissions, earnings, open] = await Promise.all([
    services.agents.getOwn(session.agentId),
    services.wallets.show(ctx.owner).catch(() => null),
    submissionsOf(ctx.db, session.agentId),
    services.bounties.earningsOf(session.agentId),
    services.bounties.list({ status: 'open', limit: 20, offset: 0 }),
  ]);
  const ttlMs = config.claimTtlHours * 3600_000;
  const now = ctx.clock.now().getTime();
  const claims = agent.active_claims.map((c) => ({
    ...c,
    // Only a claim without a submission lapses; one in review waits for the founder.
    leftMs: c.status === 'claimed' ? new Date(c.claimed_at).getTime() + ttlMs - now : null,
  }));
  const foundedIds = new Set(
    (await services.projects.list({ founder_id: session.agentId, limit: 100, offset: 0 })).projects.map(
      (p) => p.id,
    ),
  );
  const claimedProjects = new Set(claims.map((c) => c.project_id));
  return {
    agent,
    wallet,
    inApp: wallet?.wallet_type === 'walletvendor_inapp',
    claims,
    submissions,
    earnings,
    // A founder cannot claim on its own projects, nor hold two claims on one project: not offered.
    claimable: open.bounties
      .filter((b) => !foundedIds.has(b.project_id) && !claimedProjects.has(b.project_id))
      .slice(0, 10),
  };
}

const bountyForm = (name: string) => (p: { id: string }) => `${name}-${p.id}`;
const projectForm = bountyForm;

export function registerContributorPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const load = loadOverview;
  registerPage(app, deps, 'overview', load);
  const base = { page: 'overview' as const, load };

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/claim',
    form: bountyForm('claim'),
    run: async (ctx, { id }) => {
      const { bounty, warnings } = await ctx.services.bounties.claim(ctx.session.agentId, id);
      const note = warnings?.length ? ` ${warnings.join(' ')}` : '';
      return { flash: `You claimed “${bounty.title}”.${note}` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/unclaim',
    form: bountyForm('unclaim'),
    run: async (ctx, { id }) => {
      const bounty = await ctx.services.bounties.unclaim(ctx.session.agentId, id);
      return { flash: `You gave “${bounty.title}” back; it is open again.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/submit',
    form: bountyForm('submit'),
    run: async (ctx, { id }, body) => {
      const { pr_url } = parseForm(SubmitBody, { pr_url: body.pr_url });
      await ctx.services.submissions.submit(ctx.session.agentId, id, pr_url);
      return { flash: 'Your pull request was submitted for review.' };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/sell',
    form: projectForm('sell'),
    run: async (ctx, { id }, body) => {
      const r = await ctx.services.wallets.sell(ctx.owner, id, {
        tokens_units: tokensField('amount', body.amount),
      });
      return { flash: `Sold. Transaction ${r.tx_hash}.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/withdraw',
    form: () => 'withdraw',
    run: async (ctx, _params, body) => {
      const projectId = typeof body.project_id === 'string' && body.project_id ? body.project_id : undefined;
      const amountUnits = projectId ? tokensField('amount', body.amount) : ethField('amount', body.amount);
      const parsed = parseForm(WithdrawBody, {
        to: typeof body.to === 'string' ? body.to.trim() : body.to,
        amount_units: amountUnits,
        project_id: projectId,
      });
      const r = await ctx.services.wallets.withdraw(ctx.owner, parsed);
      return { flash: `Sent. Transaction ${r.tx_hash}.` };
    },
  });
}
