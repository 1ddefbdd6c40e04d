import { randomUUID } from 'node:crypto';
import { type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { call, listBounties } from './interleave-api.ts';
import type { Faults } from './rpc-proxy.ts';
import { signersOf } from './wallet-interleave-observe.ts';
import { runAct } from './wallet-interleave-ops.ts';
import type { WalletOp } from './wallet-interleave-schedule.ts';
import { applyFaults, type WalletWorld, walletKey } from './wallet-interleave-world.ts';

/**
 * The wallet model's faults, each with a wallet action in flight when it lands: the node's answers
 * lost or late on their way back to the instances (the proxy), broadcasts swallowed by the proxy or
 * dropped from the node's pool, a key of the service's used outside it at the nonce it waits on,
 * a reorg of blocks holding wallet and sponsor transactions, a SIGKILL of the instance running one.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A wallet action running while the fault lands; awaited later (a failure is never unhandled meanwhile). */
const inFlight = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => {});
  return p;
};
const SEND = 'eth_sendRawTransaction';
const RECEIPT = 'eth_getTransactionReceipt';

/** Sets a proxy fault for `ms` while `act` runs; the act's line with what met it. */
async function withFault(
  x: WalletWorld,
  faults: Faults,
  ms: number,
  act: () => Promise<string>,
): Promise<string> {
  const id = randomUUID();
  x.faults.set(id, faults);
  applyFaults(x);
  const running = inFlight(act());
  await sleep(ms);
  x.faults.delete(id);
  applyFaults(x);
  return running;
}

/** Waits up to `withinMs` for a pending transaction of one of `signers` in the node's pool. */
async function pendingOfAny(x: WalletWorld, signers: string[], withinMs: number) {
  const until = Date.now() + withinMs;
  for (;;) {
    for (const s of signers) {
      const pool = await x.h.chain.pendingOf(s);
      if (pool.length > 0) return { signer: s, pool };
    }
    if (Date.now() > until) return null;
    await sleep(100);
  }
}

/** Signs at the nonce the chain expects next with `key`, outside the service, outbidding what waits there. */
async function steal(x: WalletWorld, key: Hex, waitMs: number) {
  const account = privateKeyToAccount(key);
  const address = account.address.toLowerCase();
  x.outside.add(address);
  await pendingOfAny(x, [address], waitMs);
  const nonce = await x.h.chain.pub.getTransactionCount({ address: account.address, blockTag: 'latest' });
  const displaced = (await x.h.chain.pendingOf(address)).find((t) => t.nonce === nonce);
  const raw = await account.signTransaction({
    chainId: foundry.id,
    type: 'eip1559',
    to: account.address,
    value: 0n,
    nonce,
    gas: 21_000n,
    maxPriorityFeePerGas: parseGwei('60'),
    maxFeePerGas: parseGwei('120'),
  });
  const hash = await x.h.chain.pub.sendRawTransaction({ serializedTransaction: raw });
  x.stolen.push({ address, nonce, hash });
  return { address, nonce, hash, displaced: displaced?.hash ?? null };
}

/** Starts an approval of a bounty in review (if any) through the other instance, as the payout model's faults do. */
async function provokeApproval(x: WalletWorld, via: number, yes: boolean): Promise<() => Promise<string>> {
  if (!yes) return async () => '';
  const env = x.h.env();
  const inReview = (await listBounties(env, x.w, via)).filter((b) => b.status === 'in_review');
  const target = inReview[Math.floor(x.w.rnd() * inReview.length)];
  if (!target) return async () => ' (nothing in review to provoke)';
  const answer = call(x.h.cluster.url(via + 1), 'POST', `/api/bounties/${target.id}/approve`, {
    key: x.w.founder.key,
    body: {},
  });
  return async () => ` (provoked approve of ${target.id}: ${(await answer).text})`;
}

export async function runWalletOp(x: WalletWorld, op: WalletOp, via: number): Promise<string> {
  const { chain, cluster, sql } = x.h;
  switch (op.t) {
    case 'wbuy':
    case 'wsell':
    case 'wwithdraw':
    case 'wallowance':
      return runAct(x, op, via);
    case 'lose': {
      const methods = op.methods === 'send' ? [SEND] : op.methods === 'receipt' ? [RECEIPT] : [SEND, RECEIPT];
      const fail = { methods, mode: 'reset' as const, afterForwarding: true };
      return `answers to ${methods.join('+')} lost for ${op.ms} ms: ${await withFault(x, { fail }, op.ms, () => runAct(x, op.act, via))}`;
    }
    case 'slow': {
      const slow = { methods: [SEND, RECEIPT], ms: op.lateMs };
      return `answers to ${SEND}+${RECEIPT} ${op.lateMs} ms late for ${op.ms} ms: ${await withFault(x, { slow }, op.ms, () => runAct(x, op.act, via))}`;
    }
    case 'swallow':
      return `broadcasts swallowed for ${op.ms} ms: ${await withFault(x, { dropSends: true }, op.ms, () => runAct(x, op.act, via))}`;
    case 'wdrop': {
      const running = inFlight(runAct(x, op.act, via));
      const found = await pendingOfAny(
        x,
        signersOf(x).filter((s) => s !== x.w.founder.wallet.toLowerCase()),
        3_000,
      );
      let dropped = 'nothing pending to drop';
      if (found) {
        const victim = found.pool[Math.floor(op.pick * found.pool.length)] ?? found.pool[0];
        if (victim) {
          await chain.rpc('anvil_dropTransaction', [victim.hash]);
          dropped = `dropped pending ${found.signer === x.sponsor.toLowerCase() ? 'sponsor' : 'wallet'} tx ${victim.hash} (nonce ${victim.nonce})`;
        }
      }
      return `${dropped}; ${await running}`;
    }
    case 'wsteal': {
      const running = inFlight(runAct(x, op.act, via));
      const key =
        op.who === 'sponsor'
          ? x.sponsorKey
          : await walletKey(
              x,
              op.who === 'founder' ? x.w.founder.wallet : (x.agents[op.agent]?.wallet as string),
            );
      const s = await steal(x, key, op.waitMs);
      const who =
        op.who === 'sponsor'
          ? 'sponsor'
          : op.who === 'founder'
            ? 'founder wallet'
            : `agent ${op.agent}'s wallet`;
      return `${who} key used outside at nonce ${s.nonce}: ${s.hash}${s.displaced ? ` (displaced ${s.displaced})` : ''}; ${await running}`;
    }
    case 'wreorg': {
      const id = await chain.snapshot();
      const from = await chain.pub.getBlockNumber();
      const provoked = await provokeApproval(x, via, op.provoke);
      const running = inFlight(runAct(x, op.act, via));
      await sleep(op.holdMs);
      const to = await chain.pub.getBlockNumber();
      const payout = await chain.sentBetween(chain.payoutAddress, from, to);
      const wallets: string[] = [];
      for (const s of signersOf(x)) {
        for (const u of await chain.sentBetween(s, from, to))
          wallets.push(
            `${u.hash} (${s === x.sponsor.toLowerCase() ? 'sponsor' : s.slice(0, 10)}, ${to - u.block + 1n} deep)`,
          );
      }
      const ok = await chain.revert(id);
      return (
        `reorg: blocks ${from + 1n}..${to} reverted (${ok}); payout-key txs undone: ${payout.map((u) => u.hash).join(', ') || 'none'}; ` +
        `wallet txs undone: ${wallets.join(', ') || 'none'}; ${await running}${await provoked()}`
      );
    }
    case 'wkill': {
      const i = op.instance;
      const provoked =
        op.approveFirst && cluster.instances[i]?.alive ? await provokeApproval(x, i + 1, true) : null;
      const running = inFlight(runAct(x, op.act, i, true));
      const deadline = Date.now() + op.waitMs;
      let legs = 0;
      let attempts = 0;
      while (Date.now() < deadline) {
        const [l] = await sql<
          { n: number }[]
        >`select count(*)::int as n from wallet_intents where payout_id is not null and status = 'pending'`;
        const [a] = await sql<
          { n: number }[]
        >`select count(*)::int as n from wallet_txs where status in ('signed', 'sent')`;
        legs = l?.n ?? 0;
        attempts = a?.n ?? 0;
        if (legs > 0 || attempts > 0) break;
        await sleep(50);
      }
      const gen = cluster.instances[i]?.generation;
      await cluster.kill(i);
      const started = Date.now();
      await cluster.start(i);
      return (
        `SIGKILL instance ${i} (start #${gen}) with ${legs} leg(s), wallet attempts in flight: ${attempts}; ` +
        `restarted in ${Date.now() - started} ms; ${await running}${provoked ? await provoked() : ''}`
      );
    }
  }
}
