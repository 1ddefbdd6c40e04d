import type { FastifyInstance } from 'fastify';
import { worthOf } from '../../lib/curve.ts';
import { AppError } from '../../lib/errors.ts';
import { CreateBountyBody, DIFFICULTIES } from '../../modules/bounties/bounties.schemas.ts';
import { CreateProjectBody } from '../../modules/projects/projects.schemas.ts';
import { AllowanceBody } from '../../modules/wallets/wallets.schemas.ts';
import { groupDigits } from '../public/format.ts';
import { ActivationTracker, registerActivationPages } from './activation.ts';
import { checklist, fundsView } from './checklist.ts';
import { ethAmount, ethField, type FixLink, pendingMessage, tokenAmount } from './format.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';

const WHOLE_TOKEN = 10n ** 18n;

const messageOf = (err: unknown) =>
  err instanceof AppError ? err.message : 'The figures could not be read right now.';

/** A founder's projects: each with its funds (active) or its activation (proposed), and its bounties. */
export function projectsLoader(tracker: ActivationTracker) {
  return async (ctx: ConsoleCtx) => {
    const { services, session, owner } = ctx;
    const [{ projects }, wallet] = await Promise.all([
      services.projects.list({ founder_id: session.agentId, limit: 100, offset: 0 }),
      services.wallets.show(owner, true).catch(() => null),
    ]);
    // What one whole token sells for now on each curve: the post form says what a reward is worth.
    const curves = await services.holdings.curvesOf(projects.map((p) => p.id));
    const rows = await Promise.all(
      projects.map(async (project) => {
        if (project.status !== 'active') {
          return {
            project,
            activating: tracker.isRunning(project.id),
            funds: null,
            steps: null,
            bounties: [],
            tokenWorth: null,
          };
        }
        const [status, bounties] = await Promise.all([
          services.wallets
            .approvalStatus(session.agentId, owner.walletAddress, project.id)
            .catch((err: unknown) => ({ error: messageOf(err) })),
          services.bounties.list({ project_id: project.id, limit: 20, offset: 0 }),
        ]);
        const funds = 'error' in status ? status : fundsView(status);
        const steps = checklist(wallet, 'error' in status ? null : status, bounties.total);
        const curve = curves.get(project.id);
        const tokenWorth = curve ? ethAmount(worthOf(curve, WHOLE_TOKEN).toString()) : null;
        return { project, activating: false, funds, steps, bounties: bounties.bounties, tokenWorth };
      }),
    );
    return {
      wallet,
      ethBalance: wallet?.eth_balance_units ? ethAmount(wallet.eth_balance_units) : null,
      inApp: wallet?.wallet_type === 'walletvendor_inapp',
      projects: rows,
      difficulties: DIFFICULTIES,
      // The fee in percent, from the one fee split (the fee of 10,000 whole tokens, in hundreds).
      feePercent: Number(services.payouts.split(10_000).feeUnits / WHOLE_TOKEN) / 100,
    };
  };
}

/** A refused bounty in the founder's figures, for people: what the funds allow and what it needs. */
async function shortOfFunds(ctx: ConsoleCtx, projectId: string, symbol: string, reward: number) {
  const f = fundsView(
    await ctx.services.wallets.approvalStatus(ctx.session.agentId, ctx.owner.walletAddress, projectId),
  );
  const left = f.short ? 'nothing is left' : `${f.available.text} ${symbol} are left`;
  return new AppError(
    'insufficient_funds',
    `Not enough funds for a reward of ${groupDigits(reward)} ${symbol}: of your balance ` +
      `(${f.balance.text} ${symbol}) and allowance (${f.allowance.text}), open bounties already commit ` +
      `${f.committed.text}, so ${left}. Buy tokens or raise the allowance, then post it again.`,
  );
}

/** Short of ETH for the value and the gas, for people: what the wallet holds, and how to get more. */
async function shortOfEth(ctx: ConsoleCtx, err: unknown, spendingWei: string | null): Promise<unknown> {
  if (!(err instanceof AppError) || err.code !== 'insufficient_eth') return err;
  const wallet = await ctx.services.wallets.show(ctx.owner, true).catch(() => null);
  const held = wallet?.eth_balance_units
    ? `${ethAmount(wallet.eth_balance_units).text} ETH`
    : 'too little ETH';
  const needs = spendingWei
    ? `spending ${ethAmount(spendingWei).text} ETH needs that much and the gas`
    : 'this transaction needs ETH for its gas';
  const how = ctx.devChain
    ? 'Get test ETH with the faucet, then try again.'
    : `Send ETH on this chain to ${ctx.owner.walletAddress}, then try again.`;
  return new AppError('insufficient_eth', `Your wallet holds ${held}: ${needs}. ${how}`);
}

/** The fix of a wallet short of ETH: the faucet (dev chain) or the wallet's address to fund. */
const ethFixes = async (err: AppError, _p: unknown, ctx: ConsoleCtx): Promise<FixLink[]> => {
  if (err.code !== 'insufficient_eth') return [];
  return [
    ctx.devChain
      ? { href: '#faucet', text: 'Get test ETH' }
      : { href: '#wallet-h', text: 'Your wallet to fund' },
  ];
};

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
    fixes: ethFixes,
    run: async (ctx, { id }, body) => {
      const eth = ethField('eth', body.eth);
      const r = await ctx.services.wallets
        .buy(ctx.owner, id, { eth_units: eth })
        .catch(async (err: unknown) => {
          throw await shortOfEth(ctx, err, eth);
        });
      if (r.status === 202) return { flash: pendingMessage('Purchase', r.body) };
      const { token_symbol } = await ctx.services.projects.get(id);
      return {
        flash: `Bought ${tokenAmount(r.body.tokens_units).text} ${token_symbol} for ${ethAmount(eth).text} ETH. Transaction ${r.body.tx_hash}.`,
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/projects/:id/allowance',
    form: projectForm('allowance'),
    fixes: ethFixes,
    run: async (ctx, { id }, body) => {
      const { amount } = parseForm(AllowanceBody, { amount: body.amount });
      const r = await ctx.services.wallets.setAllowance(ctx.owner, id, amount).catch(async (err: unknown) => {
        throw await shortOfEth(ctx, err, null);
      });
      if (r.status === 202) return { flash: pendingMessage('Allowance', r.body) };
      const { token_symbol } = await ctx.services.projects.get(id);
      return {
        flash: `Allowance set to ${tokenAmount(r.body.allowance_units).text} ${token_symbol}. Transaction ${r.body.tx_hash}.`,
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/faucet',
    // The wallet section's button, or the one in a project's checklist (`from`): the error shows there.
    form: (_p, body) =>
      typeof body.from === 'string' && /^faucet-[A-Za-z0-9_-]{1,100}$/.test(body.from) ? body.from : 'faucet',
    run: async (ctx) => {
      if (!ctx.devChain) throw new AppError('not_found', 'The faucet exists only on the dev chain.');
      const r = await ctx.services.wallets.faucet(ctx.owner, null);
      return { flash: `The faucet sent ${ethAmount(r.eth_units).text} test ETH. Transaction ${r.tx_hash}.` };
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
      const { token_symbol } = await ctx.services.projects.get(id);
      const bounty = await ctx.services.bounties
        .create(ctx.session.agentId, id, input)
        .catch(async (err: unknown) => {
          throw err instanceof AppError && err.code === 'insufficient_funds'
            ? await shortOfFunds(ctx, id, token_symbol, input.reward_amount).catch(() => err)
            : err;
        });
      return {
        flash: `Bounty “${bounty.title}” posted for ${groupDigits(bounty.reward_amount)} ${token_symbol}.`,
      };
    },
    // Short of funds: the forms that fix it, on this page (or the checklist's words for an external wallet).
    fixes: async (err, { id }, ctx): Promise<FixLink[]> => {
      if (err.code !== 'insufficient_funds') return [];
      const wallet = await ctx.services.wallets.show(ctx.owner, true).catch(() => null);
      const inApp = wallet?.wallet_type === 'walletvendor_inapp';
      return [
        { href: inApp ? `#buy-${id}-open` : `#step-buy-${id}`, text: 'Buy tokens' },
        { href: inApp ? `#allowance-${id}-open` : `#step-allowance-${id}`, text: 'Raise the allowance' },
      ];
    },
  });
}
