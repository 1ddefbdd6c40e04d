import { decodeFunctionData, getAddress, type Hex } from 'viem';
import type {
  BroadcastResult,
  Fees,
  PayoutSigner,
  SignedTx,
  TxReceipt,
  UnsignedTx,
} from '../../../src/infra/chain/chain.ts';
import { payoutRouterAbi } from '../../../src/infra/chain/contracts/PayoutRouter.ts';
import { projectTokenAbi } from '../../../src/infra/chain/contracts/ProjectToken.ts';
import { payCallOf, transferFromCallOf } from '../../../src/infra/chain/evm-payout-signer.ts';
import { AppError } from '../../../src/lib/errors.ts';
import type { EngineWallets } from '../../../src/modules/transactions/engine.deps.ts';
import { lower, type TokenLedger } from './ledger.ts';
import type { FakeNode } from './node.ts';
import { encode, type FakeTx, hashOf } from './raw-tx.ts';

/** What the payout key of the fake chain signs on and sends to. */
export interface SignerChain {
  readonly info: { readonly id: number; readonly payoutSpenderAddress: string };
  readonly node: FakeNode;
  readonly ledger: TokenLedger;
  /** The latest block. */
  headBlock(): bigint;
  /** Every transaction signed so far, in order: each signer adds its own. */
  readonly signed: (FakeTx & { hash: string })[];
  /** Runs before a transfer or payout (not a transaction that moves nothing) is signed. */
  beforeSign(): Promise<void>;
  quoteFees(): Promise<Fees>;
  broadcast(raw: string): Promise<BroadcastResult>;
}

/** A fake payout key is its address itself (an in-app wallet's key is a real private key). */
const isFakeKey = (key: string | null): key is string => key !== null && /^0x[0-9a-fA-F]{40}$/.test(key);

/**
 * The payout key at `address`: the calls it makes, ABI-encoded as the real ones are, for the
 * transaction engine to sign (`payoutWallets`). Its key is its address.
 */
export function fakePayoutSigner(
  address: string,
  chain: Pick<SignerChain, 'info' | 'headBlock'>,
): PayoutSigner {
  const router = getAddress(chain.info.payoutSpenderAddress);
  return {
    address,
    routerAddress: router,
    key: address,
    payCall: (t) => payCallOf(router, t),
    transferFromCall: transferFromCallOf,
    headBlock: async () => chain.headBlock(),
  };
}

/** The fake transaction a payout key's call makes: a router payout, a transferFrom, or nothing. */
function fakeTxOf(chain: SignerChain, signer: string, tx: UnsignedTx, nonce: number): FakeTx {
  const common = {
    chainId: chain.info.id,
    signer: lower(signer),
    nonce,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
  };
  if (tx.data === '0x') {
    return {
      ...common,
      filler: true,
      tokenAddress: '',
      from: lower(signer),
      to: lower(signer),
      amountUnits: 0n,
    };
  }
  if (lower(tx.to) === lower(chain.info.payoutSpenderAddress)) {
    const { args } = decodeFunctionData({ abi: payoutRouterAbi, data: tx.data as Hex });
    const [token, from, to, amount, fee] = args as [string, string, string, bigint, bigint];
    return {
      ...common,
      tokenAddress: lower(token),
      from: lower(from),
      to: lower(to),
      amountUnits: amount,
      feeUnits: fee,
    };
  }
  const { args } = decodeFunctionData({ abi: projectTokenAbi, data: tx.data as Hex });
  const [from, to, amount] = args as [string, string, bigint];
  return { ...common, tokenAddress: lower(tx.to), from: lower(from), to: lower(to), amountUnits: amount };
}

/**
 * The wallets port as the transaction engine uses it, for the fake chain's payout keys: signing
 * their calls as the fake's raw transactions (recording each in `chain.signed`), sending them to
 * the node, reading nonces and receipts. Every other key is refused, as the fake has no wallets.
 */
export function payoutWallets(chain: SignerChain): EngineWallets {
  return {
    // Transactions mine as soon as their nonce is next, so nothing is ever pending ahead of 'latest'.
    nonceOf: async (address, at) =>
      typeof at === 'bigint' ? chain.node.nonceAt(address, at) : chain.node.nonceOf(address),
    broadcast: (raw) => chain.broadcast(raw),
    receipt: async (hash): Promise<TxReceipt | null> => {
      const mined = chain.node.mined(hash);
      return mined && { ...mined, gasPaidUnits: 0n, logs: [] };
    },
    known: async (hash) => chain.node.known(hash),
    headBlock: async () => chain.headBlock(),
    // The fake keeps no forks: a block's hash is its number's, up to the head.
    blockHash: async (n) => (n <= chain.headBlock() ? `0x${n.toString(16).padStart(64, '0')}` : null),
    quoteFees: () => chain.quoteFees(),
    // A payout whose founder cannot cover it would revert; anything else would not.
    dryRun: async (from, tx) => {
      if (tx.data === '0x') return null;
      const f = fakeTxOf(chain, from, { ...tx, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, 0);
      const funds = chain.ledger.get(f.tokenAddress, f.from);
      const units = f.amountUnits + (f.feeUnits ?? 0n);
      return funds.balanceUnits >= units && funds.allowanceUnits >= units
        ? null
        : 'ERC20: insufficient funds';
    },
    signTx: async (key, tx, nonce): Promise<SignedTx> => {
      if (!isFakeKey(key)) {
        throw new AppError('chain_unavailable', 'The fake chain has no wallets, factory or faucet.');
      }
      const fake = fakeTxOf(chain, key, tx, nonce);
      if (!fake.filler) await chain.beforeSign();
      const raw = encode(fake);
      const hash = hashOf(raw);
      chain.signed.push({ ...fake, hash });
      return { hash, raw };
    },
  };
}
