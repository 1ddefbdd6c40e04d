import { getAddress } from 'viem';
import { type Chain, tokensToUnits } from '../../infra/chain/chain.ts';
import type { WalletVault } from '../../infra/chain/wallet-vault.ts';
import type { Db, Executor } from '../../infra/db/client.ts';
import { allInOrder } from '../../lib/all-in-order.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { AppError } from '../../lib/errors.ts';
import { usdOf } from '../../lib/usd.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { HoldingsService } from '../holdings/holdings.service.ts';
import type { PricesService } from '../prices/prices.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { TransactionJournal } from '../transactions/journal.ts';
import { approvalStatus } from './approval-status.ts';
import { CashOut } from './cash-out.ts';
import { faucet } from './faucet.ts';
import { unavailable, WalletActionRunner } from './wallet-action.ts';
import { NO_REF, type RequestRef, type TransactionJson, transactionJson } from './wallet-answers.ts';
import { insufficient, tradable, units } from './wallet-input.ts';
import { signingKeyOf, type WalletOwner } from './wallet-keys.ts';
import { sameAddress, storedWallet } from './wallet-view.ts';
import * as repo from './wallets.repo.ts';
import type {
  BuyBody,
  EarningsJson,
  FaucetBody,
  SellBody,
  WalletJson,
  WithdrawBody,
} from './wallets.schemas.ts';
import { WithdrawDestinations } from './withdraw-destinations.ts';

export interface WalletsDeps {
  db: Db;
  clock: Clock;
  chain: Chain;
  /** Seals and unseals custodial keys; null when no master key is configured. */
  vault: WalletVault | null;
  projects: ProjectsService;
  bounties: Pick<BountiesService, 'committedUnits' | 'earningsOf'>;
  funds: FundsService;
  /** Nonces and records of wallet transactions, in the database. */
  journal: TransactionJournal;
  /** What wallets hold, kept from the chain; refreshed after each action. */
  holdings: Pick<HoldingsService, 'holdingsOf' | 'valueEarnings' | 'ethBalanceOf' | 'refreshEth'>;
  prices: Pick<PricesService, 'ethUsd'>;
  /** SPONSORED_WITHDRAWALS_PER_DAY. */
  sponsoredWithdrawalsPerDay: number;
  /** SPONSORED_WITHDRAW_MIN_ETH_UNITS: the least a sponsored token withdraw is worth on the curve. */
  sponsoredWithdrawMinEthUnits: bigint;
  /** The platform's own addresses (operator, payout key, router, treasury, factory, sponsor). */
  platformAddresses: readonly string[];
  /**
   * Told when each action ends (`wallet.acted`): balances, ETH and the founder's `payable` marks
   * follow at once (holdings and payability listen, wired in compose.ts).
   */
  events: Pick<DomainEvents, 'publish'>;
  devChain: boolean;
}

/**
 * In-app (custodial) wallets: owns the sealed keys in wallet_keys and signs the wallet actions
 * of agents whose current wallet is their in-app one. Private keys are unsealed per action and
 * handed only to the chain adapter; they are never stored unsealed, logged or returned.
 */
export class WalletsService {
  private readonly cashOut: CashOut;
  private readonly actions: WalletActionRunner;
  private readonly destinations: WithdrawDestinations;

  constructor(private readonly deps: WalletsDeps) {
    this.actions = new WalletActionRunner(deps);
    this.cashOut = new CashOut({
      chain: deps.chain,
      clock: deps.clock,
      journal: deps.journal,
      withdrawalsPerDay: deps.sponsoredWithdrawalsPerDay,
      withdrawMinEthUnits: deps.sponsoredWithdrawMinEthUnits,
    });
    this.destinations = new WithdrawDestinations(deps.platformAddresses, deps.projects);
  }

  get enabled(): boolean {
    return this.deps.vault !== null;
  }

  /** Seals a fresh key for the agent inside the caller's transaction; returns its address. */
  async create(tx: Executor, agentId: string): Promise<string> {
    const { vault, clock } = this.deps;
    if (!vault) throw unavailable();
    const sealed = vault.create();
    await repo.insert(tx, {
      agentId,
      address: sealed.address,
      encryptedKey: sealed.encryptedKey,
      wrappedDataKey: sealed.wrappedDataKey,
      createdAt: clock.now(),
    });
    return sealed.address;
  }

  /** The agent whose in-app wallet has this address, or null. */
  async ownerOf(address: string): Promise<string | null> {
    return (await repo.findByAddress(this.deps.db, address))?.agentId ?? null;
  }

  /**
   * `fresh`: the ETH balance read from the node (the console passes it: a deposit shows at once).
   * A wallet read whole before is the database's to answer, in one statement (wallet-view.ts).
   */
  async show(owner: WalletOwner, fresh = false): Promise<WalletJson> {
    const a = owner.walletAddress;
    const stored = a && this.deps.chain.info && !fresh ? await storedWallet(this.deps, owner.id, a) : null;
    return stored ?? this.read(owner, fresh);
  }

  /** The long way, each part from its owner side by side: the first look, or a fresh ETH read. */
  private async read(owner: WalletOwner, fresh: boolean): Promise<WalletJson> {
    const { chain, holdings } = this.deps;
    const address = owner.walletAddress;
    const [earnings, stored, balance, tokens, left, usd] = await allInOrder([
      this.earnings(owner.id),
      address ? repo.findByAgent(this.deps.db, owner.id) : undefined,
      address && chain.info ? holdings.ethBalanceOf(address, fresh) : null,
      address && chain.info ? holdings.holdingsOf(address) : [],
      address ? this.cashOut.sponsoredLeft(owner.id) : null,
      this.deps.prices.ethUsd(),
    ]);
    const inApp = !!address && stored !== undefined && sameAddress(stored.address, address);
    return {
      address,
      wallet_type: address ? (inApp ? 'walletvendor_inapp' : 'external') : null,
      eth_balance_units: balance === null ? null : balance.units.toString(),
      eth_balance_block: balance === null ? null : balance.block.toString(),
      tokens: tokens.map((t) => ({ ...t, value_usd: usdOf(t.value_eth_units, usd) })),
      earnings,
      sponsored_withdrawals_left: inApp ? left : null,
    };
  }

  /** What the agent earned per project, and what it would all sell for now. */
  async earnings(agentId: string): Promise<EarningsJson> {
    return this.deps.holdings.valueEarnings(await this.deps.bounties.earningsOf(agentId));
  }

  async buy(owner: WalletOwner, projectId: string, body: BuyBody, ref: RequestRef = NO_REF) {
    const ethUnits = units('eth_units', body.eth_units);
    const minTokens = units('min_tokens_units', body.min_tokens_units);
    const project = await tradable(this.deps.projects, projectId);
    return this.actions.run(owner, ref, { projectId, to: null }, async (key, _address, journalFor) => {
      // Short of ETH (the value and the gas) is `insufficient_eth`, found before anything is signed.
      const journal = journalFor('buy', projectId);
      const r = await this.deps.chain.wallets.buy(key, project.curveAddress, ethUnits, minTokens, journal);
      return { tx_hash: r.txHash, tokens_units: r.tokensUnits.toString() };
    });
  }

  /** A sale to the curve; a wallet without ETH for gas is sponsored (see cash-out.ts). */
  async sell(owner: WalletOwner, projectId: string, body: SellBody, ref: RequestRef = NO_REF) {
    const tokensUnits = units('tokens_units', body.tokens_units);
    const minEth = units('min_eth_units', body.min_eth_units);
    const project = await tradable(this.deps.projects, projectId);
    return this.actions.run(owner, ref, { projectId, to: null }, async (key, address, journalFor) => {
      const have = await this.deps.chain.wallets.tokenBalance(project.tokenAddress, address);
      if (have < tokensUnits) throw insufficient('token units', have, tokensUnits);
      return this.cashOut.sell({ agentId: owner.id, key, address, journalFor }, project, tokensUnits, minEth);
    });
  }

  /** Replaces (does not add to) the payout router's allowance on the project's token. */
  async setAllowance(owner: WalletOwner, projectId: string, amountTokens: number, ref: RequestRef = NO_REF) {
    const project = await tradable(this.deps.projects, projectId);
    // No token moves: the holder's balance stays (its ETH and the founder's `payable` marks follow).
    return this.actions.run(
      owner,
      ref,
      { projectId, to: null, moves: false },
      async (key, _address, journalFor) => {
        const r = await this.deps.chain.wallets.approvePayouts(
          key,
          project.tokenAddress,
          tokensToUnits(amountTokens),
          journalFor('allowance', projectId),
        );
        return { tx_hash: r.txHash, allowance_units: r.allowanceUnits.toString() };
      },
    );
  }

  async withdraw(owner: WalletOwner, body: WithdrawBody, ref: RequestRef = NO_REF) {
    const amount = units('amount_units', body.amount_units);
    const to = getAddress(body.to.toLowerCase());
    await this.destinations.assertAllowed(owner, to);
    const projectId = body.project_id;
    const project = projectId === undefined ? null : await tradable(this.deps.projects, projectId);
    const { wallets } = this.deps.chain;
    return this.actions.run(
      owner,
      ref,
      { projectId: projectId ?? null, to },
      async (key, address, journalFor) => {
        const signer = { agentId: owner.id, key, address, journalFor };
        if (project) {
          const have = await wallets.tokenBalance(project.tokenAddress, address);
          if (have < amount) throw insufficient('token units', have, amount);
          return this.cashOut.withdrawToken(signer, project, to, amount);
        }
        // The amount and the gas must both fit: short of either is `insufficient_eth` (nothing sent).
        return this.cashOut.withdrawEth(signer, to, amount);
      },
    );
  }

  /** Dev chain only (the route exists only there): test ETH for the caller's wallet, any kind. */
  faucet(owner: WalletOwner, body: FaucetBody) {
    return faucet(this.deps, owner, body);
  }

  /** What the founder's wallet can still back: the funds check of bounty creation, in figures. */
  approvalStatus(callerId: string, founderWallet: string | null, projectId: string) {
    return approvalStatus(this.deps, callerId, founderWallet, projectId);
  }

  /** The key the engine signs again with for a signer it follows: a wallet's, or the sponsor's (null). */
  signingKeyOf(signer: string): Promise<string | null | undefined> {
    return signingKeyOf(this.deps, signer);
  }

  /** The caller's transaction by id (its own only: another agent's is 404). */
  async transaction(owner: WalletOwner, id: string): Promise<TransactionJson> {
    const intent = await this.deps.journal.find(id);
    if (!intent || intent.agentId !== owner.id)
      throw new AppError('not_found', 'No such transaction of yours.');
    return transactionJson(intent);
  }

  /** The caller's transactions, newest first. */
  async transactions(owner: WalletOwner, limit: number): Promise<TransactionJson[]> {
    return (await this.deps.journal.list(owner.id, limit)).map(transactionJson);
  }
}
