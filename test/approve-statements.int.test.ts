import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletActions } from '../src/infra/chain/chain.ts';
import { type Database, type Db, openDatabase } from '../src/infra/db/client.ts';
import * as schema from '../src/infra/db/schema.ts';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { createScratchDatabase, pgliteTemplate } from './helpers/database.ts';
import {
  approve,
  expectOnePayout,
  inReview,
  okJson,
  SignalChain,
  scene,
  UNIT,
} from './helpers/review-flow.ts';

/**
 * The cost of one approval in SQL statements, counted at the driver: every statement the whole
 * request makes. Today 19: the API key (1), the review checks in one read, the contributor's wallet
 * included (1), the wallet's check (1), the lease with the pending submission (1), the signing
 * transaction (the founder wallet's funds lock; the submission's row lock; the lease renewal, the
 * bounties module's; the payout with the wallet's other payouts in flight; the payout key's nonce
 * counter, locked, the transaction engine's; the intent with its signed attempt and the counter
 * past it: 6), the finishing transaction, one statement per owning module (the engine's intent
 * and attempt; the payout; submission; bounty with the project for the refresh: 4) with its event
 * (insert with its notification, webhook outbox: 2), the payability refresh after it (funds,
 * recompute: 2) and the holdings refresh (the curve and the balances of contributor and founder,
 * one upsert: 1). Each table is written only by its module (test/boundaries.test.ts); the payout
 * runs on the one transaction engine every key signs with (issue 25): its counter and its intent
 * are two statements more than the payout-only ledger's, which folded them into the payout's.
 */
const MAX_STATEMENTS_PER_APPROVAL = 19;

type Client = postgres.Sql | PGlite;

/** The driver client with every statement's text appended to `log` (transactions included). */
function countingClient<C extends Client>(client: C, log: string[]): C {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'query' || prop === 'unsafe') {
        return (...args: unknown[]) => {
          log.push(String(args[0]));
          return value.apply(target, args);
        };
      }
      if (prop === 'transaction' || prop === 'begin') {
        return (fn: (tx: Client) => Promise<unknown>) =>
          value.call(target, (tx: Client) => fn(countingClient(tx, log)));
      }
      return value.bind(target);
    },
  });
}

const migrationsFolder = fileURLToPath(new URL('../src/infra/db/migrations', import.meta.url));

/** A fresh migrated database (PGlite, or PostgreSQL with TEST_DB=postgres) whose statements are logged. */
async function openCountingDatabase(log: string[]): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    // Booted from the migrated template (the migrator finds nothing left), not initdb and every migration.
    const client = new PGlite({ loadDataDir: await pgliteTemplate() });
    await client.waitReady;
    await migrate(drizzlePglite({ client, schema }), { migrationsFolder });
    return {
      db: drizzlePglite({ client: countingClient(client, log), schema }) as unknown as Db,
      kind: 'pglite',
      listen: async (channel, onNotify) => {
        const unlisten = await client.listen(channel, () => onNotify());
        return async () => unlisten();
      },
      close: () => client.close(),
    };
  }
  const scratch = await createScratchDatabase();
  await (await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 })).close();
  const client = postgres(scratch.url, { max: 10, onnotice: () => {}, prepare: true });
  return {
    db: drizzlePostgres({ client: countingClient(client, log), schema }) as unknown as Db,
    kind: 'postgres',
    listen: async (channel, onNotify) => (await client.listen(channel, () => onNotify())).unlisten,
    async close() {
      await client.end({ timeout: 5 });
      await scratch.drop();
    },
  };
}

let ctx: TestContext;
const statements: string[] = [];
const chain = new SignalChain();

beforeAll(async () => {
  const database = await openCountingDatabase(statements);
  ctx = await buildTestApp({ chain, database, env: { CHAIN_POLLING_INTERVAL_MS: '10' } });
});
afterAll(async () => {
  await ctx.close();
  await ctx.database.close();
});

describe('the cost of an approval', () => {
  it(`pays with at most ${MAX_STATEMENTS_PER_APPROVAL} SQL statements per approval`, async () => {
    const s = await scene(ctx, chain);
    // A curve to read, so the holdings refresh after each payout stores what it read, as on a chain.
    const { curveAddress } = await ctx.app.services.projects.require(s.project.id);
    chain.setCurve(curveAddress as string, { a: 10n ** 12n, b: 1000n, supplyUnits: 10n ** 27n });
    // The first approval seeds the payout key's nonce counter; every later one is what counts.
    okJson(await approve(ctx.app, s.founder, (await inReview(ctx.app, s)).bounty.id));
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { bounty } = await inReview(ctx.app, s);
      chain.transfers.splice(0);
      statements.splice(0);
      const body = okJson(await approve(ctx.app, s.founder, bounty.id));
      // Background jobs are off in tests: every statement logged is this request's.
      if (process.env.PRINT_STATEMENTS) console.log(statements.join('\n---\n'));
      counts.push(statements.length);
      expectOnePayout(
        chain,
        s,
        s.dev.walletAddress as string,
        { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
        body,
      );
    }
    expect(Math.max(...counts), counts.join(', ')).toBeLessThanOrEqual(MAX_STATEMENTS_PER_APPROVAL);
  });

  it('sends its one router transaction before it waits for the receipt, then polls only that receipt', async () => {
    const s = await scene(ctx, chain);
    // A curve to read, so the holdings refresh after each payout stores what it read, as on a chain.
    const { curveAddress } = await ctx.app.services.projects.require(s.project.id);
    chain.setCurve(curveAddress as string, { a: 10n ** 12n, b: 1000n, supplyUnits: 10n ** 27n });
    const { bounty } = await inReview(ctx.app, s);
    const calls: string[] = [];
    const broadcastHashes: string[] = [];
    const minedHashes = new Set<string>();
    const signer = chain.wallets as { -readonly [K in keyof WalletActions]: WalletActions[K] };
    const { broadcast, receipt } = signer;
    signer.broadcast = async (raw) => {
      calls.push('broadcast');
      const before = new Set(chain.transfers.map((t) => t.hash));
      const answer = await broadcast(raw);
      broadcastHashes.push(...chain.transfers.filter((t) => !before.has(t.hash)).map((t) => t.hash));
      return answer;
    };
    signer.receipt = async (hash) => {
      calls.push('mined');
      minedHashes.add(hash);
      return receipt(hash);
    };
    chain.transfers.splice(0);
    // Receipts show only a while after mining, as on a chain with block times: the approval polls.
    chain.receiptDelayMs = 50;
    let body: { contributor_tx_hash: string; platform_fee_tx_hash: string; bounty_id: string };
    try {
      body = okJson(await approve(ctx.app, s.founder, bounty.id));
      expect(body).toMatchObject({ bounty_id: bounty.id, status: 'done' });
    } finally {
      signer.broadcast = broadcast;
      signer.receipt = receipt;
      chain.receiptDelayMs = 0;
    }
    // One transaction carries the reward and the fee: broadcast once, before any receipt is read.
    expect(calls.slice(0, 2)).toEqual(['broadcast', 'mined']);
    expect(calls.filter((c) => c === 'broadcast')).toHaveLength(1);
    // It polled (the receipt was late) without broadcasting again, and only ever asked for its hash.
    expect(calls.filter((c) => c === 'mined').length).toBeGreaterThan(1);
    expect([...new Set(broadcastHashes)]).toEqual([body.contributor_tx_hash]);
    expect([...minedHashes]).toEqual([body.contributor_tx_hash]);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      body,
    );
  });
});
