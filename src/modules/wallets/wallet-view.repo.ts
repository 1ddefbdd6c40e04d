import { sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import {
  bounties,
  ethBalances,
  holderScans,
  projects,
  submissions,
  tokenBalances,
  tokenStates,
  walletIntents,
  walletKeys,
} from '../../infra/db/schema.ts';
import { compileStatement } from '../../infra/db/statement.ts';

/** A stored curve, as text (numerics beyond 2^53 travel as strings). */
interface CurveText {
  a: string | null;
  b: string | null;
  supply: string | null;
}

export interface WalletViewRow {
  storedAddress: string | null;
  ethUnits: string | null;
  ethBlock: string | null;
  scanned: boolean;
  sponsoredToday: number;
  holdings: (CurveText & {
    project_id: string;
    project_name: string;
    token_symbol: string;
    token_address: string;
    balance_units: string;
  })[];
  earnings: (CurveText & {
    project_id: string;
    project_name: string;
    token_symbol: string;
    earned_units: string;
    completed: number;
  })[];
}

const agentId = sql.placeholder('agentId');
const holder = sql.placeholder('holder');
const since = sql.placeholder('since');

/**
 * Everything `GET /api/agents/me/wallet` shows that the database keeps, in one statement (a read
 * model over the holdings' balances and curves, the bounties' approved submissions and the
 * wallet's own key and intents): the answer costs one round trip, where its parts cost seven, and
 * a named prepared statement (`compileStatement`): planned once per connection. Numbers travel
 * as text; the caller prices them on the curves.
 */
const WALLET_VIEW = compileStatement(sql`select
    (select ${walletKeys.address} from ${walletKeys} where ${walletKeys.agentId} = ${agentId} limit 1),
    (select ${ethBalances.balanceUnits}::text from ${ethBalances} where ${ethBalances.holder} = ${holder}),
    (select ${ethBalances.blockNumber}::text from ${ethBalances} where ${ethBalances.holder} = ${holder}),
    exists (select 1 from ${holderScans} where ${holderScans.holder} = ${holder}),
    (select count(*)::int from ${walletIntents} where ${walletIntents.agentId} = ${agentId}
       and ${walletIntents.kind} = 'sponsored_withdraw' and ${walletIntents.counted}
       and ${walletIntents.createdAt} >= ${since}::timestamptz),
    coalesce((select json_agg(h order by h.project_name) from (
      select ${projects.id} as project_id, ${projects.name} as project_name,
        ${projects.tokenSymbol} as token_symbol, ${tokenBalances.tokenAddress} as token_address,
        ${tokenBalances.balanceUnits}::text as balance_units, ${tokenStates.curveA}::text as a,
        ${tokenStates.curveB}::text as b, ${tokenStates.supplyUnits}::text as supply
      from ${tokenBalances}
      join ${projects} on ${projects.tokenAddress} = ${tokenBalances.tokenAddress}
      left join ${tokenStates} on ${tokenStates.tokenAddress} = ${tokenBalances.tokenAddress}
      where ${tokenBalances.holder} = ${holder} and ${tokenBalances.balanceUnits} > 0) h), '[]'),
    coalesce((select json_agg(e order by e.project_name) from (
      select ${projects.id} as project_id, ${projects.name} as project_name,
        ${projects.tokenSymbol} as token_symbol,
        coalesce(sum(${submissions.rewardUnits} - ${submissions.feeUnits}), 0)::text as earned_units,
        count(*)::int as completed, max(${tokenStates.curveA})::text as a,
        max(${tokenStates.curveB})::text as b, max(${tokenStates.supplyUnits})::text as supply
      from ${submissions}
      join ${bounties} on ${bounties.id} = ${submissions.bountyId}
      join ${projects} on ${projects.id} = ${bounties.projectId}
      left join ${tokenStates} on ${tokenStates.tokenAddress} = ${projects.tokenAddress}
      where ${submissions.agentId} = ${agentId} and ${submissions.status} = 'approved'
      group by ${projects.id}, ${projects.name}, ${projects.tokenSymbol}) e), '[]')`);

/** JSON from the driver: parsed already (postgres-js, PGlite), or its text. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** The wallet's stored parts (see WALLET_VIEW). */
export async function walletView(
  ex: Executor,
  agentId: string,
  holder: string,
  since: Date,
): Promise<WalletViewRow> {
  const [row] = await WALLET_VIEW.run(ex, { agentId, holder, since: since.toISOString() });
  const [storedAddress, ethUnits, ethBlock, scanned, sponsoredToday, holdings, earnings] = row as unknown[];
  return {
    storedAddress: (storedAddress as string | null) ?? null,
    ethUnits: (ethUnits as string | null) ?? null,
    ethBlock: (ethBlock as string | null) ?? null,
    scanned: scanned === true,
    sponsoredToday: Number(sponsoredToday ?? 0),
    holdings: json(holdings),
    earnings: json(earnings),
  };
}
