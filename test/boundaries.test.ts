import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  devImports,
  fileCycles,
  foreignRepoImports,
  moduleCycles,
  outsideImports,
  privateImports,
  staleDeclarations,
  tableViolations,
} from './helpers/boundaries/checks.ts';
import { importsOf } from './helpers/boundaries/imports.ts';
import { COMPOSITION_ROOT, OWNERS } from './helpers/boundaries/rules.ts';
import { schemaTables, tableUsesOf } from './helpers/boundaries/tables.ts';
import { ROOT, repoTree } from './helpers/boundaries/tree.ts';

/**
 * The module boundaries of docs/architecture.md ("Boundaries"), read from `src`, `clients` and
 * `scripts` through one TypeScript program with the repository's compiler options: imports as the
 * compiler resolves them (aliases, `import()`, `import type`), tables as the type checker names
 * them. The declarations are test/helpers/boundaries/rules.ts; boundaries-broken.test.ts runs each
 * rule on broken trees.
 */

describe('module boundaries', () => {
  const tree = repoTree();
  const imports = importsOf(tree);
  const tables = schemaTables(tree);
  const uses = tableUsesOf(tree, new Set(tables));

  it('reads the whole tree: imports, tables and what is done to them', () => {
    // A reader that found nothing would pass every rule below.
    expect(tree.files.size).toBeGreaterThan(250);
    expect([...tree.files.keys()].filter((f) => f.startsWith('clients/')).length).toBeGreaterThan(10);
    expect([...tree.files.keys()].filter((f) => f.startsWith('scripts/')).length).toBeGreaterThan(4);
    expect(imports).toContainEqual(expect.objectContaining({ from: 'src/app.ts', to: 'src/compose.ts' }));
    expect(imports).toContainEqual(
      expect.objectContaining({ from: 'src/main.ts', to: 'src/dev/local-repo-host/server.ts' }),
    );
    expect(imports).toContainEqual(
      expect.objectContaining({ from: 'clients/cli/commands/mcp.ts', to: 'src/mcp/stdio.ts' }),
    );
    expect(imports.some((i) => i.typeOnly)).toBe(true);
    expect(tables.length).toBeGreaterThan(25);
    for (const access of ['write', 'read'] as const) {
      expect(uses.filter((u) => u.access === access).length, access).toBeGreaterThan(10);
    }
    // Fewer row locks since payouts run on the transaction engine (issue 25): the scanner still
    // finds them, by drizzle and by SQL, in the owners' repos.
    const locks = uses.filter((u) => u.access === 'lock');
    expect(locks.length).toBeGreaterThanOrEqual(8);
    expect(locks).toContainEqual(
      expect.objectContaining({
        table: 'wallet_intents',
        file: 'src/modules/transactions/transactions.repo.ts',
      }),
    );
    expect(locks).toContainEqual(expect.objectContaining({ table: 'payouts', how: ".for('update')" }));
    expect(uses.some((u) => u.how.startsWith('sql:') && u.access === 'write')).toBe(true);
    expect(COMPOSITION_ROOT.every((f) => existsSync(join(ROOT, f)))).toBe(true);
  });

  it('(a) no module imports another module’s repo', () => {
    expect(foreignRepoImports(imports)).toEqual([]);
  });

  it('(b) src/dev is imported only by the composition root', () => {
    expect(devImports(imports)).toEqual([]);
  });

  it('(c) no file-level import cycle, type imports included', () => {
    expect(fileCycles(imports)).toEqual([]);
  });

  it('(d) no module-level cycle, type imports included', () => {
    expect(moduleCycles(imports)).toEqual([]);
  });

  it('(e) a unit of src imports only the public files of another (the composition root: also its wiring)', () => {
    expect(privateImports(imports)).toEqual([]);
  });

  it('(f) clients/ and scripts/ import only what they declare', () => {
    expect(outsideImports(imports)).toEqual([]);
  });

  it('(g) every table has an owner; only it writes or locks the table; others read through read models', () => {
    expect(tables.filter((t) => !(t in OWNERS))).toEqual([]);
    expect(Object.keys(OWNERS).filter((t) => !tables.includes(t))).toEqual([]);
    expect(tableViolations(uses)).toEqual([]);
  });

  it('the declarations match the tree (nothing declared that is not there)', () => {
    expect(staleDeclarations(new Set(tree.files.keys()), uses)).toEqual([]);
  });
});
