import { getAddress } from 'viem';
import type { FundsLog, TokenFunds } from '../../../src/infra/chain/chain.ts';

export const lower = (a: string) => a.toLowerCase();
const key = (token: string, owner: string) => `${lower(token)}:${lower(owner)}`;
const none = (): TokenFunds => ({ balanceUnits: 0n, allowanceUnits: 0n });

/**
 * The fake chain's state of the tokens: its blocks, each holder's balance and allowance for the
 * payout spender (one per owner and token: router payouts and plain transferFroms both draw on
 * it), and the Transfer and Approval logs those blocks carry. It keeps no history: funds at an
 * older block are the funds now.
 */
export class TokenLedger {
  /** The latest block: each approval, transfer and mined transaction makes one. */
  block = 0n;
  /** Transfer and Approval logs of every token, in block order. */
  readonly logs: FundsLog[] = [];
  private readonly funds = new Map<string, TokenFunds>();

  /** `spender.payoutSpenderAddress` is the spender every approval names. */
  constructor(private readonly spender: { readonly payoutSpenderAddress: string }) {}

  /** The owner's funds (a copy); an owner never seen holds nothing. */
  get(token: string, owner: string): TokenFunds {
    return { ...(this.funds.get(key(token, owner)) ?? none()) };
  }

  /** Sets the owner's funds outright: no block, no log. */
  set(token: string, owner: string, funds: TokenFunds): void {
    this.funds.set(key(token, owner), funds);
  }

  /** The owner approves the payout spender for `allowanceUnits`: a new block with its log; its hash. */
  approve(token: string, owner: string, allowanceUnits: bigint): string {
    this.set(token, owner, { ...this.get(token, owner), allowanceUnits });
    this.block += 1n;
    this.logs.push({
      kind: 'approval',
      tokenAddress: getAddress(token),
      owner: getAddress(owner),
      spender: getAddress(this.spender.payoutSpenderAddress),
      blockNumber: this.block,
    });
    return `0x${this.block.toString(16).padStart(64, '0')}`;
  }

  /** Moves units between two holders (allowances untouched): a new block with its log. */
  transfer(token: string, from: string, to: string, units: bigint): void {
    const f = this.get(token, from);
    const t = this.get(token, to);
    this.set(token, from, { ...f, balanceUnits: f.balanceUnits - units });
    this.set(token, to, { ...t, balanceUnits: t.balanceUnits + units });
    this.block += 1n;
    this.logTransfer(token, from, to);
  }

  /**
   * Pays every `[to, units]` of `moves` out of `from`'s balance and allowance, in the current block,
   * when they cover the total: all of it or nothing. Whether it paid.
   */
  pay(token: string, from: string, moves: [to: string, units: bigint][]): boolean {
    const total = moves.reduce((sum, [, units]) => sum + units, 0n);
    const f = this.get(token, from);
    if (f.balanceUnits < total || f.allowanceUnits < total) return false;
    this.set(token, from, {
      balanceUnits: f.balanceUnits - total,
      allowanceUnits: f.allowanceUnits - total,
    });
    for (const [to, units] of moves) {
      const held = this.get(token, to);
      this.set(token, to, { ...held, balanceUnits: held.balanceUnits + units });
      this.logTransfer(token, from, to);
    }
    return true;
  }

  /** The logs of these tokens from `fromBlock` to `toBlock`, both included. */
  logsBetween(tokens: string[], fromBlock: bigint, toBlock: bigint): FundsLog[] {
    const wanted = new Set(tokens.map(lower));
    return this.logs.filter(
      (l) => wanted.has(lower(l.tokenAddress)) && l.blockNumber >= fromBlock && l.blockNumber <= toBlock,
    );
  }

  /** The returned function sets the funds and the block back to now; the logs stay as they are. */
  snapshot(): () => void {
    const funds = new Map([...this.funds].map(([k, v]) => [k, { ...v }]));
    const block = this.block;
    return () => {
      this.funds.clear();
      for (const [k, v] of funds) this.funds.set(k, v);
      this.block = block;
    };
  }

  private logTransfer(token: string, from: string, to: string): void {
    this.logs.push({
      kind: 'transfer',
      tokenAddress: getAddress(token),
      from: getAddress(from),
      to: getAddress(to),
      blockNumber: this.block,
    });
  }
}
