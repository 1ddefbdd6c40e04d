import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../src/infra/db/client.ts';
import { isAlive } from '../../src/infra/db/dir-lock.ts';
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
async function cloneMigratedDatabase(): Promise<Scratch> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const source = await pgTemplate(adminUrl);
  const name = `${OWN_PREFIX}${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  orphansDropped ??= dropOrphanDatabases(admin);
  await orphansDropped;
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

/**
 * The databases a test process copies are named after this machine and the process
 * (`bm_test_<host>_<pid>_<random>`): one whose process is gone (a worker's spares at its exit, or
 * whatever a killed run left) is dropped by the next process that copies one, and by
 * test/setup/pg-orphans.ts at the end of a run.
 */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
const OWN_PREFIX = `bm_test_${HOST_TAG}_${process.pid}_`;
const OWNED = new RegExp(`^bm_test_${HOST_TAG}_(\\d+)_[0-9a-f]+$`);
let orphansDropped: Promise<void> | null = null;

const parentOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
};

/**
 * Drops this machine's test databases whose process has exited; `waitForChildren`: those of this
 * process's own children (the run's workers, at its end) once they exit, waiting up to 5 s.
 */
export async function dropOrphanDatabases(admin: postgres.Sql, waitForChildren = false): Promise<void> {
  const rows = await admin<
    { datname: string }[]
  >`select datname from pg_database where datname like 'bm_test_%'`;
  const until = Date.now() + 5_000;
  for (const { datname } of rows) {
    const owner = Number(OWNED.exec(datname)?.[1] ?? 0);
    if (owner === 0) continue;
    while (waitForChildren && isAlive(owner) && parentOf(owner) === process.pid && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!isAlive(owner)) await admin.unsafe(`drop database if exists ${datname} with (force)`);
  }
}

interface Scratch {
  url: string;
  drop(): Promise<void>;
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
 * Empty databases given back by `leaseTestDatabase`, kept for the next lease in this worker:
 * emptying one takes milliseconds, where booting a new PGlite takes ~0.4 s of CPU and copying a
 * PostgreSQL database ~0.25 s (9 MB through the WAL), and suites build hundreds of apps.
 */
const spare: Database[] = [];
const pgSpare: Scratch[] = [];
const SPARE_MAX = 2;

/**
 * A fresh, empty, migrated database, as `openTestDatabase` gives, for a caller that hands it back
 * with `giveBack()` when done (`buildTestApp`'s close). A database given back open is emptied and
 * lent again (on PostgreSQL with its connections closed first, so no session state, lock or
 * listener carries over); one its borrower closed is simply gone.
 */
export async function leaseTestDatabase(): Promise<Lease> {
  if (process.env.TEST_DB === 'postgres') {
    const scratch = pgSpare.pop() ?? (await cloneMigratedDatabase());
    const inner = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 20 });
    return lend(
      inner,
      async () => {
        await inner.close();
        await scratch.drop();
      },
      async () => {
        await inner.close();
        if (pgSpare.length < SPARE_MAX && (await emptiedPostgres(scratch.url))) pgSpare.push(scratch);
        else await scratch.drop();
      },
    );
  }
  const inner = spare.pop() ?? (await openTestDatabase());
  return lend(
    inner,
    () => inner.close(),
    async () => {
      if (spare.length < SPARE_MAX && (await emptied(inner))) spare.push(inner);
      else await inner.close();
    },
  );
}

interface Lease {
  database: Database;
  giveBack(): Promise<void>;
}

/** `inner` lent once: its `close()` ends it for good (`end`), `giveBack()` hands it back (`back`). */
function lend(inner: Database, end: () => Promise<void>, back: () => Promise<void>): Lease {
  let done = false;
  const once = (step: () => Promise<void>) => async () => {
    if (done) return;
    done = true;
    await step();
  };
  return {
    database: { db: inner.db, kind: inner.kind, listen: inner.listen, close: once(end) },
    giveBack: once(back),
  };
}

/**
 * Every row of the app's tables deleted (triggers, foreign keys among them, off for the
 * transaction, so any order works), its sequences restarted, and no other session left on the
 * database (one a test leaked could hold a lock or a listener); false if not.
 */
async function emptiedPostgres(url: string): Promise<boolean> {
  const c = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await c`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`;
    const tables = await c<{ name: string }[]>`
      select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`;
    const sequences = await c<{ name: string }[]>`
      select quote_ident(sequencename) as name from pg_sequences where schemaname = 'public'`;
    await c.begin(async (tx) => {
      await tx.unsafe('set local session_replication_role = replica');
      for (const t of tables) await tx.unsafe(`delete from ${t.name}`);
      for (const q of sequences) await tx.unsafe(`alter sequence ${q.name} restart`);
    });
    return true;
  } catch {
    return false;
  } finally {
    await c.end({ timeout: 5 });
  }
}

/** The app's tables of each lent PGlite database, read once (a test never adds one to it). */
const tablesOf = new WeakMap<Database, string[]>();

/**
 * Every row of the app's tables deleted and no advisory lock held, in one statement; false if not.
 * DELETE with triggers and foreign keys off for its transaction (`session_replication_role`), not
 * TRUNCATE: a test leaves a few rows, and PGlite's TRUNCATE of 27 tables (a new file for each table
 * and index) took 65 ms and 130 ms of CPU where these deletes take 2 ms.
 */
async function emptied(database: Database): Promise<boolean> {
  try {
    let names = tablesOf.get(database);
    if (!names) {
      const tables = (await database.db.execute(
        sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`,
      )) as unknown as { rows: { name: string }[] };
      names = tables.rows.map((t) => t.name);
      tablesOf.set(database, names);
    }
    const deletes = names.map((n) => `delete from ${n};`).join(' ');
    await database.db.execute(
      sql.raw(`do $$ begin
        perform set_config('session_replication_role', 'replica', true);
        ${deletes}
        perform pg_advisory_unlock_all();
      end $$`),
    );
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

/**
 * A fresh, empty, migrated database, as `openTestDatabase` gives, whose `close()` gives it back to
 * this worker's spares (`leaseTestDatabase`) instead of ending it: for a test that closes it only to
 * clean up (after the apps on it have closed), not to see what a closed database does.
 */
export async function reusableTestDatabase(): Promise<Database> {
  const lease = await leaseTestDatabase();
  return { ...lease.database, close: lease.giveBack };
}
