import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { holderScans, projects, tokenBalances, tokenStates } from '../../infra/db/schema.ts';
import { anyOfPlaceholder, compileOnFirstRun } from '../../infra/db/statement.ts';

export interface StoredState {
  tokenAddress: string;
  a: bigint;
  b: bigint;
  supplyUnits: bigint;
}

/**
 * Stores curves and balances read at `block` in one statement, each unless a read of a later block
 * is stored already (two refreshes racing: the older read must not win). Holders in lower case.
 */
export async function store(
  ex: Executor,
  states: StoredState[],
  balances: { tokenAddress: string; holder: string; balanceUnits: bigint }[],
  block: bigint,
  at: Date,
): Promise<void> {
  if (states.length === 0) return;
  const when = at.toISOString();
  const stateRows = sql.join(
    states.map(
      (s) =>
        sql`(${s.tokenAddress}, ${s.a.toString()}::numeric, ${s.b.toString()}::numeric, ${s.supplyUnits.toString()}::numeric, ${block.toString()}::bigint, ${when}::timestamptz)`,
    ),
    sql`, `,
  );
  const upsertStates = sql`insert into token_states as t (token_address, curve_a, curve_b, supply_units, block_number, updated_at)
    values ${stateRows}
    on conflict (token_address) do update
      set supply_units = excluded.supply_units, block_number = excluded.block_number, updated_at = excluded.updated_at
      where t.block_number <= excluded.block_number`;
  if (balances.length === 0) {
    await ex.execute(upsertStates);
    return;
  }
  const balanceRows = sql.join(
    balances.map(
      (b) =>
        sql`(${b.tokenAddress}, ${b.holder}, ${b.balanceUnits.toString()}::numeric, ${block.toString()}::bigint, ${when}::timestamptz)`,
    ),
    sql`, `,
  );
  await ex.execute(sql`with states as (${upsertStates} returning 1)
    insert into token_balances as b (token_address, holder, balance_units, block_number, updated_at)
    values ${balanceRows}
    on conflict (token_address, holder) do update
      set balance_units = excluded.balance_units, block_number = excluded.block_number, updated_at = excluded.updated_at
      where b.block_number <= excluded.block_number`);
}

// The reads behind every wallet (the API's, the console's pages), compiled once (statement.ts).
const scanned = compileOnFirstRun((ex) =>
  ex
    .select({ h: holderScans.holder })
    .from(holderScans)
    .where(eq(holderScans.holder, sql.placeholder('holder'))),
);

export async function isScanned(ex: Executor, holder: string): Promise<boolean> {
  const [row] = await scanned.run(ex, { holder });
  return row !== undefined;
}

export async function markScanned(ex: Executor, holder: string, at: Date): Promise<void> {
  await ex.insert(holderScans).values({ holder, scannedAt: at }).onConflictDoNothing();
}

const deployed = compileOnFirstRun((ex) =>
  ex
    .select({
      projectId: projects.id,
      tokenAddress: projects.tokenAddress,
      curveAddress: projects.curveAddress,
    })
    .from(projects)
    .where(
      and(eq(projects.status, 'active'), isNotNull(projects.tokenAddress), isNotNull(projects.curveAddress)),
    ),
);

/** Active projects' tokens and curves. */
export function deployedTokens(ex: Executor) {
  return deployed.run(ex, {});
}

/** Deployed tokens whose curve was never read (an activation whose read failed, say). */
export function tokensWithoutState(ex: Executor) {
  return ex
    .select({ tokenAddress: projects.tokenAddress, curveAddress: projects.curveAddress })
    .from(projects)
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(
      and(
        eq(projects.status, 'active'),
        isNotNull(projects.tokenAddress),
        isNotNull(projects.curveAddress),
        isNull(tokenStates.tokenAddress),
      ),
    );
}

const holdings = compileOnFirstRun((ex) =>
  ex
    .select({
      projectId: projects.id,
      projectName: projects.name,
      tokenSymbol: projects.tokenSymbol,
      tokenAddress: tokenBalances.tokenAddress,
      balanceUnits: tokenBalances.balanceUnits,
      a: tokenStates.curveA,
      b: tokenStates.curveB,
      supplyUnits: tokenStates.supplyUnits,
    })
    .from(tokenBalances)
    .innerJoin(projects, eq(projects.tokenAddress, tokenBalances.tokenAddress))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, tokenBalances.tokenAddress))
    .where(and(eq(tokenBalances.holder, sql.placeholder('holder')), gt(tokenBalances.balanceUnits, 0n)))
    .orderBy(projects.name),
);

/** What the holder has of each project token (a positive balance), with its curve's stored state. */
export function holdingsOf(ex: Executor, holder: string) {
  return holdings.run(ex, { holder });
}

const statesOf = compileOnFirstRun((ex) =>
  ex
    .select({
      projectId: projects.id,
      a: tokenStates.curveA,
      b: tokenStates.curveB,
      supplyUnits: tokenStates.supplyUnits,
    })
    .from(projects)
    .innerJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(anyOfPlaceholder(projects.id, 'projectIds')),
);

/** The stored curve states of these projects (by project id). */
export function statesOfProjects(ex: Executor, projectIds: string[]) {
  return statesOf.run(ex, { projectIds });
}
