import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, type MigrationDb, migrationDb } from './helpers/migration-db.ts';

/**
 * Migration 0012 (name_fold) on a database that already holds agents, some of whose names fold
 * alike (registered before names were unique under folding): it backfills every row, keeps the
 * oldest agent's folded name, gives each later lookalike a fold of its own, and then refuses a new
 * lookalike through the unique index. On PGlite, and on PostgreSQL when the suite runs there.
 */

describe('migration 0012_name_fold', () => {
  let m: MigrationDb;
  beforeAll(async () => {
    m = await migrationDb('name-fold-');
  });
  afterAll(async () => {
    await m?.close();
  });

  it('backfills, keeps lookalikes registered earlier apart, and refuses new ones', async () => {
    const { query } = m;
    await m.migrateTo(m.upTo('0012_name_fold'));
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
    await m.migrateTo(MIGRATIONS);
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
