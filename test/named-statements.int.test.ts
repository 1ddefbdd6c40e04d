import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Executor, rowsOf } from '../src/infra/db/client.ts';
import { agents, projects } from '../src/infra/db/schema.ts';
import { compileStatement } from '../src/infra/db/statement.ts';
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

  it('answers the same on either database', async () => {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select ${7}::int * 6 as n`));
    expect(row?.n).toBe(42);
  });
});
