/**
 * The untimed set-up of bench/approve.ts: founders with active projects, funds and allowances on
 * chain, and bounties in review for them to approve.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { buildApp } from '../../src/app.ts';
import { anvilAccount } from '../../src/infra/chain/anvil.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { Db } from '../../src/infra/db/client.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { approvePayouts, buyTokens, type TestChain } from '../../test/helpers/chain.ts';
import type { FakeRepoHost } from '../../test/helpers/fake-repo-host.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const FOUNDER_ACCOUNT = 3;

async function call(app: App, method: 'POST', url: string, auth?: string, payload?: object) {
  const res = await app.inject({
    method,
    url,
    ...(auth ? { headers: { authorization: `Bearer ${auth}` } } : {}),
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** A new agent with an external wallet; its API key and repository host login. */
async function registerAgent(app: App, walletAddress: string): Promise<{ key: string; login: string }> {
  const { agent } = await call(app, 'POST', '/api/agents/register', undefined, {
    name: `bench-${randomBytes(5).toString('hex')}`,
    wallet_address: walletAddress,
  });
  return { key: agent.api_key as string, login: agent.repo_login as string };
}

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;

/**
 * A founder with an active project on chain, plenty of tokens and an unlimited allowance for the
 * router (and for the payout key itself, which sends the baseline's bare transferFroms). `nth` picks
 * the anvil account (founder 0 is account 3, further ones 21, 22, …), so several founders approve
 * side by side, each from its own wallet and funds lock. `inReview(n)` adds n bounties, each claimed
 * by its own contributor (one active claim per agent and project) and submitted.
 */
export async function seedFounder(app: App, db: Db, tc: TestChain, host: FakeRepoHost, nth = 0) {
  // Further founders use accounts no platform key uses (the sponsor is 10), funded here.
  const account = nth === 0 ? FOUNDER_ACCOUNT : 20 + nth;
  const founderAddress = tc.account(account).address;
  if (nth > 0) await tc.test.setBalance({ address: founderAddress, value: 100n * 10n ** 18n });
  const founderKey = (await registerAgent(app, founderAddress)).key;
  const project = (
    await call(app, 'POST', '/api/projects', founderKey, {
      name: `Bench project ${nth}`,
      token_symbol: nth === 0 ? 'BENCH' : `BENCH${nth}`,
    })
  ).project as { id: string };
  const symbol = nth === 0 ? 'BENCH' : `BENCH${nth}`;
  const { tokenAddress, curveAddress } = await tc.chain.deployProject(project.id, 'Bench', symbol);
  const repoUrl = `http://127.0.0.1:9/bench/${project.id}`;
  await db
    .update(schema.projects)
    .set({ status: 'active', repoUrl, tokenAddress, curveAddress, activatedAt: new Date() })
    .where(eq(schema.projects.id, project.id));
  await buyTokens(tc, account, curveAddress, 10n ** 18n); // 1 ETH: ~10^6 tokens
  await approvePayouts(tc, account, tokenAddress, 2n ** 255n);
  // The baseline's bare transferFroms are sent by the payout key itself, not through the router.
  await approveSpender(tc, tokenAddress, privateKeyToAccount(tc.options.payoutKey).address, account);
  let pr = 0;
  return {
    founderKey,
    founderAddress,
    tokenAddress,
    async inReview(n: number): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const dev = await registerAgent(app, randomAddress());
        const bounty = await call(app, 'POST', `/api/projects/${project.id}/bounties`, founderKey, {
          title: `Bench bounty ${++pr}`,
          description: 'Measured by bench/approve.ts.',
          reward_amount: 100,
        });
        const id = bounty.bounty.id as string;
        await call(app, 'POST', `/api/bounties/${id}/claim`, dev.key);
        // Only the pull request's author may submit it: the contributor opened this one.
        host.setPullRequest(`${repoUrl}/pull/${pr}`, { authorLogin: dev.login });
        await call(app, 'POST', `/api/bounties/${id}/submit`, dev.key, { pr_url: `${repoUrl}/pull/${pr}` });
        ids.push(id);
      }
      return ids;
    },
  };
}

async function approveSpender(tc: TestChain, token: string, spender: string, account: number): Promise<void> {
  const wallet = createWalletClient({
    account: anvilAccount(account),
    chain: foundry,
    transport: http(tc.rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: getAddress(token),
    abi: projectTokenAbi,
    functionName: 'approve',
    args: [getAddress(spender), 2n ** 255n],
  });
  await tc.pub.waitForTransactionReceipt({ hash });
}
