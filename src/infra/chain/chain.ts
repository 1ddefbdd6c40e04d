import { AppError } from '../../lib/errors.ts';

/** Project tokens are ERC-20s with 18 decimals; rewards are whole tokens. */
export const TOKEN_DECIMALS = 18;
const UNIT = 10n ** BigInt(TOKEN_DECIMALS);

export const tokensToUnits = (whole: number | bigint): bigint => BigInt(whole) * UNIT;

/** Whole tokens as a decimal string, exact: 1500000000000000000 units -> "1.5". */
export function unitsToTokens(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const whole = abs / UNIT;
  const frac = (abs % UNIT).toString().padStart(TOKEN_DECIMALS, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

export interface TokenFunds {
  balanceUnits: bigint;
  /** What the founder lets the platform payout wallet spend. */
  allowanceUnits: bigint;
}

export interface PayoutRequest {
  submissionId: string;
  tokenAddress: string;
  fromAddress: string;
  toAddress: string;
  contributorUnits: bigint;
  feeUnits: bigint;
}

export interface PayoutResult {
  contributorTxHash: string;
  platformFeeTxHash: string;
}

export interface PublicChainInfo {
  id: number;
  name: string;
  rpcUrl: string;
  explorerUrl: string | null;
  factoryAddress: string | null;
  payoutSpenderAddress: string | null;
  treasuryAddress: string | null;
  devChain: boolean;
}

/**
 * What the marketplace needs from the chain. The real adapter (viem against anvil or Base) is
 * wired in main.ts; while none is configured the service runs on `unavailableChain`, which
 * refuses honestly rather than inventing balances or transaction hashes.
 */
export interface Chain {
  readonly info: PublicChainInfo | null;
  /** Balance and allowance of the founder on the project token, read together. */
  readFunds(tokenAddress: string, ownerAddress: string): Promise<TokenFunds>;
  /** Sends the contributor leg and the fee leg; throws AppError('upstream_error') when a leg fails. */
  payout(req: PayoutRequest): Promise<PayoutResult>;
  close(): Promise<void>;
}

const refuse = () =>
  new AppError(
    'chain_unavailable',
    'No blockchain is configured for this service, so funds cannot be read or paid.',
  );

export const unavailableChain: Chain = {
  info: null,
  readFunds: async () => {
    throw refuse();
  },
  payout: async () => {
    throw refuse();
  },
  close: async () => {},
};
