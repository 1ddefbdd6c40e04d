import { encodeFunctionData, getAddress, type Hex, type PublicClient, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../lib/errors.ts';
import type { WalletActions } from './chain.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { slippageRefusal, upstream } from './evm-errors.ts';

export interface WalletActionContext {
  client: PublicClient;
  /** The payout router: what a founder's allowance must name for the service to pay from it. */
  payoutSpender: Hex;
  send(
    account: ReturnType<typeof privateKeyToAccount>,
    tx: { to: Hex; data?: Hex; value?: bigint },
  ): Promise<Hex>;
  receiptOrThrow(hash: Hex, what: string): Promise<{ logs: unknown[] }>;
}

/** Custodial wallet actions over viem: each signed with the agent's key and awaited to its receipt. */
export function evmWalletActions(ctx: WalletActionContext): WalletActions {
  const act = async <T>(
    what: string,
    key: string,
    tx: { to: Hex; data?: Hex; value?: bigint },
    read: (logs: unknown[]) => T,
  ) => {
    try {
      const hash = await ctx.send(privateKeyToAccount(key as Hex), tx);
      const receipt = await ctx.receiptOrThrow(hash, what);
      return { txHash: hash, ...read(receipt.logs) };
    } catch (err) {
      throw slippageRefusal(err) ?? upstream(what, err);
    }
  };
  const curveEvent = (logs: unknown[], eventName: 'Bought' | 'Sold') => {
    const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: logs as never, eventName });
    if (!event) throw new AppError('upstream_error', `The curve emitted no ${eventName} event.`);
    return event.args as unknown as Record<string, bigint>;
  };
  return {
    ethBalance: async (address) => {
      try {
        return await ctx.client.getBalance({ address: getAddress(address) });
      } catch (err) {
        throw upstream('read an ETH balance', err);
      }
    },
    tokenBalance: async (tokenAddress, owner) => {
      try {
        return await ctx.client.readContract({
          address: getAddress(tokenAddress),
          abi: projectTokenAbi,
          functionName: 'balanceOf',
          args: [getAddress(owner)],
        });
      } catch (err) {
        throw upstream('read a token balance', err);
      }
    },
    buy: (key, curve, ethUnits, minTokensUnits) =>
      act(
        'buy tokens',
        key,
        {
          to: getAddress(curve),
          value: ethUnits,
          data: encodeFunctionData({ abi: bondingCurveAbi, functionName: 'buy', args: [minTokensUnits] }),
        },
        (logs) => ({ tokensUnits: curveEvent(logs, 'Bought').tokensOut as bigint }),
      ),
    sell: (key, curve, tokensUnits, minEthUnits) =>
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
      ),
    approvePayouts: (key, token, amountUnits) =>
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
      ),
    sendToken: (key, token, to, amountUnits) =>
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
      ),
    sendEth: (key, to, amountUnits) =>
      act('send ETH', key, { to: getAddress(to), value: amountUnits }, () => ({})),
  };
}
