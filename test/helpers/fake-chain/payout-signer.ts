import type { BroadcastResult, Fees, PayoutSigner, SignedTx } from '../../../src/infra/chain/chain.ts';
import { lower } from './ledger.ts';
import type { FakeNode } from './node.ts';
import { encode, type FakeTx, hashOf } from './raw-tx.ts';

/** What a payout signer of the fake chain signs on and sends to. */
export interface SignerChain {
  readonly info: { readonly id: number; readonly payoutSpenderAddress: string };
  readonly node: FakeNode;
  /** The latest block. */
  headBlock(): bigint;
  /** Every transaction signed so far, in order: each signer adds its own. */
  readonly signed: (FakeTx & { hash: string })[];
  /** Runs before a transfer or payout (not a nonce filler) is signed. */
  beforeSign(): Promise<void>;
  quoteFees(): Promise<Fees>;
  broadcast(raw: string): Promise<BroadcastResult>;
}

/**
 * The payout signer of the key at `address`: it signs router payouts, plain transferFroms and
 * nonce fillers as the fake's raw transactions (recording each in `chain.signed`), and reads
 * nonces and receipts from the node.
 */
export function fakePayoutSigner(address: string, chain: SignerChain): PayoutSigner {
  const record = (tx: FakeTx): SignedTx => {
    const raw = encode(tx);
    const hash = hashOf(raw);
    chain.signed.push({ ...tx, hash });
    return { hash, raw };
  };
  /** A transferFrom, or with `feeUnits` a router payout. */
  const sign = (t: Parameters<PayoutSigner['signTransferFrom']>[0], feeUnits?: bigint): SignedTx =>
    record({
      chainId: chain.info.id,
      signer: lower(address),
      tokenAddress: lower(t.tokenAddress),
      from: lower(t.from),
      to: lower(t.to),
      amountUnits: t.amountUnits,
      ...(feeUnits === undefined ? {} : { feeUnits }),
      nonce: t.nonce,
      maxFeePerGas: t.fees.maxFeePerGas,
      maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
    });
  return {
    address,
    routerAddress: chain.info.payoutSpenderAddress,
    // Transactions mine as soon as their nonce is next, so nothing is ever pending ahead of 'latest'.
    chainNonce: async (at) =>
      typeof at === 'bigint' ? chain.node.nonceAt(address, at) : chain.node.nonceOf(address),
    quoteFees: () => chain.quoteFees(),
    signPayout: async (t) => {
      await chain.beforeSign();
      return sign(t, t.feeUnits);
    },
    signTransferFrom: async (t) => {
      await chain.beforeSign();
      return sign(t);
    },
    signNonceFiller: async (t) =>
      record({
        chainId: chain.info.id,
        filler: true,
        signer: lower(address),
        tokenAddress: '',
        from: lower(address),
        to: lower(address),
        amountUnits: 0n,
        nonce: t.nonce,
        maxFeePerGas: t.fees.maxFeePerGas,
        maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
      }),
    broadcast: (raw) => chain.broadcast(raw),
    mined: async (hash) => chain.node.mined(hash),
    known: async (hash) => chain.node.known(hash),
    headBlock: async () => chain.headBlock(),
  };
}
