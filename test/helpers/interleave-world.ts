import { randomBytes, randomInt } from 'node:crypto';
import type postgres from 'postgres';
import { getAddress } from 'viem';
import { seededRandom } from './crash.ts';
import { call, must } from './interleave-api.ts';
import type { IntervalChain } from './interleave-chain.ts';
import type { Cluster } from './interleave-cluster.ts';
import type { FakeGithub } from './interleave-github.ts';
import { type FundsLevel, rewardBounds } from './interleave-schedule.ts';

/**
 * One schedule's world, made through the API of the running instances: a founder with an in-app
 * wallet, a project activated, tokens bought and the payout spender allowed, contributors with
 * wallets and linked host logins, bounties (two of them already in review).
 */

export const UNIT = 10n ** 18n;
const HUGE_ALLOWANCE = 10n ** 30n;

export interface Agent {
  id: string;
  key: string;
  login: string;
  wallet: string;
}

export interface World {
  n: number;
  founder: Agent;
  project: { id: string; repoUrl: string; token: string; curve: string };
  devs: Agent[];
  bounties: { id: string; reward: number }[];
  /** Where the founder's tokens go when the test moves them away (not a payout). */
  stash: string;
  treasury: string;
  /** `config.payout_spender_address` as read at setup. */
  spender: string;
  notes: string[];
  /** The schedule's own choices made at run time (which bounty a fault provokes), from its seed. */
  rnd: () => number;
}

export interface Env {
  cluster: Cluster;
  chain: IntervalChain;
  gh: FakeGithub;
  sql: postgres.Sql;
  tag: string;
}

const randomWallet = () => getAddress(`0x${randomBytes(20).toString('hex')}`);

async function register(env: Env, via: number, name: string, wallet?: string): Promise<Agent> {
  const base = env.cluster.url(via);
  const reg = await must(
    call(base, 'POST', '/api/agents/register', {
      body: { name, ...(wallet ? { wallet_address: wallet } : {}) },
    }),
    201,
    `register ${name}`,
  );
  const key = reg.body.agent.api_key as string;
  const login = name.toLowerCase();
  await must(
    call(env.cluster.url(via + 1), 'POST', '/api/agents/me/repo-identity', {
      key,
      body: { token: env.gh.userToken(login) },
    }),
    200,
    `link ${name}'s host login`,
  );
  return { id: reg.body.agent.id, key, login, wallet: wallet ?? '' };
}

export async function publicConfig(env: Env): Promise<{ spender: string; treasury: string; feeBps: number }> {
  const res = await must(call(env.cluster.url(0), 'GET', '/api/config/public'), 200, 'public config');
  const c = res.body.config as {
    payout_spender_address: string | null;
    treasury_address: string | null;
    platform_fee_bps: number;
  };
  if (!c.payout_spender_address || !c.treasury_address)
    throw new Error(`no payout spender or treasury in ${JSON.stringify(c)}`);
  return {
    spender: getAddress(c.payout_spender_address),
    treasury: getAddress(c.treasury_address),
    feeBps: c.platform_fee_bps,
  };
}

/** A founder, a project with its token, contributors and bounties: all through the API. */
export async function makeWorld(
  env: Env,
  n: number,
  rewards: number[],
  devCount: number,
  seed: number,
): Promise<World> {
  const tag = `${env.tag}r${n}`;
  const notes: string[] = [];
  const { spender, treasury } = await publicConfig(env);
  const founderAgent = await register(env, 0, `ilv-founder-${tag}`);
  // Registration without an address gives an in-app wallet where the deployment can make one.
  let wallet = (await call(env.cluster.url(1), 'GET', '/api/agents/me', { key: founderAgent.key })).body
    ?.agent?.wallet_address as string | null;
  if (!wallet) {
    const generated = await must(
      call(env.cluster.url(1), 'POST', '/api/agents/me/generate-wallet', { key: founderAgent.key }),
      200,
      'generate the founder wallet',
    );
    wallet = generated.body.agent.wallet_address as string;
  }
  const founder = { ...founderAgent, wallet: getAddress(wallet) };
  // The deployment's faucet: gas for the founder's own moves (API and impersonated).
  await env.chain.ensureEth(founder.wallet);
  const symbol = `I${randomInt(10 ** 6, 10 ** 7)}`;
  const created = await must(
    call(env.cluster.url(0), 'POST', '/api/projects', {
      key: founder.key,
      body: { name: `Interleave ${tag}`, token_symbol: symbol },
    }),
    201,
    'create the project',
  );
  const projectId = created.body.project.id as string;
  const activated = await must(
    call(env.cluster.url(1), 'POST', `/api/projects/${projectId}/activate`, {
      key: founder.key,
      timeoutMs: 60_000,
    }),
    200,
    'activate the project',
  );
  const p = activated.body.project as { repo_url: string; token_address: string; curve_address: string };
  const project = {
    id: projectId,
    repoUrl: p.repo_url,
    token: getAddress(p.token_address),
    curve: p.curve_address,
  };
  await must(
    call(env.cluster.url(0), 'POST', `/api/projects/${projectId}/buy`, {
      key: founder.key,
      body: { eth_units: (UNIT / 100n).toString() },
      timeoutMs: 60_000,
    }),
    200,
    'buy tokens',
  );
  await must(
    call(env.cluster.url(1), 'POST', `/api/projects/${projectId}/allowance`, {
      key: founder.key,
      body: { amount: 1_000_000 },
      timeoutMs: 60_000,
    }),
    200,
    'set the allowance',
  );
  // The allowance must name config.payout_spender_address, whatever the service approved.
  const allowed = await env.chain.allowance(project.token, founder.wallet, spender);
  if (allowed < 1_000_000n * UNIT) {
    notes.push(`POST allowance left ${allowed} for ${spender}; approved it on chain instead`);
    await env.chain.approveAs(founder.wallet, project.token, spender, HUGE_ALLOWANCE);
  }
  const devs: Agent[] = [];
  for (let i = 0; i < devCount; i++) devs.push(await register(env, i, `ilv-dev-${tag}-${i}`, randomWallet()));
  const bounties: World['bounties'] = [];
  for (const [i, reward] of rewards.entries()) {
    const made = await must(
      call(env.cluster.url(i), 'POST', `/api/projects/${projectId}/bounties`, {
        key: founder.key,
        body: { title: `Task ${i} of ${tag}`, description: 'Interleaved.', reward_amount: reward },
      }),
      201,
      `create bounty ${i}`,
    );
    bounties.push({ id: made.body.bounty.id as string, reward });
  }
  // Two bounties start in review (claimed and submitted by two contributors), so the schedule's
  // first faults already meet approvals.
  for (const [i, b] of bounties.slice(0, 2).entries()) {
    const dev = devs[i] as Agent;
    await must(
      call(env.cluster.url(i), 'POST', `/api/bounties/${b.id}/claim`, { key: dev.key }),
      200,
      'claim',
    );
    const pr = env.gh.openPullRequest(project.repoUrl, dev.login);
    await must(
      call(env.cluster.url(i + 1), 'POST', `/api/bounties/${b.id}/submit`, {
        key: dev.key,
        body: { pr_url: pr },
      }),
      201,
      'submit',
    );
  }
  const stash = randomWallet();
  await env.chain.ensureEth(stash);
  return {
    n,
    founder,
    project,
    devs,
    bounties,
    stash,
    treasury,
    spender,
    notes,
    rnd: seededRandom(seed ^ 0x5eed),
  };
}

/** Sets the founder's allowance on chain, to the spender the deployment names now. */
export async function setFunds(env: Env, w: World, level: FundsLevel): Promise<string> {
  const { spender } = await publicConfig(env);
  const units =
    level === 'all' ? HUGE_ALLOWANCE : level === 'one' ? BigInt(rewardBounds.max + 1) * UNIT : 5n * UNIT;
  const r = await env.chain.approveAs(w.founder.wallet, w.project.token, spender, units);
  return `allowance ${level} (${units / UNIT} tokens) -> ${r.outcome} ${r.hash}`;
}
