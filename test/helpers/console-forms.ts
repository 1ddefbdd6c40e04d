import { buildTestApp, registerAgent, type TestAgent, type TestContext } from './app.ts';
import { FakeChain } from './fake-chain.ts';
import { FakeRepoHost } from './fake-repo-host.ts';
import { newVault } from './wallets.ts';
import { type Browserless, browserless, stubWalletChain } from './web-forms.ts';

/**
 * The setup of the console forms tests (web-console-actions.int.test.ts and the files split from
 * it): an app on a FakeChain with stubbed in-app wallets and a FakeRepoHost, a founder with an
 * in-app wallet and a contributor with an external one, both signed in.
 */

export const ETH = 10n ** 18n;

export interface ConsoleForms {
  ctx: TestContext;
  chain: ReturnType<typeof stubWalletChain>;
  host: FakeRepoHost;
  web: Browserless;
  founder: TestAgent;
  contributor: TestAgent;
  founderSession: string;
  contributorSession: string;
}

export async function setUpConsoleForms(): Promise<ConsoleForms> {
  const chain = stubWalletChain(new FakeChain());
  const host = new FakeRepoHost();
  const ctx = await buildTestApp({ chain, vault: newVault(), repoHost: host });
  const web = browserless(ctx.app);
  const founder = await registerAgent(ctx.app, { wallet_address: null });
  const contributor = await registerAgent(ctx.app);
  const founderSession = await web.signIn(founder.apiKey);
  const contributorSession = await web.signIn(contributor.apiKey);
  return { ctx, chain, host, web, founder, contributor, founderSession, contributorSession };
}

/**
 * What the founder forms of web-console-actions.int.test.ts leave behind, done through the same
 * forms: "Console Project" (CONS) created and activated with a curve, ETH from the faucet, tokens
 * bought, 1,000 CONS held with an allowance of 400, and the bounty "Fix the parser" posted for 100.
 */
export async function setUpFounderProject(f: ConsoleForms): Promise<{ projectId: string; repoUrl: string }> {
  const { ctx, chain, web, founder, founderSession } = f;
  await web.submit(founderSession, '/console/projects', {
    name: 'Console Project',
    token_symbol: 'cons',
    description: 'Made in the console',
  });
  const { projects } = await ctx.app.services.projects.list({ founder_id: founder.id, limit: 10, offset: 0 });
  const projectId = projects[0]?.id as string;
  await web.submit(founderSession, `/console/projects/${projectId}/activate`, {});
  // The deployment runs after the redirect: wait for it (expect.poll works only inside a test).
  for (let i = 0; (await ctx.app.services.projects.get(projectId)).status !== 'active'; i++) {
    if (i >= 200) throw new Error(`project ${projectId} was not activated`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const repoUrl = (await ctx.app.services.projects.get(projectId)).repo_url as string;
  // The stub deploys no curve: give it one, as the wallet's holdings read it.
  const curve = (await ctx.app.services.projects.require(projectId)).curveAddress as string;
  chain.setCurve(curve, { a: 10n ** 12n, b: 1000n, supplyUnits: 10_000n * ETH });
  const address = (await ctx.app.services.directory.require(founder.id)).walletAddress as string;
  await web.submit(founderSession, '/console/faucet', {});
  await web.submit(founderSession, `/console/projects/${projectId}/buy`, { eth: '0.5' });
  // The stub mints nothing on the ledger: the balance is the test's to set.
  const token = (await ctx.app.services.projects.get(projectId)).token_address as string;
  chain.setFunds(token, address, 1000n, 0n);
  await web.submit(founderSession, `/console/projects/${projectId}/allowance`, { amount: '400' });
  await web.submit(founderSession, `/console/projects/${projectId}/bounties`, {
    title: 'Fix the parser',
    description: 'It chokes on tabs.',
    reward_amount: '100',
    difficulty: 'easy',
  });
  return { projectId, repoUrl };
}
