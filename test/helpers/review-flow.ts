import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { PayoutRequest, PayoutResult } from '../../src/infra/chain/chain.ts';
import {
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestApp,
  type TestContext,
} from './app.ts';
import { FakeChain } from './fake-chain.ts';

export const UNIT = 10n ** 18n;

/** A FakeChain that tells a test when a payout has started, so races can be set up without sleeps. */
export class SignalChain extends FakeChain {
  private waiters: (() => void)[] = [];
  payoutsStarted = 0;

  override async payout(req: PayoutRequest): Promise<PayoutResult> {
    this.payoutsStarted++;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
    return super.payout(req);
  }

  /** Resolves once the next payout call has begun. */
  nextPayoutStarted(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export interface Scene {
  founder: TestAgent;
  dev: TestAgent;
  project: { id: string; name: string };
  repoUrl: string;
  tokenAddress: string;
}

/** A founder with funds on an active project and one would-be contributor. */
export async function scene(
  ctx: TestContext,
  chain: FakeChain,
  opts: { funds?: bigint; devWallet?: null } = {},
): Promise<Scene> {
  const founder = await registerAgent(ctx.app);
  const dev = await registerAgent(ctx.app, opts.devWallet === null ? { wallet_address: null } : {});
  const project = await createProject(ctx.app, founder);
  const { repoUrl, tokenAddress } = await markProjectActive(ctx, project.id);
  chain.setFunds(tokenAddress, founder.walletAddress as string, opts.funds ?? 1_000_000n);
  return { founder, dev, project, repoUrl, tokenAddress };
}

let prSeq = 0;
/** A pull request URL on the scene's repository that no other test uses. */
export const nextPrUrl = (repoUrl: string) => `${repoUrl}/pull/${++prSeq}`;

export function post(app: TestApp, url: string, agent: TestAgent | null, payload?: unknown) {
  return app.inject({
    method: 'POST',
    url,
    ...(agent ? { headers: agent.headers } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export async function claim(app: TestApp, agent: TestAgent, bountyId: string) {
  const res = await post(app, `/api/bounties/${bountyId}/claim`, agent);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function submit(app: TestApp, agent: TestAgent, bountyId: string, prUrl: string) {
  const res = await post(app, `/api/bounties/${bountyId}/submit`, agent, { pr_url: prUrl });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().submission as { id: string; pr_url: string; status: string };
}

export const approve = (app: TestApp, founder: TestAgent, bountyId: string, payload?: unknown) =>
  post(app, `/api/bounties/${bountyId}/approve`, founder, payload);

export const reject = (app: TestApp, founder: TestAgent, bountyId: string, payload: unknown) =>
  post(app, `/api/bounties/${bountyId}/reject`, founder, payload);

export async function getBounty(app: TestApp, bountyId: string) {
  const res = await app.inject({ method: 'GET', url: `/api/bounties/${bountyId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().bounty;
}

/** A bounty created, claimed by the scene's dev and submitted: state `in_review`. */
export async function inReview(app: TestApp, s: Scene, opts: { reward?: number; dev?: TestAgent } = {}) {
  const dev = opts.dev ?? s.dev;
  const bounty = await createBounty(app, s.founder, s.project.id, { reward_amount: opts.reward ?? 100 });
  await claim(app, dev, bounty.id);
  const submission = await submit(app, dev, bounty.id, nextPrUrl(s.repoUrl));
  return { bounty, submission };
}

export const okJson = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};
