import { getAddress } from 'viem';
import type { Db, Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { AuthAgent } from '../../infra/http/auth.ts';
import { generateApiKey, hashApiKey } from '../../lib/api-key.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { stripHidden } from '../../lib/text.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from './agent-directory.ts';
import * as repo from './agents.repo.ts';
import type { ActiveClaimJson, OwnAgentJson, PublicAgentJson, RegisterBody } from './agents.schemas.ts';
import type { RepoIdentity } from './repo-identity.ts';

export interface AgentsDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  directory: AgentDirectory;
  /** Repository-host logins: assigned at registration on the local host, linked on GitHub. */
  identity: RepoIdentity;
  /** Platform wallet addresses (operator, payout spender, treasury, factory): never an agent's wallet. */
  reservedAddresses: readonly string[];
  /**
   * Project token and curve contracts are never an agent's wallet either (the projects module's
   * `ProjectsService.isContractAddress`; declared here, since projects depend on agents).
   */
  projects: { isContractAddress(address: string): Promise<boolean> };
  /** The agent's bounties in `claimed` or `in_review`, from the bounties module. */
  activeClaimsOf: (agentId: string) => Promise<ActiveClaimJson[]>;
  /**
   * Seals a new in-app wallet for the agent inside the given transaction and returns its address
   * (the wallets module); absent when no wallet master key is configured.
   */
  createWallet?: ((tx: Executor, agentId: string) => Promise<string>) | null;
  /** The agent whose in-app wallet has this address, if any (the wallets module). */
  inAppOwnerOf?: (address: string) => Promise<string | null>;
}

const toPublic = (r: repo.AgentRow): PublicAgentJson => ({
  id: r.id,
  name: r.name,
  wallet_address: r.walletAddress,
  wallet_type: r.walletType as PublicAgentJson['wallet_type'],
  repo_login: r.repoLogin,
  created_at: r.createdAt.toISOString(),
});

export class AgentsService {
  private readonly reserved: Set<string>;
  private readonly rotatedListeners: ((agentId: string, keep?: string) => Promise<void>)[] = [];

  constructor(private readonly deps: AgentsDeps) {
    this.reserved = new Set(deps.reservedAddresses.map((a) => a.toLowerCase()));
  }

  async authenticate(apiKey: string): Promise<AuthAgent | null> {
    return (await repo.findByKeyHash(this.deps.db, hashApiKey(apiKey))) ?? null;
  }

  async register(body: RegisterBody) {
    const { db, clock, activity } = this.deps;
    const wallet = body.wallet_address ? await this.checkWallet(body.wallet_address) : null;
    if (wallet && (await this.deps.inAppOwnerOf?.(wallet))) throw walletTaken();
    const apiKey = generateApiKey();
    const now = clock.now();
    const row = await this.mapUniqueErrors(() =>
      db.transaction(async (tx) => {
        let created = await repo.insert(tx, {
          id: newId('agent'),
          name: body.name,
          description: body.description === undefined ? null : stripHidden(body.description),
          walletAddress: wallet,
          walletType: wallet ? 'external' : null,
          apiKeyHash: hashApiKey(apiKey),
          repoLogin: null,
          createdAt: now,
          updatedAt: now,
        });
        // The key row references the agent, so the agent exists before its wallet does.
        if (!wallet && this.deps.createWallet) {
          const address = await this.deps.createWallet(tx, created.id);
          created = (await repo.update(tx, created.id, {
            walletAddress: address,
            walletType: 'walletvendor_inapp',
          })) as repo.AgentRow;
        }
        if (this.deps.identity.assignsLogins) created = await this.deps.identity.assign(tx, created);
        await activity.record(tx, {
          type: 'agent.registered',
          agentId: created.id,
          data: { name: created.name },
        });
        return created;
      }),
    );
    return { ...toPublic(row), description: row.description, api_key: apiKey };
  }

  async getPublic(id: string): Promise<PublicAgentJson> {
    return toPublic(await this.require(id));
  }

  async getOwn(id: string): Promise<OwnAgentJson> {
    const [row, claims] = await Promise.all([this.require(id), this.deps.activeClaimsOf(id)]);
    return { ...toPublic(row), description: row.description, active_claims: claims };
  }

  async setExternalWallet(id: string, address: string): Promise<PublicAgentJson> {
    const wallet = await this.checkWallet(address);
    // An in-app address stays its owner's: another agent cannot point payouts at a key it does not
    // hold, while the owner may switch back to it.
    const inAppOwner = (await this.deps.inAppOwnerOf?.(wallet)) ?? null;
    if (inAppOwner && inAppOwner !== id) throw walletTaken();
    const row = await this.mapUniqueErrors(() =>
      repo.update(this.deps.db, id, {
        walletAddress: wallet,
        walletType: inAppOwner ? 'walletvendor_inapp' : 'external',
        updatedAt: this.deps.clock.now(),
      }),
    );
    if (!row) throw notFound('agent');
    return toPublic(row);
  }

  /** `POST /api/agents/me/repo-identity`: links the host account a token belongs to. */
  async linkRepoIdentity(id: string, token: string): Promise<PublicAgentJson> {
    return toPublic(await this.deps.identity.link(id, token));
  }

  /**
   * The local host's authenticator: an API key -> the agent's login, assigned now for an agent
   * registered before logins existed. Null for a key that is nobody's.
   */
  async repoLoginForKey(apiKey: string): Promise<string | null> {
    const agent = await this.authenticate(apiKey);
    if (!agent) return null;
    const row = await this.require(agent.id);
    if (row.repoLogin || !this.deps.identity.assignsLogins) return row.repoLogin;
    return (await this.deps.identity.assign(this.deps.db, row)).repoLogin;
  }

  /**
   * Tells who holds something the old key opened (the web's sessions) that it was rotated.
   * `keep`: the caller's own session (the console that rotated it), which is not ended.
   */
  onKeyRotated(listener: (agentId: string, keep?: string) => Promise<void>): void {
    this.rotatedListeners.push(listener);
  }

  /**
   * A new key; the old one stops at once, and every web session started with it ends (but the
   * one in `keepSession`, the console page that asked).
   */
  async rotateKey(id: string, keepSession?: string): Promise<string> {
    const apiKey = generateApiKey();
    const row = await repo.update(this.deps.db, id, {
      apiKeyHash: hashApiKey(apiKey),
      updatedAt: this.deps.clock.now(),
    });
    if (!row) throw notFound('agent');
    for (const l of this.rotatedListeners) await l(id, keepSession);
    return apiKey;
  }

  async generateWallet(id: string): Promise<PublicAgentJson> {
    const { db, clock, createWallet } = this.deps;
    const row = await this.require(id);
    if (row.walletAddress) throw walletAlreadySet();
    if (!createWallet) {
      throw new AppError(
        'wallets_unavailable',
        'Wallet generation is unavailable: no wallet master key is configured.',
      );
    }
    const updated = await this.mapUniqueErrors(() =>
      db.transaction(async (tx) => {
        const address = await createWallet(tx, id);
        const set = { walletAddress: address, walletType: 'walletvendor_inapp', updatedAt: clock.now() };
        // A wallet set meanwhile (PATCH or a racing generate) wins; this transaction rolls back.
        const changed = await repo.update(tx, id, set, true);
        if (!changed) throw walletAlreadySet();
        return changed;
      }),
    );
    return toPublic(updated);
  }

  async count(): Promise<number> {
    return repo.count(this.deps.db);
  }

  private require(id: string): Promise<repo.AgentRow> {
    return this.deps.directory.require(id);
  }

  /**
   * The one rule for an agent's wallet (registration, update, and again at payout): never an
   * address whose funds nobody can use or that the platform itself signs for, where a payout
   * would revert forever or pay the platform. Returns the address checksummed.
   */
  async checkWallet(address: string): Promise<string> {
    const checksummed = getAddress(address.toLowerCase());
    if (BigInt(checksummed) === 0n) {
      throw new AppError(
        'invalid_wallet_address',
        'The zero address cannot be a wallet: nobody holds its key.',
      );
    }
    if (this.reserved.has(checksummed.toLowerCase())) {
      throw new AppError(
        'platform_wallet',
        'That address belongs to the platform and cannot be an agent wallet.',
      );
    }
    if (await this.deps.projects.isContractAddress(checksummed)) {
      throw new AppError(
        'platform_wallet',
        "That address is a project's token or curve contract and cannot be an agent wallet.",
      );
    }
    return checksummed;
  }

  private async mapUniqueErrors<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'agents_name_fold_key' || constraint === 'agents_name_lower_key')
        throw new AppError(
          'name_taken',
          'An agent with that name already exists (names compare ignoring case and the separators - _ . and spaces).',
        );
      // One sealed key per agent: a racing generate-wallet lost.
      if (constraint === 'wallet_keys_pkey') throw walletAlreadySet();
      if (constraint === 'agents_wallet_address_key') throw walletTaken();
      throw err;
    }
  }
}

const walletAlreadySet = () =>
  new AppError(
    'wallet_already_set',
    'This agent already has a wallet address; generate-wallet only fills a missing one.',
  );

const walletTaken = () => new AppError('wallet_taken', 'That wallet address belongs to another agent.');
