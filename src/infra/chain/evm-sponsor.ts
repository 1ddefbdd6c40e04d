import {
  type Account,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  type PublicClient,
  parseEventLogs,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../lib/errors.ts';
import { type SponsorActions, type SponsoredSaleQuote, type TxJournal, TxPending } from './chain.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { insufficientEth } from './eth-shortfall.ts';
import { slippageRefusal, upstream } from './evm-errors.ts';
import type { EvmTxSender } from './evm-tx-sender.ts';
import { curveEvent } from './evm-wallet-actions.ts';
import { signWithdrawAuthorization, supportsWithdrawAuthorization } from './withdraw-authorization.ts';

/**
 * Gas limit of a sponsored sale (`BondingCurve.sellFor`): measured at 96.7k-126.6k on anvil
 * (contracts/README.md; the top is a seller that never held ETH), with room to spare. The refund
 * is measured by the curve, so this only bounds what the holder's signature allows (`maxGasFee`).
 */
export const SELL_FOR_GAS = 160_000n;
/** What a sale is expected to use, the measured top: the proceeds must cover this much gas. */
const SELL_FOR_EXPECTED_GAS = 130_000n;
/**
 * The sponsor's tip: Base's sequencer includes transactions with a tip of a few million wei, and a
 * node's suggestion (anvil says 1 gwei) would cost a small sale more than its tokens are worth.
 */
export const SPONSOR_MAX_PRIORITY_FEE = 10_000_000n;
/** How long a holder's signature stays valid: long enough for a slow block, short for a leak. */
const AUTHORIZATION_SECONDS = 900n;

const SELL_TYPES = {
  Sell: [
    { name: 'seller', type: 'address' },
    { name: 'tokensIn', type: 'uint256' },
    { name: 'minEthOut', type: 'uint256' },
    { name: 'maxGasFee', type: 'uint256' },
    { name: 'relayer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

const randomNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

/**
 * The sponsor key over viem. The holder signs an EIP-712 authorization (a `Sell` for the curve, a
 * `RelayedTransfer` for the token) that names the sponsor as its only relayer (the contracts refuse
 * any other sender); each is dry-run against the pending state before it is signed by the sponsor;
 * the sponsor sends it and pays the gas; the curve pays a sale's gas back out of its proceeds.
 */
export function evmSponsor(o: {
  client: PublicClient;
  sender: EvmTxSender;
  account: Account | null;
  chainId: number;
  devChain: boolean;
}): SponsorActions {
  const { client, sender, account } = o;
  const need = (): Account => {
    if (!account) {
      throw new AppError(
        'insufficient_eth',
        'This wallet holds no ETH for gas and no sponsor key is configured.',
      );
    }
    return account;
  };
  /** The contract's EIP-712 domain (ERC-5267), or null for contracts from before signed actions. */
  const domainOf = async (address: Hex) => {
    try {
      const [, name, version, chainId, verifyingContract] = await client.readContract({
        address,
        abi: bondingCurveAbi,
        functionName: 'eip712Domain',
      });
      return { name, version, chainId: Number(chainId), verifyingContract };
    } catch {
      return null;
    }
  };
  const deadline = async () =>
    (await client.getBlock({ blockTag: 'latest' })).timestamp + AUTHORIZATION_SECONDS;
  /** EIP-1559 fees with the tip capped: twice the base fee (room for a rise) plus the tip. */
  const fees = async () => {
    const [block, tip] = await Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.estimateMaxPriorityFeePerGas().catch(() => SPONSOR_MAX_PRIORITY_FEE),
    ]);
    const base = block.baseFeePerGas ?? 0n;
    const maxPriorityFeePerGas = tip < SPONSOR_MAX_PRIORITY_FEE ? tip : SPONSOR_MAX_PRIORITY_FEE;
    return { base, maxPriorityFeePerGas, maxFeePerGas: 2n * base + maxPriorityFeePerGas };
  };
  /** The sponsor must be able to pay `gas` at `maxFeePerGas` itself. */
  const affords = async (sponsor: Account, holder: string, cost: bigint) => {
    const have = await client.getBalance({ address: sponsor.address });
    if (have < cost) {
      const err = insufficientEth({ address: holder, haveUnits: 0n, needUnits: cost }, o.devChain);
      err.message = `The platform's sponsor cannot pay gas right now. ${err.message}`;
      throw err;
    }
  };

  return {
    address: account?.address ?? null,
    reauthorizeSale: async (key, curveAddress, data, maxFeePerGas) => {
      const sponsor = need();
      const seller = privateKeyToAccount(key as Hex);
      const curve = getAddress(curveAddress);
      const { functionName, args } = decodeFunctionData({ abi: bondingCurveAbi, data: data as Hex });
      if (functionName !== 'sellFor') throw new Error('Not a sponsored sale.');
      const [from, tokensIn, minEthOut, oldMax, nonce, until] = args as unknown as [
        Hex,
        bigint,
        bigint,
        bigint,
        Hex,
        bigint,
      ];
      if (getAddress(from) !== seller.address) throw new Error("The sale is another seller's.");
      try {
        const [domain, [proceeds]] = await Promise.all([
          domainOf(curve),
          client.readContract({
            address: curve,
            abi: bondingCurveAbi,
            functionName: 'quoteSell',
            args: [tokensIn],
          }),
        ]);
        if (!domain) throw new Error("This project's curve predates sponsored sales.");
        // The same authorization (its nonce: at most one of the two can ever execute), with a gas
        // cap that covers the new fees, as far as the proceeds above the holder's bound allow.
        const cap = SELL_FOR_GAS * maxFeePerGas;
        const room = proceeds > minEthOut ? proceeds - minEthOut : 0n;
        const wanted = cap < room ? cap : room;
        const maxGasFee = wanted > oldMax ? wanted : oldMax;
        const signature = await seller.signTypedData({
          domain,
          types: SELL_TYPES,
          primaryType: 'Sell',
          message: {
            seller: seller.address,
            tokensIn,
            minEthOut,
            maxGasFee,
            relayer: sponsor.address,
            nonce,
            deadline: until,
          },
        });
        return encodeFunctionData({
          abi: bondingCurveAbi,
          functionName: 'sellFor',
          args: [seller.address, tokensIn, minEthOut, maxGasFee, nonce, until, signature],
        });
      } catch (err) {
        throw upstream('sign a sponsored sale again', err);
      }
    },
    balance: async () => {
      if (!account) return 0n;
      try {
        return await client.getBalance({ address: account.address });
      } catch (err) {
        throw upstream('read the sponsor balance', err);
      }
    },
    quoteSale: async (_key, curveAddress, tokensUnits): Promise<SponsoredSaleQuote | null> => {
      const curve = getAddress(curveAddress);
      try {
        if (!(await domainOf(curve))) return null;
        const [[proceedsUnits], f] = await Promise.all([
          client.readContract({
            address: curve,
            abi: bondingCurveAbi,
            functionName: 'quoteSell',
            args: [tokensUnits],
          }),
          fees(),
        ]);
        // The base fee may rise by an eighth a block: a quarter more covers the next two.
        const price = f.base + f.base / 4n + f.maxPriorityFeePerGas;
        return { proceedsUnits, gasUnits: SELL_FOR_EXPECTED_GAS * price };
      } catch (err) {
        throw upstream('quote a sponsored sale', err);
      }
    },
    sell: async (key, curveAddress, tokensUnits, minEthUnits, journal: TxJournal) => {
      const sponsor = need();
      const seller = privateKeyToAccount(key as Hex);
      const curve = getAddress(curveAddress);
      const what = 'sell tokens (sponsored)';
      try {
        const [domain, { base: _, ...f }, until, [proceeds]] = await Promise.all([
          domainOf(curve),
          fees(),
          deadline(),
          client.readContract({
            address: curve,
            abi: bondingCurveAbi,
            functionName: 'quoteSell',
            args: [tokensUnits],
          }),
        ]);
        if (!domain) throw new AppError('insufficient_eth', "This project's curve predates sponsored sales.");
        await affords(sponsor, seller.address, SELL_FOR_GAS * f.maxFeePerGas);
        // The refund never takes more than the sale can give above the holder's bound: should the
        // base fee jump past what the caller checked, the sponsor bears the difference.
        const cap = SELL_FOR_GAS * f.maxFeePerGas;
        const room = proceeds > minEthUnits ? proceeds - minEthUnits : 0n;
        const maxGasFee = cap < room ? cap : room;
        const nonce = randomNonce();
        const signature = await seller.signTypedData({
          domain,
          types: SELL_TYPES,
          primaryType: 'Sell',
          message: {
            seller: seller.address,
            tokensIn: tokensUnits,
            minEthOut: minEthUnits,
            maxGasFee,
            relayer: sponsor.address,
            nonce,
            deadline: until,
          },
        });
        const data = encodeFunctionData({
          abi: bondingCurveAbi,
          functionName: 'sellFor',
          args: [seller.address, tokensUnits, minEthUnits, maxGasFee, nonce, until, signature],
        });
        // A dry run first, against the pending state (the wallet's earlier actions in the pool count):
        // a sale that would revert (slippage, proceeds below gas, tokens already gone) costs nothing.
        await client.call({
          account: sponsor,
          to: curve,
          data,
          gas: SELL_FOR_GAS,
          ...f,
          blockTag: 'pending',
        });
        const hash = await sender.send(sponsor, { to: curve, data, gas: SELL_FOR_GAS, ...f }, what, journal);
        const refundOf = (logs: unknown[]) => {
          const [e] = parseEventLogs({ abi: bondingCurveAbi, logs: logs as never, eventName: 'GasRefunded' });
          return (e?.args as { gasFee?: bigint } | undefined)?.gasFee ?? 0n;
        };
        const receipt = await sender.mined(hash, what, journal, (r) => refundOf(r.logs));
        return {
          txHash: hash,
          ethUnits: curveEvent(receipt.logs, 'Sold').ethOut as bigint,
          gasEthUnits: refundOf(receipt.logs),
        };
      } catch (err) {
        if (err instanceof TxPending) throw err;
        throw slippageRefusal(err) ?? upstream(what, err);
      }
    },
    sendToken: async (key, tokenAddress, to, amountUnits, journal: TxJournal) => {
      const sponsor = need();
      const holder = privateKeyToAccount(key as Hex);
      const token = getAddress(tokenAddress);
      const what = 'send tokens (sponsored)';
      try {
        const [domain, { base: _, ...f }, until, relayed] = await Promise.all([
          domainOf(token),
          fees(),
          deadline(),
          supportsWithdrawAuthorization(client, token),
        ]);
        // A token from before relayer-bound authorizations: anyone could send one, so none is signed.
        if (!domain || !relayed) return null;
        const { data } = await signWithdrawAuthorization({
          holder: holder,
          domain,
          to,
          value: amountUnits,
          relayer: sponsor.address,
          validBefore: until,
        });
        // The estimate is the dry run, against the pending state: a withdraw of tokens already gone
        // (a sale of them in the pool) is refused here and costs the sponsor nothing.
        const estimate = await client.estimateGas({ account: sponsor, to: token, data, blockTag: 'pending' });
        const gas = estimate + estimate / 5n;
        await affords(sponsor, holder.address, gas * f.maxFeePerGas);
        const hash = await sender.send(sponsor, { to: token, data, gas, ...f }, what, journal);
        const receipt = await sender.mined(hash, what, journal);
        return { txHash: hash, gasEthUnits: receipt.gasUsed * receipt.effectiveGasPrice };
      } catch (err) {
        if (err instanceof TxPending) throw err;
        throw upstream(what, err);
      }
    },
  };
}
