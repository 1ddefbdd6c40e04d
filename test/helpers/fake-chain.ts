import { randomBytes } from 'node:crypto';
import type { Chain, PayoutRequest, PayoutResult, TokenFunds } from '../../src/infra/chain/chain.ts';
import { AppError } from '../../src/lib/errors.ts';

const key = (token: string, owner: string) => `${token.toLowerCase()}:${owner.toLowerCase()}`;

/**
 * An in-memory stand-in for the chain, for tests of the HTTP and state rules only. Balances and
 * allowances are set by the test; payouts move them and are recorded so tests can count them.
 */
export class FakeChain implements Chain {
  readonly info = {
    id: 31337,
    name: 'fake',
    rpcUrl: 'http://127.0.0.1:0',
    explorerUrl: null,
    factoryAddress: '0x00000000000000000000000000000000000000F1',
    payoutSpenderAddress: '0x00000000000000000000000000000000000000A1',
    treasuryAddress: '0x00000000000000000000000000000000000000B1',
    devChain: true,
  };
  private readonly funds = new Map<string, TokenFunds>();
  readonly payouts: (PayoutRequest & PayoutResult)[] = [];
  /** When set, the next payout throws this error (then the fault clears). */
  failNextPayout: Error | null = null;
  /** Delay inside payout, to hold an approval open while a test races another one. */
  payoutDelayMs = 0;

  setFunds(token: string, owner: string, balanceTokens: bigint, allowanceTokens = balanceTokens): void {
    const unit = 10n ** 18n;
    this.funds.set(key(token, owner), {
      balanceUnits: balanceTokens * unit,
      allowanceUnits: allowanceTokens * unit,
    });
  }

  async readFunds(token: string, owner: string): Promise<TokenFunds> {
    return this.funds.get(key(token, owner)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
  }

  async payout(req: PayoutRequest): Promise<PayoutResult> {
    if (this.payoutDelayMs) await new Promise((r) => setTimeout(r, this.payoutDelayMs));
    if (this.failNextPayout) {
      const err = this.failNextPayout;
      this.failNextPayout = null;
      throw err;
    }
    const f = await this.readFunds(req.tokenAddress, req.fromAddress);
    const total = req.contributorUnits + req.feeUnits;
    if (f.balanceUnits < total || f.allowanceUnits < total) {
      throw new AppError('upstream_error', 'transferFrom reverted: insufficient balance or allowance');
    }
    this.funds.set(key(req.tokenAddress, req.fromAddress), {
      balanceUnits: f.balanceUnits - total,
      allowanceUnits: f.allowanceUnits - total,
    });
    const result = {
      contributorTxHash: `0x${randomBytes(32).toString('hex')}`,
      platformFeeTxHash: `0x${randomBytes(32).toString('hex')}`,
    };
    this.payouts.push({ ...req, ...result });
    return result;
  }

  async close(): Promise<void> {}
}
