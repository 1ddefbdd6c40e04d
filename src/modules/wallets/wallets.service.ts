import { getAddress, type Hex } from 'viem';
import type { Chain } from '../../infra/chain/chain.ts';
import { tokensToUnits, unitsToTokens } from '../../infra/chain/chain.ts';
import type { SealedKey, WalletVault } from '../../infra/chain/wallet-vault.ts';
import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, forbidden, invalidState } from '../../lib/errors.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { HoldingsService } from '../holdings/holdings.service.ts';
import type { PayabilityService } from '../payability/payability.service.ts';
import type { ProjectRecord, ProjectsService } from '../projects/projects.service.ts';
import { CashOut } from './cash-out.ts';
import { insufficient, units } from './wallet-input.ts';
import type { WalletJournal } from './wallet-journal.ts';
import { KeyedQueue } from './wallets.queue.ts';
import * as repo from './wallets.repo.ts';
import type {
  ApprovalStatusJson,
  BuyBody,
  EarningsJson,
  FaucetBody,
  SellBody,
  WalletJson,
  WithdrawBody,
} from './wallets.schemas.ts';

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
  journal: WalletJournal;
  /** What wallets hold, kept from the chain; refreshed after each action. */
  holdings: Pick<HoldingsService, 'afterAction' | 'holdingsOf' | 'valueEarnings'>;
  /** SPONSORED_WITHDRAWALS_PER_DAY. */
  sponsoredWithdrawalsPerDay: number;
  /** Told after each token action, so `payable` follows the founder's funds at once. */
  payability: Pick<PayabilityService, 'afterChange'>;
  devChain: boolean;
}

/** The caller as the auth hook found it: its wallet is the one current at this request. */
export interface WalletOwner {
  id: string;
  walletAddress: string | null;
}

const ETH = 10n ** 18n;
export const FAUCET_DEFAULT_UNITS = ETH;
export const FAUCET_MAX_UNITS = 100n * ETH;

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * In-app (custodial) wallets: owns the sealed keys in wallet_keys and signs the wallet actions
 * of agents whose current wallet is their in-app one. Private keys are unsealed per action and
 * handed only to the chain adapter; they are never stored unsealed, logged or returned.
 */
export class WalletsService {
  private readonly queue = new KeyedQueue();
  private readonly cashOut: CashOut;

  constructor(private readonly deps: WalletsDeps) {
    this.cashOut = new CashOut({
      chain: deps.chain,
      journal: deps.journal,
      holdings: deps.holdings,
      withdrawalsPerDay: deps.sponsoredWithdrawalsPerDay,
    });
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

  async show(owner: WalletOwner): Promise<WalletJson> {
    const { chain, holdings } = this.deps;
    const address = owner.walletAddress;
    // Side by side: the ETH balance (the node), and the key, tokens, earnings and sponsored count
    // (the database); the sponsored count is read for every wallet and shown for in-app ones.
    const [earnings, stored, balance, tokens, left] = await Promise.all([
      this.earnings(owner.id),
      address ? repo.findByAgent(this.deps.db, owner.id) : undefined,
      address && chain.info ? chain.wallets.ethBalance(address) : null,
      address && chain.info ? holdings.holdingsOf(address) : [],
      address ? this.cashOut.sponsoredLeft(owner.id) : null,
    ]);
    const inApp = !!address && stored !== undefined && sameAddress(stored.address, address);
    return {
      address,
      wallet_type: address ? (inApp ? 'walletvendor_inapp' : 'external') : null,
      eth_balance_units: balance === null ? null : balance.toString(),
      tokens,
      earnings,
      sponsored_withdrawals_left: inApp ? left : null,
    };
  }

  /** What the agent earned per project, and what it would all sell for now. */
  async earnings(agentId: string): Promise<EarningsJson> {
    return this.deps.holdings.valueEarnings(await this.deps.bounties.earningsOf(agentId));
  }

  async buy(owner: WalletOwner, projectId: string, body: BuyBody) {
    const ethUnits = units('eth_units', body.eth_units);
    const minTokens = units('min_tokens_units', body.min_tokens_units);
    const project = await this.tradable(projectId);
    return this.withKey(owner, async (key, address) => {
      // Short of ETH (the value and the gas) is `insufficient_eth`, found before anything is signed.
      const journal = this.deps.journal.for({ kind: 'buy', agentId: owner.id, projectId });
      try {
        const r = await this.deps.chain.wallets.buy(key, project.curveAddress, ethUnits, minTokens, journal);
        return { tx_hash: r.txHash, tokens_units: r.tokensUnits.toString() };
      } finally {
        await this.deps.holdings.afterAction(projectId, [address]).catch(() => {});
      }
    }).finally(() => this.deps.payability.afterChange(projectId));
  }

  /** A sale to the curve; a wallet without ETH for gas is sponsored (see cash-out.ts). */
  async sell(owner: WalletOwner, projectId: string, body: SellBody) {
    const tokensUnits = units('tokens_units', body.tokens_units);
    const minEth = units('min_eth_units', body.min_eth_units);
    const project = await this.tradable(projectId);
    return this.withKey(owner, async (key, address) => {
      const have = await this.deps.chain.wallets.tokenBalance(project.tokenAddress, address);
      if (have < tokensUnits) throw insufficient('token units', have, tokensUnits);
      return this.cashOut.sell({ agentId: owner.id, key, address }, project, tokensUnits, minEth);
    }).finally(() => this.deps.payability.afterChange(projectId));
  }

  /** Replaces (does not add to) the payout router's allowance on the project's token. */
  async setAllowance(owner: WalletOwner, projectId: string, amountTokens: number) {
    const project = await this.tradable(projectId);
    return this.withKey(owner, async (key) => {
      const r = await this.deps.chain.wallets.approvePayouts(
        key,
        project.tokenAddress,
        tokensToUnits(amountTokens),
        this.deps.journal.for({ kind: 'allowance', agentId: owner.id, projectId }),
      );
      return { tx_hash: r.txHash, allowance_units: r.allowanceUnits.toString() };
    }).finally(() => this.deps.payability.afterChange(projectId));
  }

  async withdraw(owner: WalletOwner, body: WithdrawBody) {
    const amount = units('amount_units', body.amount_units);
    const to = getAddress(body.to.toLowerCase());
    // Nobody can move what is sent to these: the zero address and the project contracts.
    if (BigInt(to) === 0n) {
      throw new AppError('validation_error', 'The request body is invalid.', [
        { field: 'to', message: 'must not be the zero address' },
      ]);
    }
    if (await this.deps.projects.isContractAddress(to)) {
      throw new AppError('validation_error', 'The request body is invalid.', [
        { field: 'to', message: "must not be a project's token or curve contract" },
      ]);
    }
    const projectId = body.project_id;
    const project = projectId === undefined ? null : await this.tradable(projectId);
    const { wallets } = this.deps.chain;
    const sent = this.withKey(owner, async (key, address) => {
      const signer = { agentId: owner.id, key, address };
      if (project) {
        const have = await wallets.tokenBalance(project.tokenAddress, address);
        if (have < amount) throw insufficient('token units', have, amount);
        return this.cashOut.withdrawToken(signer, project, to, amount);
      }
      // The amount and the gas must both fit: short of either is `insufficient_eth` (nothing sent).
      return this.cashOut.withdrawEth(signer, to, amount);
    });
    // Tokens left the sender (perhaps a founder) or reached the recipient (perhaps another).
    return projectId === undefined ? sent : sent.finally(() => this.deps.payability.afterChange(projectId));
  }

  /** Dev chain only (the route exists only there): test ETH for the caller's wallet, any kind. */
  async faucet(owner: WalletOwner, body: FaucetBody) {
    const ethUnits = units('eth_units', body?.eth_units, FAUCET_DEFAULT_UNITS);
    if (ethUnits > FAUCET_MAX_UNITS) {
      throw new AppError('validation_error', 'The request body is invalid.', [
        { field: 'eth_units', message: `must be at most ${FAUCET_MAX_UNITS} (100 ETH)` },
      ]);
    }
    if (!this.deps.devChain) throw new AppError('not_found', 'The faucet exists only on the dev chain.');
    const address = requireWallet(owner);
    const r = await this.deps.chain.faucet(address, ethUnits);
    return { tx_hash: r.txHash, address, eth_units: ethUnits.toString() };
  }

  /** What the founder's wallet can still back: the funds check of bounty creation, in figures. */
  async approvalStatus(callerId: string, founderWallet: string | null, projectId: string) {
    const project = await this.deps.projects.require(projectId);
    if (project.founderId !== callerId)
      throw forbidden('Only the project founder can see its approval status.');
    if (!project.tokenAddress) {
      throw new AppError(
        'token_not_deployed',
        "The project's token is deployed when the project is activated.",
      );
    }
    if (!founderWallet) {
      throw new AppError('founder_without_wallet', 'The founder has no wallet address to hold tokens.');
    }
    const f = await this.deps.funds.figures(
      project.tokenAddress,
      founderWallet,
      await this.deps.bounties.committedUnits(projectId),
    );
    return {
      balance: unitsToTokens(f.balanceUnits),
      allowance: unitsToTokens(f.allowanceUnits),
      committed: unitsToTokens(f.committedUnits),
      available: unitsToTokens(f.availableUnits),
    } satisfies ApprovalStatusJson;
  }

  private async tradable(projectId: string) {
    const project: ProjectRecord = await this.deps.projects.require(projectId);
    if (project.status !== 'active' || !project.tokenAddress || !project.curveAddress) {
      throw invalidState("The project's token can be traded only once the project is active.");
    }
    return { projectId, tokenAddress: project.tokenAddress, curveAddress: project.curveAddress };
  }

  /** The sealed key of the owner's current wallet; refused when that wallet is not in-app. */
  private async keyOf(owner: WalletOwner): Promise<SealedKey> {
    const address = requireWallet(owner);
    const stored = await repo.findByAgent(this.deps.db, owner.id);
    if (!stored || !sameAddress(stored.address, address)) {
      throw new AppError(
        'external_wallet',
        'Your wallet is external: the service holds no key for it, so sign this transaction yourself.',
      );
    }
    return {
      address: stored.address,
      encryptedKey: stored.encryptedKey,
      wrappedDataKey: stored.wrappedDataKey,
    };
  }

  /** Runs `fn` with the owner's unsealed key, one action per wallet at a time. */
  private async withKey<T>(owner: WalletOwner, fn: (key: Hex, address: string) => Promise<T>): Promise<T> {
    const sealed = await this.keyOf(owner);
    const vault = this.deps.vault;
    if (!vault) throw unavailable();
    // Unsealed only when its turn comes, so a waiting action holds no plaintext key.
    return this.queue.run(sealed.address.toLowerCase(), () => fn(vault.unseal(sealed), sealed.address));
  }
}

function requireWallet(owner: WalletOwner): string {
  if (!owner.walletAddress) {
    throw new AppError(
      'no_wallet',
      'You have no wallet yet: create one with POST /api/agents/me/generate-wallet or set one with PATCH /api/agents/me/wallet.',
    );
  }
  return owner.walletAddress;
}

const unavailable = () =>
  new AppError('wallets_unavailable', 'In-app wallets are unavailable: no wallet master key is configured.');
