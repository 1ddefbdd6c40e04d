import type { Sql } from 'postgres';

/**
 * postgres-js as drizzle should see it: every query with parameters runs as a named prepared
 * statement, parsed once per connection, instead of the unnamed one drizzle asks for (drizzle
 * passes `prepare: false` unless a query is given a name). An unnamed statement with parameters
 * costs postgres-js two round trips per execution (Parse/Describe, then Bind/Execute) and
 * PostgreSQL a parse and a plan each time; a named one, after its first execution, one round trip
 * and no parse. Measured on `GET /api/bounties/{id}` (two drizzle reads): bench/README.md,
 * "Drizzle's reads as named statements".
 *
 * The compiled statements (`statement.ts`) choose for themselves and say so: they always pass
 * `simple`, which drizzle never does, and are left as they are (the keyword search stays unnamed,
 * so PostgreSQL plans it for each keyword). A query without parameters (migrations, DDL) is left
 * unnamed: nothing to gain, and nothing cached per connection for it. postgres-js keeps a
 * connection's statements for the connection's life (30-60 minutes by default) and re-prepares a
 * statement whose plan a schema change invalidated.
 */
export function withNamedStatements(sql: Sql): Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return (text: string, params?: unknown[], opts?: { prepare?: boolean; simple?: boolean }) =>
          target.unsafe(
            text,
            params as never,
            params && params.length > 0 && opts?.simple === undefined ? { ...opts, prepare: true } : opts,
          );
      }
      // A transaction's or a savepoint's queries run on their own `sql`: wrapped the same way.
      if (prop === 'begin' || prop === 'savepoint') {
        const open = Reflect.get(target, prop, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const fn = args.pop() as (inner: Sql) => unknown;
          return open.call(target, ...args, (inner: Sql) => fn(withNamedStatements(inner)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}
