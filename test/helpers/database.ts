import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../src/infra/db/client.ts';
import { ensureTemplate } from '../../src/infra/db/pglite-template.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The build's own template (npm install builds dist/ and writes it); written there when missing.
const cacheDir = join(root, 'dist');

/** The migrated template every PGlite test database boots from (src/infra/db/pglite-template.ts). */
let template: Promise<Blob> | null = null;
function pgliteTemplate(): Promise<Blob> {
  template ??= ensureTemplate(cacheDir);
  return template;
}

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
 * Empty PGlite databases given back by `leaseTestDatabase`, kept for the next lease in this
 * worker: emptying one (TRUNCATE of every table) takes milliseconds where booting a new one takes
 * ~0.4 s of CPU, and suites build dozens of apps.
 */
const spare: Database[] = [];
const SPARE_MAX = 2;

/**
 * A fresh, empty, migrated database, as `openTestDatabase` gives, for a caller that hands it back
 * with `giveBack()` when done (`buildTestApp`'s close). On PGlite a database given back open is
 * emptied and lent again; one its borrower closed is simply gone. On PostgreSQL `giveBack()` drops
 * the scratch database as `close()` does.
 */
export async function leaseTestDatabase(): Promise<{ database: Database; giveBack(): Promise<void> }> {
  if (process.env.TEST_DB === 'postgres') {
    const database = await openTestDatabase();
    return { database, giveBack: () => database.close() };
  }
  const inner = spare.pop() ?? (await openTestDatabase());
  let done = false;
  const database: Database = {
    db: inner.db,
    kind: inner.kind,
    listen: inner.listen,
    async close() {
      done = true;
      await inner.close();
    },
  };
  return {
    database,
    async giveBack() {
      if (done) return;
      done = true;
      if (spare.length < SPARE_MAX && (await emptied(inner))) spare.push(inner);
      else await inner.close();
    },
  };
}

/** Every table of the app emptied (identities restarted) and no advisory lock held; false if not. */
async function emptied(database: Database): Promise<boolean> {
  try {
    const tables = (await database.db.execute(
      sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`,
    )) as unknown as { rows: { name: string }[] };
    const names = tables.rows.map((t) => t.name);
    if (names.length > 0) {
      await database.db.execute(sql.raw(`truncate ${names.join(', ')} restart identity cascade`));
    }
    await database.db.execute(sql`select pg_advisory_unlock_all()`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database created on TEST_DATABASE_URL and dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    return openDatabase({ kind: 'pglite-memory', loadDataDir: await pgliteTemplate() });
  }
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
