import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../src/infra/db/client.ts';

/** A new, empty PostgreSQL database on TEST_DATABASE_URL; `drop` removes it again. */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `bm_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database created on TEST_DATABASE_URL and dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') return openDatabase({ kind: 'pglite-memory' });
  const scratch = await createScratchDatabase();
  const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 20 });
  return {
    db: database.db,
    kind: database.kind,
    listen: database.listen,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
