import { expect } from 'vitest';
import {
  buildTestApp,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './app.ts';
import { FakeChain } from './fake-chain.ts';
import { newVault } from './wallets.ts';
import { type Browserless, browserless, stubWalletChain } from './web-forms.ts';

/**
 * The setup of the "console finished for people" tests (web-console-finish*.int.test.ts): an app
 * on a FakeChain with stubbed in-app wallets and an explorer URL, a founder with an in-app wallet
 * and an active project ("Finish Works", FINW) and a proposed one ("Later Works"), a contributor
 * with an external wallet, both signed in.
 */

export const EXPLORER = 'https://explorer.example';
export const TOKEN = 10n ** 18n;

export interface FinishConsole {
  ctx: TestContext;
  chain: ReturnType<typeof stubWalletChain>;
  web: Browserless;
  founder: TestAgent;
  dev: TestAgent;
  founderSession: string;
  devSession: string;
  founderAddress: string;
  active: { id: string; token: string; symbol: string };
  proposedId: string;
  /** An active project whose curve the FakeChain can read (the wallet's holdings read it). */
  activate: (projectId: string) => Promise<string>;
}

/** `ethWei` is read on every ETH balance of the in-app wallet: the tests change what it holds. */
export async function setUpFinishConsole(ethWei: () => bigint): Promise<FinishConsole> {
  const chain = stubWalletChain(new FakeChain());
  const ctx = await buildTestApp({ chain, vault: newVault(), env: { CHAIN_EXPLORER_URL: EXPLORER } });
  const activate = async (projectId: string) => {
    const { tokenAddress } = await markProjectActive(ctx, projectId);
    const curve = (await ctx.app.services.projects.require(projectId)).curveAddress as string;
    chain.setCurve(curve, { a: 10n ** 12n, b: 1000n, supplyUnits: 10_000n * TOKEN });
    return tokenAddress;
  };
  const web = browserless(ctx.app);
  // The founder's wallet is in-app (the console's money forms); the contributor's is external.
  const founder = await registerAgent(ctx.app, { wallet_address: null });
  const dev = await registerAgent(ctx.app);
  const founderAddress = (await ctx.app.services.directory.require(founder.id)).walletAddress as string;
  (chain.wallets as unknown as { ethBalance: () => Promise<bigint> }).ethBalance = async () => ethWei();
  const p = await createProject(ctx.app, founder, { name: 'Finish Works', token_symbol: 'FINW' });
  const active = { id: p.id, token: await activate(p.id), symbol: 'FINW' };
  const proposedId = (await createProject(ctx.app, founder, { name: 'Later Works', token_symbol: 'LATW' }))
    .id;
  const founderSession = await web.signIn(founder.apiKey);
  const devSession = await web.signIn(dev.apiKey);
  return {
    ctx,
    chain,
    web,
    founder,
    dev,
    founderSession,
    devSession,
    founderAddress,
    active,
    proposedId,
    activate,
  };
}

/** The markup of the element that starts at `id="…"` up to its closing tag `</tag>`. */
export function block(html: string, tag: string, id: string): string {
  const m = new RegExp(`<${tag}[^>]* id="${id}"[^>]*>[\\s\\S]*?</${tag}>`).exec(html);
  expect(m, `${tag}#${id}`).not.toBeNull();
  return m?.[0] ?? '';
}
