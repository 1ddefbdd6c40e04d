import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { acquireDirLock } from './dir-lock.ts';
import { withNamedStatements } from './named-statements.ts';
import { drizzleClient } from './pglite-drizzle.ts';
import { APP_TEMPLATE_DIR, migrationsFolder, unpackTemplate } from './pglite-template.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (PostgreSQL delivers it when the notifying
   * transaction commits) and `onListen` each time the listening connection is (re)established, since
   * notifications sent while it was down are lost. Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void, onListen?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// Any constant works; it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK_KEY = 727_001;

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize: number }
  /** `templateDir`: where a new directory's template is looked for (the build's `dist/` by default). */
  | { kind: 'pglite'; dataDir: string; templateDir?: string }
  /** `loadDataDir`: start from a dumped data directory (PGlite's `dumpDataDir`) instead of an empty one. */
  | { kind: 'pglite-memory'; loadDataDir?: Blob };

/**
 * PGlite's start, with 32 MB of shared buffers instead of PostgreSQL's 128 MB: the embedded
 * database is one process's, its files sit in the OS's page cache anyway, and the difference is
 * about 100 MB of the service's resident memory (bench/startup.ts).
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** Opens the database and applies pending migrations before anything else can use it. */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.kind === 'postgres') return openPostgres(opts.url, opts.poolSize);
  if (opts.kind === 'pglite-memory') {
    const from = opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {};
    return openPglite(new PGlite({ ...from, startParams: PGLITE_START }), async () => {});
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(opts.dataDir, { recursive: true });
  const lock = acquireDirLock(join(opts.dataDir, 'pglite.lock'));
  try {
    // A new directory starts as the build's migrated template (no initdb), when there is one.
    const empty = !existsSync(dir) || readdirSync(dir).length === 0;
    if (empty) unpackTemplate(opts.templateDir ?? APP_TEMPLATE_DIR, dir);
    mkdirSync(dir, { recursive: true });
    const client = new PGlite(dir, { startParams: PGLITE_START });
    return await openPglite(client, async () => lock.release());
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function openPglite(client: PGlite, release: () => Promise<void>): Promise<Database> {
  await client.waitReady;
  const pglite = drizzlePglite({ client: drizzleClient(client), schema });
  await migratePglite(pglite, { migrationsFolder });
  const db = pglite as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async listen(channel, onNotify, onListen) {
      const unlisten = await client.listen(channel, () => onNotify());
      onListen?.();
      return async () => unlisten();
    },
    async close() {
      await client.close();
      await release();
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const client = postgres(url, { max: poolSize, onnotice: () => {}, prepare: true });
  // Several instances may start at once; the advisory lock lets exactly one apply migrations.
  const lockConn = await client.reserve();
  try {
    await lockConn`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzlePostgres({ client, schema }), { migrationsFolder });
    await lockConn`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } catch (err) {
    lockConn.release();
    await client.end({ timeout: 5 });
    throw err;
  }
  lockConn.release();
  const db = drizzlePostgres({ client: withNamedStatements(client), schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify, onListen) {
      // postgres-js listens on one dedicated connection outside the pool and re-listens after a drop.
      const { unlisten } = await client.listen(
        channel,
        () => onNotify(),
        () => onListen?.(),
      );
      return unlisten;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

/** Rows of a raw `execute`: postgres-js returns an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
