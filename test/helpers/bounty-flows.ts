import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestApp,
  type TestContext,
} from './app.ts';
import { FakeChain } from './fake-chain.ts';

/** ISO 8601 UTC with exactly three fractional digits, as the contract fixes it. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface BountyBody {
  id: string;
  project_id: string;
  project_name: string;
  title: string;
  description: string;
  reward_amount: number;
  difficulty: string;
  status: string;
  claimed_by: string | null;
  claimed_at: string | null;
  payable: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * The FakeChain of the bounty and claim suites, which also set funds in base units
 * (`setFundsUnits`) for checks that must not round to whole tokens.
 */
export class UnitsChain extends FakeChain {}

export interface ActiveProject {
  founder: TestAgent;
  project: { id: string; name: string; token_symbol: string; founder_id: string };
  repoUrl: string;
  tokenAddress: string;
}

/** A founder with an active project whose token balance and allowance are both `funds` whole tokens. */
export async function activeProject(
  ctx: TestContext,
  chain: FakeChain | null,
  funds = 1_000_000n,
  founder?: TestAgent,
): Promise<ActiveProject> {
  const owner = founder ?? (await registerAgent(ctx.app));
  const project = await createProject(ctx.app, owner);
  const { repoUrl, tokenAddress } = await markProjectActive(ctx, project.id);
  if (chain) chain.setFunds(tokenAddress, owner.walletAddress as string, funds);
  return { founder: owner, project, repoUrl, tokenAddress };
}

export function postBounty(app: TestApp, founder: TestAgent | null, projectId: string, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/bounties`,
    headers: founder ? founder.headers : {},
    payload: payload as object,
  });
}

export function claim(app: TestApp, agent: TestAgent, bountyId: string) {
  return app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/claim`, headers: agent.headers });
}

export function unclaim(app: TestApp, agent: TestAgent, bountyId: string) {
  return app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/unclaim`, headers: agent.headers });
}

let prSeq = 0;
export function submit(app: TestApp, agent: TestAgent, bountyId: string, repoUrl: string, pr = ++prSeq) {
  return app.inject({
    method: 'POST',
    url: `/api/bounties/${bountyId}/submit`,
    headers: agent.headers,
    payload: { pr_url: `${repoUrl}/pull/${pr}` },
  });
}

export function reject(app: TestApp, founder: TestAgent, bountyId: string, notes = 'Not quite there yet.') {
  return app.inject({
    method: 'POST',
    url: `/api/bounties/${bountyId}/reject`,
    headers: founder.headers,
    payload: { review_notes: notes },
  });
}

export function approve(app: TestApp, founder: TestAgent, bountyId: string) {
  return app.inject({ method: 'POST', url: `/api/bounties/${bountyId}/approve`, headers: founder.headers });
}

/** Expects a 2xx of the given status and returns the parsed body. */
export function ok<T = Record<string, unknown>>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

export type ListQuery = Record<string, string | number | undefined>;

export function listBounties(app: TestApp, query: ListQuery = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return app.inject({ method: 'GET', url: `/api/bounties${qs ? `?${qs}` : ''}` });
}

export async function listOk(app: TestApp, query: ListQuery = {}) {
  return ok<{ bounties: BountyBody[]; total: number; limit: number; offset: number }>(
    await listBounties(app, query),
  );
}

/** Every page of a filter, walked with the given page size. */
export async function allPages(app: TestApp, query: ListQuery, pageSize: number) {
  const seen: BountyBody[] = [];
  let total = -1;
  for (let offset = 0; ; offset += pageSize) {
    const page = await listOk(app, { ...query, limit: pageSize, offset });
    if (total === -1) total = page.total;
    expect(page.total).toBe(total);
    expect(page.limit).toBe(pageSize);
    expect(page.offset).toBe(offset);
    seen.push(...page.bounties);
    if (page.bounties.length < pageSize) break;
  }
  return { bounties: seen, total };
}

export async function getBounty(app: TestApp, id: string) {
  return app.inject({ method: 'GET', url: `/api/bounties/${id}` });
}

export interface ActivityBody {
  id: string;
  type: string;
  agent_id: string | null;
  project_id: string | null;
  bounty_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

/** Every matching activity event, newest first, walking all pages. */
export async function activity(app: TestApp, query: ListQuery = {}): Promise<ActivityBody[]> {
  const all: ActivityBody[] = [];
  for (;;) {
    const params = new URLSearchParams({ limit: '100' });
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const last = all[all.length - 1];
    if (last) params.set('before', last.id);
    const page = ok<{ activity: ActivityBody[] }>(
      await app.inject({ method: 'GET', url: `/api/activity?${params}` }),
    ).activity;
    all.push(...page);
    if (page.length < 100) return all;
  }
}

export async function activeClaims(app: TestApp, agent: TestAgent) {
  const res = await app.inject({ method: 'GET', url: '/api/agents/me', headers: agent.headers });
  return ok<{
    agent: {
      active_claims: {
        bounty_id: string;
        project_id: string;
        title: string;
        status: string;
        claimed_at: string;
      }[];
    };
  }>(res).agent.active_claims;
}
