import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../src/infra/db/client.ts';
import { ensureTemplate, templateName } from '../../src/infra/db/pglite-template.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The build's own template (npm install builds dist/ and writes it); written there when missing.
const cacheDir = join(root, 'dist');

/** The migrated template every PGlite test database boots from (src/infra/db/pglite-template.ts). */
let template: Promise<Blob> | null = null;
export function pgliteTemplate(): Promise<Blob> {
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
 * A new PostgreSQL database copied from a migrated template: these migrations applied once per
 * PostgreSQL server (the template is named by their hash, as the PGlite template is), instead of
 * all of them again for every test's database. Measured: 0.4 s a database instead of 2.5 s (its
 * CREATE, every migration and its DROP). openDatabase still runs the migrator on the copy, which
 * finds nothing left to apply; createScratchDatabase stays empty, for servers that migrate it.
 */
async function cloneMigratedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const source = await pgTemplate(adminUrl);
  const name = `bm_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${source}`);
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

let pgTemplateName: Promise<string> | null = null;
/**
 * The migrated template database for these migrations, made once (under an advisory lock, as
 * workers and parallel runs share the server) and published by renaming it when complete: a
 * database by that name is always fully migrated, and no connection stays open on it (a copy
 * needs its source idle).
 */
function pgTemplate(adminUrl: string): Promise<string> {
  pgTemplateName ??= (async () => {
    const name = `bm_tpl_${templateName().slice('pglite-'.length, 'pglite-'.length + 16)}`;
    // Two connections: one holds the lock (CREATE DATABASE cannot run in a transaction).
    const admin = postgres(adminUrl, { max: 2, onnotice: () => {} });
    const lock = await admin.reserve();
    try {
      await lock`select pg_advisory_lock(727002)`;
      if ((await admin`select 1 from pg_database where datname = ${name}`).length === 0) {
        const building = `${name}_building`;
        await admin.unsafe(`drop database if exists ${building} with (force)`);
        await admin.unsafe(`create database ${building}`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
        await database.close();
        await admin.unsafe(`alter database ${building} rename to ${name}`);
      }
      await lock`select pg_advisory_unlock(727002)`;
    } catch (err) {
      pgTemplateName = null;
      throw err;
    } finally {
      lock.release();
      await admin.end();
    }
    return name;
  })();
  return pgTemplateName;
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
  const scratch = await cloneMigratedDatabase();
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
