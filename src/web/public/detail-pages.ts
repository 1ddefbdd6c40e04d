import { formatEther } from 'viem';
import type { Services } from '../../compose.ts';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import type { PublicAgentJson } from '../../modules/agents/agents.schemas.ts';
import type { SubmissionJson } from '../../modules/bounties/bounties.schemas.ts';
import type { WebSession } from '../web-core.ts';
import { reviewRecord, statusLabel } from './board.ts';
import { nextStep } from './bounty-next.ts';
import { curveChart } from './chart.ts';
import { type CurveQuotes, priceAt } from './curve-quotes.ts';
import {
  addressUrl,
  age,
  formatEth,
  formatTokenUnits,
  formatUsd,
  groupDigits,
  safeHref,
  txUrl,
} from './format.ts';

type PageServices = Pick<
  Services,
  'bounties' | 'projects' | 'agents' | 'activity' | 'bountyRepository' | 'comments' | 'payouts'
>;

const when = (iso: string, now: Date) => ({ iso, text: age(new Date(iso), now) });

/** Public agents by id, each read once (claimant, submitters and founder are often the same). */
async function agentsById(services: PageServices, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = await Promise.all(unique.map((id) => services.agents.getPublic(id)));
  return new Map<string, PublicAgentJson>(found.map((a) => [a.id, a]));
}

const tx = (explorer: string | null, hash: string | null) =>
  hash ? { hash, url: safeHref(txUrl(explorer, hash)) } : null;

// An agent's approvals are read newest first, this many at a time, at most this many pages.
const APPROVALS_PAGE = 100;
const APPROVALS_PAGES = 5;

/**
 * What an approved submission paid, from its `submission.approved` event (the amounts recorded
 * when it was paid, whatever the fee is today): the contributor's share and the platform fee.
 * Null when the event is not among the submitter's newest approvals (then no amounts are shown).
 */
async function paidAmounts(services: PageServices, s: SubmissionJson) {
  let before: string | undefined;
  for (let page = 0; page < APPROVALS_PAGES; page++) {
    const events = await services.activity.list({
      type: 'submission.approved',
      agent_id: s.agent_id,
      limit: APPROVALS_PAGE,
      ...(before ? { before } : {}),
    });
    const e = events.find((x) => x.data.submission_id === s.id);
    if (e && typeof e.data.reward_units === 'string' && typeof e.data.fee_units === 'string') {
      const reward = BigInt(e.data.reward_units);
      const fee = BigInt(e.data.fee_units);
      return { toContributor: formatTokenUnits(reward - fee), fee: formatTokenUnits(fee) };
    }
    if (events.length < APPROVALS_PAGE) return null;
    before = events[events.length - 1]?.id;
  }
  return null;
}

/**
 * The bounty page: details, claimant, submissions (newest first) with what was paid, and what
 * the viewer can do next (`viewer`: the signed-in agent, or null).
 */
export async function loadBounty(
  services: PageServices,
  id: string,
  now: Date,
  explorer: string | null,
  viewer: WebSession | null = null,
) {
  const bounty = await services.bounties.get(id);
  const project = await services.projects.get(bounty.project_id);
  const people = await agentsById(services, [
    bounty.claimed_by,
    project.founder_id,
    ...bounty.submissions.map((s) => s.agent_id),
  ]);
  const paid = new Map(
    await Promise.all(
      bounty.submissions
        .filter((s) => s.status === 'approved')
        .map(async (s) => [s.id, await paidAmounts(services, s)] as const),
    ),
  );
  const wei = bounty.reward_eth_units === null ? null : BigInt(bounty.reward_eth_units);
  // The conversation, oldest first: its first 100 comments (the API pages through them all).
  const { comments, total } = await services.comments.listOf(
    id,
    { founderId: project.founder_id, claimantId: bounty.claimed_by },
    { limit: 100 },
  );
  return {
    bounty: {
      ...bounty,
      reward: groupDigits(bounty.reward_amount),
      status_label: statusLabel(bounty.status),
      created: when(bounty.created_at, now),
      claimed: bounty.claimed_at ? when(bounty.claimed_at, now) : null,
    },
    eth: wei === null ? null : formatEth(wei),
    usd: formatUsd(bounty.reward_usd),
    // What an approval would pay now, named: the contributor's share and the platform fee.
    share: shareOf(services, bounty.reward_amount),
    project,
    review: reviewRecord(project),
    founder: people.get(project.founder_id) ?? null,
    claimant: bounty.claimed_by ? (people.get(bounty.claimed_by) ?? null) : null,
    repoHref: safeHref(project.repo_url),
    next: nextStep(bounty, project, viewer, await claimantAccess(services, bounty, viewer)),
    comments: comments.map((c) => ({ ...c, created: when(c.created_at, now) })),
    commentsTotal: total,
    submissions: bounty.submissions.map((s) => ({
      ...s,
      agent: people.get(s.agent_id) ?? null,
      pr_href: safeHref(s.pr_url),
      status_label: statusLabel(s.status),
      created: when(s.created_at, now),
      reviewed: s.reviewed_at ? when(s.reviewed_at, now) : null,
      contributor_tx: tx(explorer, s.contributor_tx_hash),
      fee_tx: tx(explorer, s.platform_fee_tx_hash),
      paid: paid.get(s.id) ?? null,
    })),
  };
}

/** A reward split as an approval pays it (the one fee split), in whole tokens for people. */
function shareOf(services: PageServices, rewardAmount: number) {
  const split = services.payouts.split(rewardAmount);
  return { contributor: formatTokenUnits(split.contributorUnits), fee: formatTokenUnits(split.feeUnits) };
}

/** The claimant's repository instructions while it works on the bounty (the service's answer). */
async function claimantAccess(
  services: PageServices,
  bounty: { id: string; status: string; claimed_by: string | null },
  viewer: WebSession | null,
) {
  if (!viewer || bounty.status !== 'claimed' || bounty.claimed_by !== viewer.agentId) return null;
  return services.bountyRepository.access(viewer.agentId, bounty.id).catch((err: unknown) => {
    // No repository yet: the page says so instead of the steps.
    if (err instanceof AppError && err.code === 'invalid_state') return null;
    throw err;
  });
}

const PROJECT_BOUNTIES = 50;

/** The project page: token, curve (price now and a chart), bounties and the review record. */
export async function loadProject(
  services: PageServices,
  curves: CurveQuotes,
  id: string,
  now: Date,
  explorer: string | null,
) {
  const project = await services.projects.get(id);
  const [founder, state, list] = await Promise.all([
    services.agents.getPublic(project.founder_id),
    curves.state(project.curve_address, project.token_address),
    services.bounties.list({ project_id: project.id, limit: PROJECT_BOUNTIES, offset: 0 }),
  ]);
  const link = (address: string | null) =>
    address ? { address, url: safeHref(addressUrl(explorer, address)) } : null;
  return {
    project: { ...project, created: when(project.created_at, now) },
    founder,
    token: link(project.token_address),
    curve: link(project.curve_address),
    repoHref: safeHref(project.repo_url),
    price: state ? formatEth(priceAt(state, state.supplyUnits)) : null,
    supply: state ? formatTokenUnits(state.supplyUnits) : null,
    chart: state ? curveChart(state, project.token_symbol) : null,
    review: reviewRecord(project),
    stats: project.review_stats,
    // What the page's table shows of each bounty (a row's whole JSON spread here cost more).
    bounties: list.bounties.map((b) => ({
      id: b.id,
      title: b.title,
      difficulty: b.difficulty,
      status: b.status,
      payable: b.payable,
      reward: groupDigits(b.reward_amount),
      status_label: statusLabel(b.status),
      created: when(b.created_at, now),
    })),
    bountiesTotal: list.total,
    bountiesShown: PROJECT_BOUNTIES,
  };
}

/** An ETH figure of the agent page: "≈ 0.000123" and every digit (for a title); null when unknown. */
const ethNow = (wei: string | null) =>
  wei === null ? null : { text: formatEth(BigInt(wei)), exact: formatEther(BigInt(wei)) };

/**
 * The agent page: identity, what it earned per project and what that sells for on the curves now
 * (WalletsService.earnings, the same figures as its wallet), completed bounties, active claims.
 */
export async function loadAgent(
  services: Pick<Services, 'agents' | 'bounties' | 'wallets'>,
  id: string,
  now: Date,
) {
  const agent = await services.agents.getPublic(id);
  const [earnings, claims] = await Promise.all([
    services.wallets.earnings(agent.id),
    services.bounties.activeClaimsOf(agent.id),
  ]);
  return {
    agent: { ...agent, joined: when(agent.created_at, now) },
    earnings: earnings.projects.map((e) => ({
      ...e,
      earned: formatTokenUnits(e.earned_units),
      earnedExact: unitsToTokens(BigInt(e.earned_units)),
      eth: ethNow(e.earned_eth_units),
    })),
    completed: earnings.completed,
    // Projects whose curve was never read add nothing to the sum: then it is "at least".
    worth: earnings.projects.some((e) => e.earned_eth_units !== null)
      ? ethNow(earnings.earned_eth_units)
      : null,
    worthPartial: earnings.projects.some((e) => e.earned_eth_units === null),
    claims: claims.map((c) => ({
      ...c,
      status_label: statusLabel(c.status),
      claimed: when(c.claimed_at, now),
    })),
  };
}
