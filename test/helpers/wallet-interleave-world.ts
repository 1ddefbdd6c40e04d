import { randomBytes } from 'node:crypto';
import { createWalletClient, encodeFunctionData, getAddress, type Hex, http, parseEther, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { WalletVault } from '../../src/infra/chain/wallet-vault.ts';
import { call, must } from './interleave-api.ts';
import type { Harness } from './interleave-harness.ts';
import type { World } from './interleave-world.ts';
import type { Faults } from './rpc-proxy.ts';
import type { WalletRequest } from './wallet-interleave-checker.ts';
import { OWN, WALLET_AGENTS } from './wallet-interleave-schedule.ts';

/**
 * The wallet model's world beside a payout world: in-app agents (registered without an address),
 * the first OWN of them with ETH for their own gas, the others with none (the sponsor pays), each
 * holding the project's tokens (bought on the curve by a bank address of the test's and handed
 * out); the requests the schedule made; the signers the test used outside the service.
 */

export interface WalletAgent {
  index: number;
  id: string;
  key: string;
  wallet: string;
  /** Holds ETH for its own gas. */
  own: boolean;
}

export interface WalletWorld {
  h: Harness;
  w: World;
  agents: WalletAgent[];
  sponsor: string;
  sponsorKey: Hex;
  quota: number;
  /** Token units each agent was given. */
  holding: bigint;
  /** The first block of this world: the checker reads the chain from here. */
  fromBlock: bigint;
  requests: WalletRequest[];
  /** Signers (lower case) whose nonces the test used outside the service. */
  outside: Set<string>;
  /** The transactions the test signed outside the service with the service's keys. */
  stolen: { address: string; nonce: number; hash: string }[];
  /** The proxy's faults, by the operation that set them (several may overlap). */
  faults: Map<string, Faults>;
  /** A tag (wei) that makes each request's amount its own on chain. */
  nextTag(): bigint;
  /** Whole tokens not yet used by an API allowance of this level (amounts are each request's own). */
  allowanceTokens: { none: number[]; one: number[]; all: number[] };
}

const ETH = 10n ** 18n;
/** What the bank pays into the curve; its tokens go to the agents in equal parts. */
const BANK_BUY = parseEther('0.4');
const OWN_ETH = 5n * ETH;

/** Sets the proxy to the union of every operation's faults. */
export function applyFaults(x: WalletWorld): void {
  const merged: Faults = {};
  for (const f of x.faults.values()) {
    if (f.fail) merged.fail = f.fail;
    if (f.slow) merged.slow = f.slow;
    if (f.dropSends) merged.dropSends = true;
  }
  x.h.proxy?.set(merged);
}

async function awaitMined(h: Harness, hash: Hex): Promise<void> {
  const r = await h.chain.pub.waitForTransactionReceipt({ hash, timeout: 15_000, pollingInterval: 200 });
  if (r.status !== 'success') throw new Error(`${hash} reverted`);
}

/** A transaction from an address the node signs for (anvil_impersonateAccount), awaited unless `sendOnly`. */
async function asAccount(
  h: Harness,
  from: string,
  to: string,
  data: Hex,
  value = 0n,
  sendOnly = false,
): Promise<Hex> {
  const account = getAddress(from);
  await h.chain.rpc('anvil_impersonateAccount', [account]);
  const wallet = createWalletClient({ chain: foundry, transport: http(h.chain.rpcUrl) });
  const hash = await wallet.sendTransaction({ account, to: getAddress(to), data, value, chain: foundry });
  if (!sendOnly) await awaitMined(h, hash);
  return hash;
}

async function registerInApp(
  h: Harness,
  via: number,
  name: string,
): Promise<{ id: string; key: string; wallet: string }> {
  const base = h.cluster.url(via);
  const reg = await must(
    call(base, 'POST', '/api/agents/register', { body: { name } }),
    201,
    `register ${name}`,
  );
  const key = reg.body.agent.api_key as string;
  let wallet = reg.body.agent.wallet_address as string | null;
  if (!wallet) {
    const made = await must(
      call(base, 'POST', '/api/agents/me/generate-wallet', { key }),
      200,
      'generate a wallet',
    );
    wallet = made.body.agent.wallet_address as string;
  }
  return { id: reg.body.agent.id as string, key, wallet: getAddress(wallet) };
}

export async function makeWalletWorld(h: Harness, w: World, quota: number): Promise<WalletWorld> {
  const sponsorKey = h.chain.tc.options.sponsorKey as Hex | undefined;
  if (!sponsorKey) throw new Error('the test chain has no sponsor key');
  const sponsor = privateKeyToAccount(sponsorKey).address;
  await h.chain.ensureEth(sponsor, 1000n);
  const fromBlock = await h.chain.pub.getBlockNumber();
  const agents: WalletAgent[] = [];
  for (let i = 0; i < WALLET_AGENTS; i++) {
    const a = await registerInApp(h, i, `wlt-${w.founder.login.slice(12)}-${i}`);
    agents.push({ index: i, ...a, own: i < OWN });
    if (i < OWN) await h.chain.test.setBalance({ address: getAddress(a.wallet), value: OWN_ETH });
  }
  // The bank buys on the curve and hands the tokens out.
  const bank = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await h.chain.ensureEth(bank, 10n);
  await asAccount(
    h,
    bank,
    w.project.curve,
    encodeFunctionData({ abi: bondingCurveAbi, functionName: 'buy', args: [0n] }),
    BANK_BUY,
  );
  const bought = await h.chain.balanceOf(w.project.token, bank);
  const holding = bought / BigInt(WALLET_AGENTS);
  // One after the other into the pool (the node numbers them), then all mined together.
  const sends: Promise<Hex>[] = [];
  for (const a of agents) {
    const data = encodeFunctionData({
      abi: projectTokenAbi,
      functionName: 'transfer',
      args: [getAddress(a.wallet), holding],
    });
    const sent = asAccount(h, bank, w.project.token, data, 0n, true);
    sends.push(sent);
    await sent.catch(() => {});
  }
  await Promise.all(sends.map(async (s) => awaitMined(h, await s)));
  w.notes.push(
    `wallet agents: ${agents.map((a) => `${a.index}=${a.id}@${a.wallet}${a.own ? ' (own ETH)' : ' (sponsored)'}`).join(', ')}; ` +
      `each holds ${holding} token units; sponsor ${sponsor}; bank ${bank}`,
  );
  let tag = 0n;
  return {
    h,
    w,
    agents,
    sponsor,
    sponsorKey,
    quota,
    holding,
    fromBlock,
    requests: [],
    outside: new Set([w.founder.wallet.toLowerCase()]),
    stolen: [],
    faults: new Map(),
    nextTag: () => ++tag,
    // Each its own: the founder's moves on chain use 5, 36 and 10^12 tokens; under 41 covers one reward.
    allowanceTokens: {
      none: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      one: [37, 38, 39, 40],
      all: Array.from({ length: 40 }, (_, i) => 1_000_001 + i),
    },
  };
}

/** The in-app key of a wallet, unsealed as the service does: the test signs with it outside. */
export async function walletKey(x: WalletWorld, address: string): Promise<Hex> {
  const [row] = await x.h.sql<{ address: string; encrypted_key: string; wrapped_data_key: string }[]>`
    select address, encrypted_key, wrapped_data_key from wallet_keys where lower(address) = ${address.toLowerCase()}`;
  if (!row) throw new Error(`no in-app key for ${address}`);
  return new WalletVault(x.h.masterKey).unseal({
    address: row.address,
    encryptedKey: row.encrypted_key,
    wrappedDataKey: row.wrapped_data_key,
  });
}

/**
 * The agents without ETH lose what their sales paid them (spent elsewhere), so they stay sponsored;
 * only while none of their own transactions may still mine. Between rounds: nothing runs.
 */
export async function sweepSponsored(x: WalletWorld): Promise<string[]> {
  const swept: string[] = [];
  for (const a of x.agents.filter((y) => !y.own)) {
    const address = getAddress(a.wallet);
    const eth = await x.h.chain.pub.getBalance({ address });
    if (eth === 0n) continue;
    const [open] = await x.h.sql<{ n: number }[]>`
      select count(*)::int as n from wallet_txs where signer = ${a.wallet.toLowerCase()} and status in ('signed', 'sent')`;
    const [pending] = await x.h.sql<{ n: number }[]>`
      select count(*)::int as n from wallet_intents where signer = ${a.wallet.toLowerCase()} and status = 'pending'`;
    if ((open?.n ?? 0) > 0 || (pending?.n ?? 0) > 0 || (await x.h.chain.pendingOf(address)).length > 0)
      continue;
    await x.h.chain.rpc('anvil_setBalance', [address, toHex(0n)]);
    swept.push(`${a.index}`);
  }
  return swept;
}
