import {
  type Account,
  encodeFunctionData,
  getAddress,
  type Hex,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../lib/errors.ts';
import { type TxJournal, TxPending, type WalletActions } from './chain.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { slippageRefusal, upstream } from './evm-errors.ts';
import type { EvmTxSender, TxRequest } from './evm-tx-sender.ts';

export interface WalletActionContext {
  client: PublicClient;
  sender: EvmTxSender;
  /** The payout router: what a founder's allowance must name for the service to pay from it. */
  payoutSpender: Hex;
  /** The sponsor's account, for the engine to sign its transactions again (fee bumps, lost nonces). */
  sponsor: Account | null;
}

/** The event a curve emitted in a receipt's logs (Bought or Sold), as bigints by name. */
export function curveEvent(logs: unknown[], eventName: 'Bought' | 'Sold') {
  const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: logs as never, eventName });
  if (!event) throw new AppError('upstream_error', `The curve emitted no ${eventName} event.`);
  return event.args as unknown as Record<string, bigint>;
}

/** Custodial wallet actions over viem: each signed with the agent's key and awaited to its receipt. */
export function evmWalletActions(ctx: WalletActionContext): WalletActions {
  const { client, sender } = ctx;
  const act = async <T>(
    what: string,
    key: string,
    tx: TxRequest,
    read: (logs: unknown[]) => T,
    journal?: TxJournal,
  ) => {
    const account = privateKeyToAccount(key as Hex);
    try {
      const prepared = await sender.prepare(account.address, tx, what);
      const hash = await sender.send(account, prepared, what, journal);
      const receipt = await sender.mined(hash, what, journal);
      return { txHash: hash, ...read(receipt.logs) };
    } catch (err) {
      if (err instanceof TxPending) throw err;
      throw slippageRefusal(err) ?? upstream(what, err);
    }
  };
  const read = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw upstream(what, err);
    }
  };
  return {
    ethBalance: (address, blockNumber) =>
      read('read an ETH balance', () =>
        client.getBalance({
          address: getAddress(address),
          ...(blockNumber === undefined ? {} : { blockNumber }),
        }),
      ),
    tokenBalance: (tokenAddress, owner) =>
      read('read a token balance', () =>
        client.readContract({
          address: getAddress(tokenAddress),
          abi: projectTokenAbi,
          functionName: 'balanceOf',
          args: [getAddress(owner)],
        }),
      ),
    readBalances: (pairs, blockNumber) =>
      read('read token balances', () =>
        // Batched by the transport: every read travels in one HTTP request.
        Promise.all(
          pairs.map((p) =>
            client.readContract({
              address: getAddress(p.tokenAddress),
              abi: projectTokenAbi,
              functionName: 'balanceOf',
              args: [getAddress(p.holder)],
              blockNumber,
            }),
          ),
        ),
      ),
    nonceOf: (address, at) => sender.nonceOf(address, at),
    broadcast: (raw) => sender.broadcast(raw),
    receipt: (hash) => sender.receipt(hash),
    known: (hash) => sender.known(hash),
    headBlock: () => sender.headBlock(),
    blockHash: (blockNumber) => sender.blockHash(blockNumber),
    quoteFees: () => sender.quoteFees(),
    dryRun: (from, tx, at) => sender.dryRun(from, tx, at),
    signTx: async (key, tx, nonce) => {
      const account = key === null ? ctx.sponsor : privateKeyToAccount(key as Hex);
      if (!account) throw new Error('No sponsor key is configured.');
      return sender.sign(account, tx, nonce);
    },
    buy: (key, curve, ethUnits, minTokensUnits, journal) =>
      act(
        'buy tokens',
        key,
        {
          to: getAddress(curve),
          value: ethUnits,
          data: encodeFunctionData({ abi: bondingCurveAbi, functionName: 'buy', args: [minTokensUnits] }),
        },
        (logs) => ({ tokensUnits: curveEvent(logs, 'Bought').tokensOut as bigint }),
        journal,
      ),
    sell: (key, curve, tokensUnits, minEthUnits, journal) =>
      act(
        'sell tokens',
        key,
        {
          to: getAddress(curve),
          data: encodeFunctionData({
            abi: bondingCurveAbi,
            functionName: 'sell',
            args: [tokensUnits, minEthUnits],
          }),
        },
        (logs) => ({ ethUnits: curveEvent(logs, 'Sold').ethOut as bigint }),
        journal,
      ),
    approvePayouts: (key, token, amountUnits, journal) =>
      act(
        'set the allowance',
        key,
        {
          to: getAddress(token),
          data: encodeFunctionData({
            abi: projectTokenAbi,
            functionName: 'approve',
            args: [ctx.payoutSpender, amountUnits],
          }),
        },
        (logs) => {
          const [event] = parseEventLogs({
            abi: projectTokenAbi,
            logs: logs as never,
            eventName: 'Approval',
          });
          return { allowanceUnits: (event?.args as { value: bigint } | undefined)?.value ?? amountUnits };
        },
        journal,
      ),
    sendToken: (key, token, to, amountUnits, journal) =>
      act(
        'send tokens',
        key,
        {
          to: getAddress(token),
          data: encodeFunctionData({
            abi: projectTokenAbi,
            functionName: 'transfer',
            args: [getAddress(to), amountUnits],
          }),
        },
        () => ({}),
        journal,
      ),
    sendEth: (key, to, amountUnits, journal) =>
      act('send ETH', key, { to: getAddress(to), value: amountUnits }, () => ({}), journal),
  };
}
