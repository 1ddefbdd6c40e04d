import { parseUnits } from 'viem';
import { TOKEN_DECIMALS } from '../../infra/chain/chain.ts';
import type { ApprovalStatusJson, WalletJson } from '../../modules/wallets/wallets.schemas.ts';
import { type Amount, tokensAmount } from './format.ts';

/**
 * A founder's first steps on an active project, each done or not as the wallet and the approval
 * status say: ETH for gas, tokens bought, the platform allowed to pay from them, a bounty posted.
 * "unknown" when the figure could not be read (no chain, no wallet): never shown as done.
 */
export type StepState = 'done' | 'todo' | 'unknown';

export interface Checklist {
  eth: StepState;
  buy: StepState;
  allowance: StepState;
  post: StepState;
  /** Every step done: the list folds into one line. */
  complete: boolean;
  /** How many of the four are done ("2 of 4 done"). */
  done: number;
}

const positive = (wholeTokens: string) => parseUnits(wholeTokens, TOKEN_DECIMALS) > 0n;
const state = (known: boolean, done: boolean): StepState => (!known ? 'unknown' : done ? 'done' : 'todo');

export function checklist(
  wallet: WalletJson | null,
  status: ApprovalStatusJson | null,
  bountyCount: number,
): Checklist {
  const eth = wallet?.eth_balance_units ?? null;
  const steps = {
    eth: state(eth !== null, eth !== null && BigInt(eth) > 0n),
    buy: state(status !== null, status !== null && positive(status.balance)),
    allowance: state(status !== null, status !== null && positive(status.allowance)),
    post: state(true, bountyCount > 0),
  };
  const done = Object.values(steps).filter((s) => s === 'done').length;
  return { ...steps, complete: done === 4, done };
}

/** The approval status's figures as amounts for people; `short` when open rewards exceed them. */
export interface FundsView {
  balance: Amount;
  allowance: Amount;
  committed: Amount;
  available: Amount;
  short: boolean;
}

export function fundsView(status: ApprovalStatusJson): FundsView {
  return {
    balance: tokensAmount(status.balance),
    allowance: tokensAmount(status.allowance),
    committed: tokensAmount(status.committed),
    available: tokensAmount(status.available),
    short: status.available.startsWith('-'),
  };
}
