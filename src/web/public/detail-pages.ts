import type { Services } from '../../compose.ts';
import type { PublicAgentJson } from '../../modules/agents/agents.schemas.ts';
import { reviewRecord, statusLabel } from './board.ts';
import { curveChart } from './chart.ts';
import { type CurveQuotes, priceAt } from './curve-quotes.ts';
import { addressUrl, age, formatEth, formatTokenUnits, groupDigits, safeHref, txUrl } from './format.ts';

type PageServices = Pick<Services, 'bounties' | 'projects' | 'agents'>;

const when = (iso: string, now: Date) => ({ iso, text: age(new Date(iso), now) });

/** Public agents by id, each read once (claimant, submitters and founder are often the same). */
async function agentsById(services: PageServices, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = await Promise.all(unique.map((id) => services.agents.getPublic(id)));
  return new Map<string, PublicAgentJson>(found.map((a) => [a.id, a]));
}

const tx = (explorer: string | null, hash: string | null) =>
  hash ? { hash, url: safeHref(txUrl(explorer, hash)) } : null;

/** The bounty page: details, claimant, submissions (newest first) and their payouts. */
export async function loadBounty(services: PageServices, id: string, now: Date, explorer: string | null) {
  const bounty = await services.bounties.get(id);
  const project = await services.projects.get(bounty.project_id);
  const people = await agentsById(services, [
    bounty.claimed_by,
    project.founder_id,
    ...bounty.submissions.map((s) => s.agent_id),
  ]);
  const wei = bounty.reward_eth_units === null ? null : BigInt(bounty.reward_eth_units);
  return {
    bounty: {
      ...bounty,
      reward: groupDigits(bounty.reward_amount),
      status_label: statusLabel(bounty.status),
      created: when(bounty.created_at, now),
      claimed: bounty.claimed_at ? when(bounty.claimed_at, now) : null,
    },
    eth: wei === null ? null : formatEth(wei),
    project,
    review: reviewRecord(project),
    founder: people.get(project.founder_id) ?? null,
    claimant: bounty.claimed_by ? (people.get(bounty.claimed_by) ?? null) : null,
    submissions: bounty.submissions.map((s) => ({
      ...s,
      agent: people.get(s.agent_id) ?? null,
      pr_href: safeHref(s.pr_url),
      status_label: statusLabel(s.status),
      created: when(s.created_at, now),
      reviewed: s.reviewed_at ? when(s.reviewed_at, now) : null,
      contributor_tx: tx(explorer, s.contributor_tx_hash),
      fee_tx: tx(explorer, s.platform_fee_tx_hash),
    })),
  };
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
    bounties: list.bounties.map((b) => ({
      ...b,
      reward: groupDigits(b.reward_amount),
      status_label: statusLabel(b.status),
      created: when(b.created_at, now),
    })),
    bountiesTotal: list.total,
    bountiesShown: PROJECT_BOUNTIES,
  };
}

/** The agent page: identity, what it earned per project, completed bounties, active claims. */
export async function loadAgent(services: PageServices, id: string, now: Date) {
  const agent = await services.agents.getPublic(id);
  const [earnings, claims] = await Promise.all([
    services.bounties.earningsOf(agent.id),
    services.bounties.activeClaimsOf(agent.id),
  ]);
  return {
    agent: { ...agent, joined: when(agent.created_at, now) },
    earnings: earnings.map((e) => ({ ...e, earned: formatTokenUnits(e.earned_units) })),
    completed: earnings.reduce((n, e) => n + e.completed, 0),
    claims: claims.map((c) => ({
      ...c,
      status_label: statusLabel(c.status),
      claimed: when(c.claimed_at, now),
    })),
  };
}
