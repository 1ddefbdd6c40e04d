/**
 * Parts of bench/approve.ts: the database and chain with every SQL statement and chain call timed
 * (the profile), the untimed set-up (bounties in review), and the bare-transferFrom baseline.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { buildApp } from '../../src/app.ts';
import { anvilAccount } from '../../src/infra/chain/anvil.ts';
import type { Chain, Fees, PayoutSigner } from '../../src/infra/chain/chain.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { type Database, type Db, openDatabase } from '../../src/infra/db/client.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { approvePayouts, buyTokens, type TestChain } from '../../test/helpers/chain.ts';
import type { FakeRepoHost } from '../../test/helpers/fake-repo-host.ts';
import { databaseUrl, dropDatabase, recreateDatabase } from './seed.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

/** The gas limit EvmChain signs payout legs with. */
const TRANSFER_GAS = 120_000n;

/** Per name (a chain method, `sql statement`, `sql transaction`): calls and summed wall time, ms. */
export type Stats = Map<string, { calls: number; ms: number }>;

const add = (stats: Stats, name: string, ms: number) => {
  const s = stats.get(name) ?? { calls: 0, ms: 0 };
  s.calls++;
  s.ms += ms;
  stats.set(name, s);
};

/** Wraps an async function so that each call is added to `stats` under `name`. */
const timed =
  <A extends unknown[], R>(stats: Stats, name: string, fn: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const t0 = performance.now();
    try {
      return await fn(...args);
    } finally {
      add(stats, name, performance.now() - t0);
    }
  };

type Client = postgres.Sql | PGlite;

/**
 * The driver client with each statement timed from send to answer, and each transaction from
 * BEGIN to COMMIT, as drizzle uses it (postgres-js `unsafe` queries run when awaited, after
 * drizzle has called `.values()`; PGlite `query`).
 */
function timedClient<C extends Client>(client: C, stats: Stats): C {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'query') return timed(stats, 'sql statement', value.bind(target));
      if (prop === 'transaction' || prop === 'begin') {
        return timed(stats, 'sql transaction', (fn: (tx: Client) => Promise<unknown>) =>
          value.call(target, (tx: Client) => fn(timedClient(tx, stats))),
        );
      }
      if (prop !== 'unsafe') return value.bind(target);
      return (...args: unknown[]) => {
        const query = value.apply(target, args) as Promise<unknown>;
        // postgres-js sends the query when it is first awaited: time from there to the answer.
        const send = query.then.bind(query);
        // Inside a transaction postgres-js also attaches its own `.catch`: time the first `then` only.
        let timing = false;
        const timedThen: typeof send = (ok, ko) => {
          if (timing) return send(ok, ko);
          timing = true;
          const t0 = performance.now();
          const done = () => add(stats, 'sql statement', performance.now() - t0);
          return send(
            (v) => {
              done();
              return ok ? ok(v) : (v as never);
            },
            (e) => {
              done();
              return ko ? ko(e) : Promise.reject(e);
            },
          );
        };
        Object.defineProperty(query, 'then', { value: timedThen });
        return query;
      };
    },
  });
}

/**
 * A fresh, migrated database whose driver client times every statement and transaction into
 * `stats`. PostgreSQL: a scratch database on `adminUrl`, dropped on close, with the client
 * options `openDatabase` uses; or in-memory PGlite.
 */
export async function openTimedDatabase(
  pglite: boolean,
  adminUrl: string,
  pool: number,
  stats: Stats,
): Promise<Database & { label: string }> {
  if (pglite) {
    const client = new PGlite();
    await client.waitReady;
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() });
    const db = drizzlePglite({ client: timedClient(client, stats), schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      listen: async (channel, onNotify) => client.listen(channel, () => onNotify()),
      close: () => client.close(),
      label: 'PGlite (in memory)',
    };
  }
  const name = `bm_bench_approve_${randomBytes(4).toString('hex')}`;
  await recreateDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  // Applies the migrations (it holds one connection for its advisory lock and migrates on another).
  await (await openDatabase({ kind: 'postgres', url, poolSize: 2 })).close();
  const client = postgres(url, { max: pool, onnotice: () => {}, prepare: true });
  const db = drizzlePostgres({ client: timedClient(client, stats), schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    listen: async (channel, onNotify) => (await client.listen(channel, () => onNotify())).unlisten,
    label: `PostgreSQL ${url.replace(/\/\/[^@]*@/, '//')} (scratch, pool ${pool})`,
    async close() {
      await client.end({ timeout: 5 });
      await dropDatabase(adminUrl, name);
    },
  };
}

const migrationsFolder = () => new URL('../../src/infra/db/migrations', import.meta.url).pathname;

/** The chain with each call the approval makes timed into `stats` (`chain <method>`). */
export function timedChain(chain: Chain, stats: Stats): Chain {
  const p = chain.payoutSigner;
  const mined = timed(stats, 'chain mined', p.mined);
  const payoutSigner: PayoutSigner = {
    address: p.address,
    routerAddress: p.routerAddress,
    chainNonce: timed(stats, 'chain chainNonce', p.chainNonce),
    quoteFees: timed(stats, 'chain quoteFees', p.quoteFees),
    signPayout: timed(stats, 'chain signPayout', p.signPayout),
    signTransferFrom: timed(stats, 'chain signTransferFrom', p.signTransferFrom),
    broadcast: timed(stats, 'chain broadcast', p.broadcast),
    // A receipt lookup that found nothing yet.
    mined: async (hash) => {
      const receipt = await mined(hash);
      if (receipt === null) add(stats, 'chain mined: not yet', 0);
      return receipt;
    },
    known: timed(stats, 'chain known', p.known),
    signNonceFiller: timed(stats, 'chain signNonceFiller', p.signNonceFiller),
    headBlock: timed(stats, 'chain headBlock', p.headBlock),
  };
  return {
    info: chain.info,
    wallets: chain.wallets,
    sponsor: chain.sponsor,
    payoutSigner,
    readFunds: timed(stats, 'chain readFunds', (t: string, o: string) => chain.readFunds(t, o)),
    tokenFundsLogs: (tokens, from, to) => chain.tokenFundsLogs(tokens, from, to),
    readCurve: (curve, token, block) => chain.readCurve(curve, token, block),
    readPriceFeed: (feed) => chain.readPriceFeed(feed),
    deployProject: (id, name, symbol) => chain.deployProject(id, name, symbol),
    faucet: (to, eth) => chain.faucet(to, eth),
    close: () => chain.close(),
  };
}

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
 * A founder (anvil account 3) with an active project on chain, plenty of tokens and an unlimited
 * allowance for the payout wallet; `inReview(n)` adds n bounties, each claimed by its own
 * contributor (one active claim per agent and project) and submitted.
 */
/**
 * A founder with an active project whose tokens it bought and allowed the router to spend. `nth`
 * picks the anvil account (founders 0, 1, … are accounts 3, 4, …), so several founders approve side
 * by side, each from its own wallet and funds lock.
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

/**
 * The baseline: ERC-20 transferFroms by the payout key with viem, to the service's chain with the
 * service's transport settings and receipt polling interval. `rpc` lists every JSON-RPC method sent.
 */
export function bareTransfers(tc: TestChain, token: string, from: string, pollingInterval: number) {
  const rpc: string[] = [];
  const onFetchRequest = async (req: Request) => {
    const body = (await req.clone().json()) as { method: string } | { method: string }[];
    for (const m of Array.isArray(body) ? body : [body]) rpc.push(m.method);
  };
  const account = privateKeyToAccount(tc.options.payoutKey);
  const wallet = createWalletClient({
    account,
    chain: foundry,
    transport: http(tc.rpcUrl, { onFetchRequest }),
  });
  const pub = createPublicClient({
    chain: foundry,
    transport: http(tc.rpcUrl, { batch: true, retryCount: 1, timeout: 15_000, onFetchRequest }),
    pollingInterval,
  });
  const to = tc.account(5).address;
  return {
    rpc,
    /** Next nonce and current fees, for transfers that bring their own (`fixed`). */
    async fixedParams(): Promise<{ nonce: number; fees: Fees }> {
      const [nonce, fees] = await Promise.all([
        pub.getTransactionCount({ address: account.address, blockTag: 'pending' }),
        pub.estimateFeesPerGas(),
      ]);
      return {
        nonce,
        fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
      };
    },
    /** One transferFrom, signed and sent, and its receipt awaited; viem fills what `fixed` leaves out. */
    async transfer(fixed?: { nonce: number; fees: Fees }): Promise<void> {
      const hash = await wallet.writeContract({
        address: getAddress(token),
        abi: projectTokenAbi,
        functionName: 'transferFrom',
        args: [getAddress(from), to, 10n ** 18n],
        ...(fixed ? { nonce: fixed.nonce, gas: TRANSFER_GAS, ...fixed.fees } : {}),
      });
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval });
      if (receipt.status !== 'success') throw new Error(`bare transferFrom ${hash} reverted`);
    },
  };
}
