import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { ActiveClaimJson } from '../../modules/agents/agents.schemas.ts';
import { SubmitBody } from '../../modules/reviews/reviews.schemas.ts';
import { SellBody, WithdrawBody } from '../../modules/wallets/wallets.schemas.ts';
import { claimAgainIn } from '../public/bounty-actions.ts';
import { submissionsOf } from './console.repo.ts';
import { earningsView, saleErrorForPeople, sellForm, soldMessage } from './earnings.ts';
import { ethAmount, ethField, formatUsd, pendingMessage, tokensField } from './format.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';
import { deadline, paidAmounts } from './review-view.ts';
import { walletTxRows } from './wallet-txs.ts';

/** How many of the agent's wallet transactions the wallet section lists. */
const RECENT_TXS = 10;

/**
 * What a contributor sees: claims with time left, submissions and notes, earnings (held now and
 * what that sells for), bounties to claim.
 */
export async function loadOverview(ctx: ConsoleCtx) {
  const { services, session } = ctx;
  const [agent, wallet, submissions, open, txs] = await Promise.all([
    services.agents.getOwn(session.agentId),
    services.wallets.show(ctx.owner, true).catch(() => null),
    submissionsOf(ctx.db, session.agentId),
    services.bounties.list({ status: 'open', limit: 20, offset: 0 }),
    services.wallets.transactions(ctx.owner, RECENT_TXS),
  ]);
  // The wallet's answer has them; without it (no chain reachable) the database still does.
  const earnings = wallet?.earnings ?? (await services.wallets.earnings(session.agentId));
  const claims = await Promise.all(agent.active_claims.map((c) => claimView(ctx, c)));
  const foundedIds = new Set(
    (await services.projects.list({ founder_id: session.agentId, limit: 100, offset: 0 })).projects.map(
      (p) => p.id,
    ),
  );
  const claimedProjects = new Set(claims.map((c) => c.project_id));
  const inApp = wallet?.wallet_type === 'walletvendor_inapp';
  return {
    agent,
    wallet,
    inApp,
    claims,
    submissions: submissions.map((s) => ({ ...s, paid: paidAmounts(s.rewardUnits, s.feeUnits) })),
    earnings: earningsView(earnings, wallet, { inApp, founded: foundedIds }),
    ethBalance: wallet?.eth_balance_units ? ethAmount(wallet.eth_balance_units) : null,
    // A founder cannot claim on its own projects, nor hold two claims on one project: not offered.
    claimable: open.bounties
      .filter((b) => !foundedIds.has(b.project_id) && !claimedProjects.has(b.project_id))
      .slice(0, 10)
      .map((b) => ({
        ...b,
        worth: b.reward_eth_units === null ? null : ethAmount(b.reward_eth_units),
        usd: formatUsd(b.reward_usd),
      })),
    // Said, not silently left out: the projects whose open bounties the one-claim rule hides.
    heldBack: heldBackByClaims(open.bounties, claims),
    walletTxs: walletTxRows(txs, await projectNames(ctx, txs)),
  };
}

/** The name and token symbol of each project the transactions name (a deleted one: left out). */
async function projectNames(ctx: ConsoleCtx, txs: { project_id: string | null }[]) {
  const ids = [...new Set(txs.flatMap((t) => (t.project_id ? [t.project_id] : [])))];
  const found = await Promise.all(ids.map((id) => ctx.services.projects.get(id).catch(() => null)));
  return new Map(found.flatMap((p) => (p ? [[p.id, p] as const] : [])));
}

/** The projects of the agent's claims that have other open bounties (the one-claim rule hides them). */
function heldBackByClaims(
  open: { project_id: string; project_name: string }[],
  claims: { project_id: string }[],
) {
  const rows = new Map<string, { project_id: string; project_name: string; open: number }>();
  for (const c of claims) {
    const hidden = open.filter((b) => b.project_id === c.project_id);
    if (hidden[0] && !rows.has(c.project_id))
      rows.set(c.project_id, {
        project_id: c.project_id,
        project_name: hidden[0].project_name,
        open: hidden.length,
      });
  }
  return [...rows.values()];
}

/**
 * A claim with its time left. Only a claim without a submission lapses (one in review waits for
 * the founder): CLAIM_TTL_HOURS after it was made, or at `revision_due_at` when the founder sent
 * the work back, whose notes and pull request come along (the submit form is offered again).
 */
async function claimView(ctx: ConsoleCtx, c: ActiveClaimJson) {
  const now = ctx.clock.now();
  if (c.status !== 'claimed') return { ...c, leftMs: null, revision: null };
  const bounty = await ctx.services.bounties.get(c.bounty_id);
  const due = bounty.revision_due_at;
  // Newest first: the submission the founder sent back is the latest one of this claimant.
  const sentBack = due
    ? bounty.submissions.find((s) => s.agent_id === ctx.session.agentId && s.status === 'changes_requested')
    : undefined;
  const ttlMs = ctx.config.claimTtlHours * 3_600_000;
  const endsAt = due ? new Date(due).getTime() : new Date(c.claimed_at).getTime() + ttlMs;
  return {
    ...c,
    leftMs: endsAt - now.getTime(),
    revision:
      due && sentBack
        ? {
            notes: sentBack.review_notes ?? '',
            prUrl: sentBack.pr_url,
            reviewedAt: sentBack.reviewed_at,
            due: deadline(due, now),
          }
        : null,
  };
}

const bountyForm = (name: string) => (p: { id: string }) => `${name}-${p.id}`;

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
      return { flash: `You gave “${bounty.title}” back; it is open again.${claimAgainIn(ctx.services)}` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/submit',
    form: bountyForm('submit'),
    run: async (ctx, { id }, body) => {
      const { pr_url } = parseForm(SubmitBody, { pr_url: body.pr_url });
      const again = (await ctx.services.bounties.get(id)).revision_due_at !== null;
      await ctx.services.submissions.submit(ctx.session.agentId, id, pr_url);
      return {
        flash: again
          ? 'Your pull request was submitted again; the founder reviews it once more.'
          : 'Your pull request was submitted for review.',
      };
    },
  });

  // "Sell all": the confirmed form posts the whole balance it showed. A wallet without ETH is
  // sponsored by the service (the platform sends the sale and takes its gas back from it).
  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/sell',
    form: (p: { id: string }) => sellForm(p.id),
    run: async (ctx, { id }, body) => {
      const { tokens_units } = parseForm(SellBody, { tokens_units: body.tokens_units });
      const project = await ctx.services.projects.get(id);
      try {
        const sale = await ctx.services.wallets.sell(ctx.owner, id, { tokens_units });
        if (sale.status === 202) return { flash: pendingMessage('Sale', sale.body) };
        return { flash: soldMessage(project.token_symbol, tokens_units, sale.body) };
      } catch (err) {
        throw err instanceof AppError ? saleErrorForPeople(err, project.token_symbol, tokens_units) : err;
      }
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
      if (r.status === 202) return { flash: pendingMessage('Withdraw', r.body) };
      const unit = projectId ? (await ctx.services.projects.get(projectId)).token_symbol : 'ETH';
      return {
        flash: `Sent ${ethAmount(amountUnits).text} ${unit} to ${parsed.to}. Transaction ${r.body.tx_hash}.`,
      };
    },
  });
}
