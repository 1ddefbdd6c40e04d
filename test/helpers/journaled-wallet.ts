import { randomBytes } from 'node:crypto';
import { encodeAbiParameters, encodeEventTopics, getAddress, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type TxJournal, TxPending, type TxReceipt } from '../../src/infra/chain/chain.ts';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { TestContext } from './app.ts';
import type { FakeChain } from './fake-chain.ts';

/** What the next wallet action's transaction does: mine within the request's wait, or not. */
export type Outcome = 'mine' | 'pending';

export interface SentTx {
  hash: string;
  /** The request's transaction id (wtx_…). */
  intentId: string;
  signer: string;
  logs: unknown[];
}

const uint = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v]);
const log = (address: string, topics: Hex[], data: Hex) => ({ address, topics, data });

/**
 * The FakeChain's in-app wallet actions done the way the real adapter does them with the
 * transaction engine: each records its transaction through the request's journal (the nonce, the
 * signed bytes and the request, keyed by its Idempotency-Key) before it is "sent", then either
 * mines within the request's wait (`outcome` 'mine': a 200) or does not (`'pending'`: the adapter
 * throws `TxPending`, the route answers 202). A pending one settles later, as the engine would on
 * reading its receipt: `confirm` (mined, with the logs the real contracts emit, so the settled
 * `result` carries the amounts) or `revert`. Token and ETH balances are the FakeChain's ledger
 * (`setFundsUnits`); ETH is never short.
 */
export function journaledWallet(ctx: TestContext, chain: FakeChain) {
  const state = { outcome: 'mine' as Outcome };
  const sent: SentTx[] = [];
  const nonces = new Map<string, number>();

  async function send(key: string, journal: TxJournal | undefined, to: string, logs: unknown[]) {
    if (!journal) throw new Error('a wallet action without a journal');
    const signer = privateKeyToAccount(key as Hex).address.toLowerCase();
    const signed = await journal.record(
      signer,
      async () => nonces.get(signer) ?? 0,
      async (nonce) => {
        nonces.set(signer, nonce + 1);
        const raw = `0x${randomBytes(48).toString('hex')}`;
        return { raw, hash: keccak256(raw as Hex) };
      },
      { to, data: '0x', valueUnits: 0n, gas: 100_000n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n },
    );
    await journal.sent(signed.hash);
    const tx = { hash: signed.hash, intentId: journal.intentId as string, signer, logs };
    sent.push(tx);
    if (state.outcome === 'pending') throw new TxPending(tx.intentId, tx.hash);
    await journal.mined(signed.hash, receipt('success', logs));
    return signed.hash;
  }

  const receipt = (status: TxReceipt['status'], logs: unknown[]): TxReceipt => ({
    status,
    blockNumber: 1n,
    gasPaidUnits: 21_000n * 10n ** 9n,
    logs: status === 'success' ? logs : [],
  });
  const ownerOf = (key: string) => privateKeyToAccount(key as Hex).address;
  const move = async (token: string, from: string, to: string | null, units: bigint) => {
    const f = await chain.readFunds(token, from);
    if (f.balanceUnits < units) throw new Error('the fake transfer outran the balance check');
    chain.setFundsUnits(token, from, f.balanceUnits - units, f.allowanceUnits);
    if (to) {
      const t = await chain.readFunds(token, to);
      chain.setFundsUnits(token, to, t.balanceUnits + units, t.allowanceUnits);
    }
  };

  Object.assign(chain.wallets, {
    ethBalance: async () => 10n ** 18n,
    tokenBalance: async (token: string, owner: string) => (await chain.readFunds(token, owner)).balanceUnits,
    buy: async (key: string, curve: string, ethUnits: bigint, _min: bigint, journal?: TxJournal) => {
      const tokensUnits = ethUnits * 1000n;
      const topics = encodeEventTopics({
        abi: bondingCurveAbi,
        eventName: 'Bought',
        args: { buyer: ownerOf(key) },
      }) as Hex[];
      const data = encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
        [ethUnits, 0n, tokensUnits, 0n],
      );
      const txHash = await send(key, journal, curve, [log(curve, topics, data)]);
      return { txHash, tokensUnits };
    },
    sell: async (key: string, curve: string, tokensUnits: bigint, _min: bigint, journal?: TxJournal) => {
      const ethUnits = tokensUnits / 1000n;
      const topics = encodeEventTopics({
        abi: bondingCurveAbi,
        eventName: 'Sold',
        args: { seller: ownerOf(key) },
      }) as Hex[];
      const data = encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
        [tokensUnits, ethUnits, 0n, 0n],
      );
      const txHash = await send(key, journal, curve, [log(curve, topics, data)]);
      return { txHash, ethUnits };
    },
    approvePayouts: async (key: string, token: string, amountUnits: bigint, journal?: TxJournal) => {
      const topics = encodeEventTopics({
        abi: projectTokenAbi,
        eventName: 'Approval',
        args: { owner: ownerOf(key), spender: getAddress(`0x${'0'.repeat(39)}1`) },
      }) as Hex[];
      const txHash = await send(key, journal, token, [log(token, topics, uint(amountUnits))]);
      return { txHash, allowanceUnits: amountUnits };
    },
    sendToken: async (key: string, token: string, to: string, units: bigint, journal?: TxJournal) => {
      const txHash = await send(key, journal, token, []);
      await move(token, ownerOf(key), to, units);
      return { txHash };
    },
    sendEth: async (key: string, to: string, _units: bigint, journal?: TxJournal) => ({
      txHash: await send(key, journal, to, []),
    }),
  });

  // The service reads a pending request's transaction to answer its 202 (`TransactionJournal.find`):
  // a test that settles it only after that read knows the answer was a 202, whatever the timing.
  const journal = ctx.app.services.txJournal;
  const read = journal.find.bind(journal);
  const readers: ((id: string) => void)[] = [];
  journal.find = async (id: string) => {
    const row = await read(id);
    for (const tell of readers.splice(0)) tell(id);
    return row;
  };

  const find = (hashOrId: string) => {
    const tx = sent.find((t) => t.hash === hashOrId || t.intentId === hashOrId);
    if (!tx) throw new Error(`no transaction ${hashOrId} was sent`);
    return tx;
  };
  return {
    state,
    sent,
    /**
     * Resolves with the id of the next transaction the service reads (call it before the request):
     * for a pending action, the read its 202 answer is made of.
     */
    nextRead: () => new Promise<string>((resolve) => readers.push(resolve)),
    /** The pending transaction mines: settled as the engine settles it (event wallet.tx_confirmed). */
    confirm: (hashOrId: string) => {
      const tx = find(hashOrId);
      return ctx.app.services.txJournal.settle(tx.hash, receipt('success', tx.logs));
    },
    /** The pending transaction reverts on chain: the request fails (event wallet.tx_failed). */
    revert: (hashOrId: string) =>
      ctx.app.services.txJournal.settle(find(hashOrId).hash, receipt('reverted', [])),
  };
}
