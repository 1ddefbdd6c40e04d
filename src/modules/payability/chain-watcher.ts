import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Chain, FundsLog } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { HoldingsService } from '../holdings/holdings.service.ts';
import * as cursors from './chain-cursor.repo.ts';
import { watchedProjects } from './payability.repo.ts';
import type { PayabilityService } from './payability.service.ts';

export interface ChainWatcherDeps {
  db: Db;
  clock: Clock;
  chain: Pick<Chain, 'info' | 'tokenFundsLogs' | 'payoutSigner'>;
  payability: Pick<PayabilityService, 'refresh' | 'refreshAll'>;
  /** What wallets hold: told of every range's Transfer logs (who holds what changed). */
  holdings?: Pick<
    HoldingsService,
    'fromLogs' | 'refreshAllCurves' | 'refreshMissingCurves' | 'refreshStaleEth'
  >;
  log: FastifyBaseLogger;
  intervalSeconds: number;
}

export type PollResult =
  | { status: 'disabled' }
  /** Another instance holds the lease; this one read nothing. */
  | { status: 'standby' }
  | { status: 'polled'; fromBlock: bigint; toBlock: bigint; projects: string[] };

export const WATCHER_CURSOR = 'payability-token-logs';
/** Blocks per eth_getLogs call: public providers refuse wide ranges (often over 2,000 blocks). */
const BLOCK_CHUNK = 2_000n;
/** Token addresses per eth_getLogs call, to keep requests small with many projects. */
const ADDRESS_CHUNK = 200;
/** Chunks read in one poll at most, so a long outage is caught up over several passes. */
const MAX_CHUNKS_PER_POLL = 25;

const lower = (a: string) => a.toLowerCase();

/**
 * Follows the project tokens' Transfer and Approval logs and refreshes the payability of each
 * project whose founder sent or received tokens or changed the payout router's allowance. One
 * instance of a deployment follows at a time: it holds a lease in `chain_cursors`, renewed on every
 * poll; another instance takes over once the lease lapses. The cursor (last block handled) moves
 * only after the projects of a range were refreshed, so a restart or a takeover resumes there.
 */
export class ChainWatcher {
  /** This instance's name in the lease. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  private running: Promise<PollResult> | null = null;
  private closed = false;
  private held = false;
  private readonly fundsListeners: ((projectIds: string[]) => void)[] = [];

  constructor(private readonly deps: ChainWatcherDeps) {}

  /**
   * Told, after their payability was refreshed, of the projects whose founder's balance or
   * allowance a range of blocks changed (owed rewards are tried again at once).
   */
  onFundsChange(listener: (projectIds: string[]) => void): void {
    this.fundsListeners.push(listener);
  }

  private get leaseMs(): number {
    // Several missed polls, and never so short that a slow chunk loses the lease mid-pass.
    return Math.max(30_000, this.deps.intervalSeconds * 3_000);
  }

  /** One pass: take or renew the lease, read the new blocks' logs, refresh, move the cursor. */
  poll(): Promise<PollResult> {
    if (this.closed) return Promise.resolve({ status: 'standby' });
    const pass = this.pass();
    this.running = pass;
    void pass
      .catch(() => {})
      .finally(() => {
        if (this.running === pass) this.running = null;
      });
    return pass;
  }

  /** On shutdown, after a running pass: another instance takes over now, not when the lease lapses. */
  async release(): Promise<void> {
    this.closed = true;
    await this.running?.catch(() => {});
    if (!this.held) return;
    await cursors.releaseLease(this.deps.db, WATCHER_CURSOR, this.owner);
  }

  private async pass(): Promise<PollResult> {
    const { db, clock, chain, payability } = this.deps;
    const spender = chain.info?.payoutSpenderAddress;
    if (!spender) return { status: 'disabled' };
    const head = await chain.payoutSigner.headBlock();
    const now = clock.now();
    const lease = await cursors.takeLease(
      db,
      WATCHER_CURSOR,
      this.owner,
      now,
      new Date(now.getTime() + this.leaseMs),
      head,
    );
    if (!lease) return { status: 'standby' };
    this.held = true;
    // Nothing before the first run was followed: read every project's funds once instead.
    if (lease.created) {
      await payability.refreshAll();
      await this.deps.holdings?.refreshAllCurves();
    } else {
      await this.deps.holdings?.refreshMissingCurves();
    }
    // ETH has no Transfer log: stored balances are read again once a minute old (deposits from outside).
    await this.deps.holdings?.refreshStaleEth();
    const fromBlock = lease.blockNumber + 1n;
    const touched = new Set<string>();
    let cursor = lease.blockNumber;
    for (let i = 0; i < MAX_CHUNKS_PER_POLL && cursor < head; i++) {
      const from = cursor + 1n;
      const to = from + BLOCK_CHUNK - 1n < head ? from + BLOCK_CHUNK - 1n : head;
      const { projects, logs } = await this.read(from, to, spender);
      for (const projectId of projects) {
        // A failure throws before the cursor moves: the next poll reads this range again.
        await payability.refresh(projectId);
        touched.add(projectId);
      }
      if (projects.length > 0) for (const listener of this.fundsListeners) listener(projects);
      await this.deps.holdings?.fromLogs(logs);
      const at = clock.now();
      if (
        !(await cursors.advance(
          db,
          WATCHER_CURSOR,
          this.owner,
          to,
          at,
          new Date(at.getTime() + this.leaseMs),
        ))
      ) {
        // Another instance took over (this one stalled past its lease); it resumes from the cursor.
        return { status: 'standby' };
      }
      cursor = to;
    }
    return { status: 'polled', fromBlock, toBlock: cursor, projects: [...touched] };
  }

  /**
   * The token logs of [from, to], and the projects whose founder's balance or allowance for
   * `spender` they may have changed.
   */
  private async read(
    from: bigint,
    to: bigint,
    spender: string,
  ): Promise<{ projects: string[]; logs: FundsLog[] }> {
    const projects = await watchedProjects(this.deps.db);
    const byToken = new Map<string, { projectId: string; founder: string | null }>();
    for (const p of projects) {
      byToken.set(lower(p.tokenAddress), {
        projectId: p.projectId,
        founder: p.founderAddress && lower(p.founderAddress),
      });
    }
    const tokens = [...byToken.keys()];
    const logs: FundsLog[] = [];
    for (let i = 0; i < tokens.length; i += ADDRESS_CHUNK) {
      logs.push(...(await this.deps.chain.tokenFundsLogs(tokens.slice(i, i + ADDRESS_CHUNK), from, to)));
    }
    const touched = new Set<string>();
    for (const l of logs) {
      const p = byToken.get(lower(l.tokenAddress));
      if (!p?.founder) continue;
      const hit =
        l.kind === 'transfer'
          ? lower(l.from) === p.founder || lower(l.to) === p.founder
          : lower(l.owner) === p.founder && lower(l.spender) === lower(spender);
      if (hit) touched.add(p.projectId);
    }
    return { projects: [...touched], logs };
  }
}
