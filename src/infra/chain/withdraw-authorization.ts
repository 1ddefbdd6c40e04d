/**
 * A token withdraw signed by its holder and sent by the relayer it names (the platform's sponsor):
 * `ProjectToken.relayedTransfer`. Any other sender gets `NotRelayer` and moves nothing, so a
 * signature seen by someone else (a node, a mempool watcher) is of no use to them.
 */

import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  toHex,
} from 'viem';
import { projectTokenAbi } from './contracts/ProjectToken.ts';

/** The EIP-712 types of a `RelayedTransfer`, signed on the token's own domain (the permit's). */
export const WITHDRAW_AUTHORIZATION_TYPES = {
  RelayedTransfer: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'relayer', type: 'address' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** What the token's `RELAYED_TRANSFER_TYPEHASH` holds when it takes these types. */
export const WITHDRAW_AUTHORIZATION_TYPEHASH: Hex = keccak256(
  toHex(
    `RelayedTransfer(${WITHDRAW_AUTHORIZATION_TYPES.RelayedTransfer.map((f) => `${f.type} ${f.name}`).join(',')})`,
  ),
);

/** A token's EIP-712 domain, as its `eip712Domain()` (ERC-5267) gives it. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: number | bigint;
  /** The token: where the signed call goes. */
  verifyingContract: Address;
}

/** The signed message. */
export interface WithdrawAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  relayer: Address;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export interface SignedWithdraw {
  /** The token (the domain's verifyingContract): the transaction's `to`. */
  token: Address;
  /** The calldata of `relayedTransfer(...)`: send it from `authorization.relayer`, no value. */
  data: Hex;
  authorization: WithdrawAuthorization;
  signature: Hex;
}

/** 32 random bytes: nonces are single use per holder and need no order (as in EIP-3009). */
export const randomAuthorizationNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

/**
 * The holder signs a transfer of `value` base units to `to` that only `relayer` may send, valid
 * strictly before `validBefore` (seconds; and strictly after `validAfter`, default 0), spent once
 * (`nonce`, random by default). Returns the call for the relayer to send to the token.
 */
export async function signWithdrawAuthorization(o: {
  holder: LocalAccount;
  domain: TokenDomain;
  to: string;
  value: bigint;
  relayer: string;
  validBefore: bigint;
  validAfter?: bigint;
  nonce?: Hex;
}): Promise<SignedWithdraw> {
  const token = getAddress(o.domain.verifyingContract);
  const authorization: WithdrawAuthorization = {
    from: o.holder.address,
    to: getAddress(o.to),
    value: o.value,
    relayer: getAddress(o.relayer),
    validAfter: o.validAfter ?? 0n,
    validBefore: o.validBefore,
    nonce: o.nonce ?? randomAuthorizationNonce(),
  };
  const signature = await o.holder.signTypedData({
    domain: { ...o.domain, verifyingContract: token },
    types: WITHDRAW_AUTHORIZATION_TYPES,
    primaryType: 'RelayedTransfer',
    message: authorization,
  });
  const a = authorization;
  const data = encodeFunctionData({
    abi: projectTokenAbi,
    functionName: 'relayedTransfer',
    args: [a.from, a.to, a.value, a.relayer, a.validAfter, a.validBefore, a.nonce, signature],
  });
  return { token, data, authorization, signature };
}

/**
 * Whether the token takes these authorizations: false for tokens of factories before `VERSION` 3,
 * whose EIP-3009 `transferWithAuthorization` anyone may send (the service must not sign for those).
 * A node that fails to answer is an error, not a false.
 */
export async function supportsWithdrawAuthorization(
  client: Pick<PublicClient, 'readContract'>,
  token: string,
): Promise<boolean> {
  try {
    const typehash = await client.readContract({
      address: getAddress(token),
      abi: projectTokenAbi,
      functionName: 'RELAYED_TRANSFER_TYPEHASH',
    });
    return typehash === WITHDRAW_AUTHORIZATION_TYPEHASH;
  } catch (err) {
    const missing =
      err instanceof BaseError &&
      err.walk(
        (e) => e instanceof ContractFunctionZeroDataError || e instanceof ContractFunctionRevertedError,
      );
    if (missing) return false;
    throw err;
  }
}
