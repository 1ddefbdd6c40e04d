import { getAddress } from 'viem';
import type { Chain } from '../../infra/chain/chain.ts';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import type { Clock } from '../../lib/clock.ts';
import { unitsSellingFor, worthOf } from '../../lib/curve.ts';
import { AppError } from '../../lib/errors.ts';
import type { TransactionJournal } from '../transactions/journal.ts';
import { type JournalFor, QUOTA_WINDOW_MS } from './wallet-kinds.ts';

export interface CashOutDeps {
  chain: Chain;
  clock: Clock;
  journal: TransactionJournal;
  /** SPONSORED_WITHDRAWALS_PER_DAY: token withdraws per agent per 24 h whose gas the platform pays. */
  withdrawalsPerDay: number;
  /** SPONSORED_WITHDRAW_MIN_ETH_UNITS: the least a sponsored token withdraw is worth on the curve. */
  withdrawMinEthUnits: bigint;
}

export interface Tradable {
  projectId: string;
  tokenAddress: string;
  curveAddress: string;
}

interface Signer {
  agentId: string;
  key: string;
  address: string;
  /** The running request's journal for a transaction of this kind. */
  journalFor: JournalFor;
}

const isShortOfEth = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === 'insufficient_eth';

/**
 * Turning what an agent earned into ETH, or moving it out, with or without ETH in its wallet. A
 * wallet that can pay its own gas sends its own transaction; one that cannot signs an EIP-712
 * authorization that the platform's sponsor key sends: a sale (`BondingCurve.sellFor`) pays the
 * sponsor's gas back out of its proceeds; a token withdraw (EIP-3009 `transferWithAuthorization`)
 * is free, up to `withdrawalsPerDay` per agent.
 */
export class CashOut {
  constructor(private readonly deps: CashOutDeps) {}

  async sell(s: Signer, p: Tradable, tokensUnits: bigint, minEthUnits: bigint) {
    const { chain } = this.deps;
    try {
      const r = await chain.wallets.sell(
        s.key,
        p.curveAddress,
        tokensUnits,
        minEthUnits,
        s.journalFor('sell', p.projectId),
      );
      return { tx_hash: r.txHash, eth_units: r.ethUnits.toString(), gas_eth_units: '0', sponsored: false };
    } catch (err) {
      if (!isShortOfEth(err) || !chain.sponsor.address) throw err;
      const quote = await chain.sponsor.quoteSale(s.key, p.curveAddress, tokensUnits);
      if (!quote) throw legacy(err, 'sales');
      if (quote.proceedsUnits <= quote.gasUnits + minEthUnits) {
        throw await this.tooSmall(p, tokensUnits, quote.proceedsUnits, quote.gasUnits + minEthUnits);
      }
      const r = await chain.sponsor.sell(
        s.key,
        p.curveAddress,
        tokensUnits,
        minEthUnits,
        s.journalFor('sponsored_sell', p.projectId),
      );
      return {
        tx_hash: r.txHash,
        eth_units: r.ethUnits.toString(),
        gas_eth_units: r.gasEthUnits.toString(),
        sponsored: true,
      };
    }
  }

  async withdrawToken(s: Signer, p: Tradable, to: string, amountUnits: bigint) {
    const { chain } = this.deps;
    try {
      const r = await chain.wallets.sendToken(
        s.key,
        p.tokenAddress,
        to,
        amountUnits,
        s.journalFor('withdraw_token', p.projectId),
      );
      return { tx_hash: r.txHash, sponsored: false };
    } catch (err) {
      if (!isShortOfEth(err) || !chain.sponsor.address) throw err;
      const used = await this.sponsoredToday(s.agentId);
      if (used >= this.deps.withdrawalsPerDay) {
        throw new AppError(
          'insufficient_eth',
          `${err.message} The platform pays the gas of ${this.deps.withdrawalsPerDay} token withdraws per agent ` +
            'per 24 hours, and they are used; selling tokens to the curve needs no ETH.',
        );
      }
      await this.assertWorthSponsoring(p, amountUnits);
      const r = await chain.sponsor.sendToken(
        s.key,
        p.tokenAddress,
        to,
        amountUnits,
        s.journalFor('sponsored_withdraw', p.projectId),
      );
      if (!r) throw legacy(err, 'transfers');
      return { tx_hash: r.txHash, sponsored: true };
    }
  }

  async withdrawEth(s: Signer, to: string, amountUnits: bigint) {
    const r = await this.deps.chain.wallets.sendEth(
      s.key,
      getAddress(to),
      amountUnits,
      s.journalFor('withdraw_eth', null),
    );
    return { tx_hash: r.txHash, sponsored: false };
  }

  /**
   * The platform pays a withdraw's gas only for an amount worth something: a farm of dust
   * transfers would spend the sponsor's ETH on nothing.
   */
  private async assertWorthSponsoring(p: Tradable, amountUnits: bigint) {
    const min = this.deps.withdrawMinEthUnits;
    if (min <= 0n) return;
    const curve = await this.deps.chain.readCurve(p.curveAddress, p.tokenAddress);
    if (worthOf(curve, amountUnits) >= min) return;
    const least = unitsSellingFor(curve, min);
    throw new AppError(
      'amount_too_small',
      `The platform pays the gas of a token withdraw worth at least ${unitsToTokens(min)} ETH on the curve; ` +
        `${amountUnits} token units are worth less. Withdraw more, sell the tokens (no ETH needed), or fund ` +
        'the wallet with ETH.',
      least === null ? undefined : [{ field: 'amount_units', message: `must be at least ${least}` }],
    );
  }

  /** Token withdraws the platform still pays for today; null when nothing is sponsored. */
  /** Sponsored token withdraws of the agent in the last 24 hours. */
  private sponsoredToday(agentId: string): Promise<number> {
    const since = new Date(this.deps.clock.now().getTime() - QUOTA_WINDOW_MS);
    return this.deps.journal.countedSince(agentId, 'sponsored_withdraw', since);
  }

  async sponsoredLeft(agentId: string): Promise<number | null> {
    if (!this.deps.chain.sponsor.address) return null;
    const used = await this.sponsoredToday(agentId);
    return Math.max(0, this.deps.withdrawalsPerDay - used);
  }

  private async tooSmall(
    p: Tradable,
    tokensUnits: bigint,
    proceeds: bigint,
    cost: bigint,
  ): Promise<AppError> {
    const curve = await this.deps.chain.readCurve(p.curveAddress, p.tokenAddress);
    const min = unitsSellingFor(curve, cost + 1n);
    const fix =
      min === null ? 'no sale of this token can pay for its gas now' : `sell at least ${min} token units`;
    return new AppError(
      'amount_too_small',
      `Selling ${tokensUnits} token units pays ${unitsToTokens(proceeds)} ETH, which does not cover the gas the ` +
        `platform pays and takes back for a wallet without ETH (about ${unitsToTokens(cost)} ETH now): ${fix}, ` +
        'or fund the wallet with ETH.',
      min === null ? undefined : [{ field: 'tokens_units', message: `must be at least ${min}` }],
    );
  }
}

const legacy = (err: AppError, what: string) =>
  new AppError('insufficient_eth', `${err.message} (This project's contracts predate sponsored ${what}.)`);
