import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Executor, rowsOf } from '../src/infra/db/client.ts';
import { agents, projects } from '../src/infra/db/schema.ts';
import { compileStatement } from '../src/infra/db/statement.ts';
import { countMatching } from '../src/modules/bounties/bounty-list.repo.ts';
import { reusableTestDatabase } from './helpers/database.ts';

// On PostgreSQL, drizzle's queries with parameters run as named prepared statements (parsed once
// per connection), not the unnamed ones drizzle asks for: src/infra/db/named-statements.ts. PGlite
// has no such choice: the file runs there only to keep its projects alike.
const onPostgres = it.runIf(process.env.TEST_DB === 'postgres');

/** What this connection holds prepared through the protocol (a Parse with a name), by text. */
async function preparedHere(ex: Executor): Promise<string[]> {
  const rows = rowsOf<{ statement: string }>(
    await ex.execute(sql`select statement from pg_prepared_statements where not from_sql`),
  );
  return rows.map((r) => r.statement);
}

describe('drizzle on postgres-js', () => {
  let database: Database;
  beforeAll(async () => {
    database = await reusableTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  onPostgres(
    'runs a query with parameters as a named statement, in a transaction and a savepoint too',
    async () => {
      const byId = (ex: Executor, id: string) =>
        ex.select({ id: agents.id }).from(agents).where(eq(agents.id, id));
      const projectById = (ex: Executor) =>
        ex.select({ id: projects.id }).from(projects).where(eq(projects.id, 'prj_none'));
      const noParameters = sql`select 41 + 1 as answer`;
      await database.db.transaction(async (tx) => {
        expect(await byId(tx, 'agt_none')).toEqual([]);
        await tx.transaction(async (sp) => {
          expect(await projectById(sp)).toEqual([]);
        });
        expect(rowsOf<{ answer: number }>(await tx.execute(noParameters))).toEqual([{ answer: 42 }]);
        const named = await preparedHere(tx);
        expect(named).toContain(byId(tx, 'x').toSQL().sql);
        expect(named).toContain(projectById(tx).toSQL().sql);
        // Without parameters it stays unnamed: nothing is cached per connection for it.
        expect(named.some((s) => s.includes('41 + 1'))).toBe(false);
        // Run again with another value, the same statement answers: still one entry for its text.
        expect(await byId(tx, 'agt_other')).toEqual([]);
        const again = await preparedHere(tx);
        expect(again.filter((s) => s === byId(tx, 'x').toSQL().sql)).toHaveLength(1);
      });
    },
  );

  onPostgres('leaves the compiled statements to choose for themselves', async () => {
    const statement = compileStatement(sql`select ${sql.placeholder('n')}::int + 1 as m`);
    await database.db.transaction(async (tx) => {
      expect(await statement.run(tx, { n: 1 })).toEqual([[2]]);
      expect(await preparedHere(tx)).toContain(statement.text);
    });
  });

  onPostgres('keeps one named count per filter shape however deep a page past the end is', async () => {
    await database.db.transaction(async (tx) => {
      const before = await preparedHere(tx);
      for (const offset of [40, 960, 5_000, 20_000]) {
        expect(await countMatching(tx, { status: 'open', limit: 20, offset })).toEqual({ n: 0, exact: true });
        expect(await countMatching(tx, { q: 'zephyr', limit: 20, offset })).toEqual({ n: 0, exact: true });
      }
      const added = (await preparedHere(tx)).filter((s) => !before.includes(s));
      // The count without a keyword, named once; the keyword's count stays unnamed (planned per word).
      expect(added.filter((s) => s.includes('bounty_counts'))).toHaveLength(1);
      expect(added.filter((s) => s.includes('@@'))).toEqual([]);
    });
  });

  it('answers the same on either database', async () => {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select ${7}::int * 6 as n`));
    expect(row?.n).toBe(42);
  });
});
