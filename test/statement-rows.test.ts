import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/infra/db/client.ts';
import { compileStatement, takeRows } from '../src/infra/db/statement.ts';

// The hot reads keep no reference to postgres-js's result array once its rows are read: that array
// outlived its request in young-generation collections (bench/README.md, "Rows that outlived their
// request"), so it is emptied and the rows travel on in an array of our own.

/** An executor over a postgres-js-shaped client whose result array the test keeps. */
function fakePostgresJs(result: unknown[][]) {
  const calls: { text: string; params: unknown[]; prepare: boolean }[] = [];
  const client = {
    unsafe(text: string, params: unknown[], opts: { prepare: boolean }) {
      calls.push({ text, params, prepare: opts.prepare });
      return { values: () => Promise.resolve(result) };
    },
  };
  return { ex: { session: { client } } as unknown as Executor, calls };
}

describe('takeRows', () => {
  it('hands over the rows in a new array and empties the driver’s', () => {
    const a = ['bty_1', 'x'];
    const b = ['bty_2', 'y'];
    const driver = [a, b];
    const own = takeRows(driver);
    expect(own).toEqual([a, b]);
    expect(own[0]).toBe(a);
    expect(own).not.toBe(driver);
    expect(driver).toHaveLength(0);
  });

  it('leaves an empty result empty', () => {
    const driver: unknown[] = [];
    expect(takeRows(driver)).toEqual([]);
  });
});

describe('compiled statements on postgres-js', () => {
  it('answer the rows and keep nothing in the driver’s result', async () => {
    const driver = [
      ['bty_1', '{"id":"bty_1"}'],
      ['bty_2', '{"id":"bty_2"}'],
    ];
    const rows = driver.slice();
    const { ex, calls } = fakePostgresJs(driver);
    const statement = compileStatement(sql`select id, body from t where owner = ${sql.placeholder('owner')}`);
    const answer = await statement.run(ex, { owner: 'agt_1' });
    expect(answer).toEqual(rows);
    expect(driver).toHaveLength(0);
    expect(calls).toEqual([{ text: statement.text, params: ['agt_1'], prepare: true }]);
  });
});
