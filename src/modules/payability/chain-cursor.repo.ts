import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';

export interface Lease {
  /** The last block fully handled. */
  blockNumber: bigint;
  /** True when this call created the cursor: there was no earlier position to resume from. */
  created: boolean;
}

/**
 * Takes or renews the follower's lease: granted when nobody holds it, the holder is `owner`, or
 * the holder's lease lapsed. A missing cursor is created at `startBlock`. Undefined when another
 * instance holds a live lease.
 */
export async function takeLease(
  ex: Executor,
  name: string,
  owner: string,
  now: Date,
  until: Date,
  startBlock: bigint,
): Promise<Lease | undefined> {
  const result = await ex.execute(sql`
    insert into chain_cursors as c (name, block_number, lease_owner, lease_until, updated_at)
    values (${name}, ${startBlock.toString()}, ${owner}, ${until.toISOString()}::timestamptz,
            ${now.toISOString()}::timestamptz)
    on conflict (name) do update
       set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
     where c.lease_owner = excluded.lease_owner or c.lease_until is null
        or c.lease_until < ${now.toISOString()}::timestamptz
    returning c.block_number::text as "blockNumber", (c.xmax = 0) as created`);
  const [row] = rowsOf<{ blockNumber: string; created: boolean }>(result);
  return row && { blockNumber: BigInt(row.blockNumber), created: row.created };
}

/** Moves the cursor forward and renews the lease; false when `owner` no longer holds it. */
export async function advance(
  ex: Executor,
  name: string,
  owner: string,
  blockNumber: bigint,
  now: Date,
  until: Date,
): Promise<boolean> {
  const result = await ex.execute(sql`
    update chain_cursors
       set block_number = greatest(block_number, ${blockNumber.toString()}::bigint),
           lease_until = ${until.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
     where name = ${name} and lease_owner = ${owner}
    returning name`);
  return rowsOf(result).length > 0;
}

/** Gives the lease up (shutdown), so another instance takes over at once instead of after it lapses. */
export async function releaseLease(ex: Executor, name: string, owner: string): Promise<void> {
  await ex.execute(sql`
    update chain_cursors set lease_owner = null, lease_until = null
     where name = ${name} and lease_owner = ${owner}`);
}

export async function find(ex: Executor, name: string) {
  const result = await ex.execute(sql`
    select block_number::text as "blockNumber", lease_owner as "leaseOwner", lease_until as "leaseUntil"
      from chain_cursors where name = ${name}`);
  const [row] = rowsOf<{ blockNumber: string; leaseOwner: string | null; leaseUntil: unknown }>(result);
  return row && { blockNumber: BigInt(row.blockNumber), leaseOwner: row.leaseOwner };
}
