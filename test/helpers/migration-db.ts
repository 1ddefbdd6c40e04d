import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Db } from '../../src/infra/db/client.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { createScratchDatabase } from './database.ts';

/** The service's migrations folder. */
export const MIGRATIONS = fileURLToPath(new URL('../../src/infra/db/migrations', import.meta.url));

export type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * A database for a migration's test, on PGlite, or on PostgreSQL when the suite runs there
 * (TEST_DB=postgres): raw queries, migrating to a folder (all of them, or `upTo(tag)`: a copy
 * whose journal stops before `tag`), the service's drizzle handle, and the clean-up.
 */
export interface MigrationDb {
  query: Query;
  migrateTo(folder: string): Promise<void>;
  /** A copy of the migrations folder whose journal stops before `tag`. */
  upTo(tag: string): string;
  db: Db;
  close(): Promise<void>;
}

export async function migrationDb(prefix: string): Promise<MigrationDb> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const upTo = (tag: string) => {
    const out = join(dir, 'before');
    cpSync(MIGRATIONS, out, { recursive: true });
    const journalFile = join(out, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === tag);
    if (at <= 0) throw new Error(`No migration ${tag} after the first.`);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalFile, JSON.stringify(journal));
    return out;
  };
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (process.env.TEST_DB === 'postgres') {
    const scratch = await createScratchDatabase();
    const client = postgres(scratch.url, { max: 1, onnotice: () => {} });
    return {
      query: async (text, params = []) =>
        (await client.unsafe(text, params as never[])) as unknown as Record<string, unknown>[],
      migrateTo: (folder) => migratePostgres(drizzlePostgres({ client }), { migrationsFolder: folder }),
      upTo,
      db: drizzlePostgres({ client, schema }) as unknown as Db,
      close: async () => {
        await client.end();
        await scratch.drop();
        removeDir();
      },
    };
  }
  const client = new PGlite();
  return {
    query: async (text, params = []) => (await client.query<Record<string, unknown>>(text, params)).rows,
    migrateTo: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
    upTo,
    db: drizzlePglite({ client, schema }) as unknown as Db,
    close: async () => {
      await client.close();
      removeDir();
    },
  };
}
