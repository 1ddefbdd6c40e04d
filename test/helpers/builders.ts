import { afterAll, beforeAll } from 'vitest';
import { tokensToUnits } from '../../src/infra/chain/chain.ts';
import type { Clock } from '../../src/lib/clock.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './app.ts';
import { activateOnChain, approvePayouts, buyTokens, startTestChain, type TestChain } from './chain.ts';
import { FakeChain } from './fake-chain.ts';
import type { FakeRepoHost } from './fake-repo-host.ts';
import { setRepoLogin } from './repo-login.ts';
import {
  approve,
  claim,
  inReview,
  nextPrUrl,
  okJson,
  type Scene,
  seedPayoutNonce,
  submit,
} from './review-flow.ts';
import { loginOf, webhookKit } from './webhook-flows.ts';

/**
 * Data builders for the common scenes, so a test file says which scene it stands in instead of
 * setting it up again: an active project with funds (on the fake chain or a real anvil), a
 * submission in review, a paid bounty, and the app a payout or webhook file runs against.
 */

type BuildOptions = NonNullable<Parameters<typeof buildTestApp>[0]>;

/**
 * The app a test file runs against: built (with what buildTestApp takes, or what `options()`
 * answers once the file's earlier hooks have run) before the file's tests and closed after them.
 * The answer stands for the built context from then on, so a file declares no context of its own.
 */
export function appForFile(options: BuildOptions | (() => BuildOptions) = {}): TestContext {
  let built: TestContext | undefined;
  beforeAll(async () => {
    built = await buildTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(() => built?.close());
  return lateBound(() => built);
}

/**
 * A real chain (the worker's shared anvil, reverted after) and the app on it (`options` on top of
 * the chain), for the file or the describe block it is called in: built before its tests, the app
 * closed and the chain stopped after them.
 */
export function chainAppForFile(options: (tc: TestChain) => BuildOptions = (tc) => ({ chain: tc.chain })) {
  let tc: TestChain | undefined;
  let built: TestContext | undefined;
  beforeAll(async () => {
    tc = await startTestChain();
    built = await buildTestApp(options(tc));
  });
  afterAll(async () => {
    await built?.close();
    await tc?.stop();
  });
  return { ctx: lateBound(() => built), tc: lateBound(() => tc) };
}

/** The base URL of `ctx`'s app, listening on a free port of 127.0.0.1 from the next hook on. */
export function listening(ctx: TestContext): () => string {
  let base = '';
  beforeAll(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  return () => base;
}

/** Stands for what `get` answers once a hook has set it up. */
function lateBound<T extends object>(get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get();
      if (!target) throw new Error('built in beforeAll: use it in a hook or a test');
      return Reflect.get(target, key);
    },
  });
}

export interface FundedProject {
  founder: TestAgent;
  project: { id: string; name: string; token_symbol: string; founder_id: string };
  repoUrl: string;
  tokenAddress: string;
  curveAddress: string;
}

/**
 * An active project on the fake chain whose founder holds `funds` whole tokens (and allows the
 * payout key `allowance`, the same by default). The founder is registered unless one is given.
 * With `curveSupply`, the project's curve is the factory's (a = 1e12 wei, b = 1e3 wei) with that
 * many whole tokens minted, set after activation (whose own read of the curve failed) and read by
 * the holdings watcher's next pass.
 */
export async function fundedProject(
  ctx: TestContext,
  chain: FakeChain,
  opts: {
    founder?: TestAgent;
    name?: string;
    token_symbol?: string;
    funds?: bigint;
    allowance?: bigint;
    curveSupply?: number;
  } = {},
): Promise<FundedProject> {
  const founder = opts.founder ?? (await registerAgent(ctx.app));
  const project = await createProject(ctx.app, founder, {
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.token_symbol ? { token_symbol: opts.token_symbol } : {}),
  });
  const active = await activateFunded(ctx, chain, project.id, founder.walletAddress as string, opts);
  return { founder, project, ...active };
}

/**
 * A project made active on the fake chain as fundedProject makes it, for a founder whose wallet is
 * `founderWallet` (what the app holds of its in-app wallet, say). Only the app, the database and
 * the clock of `ctx` are read.
 */
export async function activateFunded(
  ctx: Pick<TestContext, 'app' | 'database'> & { clock: Clock },
  chain: FakeChain,
  projectId: string,
  founderWallet: string,
  opts: { funds?: bigint; allowance?: bigint; curveSupply?: number } = {},
) {
  const { repoUrl, tokenAddress } = await markProjectActive(ctx as TestContext, projectId);
  const curveAddress = (await ctx.app.services.projects.require(projectId)).curveAddress as string;
  if (opts.curveSupply !== undefined) {
    chain.setCurve(curveAddress, { a: 10n ** 12n, b: 1000n, supplyUnits: tokensToUnits(opts.curveSupply) });
    await ctx.app.services.holdings.refreshMissingCurves();
  }
  const funds = opts.funds ?? 1_000_000n;
  chain.setFunds(tokenAddress, founderWallet, funds, opts.allowance ?? funds);
  return { repoUrl, tokenAddress, curveAddress };
}

/**
 * An active project on a real chain: its token and curve deployed, the founder's account
 * (`account`, an anvil index) bought tokens for `eth` wei and allows the payout router `allowance`
 * token units. Answers the project's id with what activation deployed.
 */
export async function fundedChainProject(
  ctx: TestContext,
  tc: TestChain,
  founder: TestAgent,
  opts: { account: number; eth: bigint; allowance: bigint },
) {
  const project = await createProject(ctx.app, founder);
  const deployed = await activateOnChain(ctx, tc, project.id, project.token_symbol);
  await buyTokens(tc, opts.account, deployed.curveAddress, opts.eth);
  await approvePayouts(tc, opts.account, deployed.tokenAddress, opts.allowance);
  return { id: project.id, ...deployed };
}

/**
 * A bounty of `founder`'s project for `reward` tokens, claimed and submitted by a new contributor
 * (its own random wallet; with `login`, that host login): state `in_review`.
 */
export async function bountyInReview(
  ctx: TestContext,
  founder: TestAgent,
  project: { id: string; repoUrl: string },
  reward: number,
  opts: { login?: string } = {},
) {
  const dev = await registerAgent(ctx.app);
  if (opts.login) await setRepoLogin(ctx, dev.id, opts.login);
  const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
  await claim(ctx.app, dev, bounty.id);
  const prUrl = nextPrUrl(project.repoUrl);
  await submit(ctx.app, dev, bounty.id, prUrl);
  return { bountyId: bounty.id, dev, prUrl, contributor: dev.walletAddress as string };
}

/** A bounty of the scene's founder approved and paid to the scene's dev: state `done`. */
export async function paidBounty(
  ctx: TestContext,
  s: Scene,
  opts: { reward?: number; dev?: TestAgent } = {},
) {
  const work = await inReview(ctx.app, s, opts);
  const approval = okJson(await approve(ctx.app, s.founder, work.bounty.id));
  return { ...work, approval };
}

/**
 * A bounty of the project claimed by a new contributor (with a host login) whose pull request, open
 * on `host` and authored by them, is now in review. Each submission comes a millisecond after the
 * last: a review queue's order is the order work arrived.
 */
export async function pullRequestInReview(
  ctx: TestContext,
  host: FakeRepoHost,
  p: { founder: TestAgent; project: { id: string }; repoUrl: string },
  reward = 100,
) {
  const dev = await registerAgent(ctx.app);
  await setRepoLogin(ctx, dev.id, loginOf(dev, 'dev'));
  const bounty = await createBounty(ctx.app, p.founder, p.project.id, { reward_amount: reward });
  await claim(ctx.app, dev, bounty.id);
  const prUrl = nextPrUrl(p.repoUrl);
  host.setPullRequest(prUrl, { state: 'open', authorLogin: loginOf(dev, 'dev') });
  ctx.clock.tick();
  const submission = (await submit(ctx.app, dev, bounty.id, prUrl)) as { id: string };
  return { bountyId: bounty.id, submissionId: submission.id, dev, prUrl };
}

/**
 * The app a payout file runs against: payouts that time out and poll fast, `env` on top, and the
 * payout key's nonce seeded so every first approval takes the fast path (FreshPayout), whatever
 * test runs first.
 */
export function payoutApp(chain: FakeChain, env: Record<string, string> = {}): TestContext {
  const ctx = appForFile({
    chain,
    env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10', ...env },
  });
  beforeAll(() => seedPayoutNonce(ctx, chain));
  return ctx;
}

/**
 * The app a file about pull requests on the host runs against: a fake chain, `host`, and the merge
 * webhook's kit over them (see webhook-flows.ts). The app is built before the file's tests.
 */
export function webhookApp<H extends FakeRepoHost>(host: H, env?: Record<string, string>) {
  const chain = new FakeChain();
  const ctx = appForFile({ chain, repoHost: host, ...(env ? { env } : {}) });
  return { chain, host, ctx, kit: webhookKit(ctx, chain, host) };
}
