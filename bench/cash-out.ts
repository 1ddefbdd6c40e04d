/**
 * Cashing out, measured in one run on the embedded dev chain (anvil) and real PostgreSQL:
 *  - gas: a plain sale by a wallet that pays its own gas against a sponsored sale (`sellFor`) of
 *    the same size by a wallet holding no ETH, and a plain token transfer against a sponsored one
 *    (`transferWithAuthorization`), from their receipts; and what the sale paid the sponsor back
 *    against what its gas cost;
 *  - throughput: `GET /api/agents/me/wallet` (ETH balance, tokens with their value, earnings) next
 *    to `GET /api/agents/me` for the same agent and key;
 *  - sales per second at C=10 (ten wallets selling at once, each request with its Idempotency-Key,
 *    through the transaction engine): wallets paying their own gas (ten signers) against wallets
 *    without ETH (every sale through the one sponsor key and its nonce lock).
 *
 *   npx tsx bench/cash-out.ts [--duration 10] [--connections 20] [--db bm_bench_cash_out] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { createWalletClient, encodeFunctionData, getAddress, type Hex, http, parseEventLogs } from 'viem';
import { foundry } from 'viem/chains';
import { buildApp } from '../src/app.ts';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { startDevChain } from '../src/infra/chain/dev-chain.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import { WalletVault } from '../src/infra/chain/wallet-vault.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openDatabase } from '../src/infra/db/client.ts';
import { projects } from '../src/infra/db/schema.ts';
import { systemClock } from '../src/lib/clock.ts';
import { databaseUrl, dropDatabase, recreateDatabase } from './lib/seed.ts';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    db: { type: 'string', default: 'bm_bench_cash_out' },
    keep: { type: 'boolean', default: false },
  },
});
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = databaseUrl(adminUrl, opts.db);
const ETH = 10n ** 18n;
const log = (m: string) => console.log(m);
/** Sellers at once, and what each sale sells: enough to pay a sponsored sale's gas at dev prices. */
const SELLERS = 10;
const SALE = 100n * 10n ** 18n;

/** The fields of the answers this bench reads. */
interface Answer {
  agent: { api_key: string; wallet_address: string };
  project: { id: string };
  tx_hash: Hex;
  sponsored: boolean;
}

function rps(target: string, key: string): Promise<{ rps: number; p99: number; failed: number }> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: target, connections, duration, headers: { authorization: `Bearer ${key}` }, timeout: 30 },
      (err, r) => {
        if (err) return reject(err);
        resolve({ rps: r['2xx'] / r.duration, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx });
      },
    );
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bm-cash-out-'));
  const dev = await startDevChain(dir, pino({ level: 'silent' }), { persist: false });
  const chain = new EvmChain(dev.options);
  await recreateDatabase(adminUrl, opts.db);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 10 });
  const config = loadConfig({
    DATABASE_URL: url,
    RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({
    database,
    chain,
    clock: systemClock,
    config,
    vault: new WalletVault('11'.repeat(32)),
  });
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const call = async (method: string, path: string, key?: string, body?: unknown) => {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.json()) as Answer;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const register = async (name: string) =>
      (await call('POST', '/api/agents/register', undefined, { name })).agent;
    // A project deployed on the chain, its tokens bought by an outside account and handed to agents.
    const founder = await register('bench-founder');
    const p = (await call('POST', '/api/projects', founder.api_key, { name: 'Bench', token_symbol: 'BNCH' }))
      .project;
    const deployed = await chain.deployProject(p.id, 'Bench', 'BNCH');
    await database.db
      .update(projects)
      .set({
        status: 'active',
        tokenAddress: deployed.tokenAddress,
        curveAddress: deployed.curveAddress,
        repoUrl: 'http://127.0.0.1:9/x',
      })
      .where(eq(projects.id, p.id));
    const buyer = createWalletClient({
      account: anvilAccount(5),
      chain: foundry,
      transport: http(dev.options.rpcUrl),
    });
    const pub = (chain as unknown as { client: import('viem').PublicClient }).client;
    const wait = (hash: Hex) => pub.waitForTransactionReceipt({ hash });
    await wait(
      await buyer.writeContract({
        address: getAddress(deployed.curveAddress),
        abi: bondingCurveAbi,
        functionName: 'buy',
        args: [0n],
        value: 10n * ETH,
      }),
    );
    const give = async (to: string, units: bigint) =>
      wait(
        await buyer.sendTransaction({
          to: getAddress(deployed.tokenAddress),
          data: encodeFunctionData({
            abi: projectTokenAbi,
            functionName: 'transfer',
            args: [getAddress(to), units],
          }),
        }),
      );
    const payer = await register('bench-pays-gas');
    const broke = await register('bench-no-eth');
    // The seller is paid ETH by its sale: a withdraw without ETH needs a wallet of its own.
    const broke2 = await register('bench-no-eth-2');
    const amount = 1000n * ETH;
    for (const a of [payer, broke, broke2]) await give(a.wallet_address, 3n * amount);
    await call('POST', '/api/dev/faucet', payer.api_key, { eth_units: ETH.toString() });

    const sell = (a: { api_key: string }) =>
      call('POST', `/api/projects/${p.id}/sell`, a.api_key, { tokens_units: amount.toString() });
    const plain = await sell(payer);
    const sponsored = await sell(broke);
    if (plain.sponsored || !sponsored.sponsored) throw new Error('expected one plain and one sponsored sale');
    const gasOf = async (hash: Hex) => {
      const r = await pub.getTransactionReceipt({ hash });
      return { gas: r.gasUsed, paid: r.gasUsed * r.effectiveGasPrice, logs: r.logs };
    };
    const [ps, ss] = [await gasOf(plain.tx_hash), await gasOf(sponsored.tx_hash)];
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: ss.logs, eventName: 'GasRefunded' });
    // Each to an address that never held the token, so both pay for a new balance slot.
    const withdraw = async (a: { api_key: string }, to: string, sponsoredExpected: boolean) => {
      const r = await call('POST', '/api/agents/me/wallet/withdraw', a.api_key, {
        to,
        amount_units: ETH.toString(),
        project_id: p.id,
      });
      if (r.sponsored !== sponsoredExpected) throw new Error('a withdraw was (not) sponsored unexpectedly');
      return r;
    };
    const [pw, sw] = [
      await gasOf((await withdraw(payer, anvilAccount(6).address, false)).tx_hash),
      await gasOf((await withdraw(broke2, anvilAccount(7).address, true)).tx_hash),
    ];
    log(
      // The sponsored seller never held ETH: 25,000 of its gas pays for the first ETH it receives.
      `gas: plain sale ${ps.gas}, sponsored sale ${ss.gas} (${(Number(ss.gas) / Number(ps.gas)).toFixed(2)}x, the seller's first ETH included)`,
    );
    log(
      `gas: plain token transfer ${pw.gas}, sponsored ${sw.gas} (${(Number(sw.gas) / Number(pw.gas)).toFixed(2)}x)`,
    );
    log(
      `sponsored sale: sponsor paid ${ss.paid} wei, the sale paid back ${refund?.args.gasFee} wei (${((Number(refund?.args.gasFee) / Number(ss.paid) - 1) * 100).toFixed(3)}%)`,
    );

    // Throughput: the same key, the wallet (ETH balance from the node, tokens and earnings from the
    // database) against the plain profile.
    await rps(`${base}/api/agents/me/wallet`, broke.api_key);
    const wallet = await rps(`${base}/api/agents/me/wallet`, broke.api_key);
    const me = await rps(`${base}/api/agents/me`, broke.api_key);
    log(
      `GET /api/agents/me/wallet ${wallet.rps.toFixed(0)} req/s (p99 ${wallet.p99} ms, ${wallet.failed} failed)`,
    );
    log(`GET /api/agents/me        ${me.rps.toFixed(0)} req/s (p99 ${me.p99} ms, ${me.failed} failed)`);
    const ratio = wallet.rps / me.rps;
    // Issue 29's goal: the wallet at >= 0.8 of /me.
    log(`wallet/me ratio: ${ratio.toFixed(2)} (goal >= 0.8: ${ratio >= 0.8 ? 'PASS' : 'MISS'})`);

    // Sales per second at C=10: ten sellers at once for `duration` seconds, each sale small.
    const sellers = async (prefix: string, withEth: boolean) => {
      const out = [];
      for (let i = 0; i < SELLERS; i++) {
        const a = await register(`${prefix}-${i}`);
        await give(a.wallet_address, 200n * SALE);
        if (withEth) await call('POST', '/api/dev/faucet', a.api_key, { eth_units: ETH.toString() });
        out.push(a);
      }
      return out;
    };
    const salesPerSecond = async (group: { api_key: string }[]) => {
      const until = Date.now() + duration * 1000;
      let done = 0;
      let pending = 0;
      await Promise.all(
        group.map(async (a) => {
          while (Date.now() < until) {
            const res = await fetch(`${base}/api/projects/${p.id}/sell`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${a.api_key}`,
                'content-type': 'application/json',
                'idempotency-key': crypto.randomUUID(),
              },
              body: JSON.stringify({ tokens_units: SALE.toString() }),
            });
            if (res.status === 200) done++;
            else if (res.status === 202) pending++;
            else throw new Error(`sell: ${res.status} ${await res.text()}`);
          }
        }),
      );
      return { rate: done / duration, pending };
    };
    const own = await salesPerSecond(await sellers('bench-own-gas', true));
    const spons = await salesPerSecond(await sellers('bench-sponsored', false));
    log(`sales at C=${SELLERS}, own gas:  ${own.rate.toFixed(1)} sales/s (${own.pending} answered 202)`);
    log(`sales at C=${SELLERS}, sponsored: ${spons.rate.toFixed(1)} sales/s (${spons.pending} answered 202)`);
    log(`sponsored/own ratio: ${(spons.rate / own.rate).toFixed(2)}`);
  } finally {
    await app.close();
    await database.close();
    await dev.stop();
    rmSync(dir, { recursive: true, force: true });
    if (!opts.keep) await dropDatabase(adminUrl, opts.db);
  }
}

// Exits once done: pools and timers of the app's clients would otherwise keep the process alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
