import type { FastifyBaseLogger } from 'fastify';
import type { Chain, FundsLog } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { type CurveAt, worthOf } from '../../lib/curve.ts';
import { JoinQueue } from '../../lib/join-queue.ts';
import * as eth from './eth-balances.repo.ts';
import * as repo from './holdings.repo.ts';

export interface HoldingsDeps {
  db: Db;
  clock: Clock;
  chain: Pick<Chain, 'readCurve' | 'wallets' | 'payoutSigner'>;
  platformFeeBps: number;
  log?: FastifyBaseLogger;
}

export interface TokenHoldingJson {
  project_id: string;
  project_name: string;
  token_symbol: string;
  token_address: string;
  balance_units: string;
  value_eth_units: string | null;
}

/** An agent's pay in one project (BountiesService.earningsOf). */
export interface EarnedRow {
  project_id: string;
  project_name: string;
  token_symbol: string;
  earned_units: string;
  completed: number;
}

interface Token {
  tokenAddress: string;
  curveAddress: string;
}

const ZERO = '0x0000000000000000000000000000000000000000';
/** Balances read in one batched round trip at most: a busy range of logs is read in several. */
const PAIRS_PER_READ = 500;
/** The watcher reads again ETH balances older than this (a deposit from outside the service). */
const ETH_STALE_MS = 60_000;
const ETH_PER_PASS = 100;

/** An ETH balance as the service last read it. */
export interface EthBalance {
  units: bigint;
  /** The block it was read at. */
  block: bigint;
}

/**
 * What wallets hold of project tokens, and what that is worth on the curves now, kept in the
 * database (`token_balances`, `token_states`) so reading it costs no chain call: the payability
 * watcher hands over every range of Transfer logs it reads, and the service's own actions
 * (sales, buys, withdraws, payouts) refresh what they changed before they answer. A wallet asked
 * about for the first time is read across every project token once.
 */
export class HoldingsService {
  /** Project id -> its token and curve, which never change once deployed. */
  private readonly tokens = new Map<string, Token>();
  private readonly actions = new JoinQueue<Set<string>, void>(
    (projectId, holders) => this.readAfterActions(projectId, [...holders]),
    (into, more) => {
      for (const h of more) into.add(h);
    },
  );

  constructor(private readonly deps: HoldingsDeps) {}

  /** Reads the curves of `tokens` and the balances of `holders` in them at one block, and stores them. */
  async refresh(tokens: Token[], holders: string[]): Promise<void> {
    if (tokens.length === 0) return;
    const { chain, db, clock } = this.deps;
    const block = await chain.payoutSigner.headBlock();
    const who = [...new Set(holders.map((h) => h.toLowerCase()))].filter((h) => h !== ZERO);
    const states = await Promise.all(
      tokens.map((t) => chain.readCurve(t.curveAddress, t.tokenAddress, block)),
    );
    // Token addresses as the projects table spells them: the reads join on them.
    const pairs = tokens.flatMap((t) => who.map((holder) => ({ tokenAddress: t.tokenAddress, holder })));
    const balances: bigint[] = [];
    for (let i = 0; i < pairs.length; i += PAIRS_PER_READ) {
      balances.push(...(await chain.wallets.readBalances(pairs.slice(i, i + PAIRS_PER_READ), block)));
    }
    const stored = tokens.map((t, i) => ({
      tokenAddress: t.tokenAddress,
      ...(states[i] as (typeof states)[number]),
    }));
    const held = pairs.map((p, i) => ({ ...p, balanceUnits: balances[i] as bigint }));
    await repo.store(db, stored, held, block, clock.now());
  }

  /**
   * After an action of the service on a project's token: its curve and these holders. Reads of one
   * project run one at a time, and an action's holders join a read waiting to start (it reads
   * after their action anyway): a burst of payouts of one project costs two reads, not one each.
   */
  afterAction(projectId: string, holders: string[]): Promise<void> {
    return this.actions.run(projectId, new Set(holders.map((h) => h.toLowerCase())));
  }

  private async readAfterActions(projectId: string, holders: string[]): Promise<void> {
    let token = this.tokens.get(projectId);
    if (!token) {
      // A project's token and curve never change once deployed: read them once per process.
      for (const t of await repo.deployedTokens(this.deps.db)) {
        if (t.tokenAddress && t.curveAddress) {
          this.tokens.set(t.projectId, { tokenAddress: t.tokenAddress, curveAddress: t.curveAddress });
        }
      }
      token = this.tokens.get(projectId);
    }
    if (token) await this.refresh([token], holders);
  }

  /** The watcher's Transfer logs of a range: every token that moved, and everyone it moved for. */
  async fromLogs(logs: FundsLog[]): Promise<void> {
    const byToken = new Map<string, Set<string>>();
    for (const l of logs) {
      if (l.kind !== 'transfer') continue;
      const token = l.tokenAddress.toLowerCase();
      const set = byToken.get(token) ?? new Set<string>();
      set.add(l.from).add(l.to);
      byToken.set(token, set);
    }
    if (byToken.size === 0) return;
    const deployed = await repo.deployedTokens(this.deps.db);
    for (const t of deployed) {
      const holders = t.tokenAddress && byToken.get(t.tokenAddress.toLowerCase());
      if (holders && t.curveAddress) {
        await this.tryRefresh({ tokenAddress: t.tokenAddress as string, curveAddress: t.curveAddress }, [
          ...holders,
        ]);
      }
    }
  }

  /** Every token's curve, once: the watcher's first pass, and activation. */
  async refreshAllCurves(): Promise<void> {
    const tokens = (await repo.deployedTokens(this.deps.db)).filter((t) => t.tokenAddress && t.curveAddress);
    for (const t of tokens) await this.tryRefresh(t as Token, []);
  }

  /** Curves never read yet (the watcher asks on every pass; one indexed query when there are none). */
  async refreshMissingCurves(): Promise<void> {
    for (const t of await repo.tokensWithoutState(this.deps.db)) await this.tryRefresh(t as Token, []);
  }

  /**
   * One token for the watcher: a curve that cannot be read (a node hiccup, a contract gone) is
   * logged and left for the next Transfer or pass, and never holds up payability's work.
   */
  private async tryRefresh(token: Token, holders: string[]): Promise<void> {
    try {
      await this.refresh([token], holders);
    } catch (err) {
      this.deps.log?.warn({ err, token: token.tokenAddress }, 'reading token holdings failed');
    }
  }

  /**
   * An address's ETH balance: as stored (no node call), or read from the node when `fresh` or
   * never read before, and stored with its block.
   */
  async ethBalanceOf(address: string, fresh = false): Promise<EthBalance> {
    const holder = address.toLowerCase();
    const row = fresh ? undefined : await eth.find(this.deps.db, holder);
    if (row) return { units: row.balanceUnits, block: row.blockNumber };
    const [read] = await this.readEth([holder]);
    return read as EthBalance;
  }

  /**
   * Reads the ETH balances of `holders` at one block and stores them: after the service's own
   * actions (gas paid, ETH sent or received), which must not fail for it (logged).
   */
  async refreshEth(holders: string[]): Promise<void> {
    try {
      await this.readEth([...new Set(holders.map((h) => h.toLowerCase()))]);
    } catch (err) {
      this.deps.log?.warn({ err }, 'reading ETH balances failed');
    }
  }

  /** The watcher's pass: the oldest stored ETH balances read more than a minute ago, again. */
  async refreshStaleEth(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - ETH_STALE_MS);
    const holders = await eth.staleHolders(this.deps.db, before, ETH_PER_PASS);
    if (holders.length > 0) await this.refreshEth(holders);
  }

  private async readEth(holders: string[]): Promise<EthBalance[]> {
    const { chain, db, clock } = this.deps;
    const block = await chain.payoutSigner.headBlock();
    // Batched by the transport: every read travels in one HTTP request.
    const units = await Promise.all(holders.map((h) => chain.wallets.ethBalance(h, block)));
    const rows = holders.map((holder, i) => ({ holder, balanceUnits: units[i] as bigint }));
    await eth.store(db, rows, block, clock.now());
    return rows.map((r) => ({ units: r.balanceUnits, block }));
  }

  /** The project tokens an address holds and what selling each whole balance pays now. */
  async holdingsOf(address: string): Promise<TokenHoldingJson[]> {
    const holder = address.toLowerCase();
    const { db, clock } = this.deps;
    if (!(await repo.isScanned(db, holder))) {
      const tokens = (await repo.deployedTokens(db)).filter((t) => t.tokenAddress && t.curveAddress);
      await this.refresh(tokens as Token[], [holder]);
      await repo.markScanned(db, holder, clock.now());
    }
    const rows = await repo.holdingsOf(db, holder);
    return rows.map((r) => ({
      project_id: r.projectId,
      project_name: r.projectName,
      token_symbol: r.tokenSymbol,
      token_address: r.tokenAddress,
      balance_units: r.balanceUnits.toString(),
      value_eth_units: quoteStored(r, r.balanceUnits),
    }));
  }

  /** The stored curve of each project (those whose token is deployed and was read). */
  async curvesOf(projectIds: string[]): Promise<Map<string, CurveAt>> {
    const ids = [...new Set(projectIds)];
    if (ids.length === 0) return new Map();
    const rows = await repo.statesOfProjects(this.deps.db, ids);
    return new Map(rows.map((r) => [r.projectId, { a: r.a, b: r.b, supplyUnits: r.supplyUnits }]));
  }

  /** Earnings per project (token units) with what they would sell for now, and the totals. */
  async valueEarnings(rows: EarnedRow[]) {
    const curves = await this.curvesOf(rows.map((r) => r.project_id));
    return valuedEarnings(rows, (projectId) => curves.get(projectId));
  }
}

/** Earnings per project with what each sells for on its stored curve (none: null), and the totals. */
export function valuedEarnings(rows: EarnedRow[], curveOf: (projectId: string) => StoredCurve | undefined) {
  let total = 0n;
  const projects = rows.map((r) => {
    const curve = curveOf(r.project_id);
    const value = curve ? quoteStored(curve, BigInt(r.earned_units)) : null;
    total += BigInt(value ?? '0');
    return { ...r, earned_eth_units: value };
  });
  return {
    completed: projects.reduce((n, p) => n + p.completed, 0),
    earned_eth_units: total.toString(),
    projects,
  };
}

type StoredCurve = { a: bigint | null; b: bigint | null; supplyUnits: bigint | null };

/** A sale of `units` on a stored curve, as a decimal string of wei; null without a stored curve. */
export function quoteStored(c: StoredCurve, units: bigint): string | null {
  if (c.a === null || c.b === null || c.supplyUnits === null) return null;
  return worthOf({ a: c.a, b: c.b, supplyUnits: c.supplyUnits }, units).toString();
}
