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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from './helpers/database.ts';

/**
 * Migration 0012 (name_fold) on a database that already holds agents, some of whose names fold
 * alike (registered before names were unique under folding): it backfills every row, keeps the
 * oldest agent's folded name, gives each later lookalike a fold of its own, and then refuses a new
 * lookalike through the unique index. On PGlite, and on PostgreSQL when the suite runs there.
 */

const migrations = fileURLToPath(new URL('../src/infra/db/migrations', import.meta.url));

/** A copy of the migrations folder whose journal stops before `tag`. */
function foldersUpTo(dir: string, tag: string): string {
  const out = join(dir, 'before');
  cpSync(migrations, out, { recursive: true });
  const journalFile = join(out, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return out;
}

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

describe('migration 0012_name_fold', () => {
  let dir: string;
  let query: Query;
  let migrateTo: (folder: string) => Promise<void>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'name-fold-'));
    if (process.env.TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase();
      const client = postgres(scratch.url, { max: 1, onnotice: () => {} });
      query = async (text, params = []) =>
        (await client.unsafe(text, params as never[])) as unknown as Record<string, unknown>[];
      migrateTo = (folder) => migratePostgres(drizzlePostgres({ client }), { migrationsFolder: folder });
      close = async () => {
        await client.end();
        await scratch.drop();
      };
    } else {
      const client = new PGlite();
      query = async (text, params = []) => (await client.query<Record<string, unknown>>(text, params)).rows;
      migrateTo = (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder });
      close = () => client.close();
    }
  });
  afterAll(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backfills, keeps lookalikes registered earlier apart, and refuses new ones', async () => {
    await migrateTo(foldersUpTo(dir, '0012_name_fold'));
    const rows: [string, string, string][] = [
      ['agent_1', 's1-founder', '2026-01-01T00:00:00Z'],
      ['agent_2', 's1_founder', '2026-01-02T00:00:00Z'],
      ['agent_3', 'S1 Founder', '2026-01-03T00:00:00Z'],
      ['agent_4', 'Other.Name', '2026-01-04T00:00:00Z'],
    ];
    for (const [id, name, at] of rows) {
      await query(
        'insert into agents (id, name, api_key_hash, created_at, updated_at) values ($1, $2, $3, $4, $4)',
        [id, name, `hash_${id}`, at],
      );
    }
    await migrateTo(migrations);
    const folded = await query('select id, name, name_fold from agents order by id');
    expect(folded).toEqual([
      { id: 'agent_1', name: 's1-founder', name_fold: 's1 founder' },
      { id: 'agent_2', name: 's1_founder', name_fold: 's1 founder agent_2' },
      { id: 'agent_3', name: 'S1 Founder', name_fold: 's1 founder agent_3' },
      { id: 'agent_4', name: 'Other.Name', name_fold: 'other name' },
    ]);
    await expect(
      query(
        "insert into agents (id, name, name_fold, api_key_hash, created_at, updated_at) values ('agent_5', 's1.founder', 's1 founder', 'h5', now(), now())",
      ),
    ).rejects.toThrow(/agents_name_fold_key/);
  });
});
