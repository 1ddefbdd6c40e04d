import { describe, expect, it } from 'vitest';
import {
  devImports,
  fileCycles,
  foreignRepoImports,
  moduleCycles,
  outsideImports,
  privateImports,
  staleDeclarations,
  type TableRules,
  tableViolations,
} from './helpers/boundaries/checks.ts';
import { importsOf } from './helpers/boundaries/imports.ts';
import { OWNERS } from './helpers/boundaries/rules.ts';
import { schemaTables, tableUsesOf } from './helpers/boundaries/tables.ts';
import { virtualTree } from './helpers/boundaries/tree.ts';

/**
 * Each boundary rule on small broken trees held in memory (compiled with the repository's options
 * and its node_modules): a check that stopped seeing what it is for would pass the real tree, and
 * fails here. The declarations are the real ones (rules.ts) unless a test passes its own.
 */

const SCHEMA = {
  'src/infra/db/schema.ts': `
    import { pgTable, text } from 'drizzle-orm/pg-core';
    export const agents = pgTable('agents', { id: text('id').primaryKey() });
    export const bounties = pgTable('bounties', { id: text('id').primaryKey(), status: text('status') });
    export const submissions = pgTable('submissions', { id: text('id').primaryKey() });`,
  'src/infra/db/client.ts': 'export declare const ex: any;',
};

/** A tree's table uses and what the table rule says of them (the real declarations unless `rules`). */
function tableCheck(files: Record<string, string>, rules: TableRules = {}): string[] {
  const tree = virtualTree({ ...SCHEMA, ...files });
  expect(schemaTables(tree)).toEqual(['agents', 'bounties', 'submissions']);
  return tableViolations(tableUsesOf(tree, new Set(schemaTables(tree))), rules);
}

describe('the boundary checks catch what they are for', () => {
  it('a repo imported from another module through a path alias, a re-export or import()', () => {
    const tree = virtualTree(
      {
        'src/modules/bounties/bounties.repo.ts': 'export const x = 1;',
        'src/modules/bounties/bounties.service.ts':
          "import { x } from './bounties.repo.ts'; export const y = x;",
        'src/modules/reviews/x.service.ts':
          "import { x } from '#modules/bounties/bounties.repo.ts'; export const z = x;",
        'src/web/console/page.ts': "export * from '../../modules/bounties/bounties.repo.ts';",
        'src/mcp/tool.ts': "export const r = () => import('../modules/bounties/bounties.repo.ts');",
      },
      { paths: { '#modules/*': ['./src/modules/*'] } },
    );
    expect(foreignRepoImports(importsOf(tree))).toEqual([
      'src/modules/reviews/x.service.ts:1 imports #modules/bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
      'src/web/console/page.ts:1 imports ../../modules/bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
      'src/mcp/tool.ts:1 imports ../modules/bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
    ]);
  });

  it('src/dev imported outside the composition root, by a type import', () => {
    const tree = virtualTree({
      'src/dev/local-repo-host/server.ts': 'export interface X { a: 1 }',
      'src/main.ts': "import type { X } from './dev/local-repo-host/server.ts'; export type Y = X;",
      'src/infra/repo-host/connect.ts':
        "import type { X } from '../../dev/local-repo-host/server.ts'; export type Z = X;",
    });
    expect(devImports(importsOf(tree))).toEqual([
      'src/infra/repo-host/connect.ts:1 imports ../../dev/local-repo-host/server.ts (src/dev is for the composition root only)',
    ]);
  });

  it('a file cycle and a module cycle, through type imports only', () => {
    const tree = virtualTree({
      'src/app.ts': "import type { S } from './compose.ts'; export type A = S;",
      'src/compose.ts': "import type { A } from './app.ts'; export type S = { a?: A };",
      // No file cycle here, but bounties -> payability -> bounties (the cycle issue 27 found).
      'src/modules/bounties/bounties.deps.ts':
        "import type { P } from '../payability/payability.service.ts'; export type D = P;",
      'src/modules/bounties/bounty-state.ts': 'export interface BountyState { a: 1 }',
      'src/modules/payability/payability.service.ts':
        "import type { BountyState } from '../bounties/bounty-state.ts'; export type P = BountyState;",
    });
    const imports = importsOf(tree);
    expect(fileCycles(imports)).toEqual(['src/app.ts -> src/compose.ts -> src/app.ts']);
    expect(moduleCycles(imports)).toEqual([
      'src/app.ts -> src/compose.ts -> src/app.ts',
      'src/modules/bounties/ -> src/modules/payability/ -> src/modules/bounties/',
    ]);
  });

  it('a file another unit does not declare public, by any specifier; the root may import wiring', () => {
    const tree = virtualTree(
      {
        'src/modules/bounties/bounties.service.ts': 'export const a = 1;',
        'src/modules/bounties/claim-limits.ts': 'export const b = 1;',
        'src/modules/bounties/bounties.routes.ts': 'export const c = 1;',
        'src/modules/reviews/r.ts': [
          "import { a } from '../bounties/bounties.service.ts';",
          "import type { b } from '@bounties/claim-limits.ts';",
          "export const r = async () => [a, await import('../bounties/bounties.routes.ts')];",
        ].join('\n'),
        'src/app.ts': "import { c } from './modules/bounties/bounties.routes.ts'; export const x = c;",
        'src/web/w.ts': "import '../../clients/cli/main.ts';\nimport '../../test/helpers/x.ts';",
        'clients/cli/main.ts': 'export {};',
        'test/helpers/x.ts': 'export {};',
      },
      { paths: { '@bounties/*': ['./src/modules/bounties/*'] } },
    );
    const publics =
      'public: bounties.service.ts, bounties.schemas.ts, bounties.mappers.ts, bounty-state.ts, ' +
      'bounty-repository.ts, bounty-repository.schemas.ts; the composition root also: bounties.routes.ts, ' +
      'bounty-repository.routes.ts';
    expect(privateImports(importsOf(tree))).toEqual([
      `src/modules/reviews/r.ts:2 imports @bounties/claim-limits.ts: not a public file of src/modules/bounties/ (${publics})`,
      `src/modules/reviews/r.ts:3 imports ../bounties/bounties.routes.ts: not a public file of src/modules/bounties/ (${publics})`,
      'src/web/w.ts:1 imports ../../clients/cli/main.ts: src imports nothing outside src',
      'src/web/w.ts:2 imports ../../test/helpers/x.ts: src imports nothing outside src',
    ]);
  });

  it('clients and scripts importing what they do not declare', () => {
    const tree = virtualTree({
      'src/mcp/stdio.ts': 'export const run = 1;',
      'src/app.ts': 'export const app = 1;',
      'src/modules/bounties/bounties.schemas.ts': 'export const s = 1;',
      'clients/typescript/index.ts':
        "export type { S } from '../../src/modules/bounties/bounties.schemas.ts';",
      'clients/typescript/client.ts': "export * from './index.ts';",
      'clients/cli/main.ts': [
        "import '../typescript/client.ts';",
        "import '../typescript/index.ts';",
        "export const m = () => import('../../src/mcp/stdio.ts');",
      ].join('\n'),
      'scripts/tool.ts': "import '../src/app.ts';\nimport '../src/modules/bounties/bounties.schemas.ts';",
      'clients/python/x.ts': "import '../typescript/index.ts';",
    });
    expect(outsideImports(importsOf(tree))).toEqual([
      'clients/typescript/index.ts:1 imports ../../src/modules/bounties/bounties.schemas.ts: clients/typescript/ imports nothing outside itself',
      'clients/cli/main.ts:1 imports ../typescript/client.ts: clients/cli/ may import only clients/typescript/index.ts, src/mcp/stdio.ts',
      'scripts/tool.ts:2 imports ../src/modules/bounties/bounties.schemas.ts: scripts/ may import only src/app.ts, src/infra/, src/lib/, src/modules/audit/money-audit.ts, src/modules/payouts/payouts-audit.ts, src/modules/payouts/payout-legs.ts',
      'clients/python/x.ts:1 imports ../typescript/index.ts: its folder is not declared in OUTSIDE',
    ]);
  });

  it('a table written outside its owner through a variable, an alias, a parameter or a table interpolated in SQL', () => {
    const found = tableCheck({
      'src/modules/bounties/bounties.repo.ts':
        "import { ex } from '../../infra/db/client.ts';\nimport { bounties } from '../../infra/db/schema.ts';\nex.update(bounties);",
      'src/modules/payouts/p.repo.ts': [
        "import { sql } from 'drizzle-orm';",
        "import { ex } from '../../infra/db/client.ts';",
        "import { bounties as b, submissions } from '../../infra/db/schema.ts';",
        '// update bounties in a comment is not code',
        'const t = Math.random() > 0.5 ? b : submissions;',
        'ex.delete(t);',
        'export function f(x: typeof b) { return ex.insert(x); }',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the broken tree's source text
        'ex.execute(sql`update ${b} set status = ${"x"}`);',
        "ex.execute(sql.raw('delete from bounties'));",
      ].join('\n'),
    });
    expect(found).toEqual([
      'src/modules/payouts/p.repo.ts:6 writes bounties (.delete(); owned by src/modules/bounties/)',
      'src/modules/payouts/p.repo.ts:6 writes submissions (.delete(); owned by src/modules/reviews/)',
      'src/modules/payouts/p.repo.ts:7 writes bounties (.insert(); owned by src/modules/bounties/)',
      'src/modules/payouts/p.repo.ts:8 writes bounties (sql: update; owned by src/modules/bounties/)',
      'src/modules/payouts/p.repo.ts:9 writes bounties (sql: delete from; owned by src/modules/bounties/)',
    ]);
  });

  it('a row lock of another module’s table, by drizzle or by SQL with an alias; the owner’s lock and a declared one pass', () => {
    const files = {
      'src/modules/wallets/w.repo.ts': [
        "import { sql } from 'drizzle-orm';",
        "import { ex } from '../../infra/db/client.ts';",
        "import { agents, bounties } from '../../infra/db/schema.ts';",
        "ex.select().from(agents).for('update');",
        "const strength = Math.random() > 0.5 ? 'share' as const : 'no key update' as const;",
        'ex.select().from(agents).innerJoin(bounties, sql`true`).for(strength, { of: bounties });',
        'ex.execute(sql`select 1 from agents a join bounties b on true for no key update of b`);',
      ].join('\n'),
      // The lock issue 27 moved behind the agents module (AgentDirectory.lock): refused where it was.
      'src/modules/agent-webhooks/agent-webhooks.repo.ts':
        "import { ex } from '../../infra/db/client.ts';\nimport { agents } from '../../infra/db/schema.ts';\nex.select().from(agents).for('no key update');",
      'src/modules/agents/agents.repo.ts':
        "import { ex } from '../../infra/db/client.ts';\nimport { agents } from '../../infra/db/schema.ts';\nex.select().from(agents).for('no key update');",
    };
    const locks = (found: string[]) => found.filter((f) => f.includes(' locks '));
    const wallets = [
      "src/modules/wallets/w.repo.ts:4 locks agents (.for('update'); owned by src/modules/agents/)",
      'src/modules/wallets/w.repo.ts:6 locks bounties (.for(strength); owned by src/modules/bounties/)',
      'src/modules/wallets/w.repo.ts:7 locks bounties (sql: for no key update; owned by src/modules/bounties/)',
    ];
    expect(locks(tableCheck(files))).toEqual([
      ...wallets,
      "src/modules/agent-webhooks/agent-webhooks.repo.ts:3 locks agents (.for('no key update'); owned by src/modules/agents/)",
    ]);
    // rules.ts declares no exception any more; one declared here lets that lock, and only it, through.
    const declared = { file: 'src/modules/agent-webhooks/agent-webhooks.repo.ts', table: 'agents', why: '' };
    expect(locks(tableCheck(files, { locks: [declared] }))).toEqual(wallets);
  });

  it('a read of another module’s table outside its declared read models; a declared one passes', () => {
    const found = tableCheck({
      'src/modules/comments/comments.repo.ts': [
        "import { ex } from '../../infra/db/client.ts';",
        "import { agents, bounties } from '../../infra/db/schema.ts';",
        'ex.select().from(bounties);',
        'ex.select().from(agents);',
      ].join('\n'),
      'src/modules/comments/comments.service.ts': [
        "import { sql } from 'drizzle-orm';",
        "import { ex } from '../../infra/db/client.ts';",
        "import { agents } from '../../infra/db/schema.ts';",
        'ex.select().from(sql`x`).leftJoin(agents, sql`true`);',
        "ex.execute(sql`select id from bounties where status = 'open'`);",
      ].join('\n'),
    });
    expect(found).toEqual([
      'src/modules/comments/comments.repo.ts:3 reads bounties (.from(); owned by src/modules/bounties/, not a declared read model)',
      'src/modules/comments/comments.service.ts:4 reads agents (.leftJoin(); owned by src/modules/agents/, not a declared read model)',
      'src/modules/comments/comments.service.ts:5 reads bounties (sql: from/join; owned by src/modules/bounties/, not a declared read model)',
    ]);
  });

  it('a read by a join of an interpolated table in SQL (issue 27) or by a builder join; a read model passes', () => {
    const head = [
      "import { exists, sql } from 'drizzle-orm';",
      "import { ex } from '../../infra/db/client.ts';",
      "import { agents, bounties, submissions } from '../../infra/db/schema.ts';",
    ];
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: the broken tree's source text
    const found = tableCheck({
      // The join the alias pattern swallowed (`from ${agents} join ${bounties}`: `join` taken for an alias).
      'src/modules/comments/comments.repo.ts': [
        ...head,
        'ex.execute(sql`select 1 from ${agents}\n join ${bounties} on true`);',
        'ex.execute(sql`select exists (select 1 from ${agents} join bounties on true)`);',
        'const t = Math.random() > 0.5 ? bounties : submissions;',
        'ex.select().from(agents).innerJoin(t, sql`true`).where(exists(ex.select().from(bounties)));',
      ].join('\n'),
      // Only the type checker sees this one: `using` starts no FROM list; the delete's target is no read.
      'src/modules/reviews/r.repo.ts': [
        ...head,
        'ex.execute(sql`delete from ${submissions} using ${bounties} where true`);',
      ].join('\n'),
      'src/modules/wallets/wallet-view.repo.ts': [
        ...head,
        'ex.execute(sql`select 1 from ${submissions} join ${bounties} on true join ${agents} on true`);',
      ].join('\n'),
    });
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: the broken tree's source text
    const read = (at: string, table: string, how: string) =>
      `${at} reads ${table} (${how}; owned by ${OWNERS[table]}, not a declared read model)`;
    expect(found).toEqual([
      read('src/modules/comments/comments.repo.ts:4', 'bounties', 'sql: from/join'),
      read('src/modules/comments/comments.repo.ts:6', 'bounties', 'sql: from/join'),
      read('src/modules/comments/comments.repo.ts:8', 'bounties', '.innerJoin()'),
      read('src/modules/comments/comments.repo.ts:8', 'submissions', '.innerJoin()'),
      read('src/modules/comments/comments.repo.ts:8', 'bounties', '.from()'),
      read('src/modules/reviews/r.repo.ts:4', 'bounties', 'sql: interpolated table'),
      read('src/modules/wallets/wallet-view.repo.ts:4', 'agents', 'sql: from/join'),
    ]);
  });

  it('a table the check cannot name (drizzle alias) and declarations that went stale', () => {
    const found = tableCheck({
      'src/modules/bounties/b.repo.ts': [
        "import { alias } from 'drizzle-orm/pg-core';",
        "import { ex } from '../../infra/db/client.ts';",
        "import { bounties } from '../../infra/db/schema.ts';",
        "ex.update(alias(bounties, 'b2'));",
      ].join('\n'),
    });
    expect(found).toEqual([
      'src/modules/bounties/b.repo.ts:4 .update() b2: a table without an owner (an alias, or not in OWNERS)',
    ]);
    const stale = staleDeclarations(new Set(['src/modules/x/x.service.ts']), [], {
      units: {
        'src/modules/x/': {
          public: ['x.service.ts', 'gone.ts', 'x.repo.ts'],
          reads: { 'x.repo.ts': ['agents'] },
        },
      },
      outside: {},
      locks: [{ file: 'src/modules/x/x.repo.ts', table: 'agents', why: '' }],
    });
    expect(stale).toEqual([
      'src/modules/x/gone.ts: declared public, no such file',
      'src/modules/x/x.repo.ts: declared public, no such file',
      'src/modules/x/x.repo.ts: a repo is never public',
      'src/modules/x/x.repo.ts agents: declared read model, no such read',
      'src/modules/x/x.repo.ts agents: lock exception, no such lock',
    ]);
  });
});
