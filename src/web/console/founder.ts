import type { FastifyInstance } from 'fastify';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import { CreateBountyBody, DIFFICULTIES } from '../../modules/bounties/bounties.schemas.ts';
import { CreateProjectBody } from '../../modules/projects/projects.schemas.ts';
import { AllowanceBody } from '../../modules/wallets/wallets.schemas.ts';
import { ActivationTracker, registerActivationPages } from './activation.ts';
import { ethField } from './format.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';

const messageOf = (err: unknown) =>
  err instanceof AppError ? err.message : 'The figures could not be read right now.';

/** A founder's projects: each with its funds (active) or its activation (proposed), and its bounties. */
export function projectsLoader(tracker: ActivationTracker) {
  return async (ctx: ConsoleCtx) => {
    const { services, session, owner } = ctx;
    const [{ projects }, wallet] = await Promise.all([
      services.projects.list({ founder_id: session.agentId, limit: 100, offset: 0 }),
      services.wallets.show(owner).catch(() => null),
    ]);
    const rows = await Promise.all(
      projects.map(async (project) => {
        if (project.status !== 'active') {
          return { project, activating: tracker.isRunning(project.id), funds: null, bounties: [] };
        }
        const [funds, bounties] = await Promise.all([
          services.wallets
            .approvalStatus(session.agentId, owner.walletAddress, project.id)
            .catch((err: unknown) => ({ error: messageOf(err) })),
          services.bounties.list({ project_id: project.id, limit: 20, offset: 0 }),
        ]);
        return { project, activating: false, funds, bounties: bounties.bounties };
      }),
    );
    return {
      wallet,
      inApp: wallet?.wallet_type === 'walletvendor_inapp',
      projects: rows,
      difficulties: DIFFICULTIES,
    };
  };
}

const projectForm = (name: string) => (p: { id: string }) => `${name}-${p.id}`;

export function registerFounderPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const tracker = new ActivationTracker();
  const load = projectsLoader(tracker);
  registerPage(app, deps, 'projects', load);
  registerActivationPages(app, deps, tracker, load);
  const base = { page: 'projects' as const, load };

  registerAction(app, deps, {
    ...base,
    path: '/console/projects',
    form: () => 'create-project',
    run: async (ctx, _p, body) => {
      const input = parseForm(CreateProjectBody, {
        name: body.name,
        description: body.description,
        token_symbol:
          typeof body.token_symbol === 'string' ? body.token_symbol.trim().toUpperCase() : undefined,
      });
      const project = await ctx.services.projects.create(ctx.session.agentId, input);
      return { flash: `Project “${project.name}” created. Activate it to get its repository and token.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/buy',
    form: projectForm('buy'),
    run: async (ctx, { id }, body) => {
      const r = await ctx.services.wallets.buy(ctx.owner, id, { eth_units: ethField('eth', body.eth) });
      return { flash: `Bought ${unitsToTokens(BigInt(r.tokens_units))} tokens. Transaction ${r.tx_hash}.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/allowance',
    form: projectForm('allowance'),
    run: async (ctx, { id }, body) => {
      const { amount } = parseForm(AllowanceBody, { amount: body.amount });
      const r = await ctx.services.wallets.setAllowance(ctx.owner, id, amount);
      return { flash: `Allowance set to ${amount} tokens. Transaction ${r.tx_hash}.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/faucet',
    form: () => 'faucet',
    run: async (ctx) => {
      if (!ctx.devChain) throw new AppError('not_found', 'The faucet exists only on the dev chain.');
      const r = await ctx.services.wallets.faucet(ctx.owner, null);
      return { flash: `The faucet sent test ETH. Transaction ${r.tx_hash}.` };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/bounties',
    form: projectForm('bounty'),
    run: async (ctx, { id }, body) => {
      const input = parseForm(CreateBountyBody, {
        title: body.title,
        description: body.description,
        reward_amount: body.reward_amount,
        difficulty: body.difficulty,
      });
      const bounty = await ctx.services.bounties.create(ctx.session.agentId, id, input);
      return { flash: `Bounty “${bounty.title}” posted for ${bounty.reward_amount} tokens.` };
    },
  });
}
