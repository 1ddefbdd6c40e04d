/**
 * npm run audit:money [-- --rpc-url <url>] [-- --from-block <n>]   (`audit:payouts` is an alias)
 *
 * One audit for all money, everything on chain read at one final block (head minus
 * PAYOUT_CONFIRMATIONS). Compares every payout in the database with the chain, and checks the
 * payment rules on what the payout key moved out of founder wallets (a fee never without its
 * contributor transfer, one contributor transfer per submission, nothing to anyone but the
 * submitter and the treasury) and on founder-merged submissions (paid, or flagged owed). Then the
 * money rules (src/modules/audit/money-audit.ts): no wallet request executed twice, every sponsor
 * nonce held by a recorded transaction of a request or a nonce filler, sponsored sales refunding
 * their gas and no sponsor transaction reverted, the sponsored-withdraw quota, and no reward owed
 * over a minute while the founder's funds cover it. Prints each rule's verdict and each
 * difference; exits 1 on any difference, 2 when it cannot read one side.
 *
 * Database: DATABASE_URL when set (the audit can run beside the service); otherwise the embedded
 * PGlite in DATA_DIR, which is one process's: stop `npm start` first (the audit takes the same
 * directory lock, so the service cannot start meanwhile). Nothing is written; no migration runs.
 *
 * Chain: CHAIN_RPC_URL (with the rest of the chain variables, as for the service) when set.
 * Otherwise the embedded dev chain: with `--rpc-url` the audit reads a running anvil (the
 * `chain.rpc_url` of `/api/config/public` while `npm start` runs on DATABASE_URL); without it,
 * it starts a private anvil on a copy of DATA_DIR/chain/anvil-state.json, which the stopped
 * service wrote on shutdown, so the data directory is never touched.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { createPublicClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilAccount, startAnvil } from '../src/infra/chain/anvil.ts';
import { DEV_CHAIN_ID } from '../src/infra/chain/dev-chain.ts';
import { readFactoryRouter } from '../src/infra/chain/payout-router.ts';
import { type Config, ConfigError, loadConfig } from '../src/infra/config.ts';
import type { Db } from '../src/infra/db/client.ts';
import { acquireDirLock, DirLockedError } from '../src/infra/db/dir-lock.ts';
import * as schema from '../src/infra/db/schema.ts';
import { formatMoneyAudit } from '../src/modules/audit/money-audit.ts';
import { evmMoneyReader } from './lib/money-audit-chain.ts';
import { runMoneyAudit } from './lib/money-audit-sources.ts';
import { auditClient } from './lib/payout-audit-sources.ts';

class Refusal extends Error {}

interface Opened {
  db: Db;
  describe: string;
  close(): Promise<void>;
}

async function openLedger(config: Config): Promise<Opened> {
  if (config.databaseUrl) {
    const client = postgres(config.databaseUrl, { max: 2, onnotice: () => {} });
    return {
      db: drizzlePostgres({ client, schema }) as unknown as Db,
      describe: 'PostgreSQL (DATABASE_URL)',
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dir = join(config.dataDir, 'pglite');
  if (!existsSync(dir)) throw new Refusal(`There is no embedded database in ${config.dataDir} (DATA_DIR).`);
  let lock: { release(): void };
  try {
    lock = acquireDirLock(join(config.dataDir, 'pglite.lock'));
  } catch (err) {
    if (!(err instanceof DirLockedError)) throw err;
    throw new Refusal(
      `The service (pid ${err.pid}) holds the embedded database in ${config.dataDir}; PGlite is one ` +
        "process's database. Stop `npm start` (Ctrl-C) and run the audit again, or run the service " +
        'on PostgreSQL (DATABASE_URL), where the audit runs beside it.',
    );
  }
  const client = new PGlite(dir);
  await client.waitReady;
  return {
    db: drizzlePglite({ client, schema }) as unknown as Db,
    describe: `embedded PGlite in ${config.dataDir}`,
    async close() {
      await client.close();
      lock.release();
    },
  };
}

interface ChainView {
  rpcUrl: string;
  payoutSigner: string;
  /** The sponsor key's address, null when none is configured. */
  sponsor: string | null;
  /** The factory whose payout router founders allow, when known. */
  factoryAddress: string | null;
  describe: string;
  close(): Promise<void>;
}

const addressOf = (key: string) =>
  privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`).address;

/** The dev chain's factory as the service recorded it in DATA_DIR/chain/dev-chain.json. */
function devFactory(config: Config): string | null {
  const record = join(config.dataDir, 'chain', 'dev-chain.json');
  if (!existsSync(record)) return null;
  return (JSON.parse(readFileSync(record, 'utf8')) as { factoryAddress: string }).factoryAddress;
}

async function openChain(config: Config, rpcOverride: string | undefined): Promise<ChainView> {
  if (config.chain.rpcUrl) {
    return {
      rpcUrl: config.chain.rpcUrl,
      payoutSigner: addressOf(config.chain.payoutKey as string),
      sponsor: config.chain.sponsorKey ? addressOf(config.chain.sponsorKey) : null,
      factoryAddress: config.chain.factoryAddress ?? null,
      describe: `CHAIN_RPC_URL (chain ${config.chain.chainId})`,
      close: async () => {},
    };
  }
  // The embedded dev chain: anvil's account 1 is the payout wallet, account 10 the sponsor.
  const payoutSigner = anvilAccount(1).address;
  const sponsor = anvilAccount(10).address;
  const factoryAddress = devFactory(config);
  if (rpcOverride) {
    return {
      rpcUrl: rpcOverride,
      payoutSigner,
      sponsor,
      factoryAddress,
      describe: `dev chain at ${rpcOverride}`,
      close: async () => {},
    };
  }
  const chainDir = join(config.dataDir, 'chain');
  const state = join(chainDir, 'anvil-state.json');
  if (!existsSync(state)) throw new Refusal(`There is no dev chain state in ${chainDir}.`);
  const scratch = mkdtempSync(join(tmpdir(), 'bm-audit-chain-'));
  copyFileSync(state, join(scratch, 'anvil-state.json'));
  const anvil = await startAnvil({
    statePath: join(scratch, 'anvil-state.json'),
    stateIntervalSeconds: 3600,
    chainId: DEV_CHAIN_ID,
  });
  const close = async () => {
    await anvil.stop();
    rmSync(scratch, { recursive: true, force: true });
  };
  // The state loaded only if the dev factory is there.
  if (factoryAddress) {
    const code = await createPublicClient({ transport: http(anvil.rpcUrl) }).getCode({
      address: getAddress(factoryAddress),
    });
    if (!code || code === '0x') {
      await close();
      throw new Refusal(`The dev chain state in ${chainDir} did not load (no factory at ${factoryAddress}).`);
    }
  }
  return {
    rpcUrl: anvil.rpcUrl,
    payoutSigner,
    sponsor,
    factoryAddress,
    describe: `a private anvil on a copy of ${state} (saved when the service stopped)`,
    close,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'rpc-url': { type: 'string' }, 'from-block': { type: 'string' } },
  });
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new Refusal(err.message);
    throw err;
  }
  const ledger = await openLedger(config);
  try {
    const chain = await openChain(config, values['rpc-url']);
    try {
      const pub = auditClient(chain.rpcUrl);
      const router = chain.factoryAddress ? await readFactoryRouter(pub, chain.factoryAddress) : null;
      console.log(
        [
          `Ledger: ${ledger.describe}`,
          `Chain:  ${chain.describe}`,
          `Payout wallet: ${chain.payoutSigner}`,
          `Sponsor: ${chain.sponsor ?? 'none configured'}`,
          `Payout router: ${router?.routerAddress ?? 'unknown (owed rewards are not checked against funds)'}`,
          '',
        ].join('\n'),
      );
      const reader = evmMoneyReader(pub, {
        ...(values['from-block'] ? { fromBlock: BigInt(values['from-block']) } : {}),
      });
      const report = await runMoneyAudit(ledger.db, reader, {
        payoutSigner: chain.payoutSigner,
        sponsor: chain.sponsor,
        routerAddress: router?.routerAddress ?? null,
        confirmations: config.payouts.confirmations,
        withdrawalsPerDay: config.sponsor.withdrawalsPerDay,
      });
      console.log(formatMoneyAudit(report));
      return report.differences.length === 0 ? 0 : 1;
    } finally {
      await chain.close();
    }
  } finally {
    await ledger.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Refusal ? err.message : err);
    process.exit(2);
  },
);
