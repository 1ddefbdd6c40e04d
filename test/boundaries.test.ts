import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The module boundaries of docs/architecture.md ("Boundaries"), read from the source itself:
 * (a) a `*.repo.ts` is imported only from its own module (src/modules/<m>/, or its own folder
 *     outside src/modules); another module goes through the owner's service or public files;
 * (b) src/dev/** (the development repository host) is imported only by the composition root;
 * (c) no import cycle among the files of src, `import type` included (a type circle still ties
 *     the files together: the AppDeps circle through app.ts, web and mcp was one);
 * (d) a table is written (insert, update, delete: drizzle's builders or SQL text) only from the
 *     folder of the module that owns it, the `OWNERS` table below; a new table needs an owner.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The only files that may import src/dev: the process entry picks the real parts (main.ts). */
const COMPOSITION_ROOT = ['src/main.ts'];

/** Who writes each table: a folder of src. Reads may join any table; writes stay with the owner. */
const OWNERS: Record<string, string> = {
  agents: 'src/modules/agents/',
  projects: 'src/modules/projects/',
  bounties: 'src/modules/bounties/',
  // Kept by triggers on bounties (migration 0001); nobody writes it from code.
  bounty_counts: 'src/modules/bounties/',
  claim_cooldowns: 'src/modules/bounties/',
  bounty_comments: 'src/modules/comments/',
  submissions: 'src/modules/reviews/',
  activity_events: 'src/modules/activity/',
  agent_webhooks: 'src/modules/agent-webhooks/',
  webhook_outbox: 'src/modules/agent-webhooks/',
  webhook_attempts: 'src/modules/agent-webhooks/',
  webhook_host_budget: 'src/modules/agent-webhooks/',
  webhook_deliveries: 'src/modules/webhooks/',
  chain_cursors: 'src/modules/payability/',
  project_funds: 'src/modules/payability/',
  wallet_keys: 'src/modules/wallets/',
  account_nonces: 'src/modules/wallets/',
  wallet_txs: 'src/modules/wallets/',
  wallet_intents: 'src/modules/wallets/',
  token_states: 'src/modules/holdings/',
  token_balances: 'src/modules/holdings/',
  holder_scans: 'src/modules/holdings/',
  signer_nonces: 'src/modules/payouts/',
  payout_funds_locks: 'src/modules/payouts/',
  payouts: 'src/modules/payouts/',
  payout_legs: 'src/modules/payouts/',
  leg_attempts: 'src/modules/payouts/',
  idempotency_keys: 'src/infra/http/',
  web_sessions: 'src/web/',
};

// ---------------------------------------------------------------------------------------------
// Reading the source

interface SourceFile {
  /** Relative to the repository root, with forward slashes: `src/modules/bounties/bounties.repo.ts`. */
  path: string;
  text: string;
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return listTs(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function readSources(root = ROOT): SourceFile[] {
  return listTs(join(root, 'src')).map((full) => ({
    path: relative(root, full).split('\\').join('/'),
    text: readFileSync(full, 'utf8'),
  }));
}

interface Import {
  from: string;
  /** The imported file (relative to the root), when it is one of the source files. */
  to: string;
  specifier: string;
}

/** Every relative import, `export … from` and `import()` of each file that lands on another source file. */
function importGraph(files: SourceFile[]): Import[] {
  const known = new Set(files.map((f) => f.path));
  const resolve = (from: string, spec: string): string | null => {
    const base = posix.normalize(posix.join(posix.dirname(from), spec));
    const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
    return candidates.find((c) => known.has(c)) ?? null;
  };
  return files.flatMap((f) =>
    ts
      .preProcessFile(f.text, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .flatMap((specifier) => {
        const to = resolve(f.path, specifier);
        return to ? [{ from: f.path, to, specifier }] : [];
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// The rules

/** The unit a file belongs to: its module folder under src/modules, otherwise its own folder. */
function unitOf(path: string): string {
  const m = /^src\/modules\/[^/]+\//.exec(path);
  return m ? m[0] : `${posix.dirname(path)}/`;
}

/** (a) Imports of a `*.repo.ts` from outside its unit. */
function foreignRepoImports(imports: Import[]): string[] {
  return imports
    .filter((i) => i.to.endsWith('.repo.ts') && !i.from.startsWith(unitOf(i.to)))
    .map((i) => `${i.from} imports ${i.specifier} (a repo of ${unitOf(i.to)})`);
}

/** (b) Imports of src/dev from outside src/dev and the composition root. */
function devImports(imports: Import[], root = COMPOSITION_ROOT): string[] {
  return imports
    .filter((i) => i.to.startsWith('src/dev/') && !i.from.startsWith('src/dev/') && !root.includes(i.from))
    .map((i) => `${i.from} imports ${i.specifier} (src/dev is for the composition root only)`);
}

/** (c) Every import cycle, one per strongly connected component, as a path `a -> b -> … -> a`. */
function importCycles(imports: Import[]): string[] {
  const edges = new Map<string, string[]>();
  for (const i of imports) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  // Tarjan's strongly connected components, iteratively (no recursion limit on deep graphs).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; i: number };
      const outs = edges.get(top.node) ?? [];
      if (top.i < outs.length) {
        const to = outs[top.i++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        for (;;) {
          const n = stack.pop() as string;
          onStack.delete(n);
          component.push(n);
          if (n === top.node) break;
        }
        const selfLoop = (edges.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((c) => {
    const path = cyclePath(c, edges);
    const rest = c.filter((f) => !path.includes(f)).sort();
    return rest.length === 0 ? path : `${path} (and through it: ${rest.join(', ')})`;
  });
}

/** One concrete cycle through a component: breadth-first from its first file back to itself. */
function cyclePath(component: string[], edges: Map<string, string[]>): string {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift() as string;
    for (const to of edges.get(n) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [n];
        while (path[0] !== start) path.unshift(prev.get(path[0] as string) as string);
        return [...path, start].join(' -> ');
      }
      if (!prev.has(to)) {
        prev.set(to, n);
        queue.push(to);
      }
    }
  }
  return component.join(' -> ');
}

/** Table names and their drizzle export names, from the schema's `pgTable('name', …)` calls. */
function tablesOf(files: SourceFile[]): Map<string, string> {
  const byExport = new Map<string, string>();
  for (const f of files.filter((f) => f.path.startsWith('src/infra/db/tables/'))) {
    for (const m of f.text.matchAll(/const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      byExport.set(m[1] as string, m[2] as string);
    }
  }
  return byExport;
}

const SQL_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/gi;

/**
 * The tables a file writes: drizzle's `.insert(t)`, `.update(t)`, `.delete(t)` with a schema table
 * (or `schema.t`), and `insert into t`, `update t`, `delete from t` in string and template text.
 * Comments are not code and are not read.
 */
function writesOf(file: SourceFile, tables: Map<string, string>): { table: string; line: number }[] {
  const names = new Set(tables.values());
  if (!/insert|update|delete/i.test(file.text)) return [];
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const found: { table: string; line: number }[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['insert', 'update', 'delete'].includes(node.expression.name.text)
    ) {
      const arg = node.arguments[0];
      const name =
        arg && ts.isIdentifier(arg)
          ? arg.text
          : arg && ts.isPropertyAccessExpression(arg)
            ? arg.name.text
            : undefined;
      const table = name === undefined ? undefined : tables.get(name);
      if (table) found.push({ table, line: lineOf(node) });
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      for (const m of node.text.matchAll(SQL_WRITE)) {
        const table = (m[1] as string).toLowerCase();
        if (names.has(table)) found.push({ table, line: lineOf(node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** (d) Writes of a table from outside its owner's folder. */
function foreignWrites(files: SourceFile[], owners = OWNERS): string[] {
  const tables = tablesOf(files);
  return files
    .filter((f) => !f.path.startsWith('src/infra/db/'))
    .flatMap((f) =>
      writesOf(f, tables)
        .filter((w) => !f.path.startsWith(owners[w.table] ?? '(no owner)'))
        .map((w) => `${f.path}:${w.line} writes ${w.table} (owned by ${owners[w.table] ?? 'nobody'})`),
    );
}

// ---------------------------------------------------------------------------------------------

describe('module boundaries', () => {
  const files = readSources();
  const imports = importGraph(files);

  it('reads the whole import graph', () => {
    // A scanner that found nothing would pass every rule below.
    expect(files.length).toBeGreaterThan(150);
    expect(imports).toContainEqual(expect.objectContaining({ from: 'src/app.ts', to: 'src/compose.ts' }));
    expect(imports).toContainEqual(
      expect.objectContaining({ from: 'src/main.ts', to: 'src/dev/local-repo-host/server.ts' }),
    );
    expect(COMPOSITION_ROOT.every((f) => existsSync(join(ROOT, f)))).toBe(true);
  });

  it('(a) no module imports another module’s repo', () => {
    expect(foreignRepoImports(imports)).toEqual([]);
  });

  it('(b) src/dev is imported only by the composition root', () => {
    expect(devImports(imports)).toEqual([]);
  });

  it('(c) src has no import cycle', () => {
    expect(importCycles(imports)).toEqual([]);
  });

  it('(d) every table has an owner, and only its owner writes it', () => {
    const tables = [...tablesOf(files).values()];
    expect(tables.length).toBeGreaterThan(15);
    expect(tables.filter((t) => !(t in OWNERS))).toEqual([]);
    expect(Object.keys(OWNERS).filter((t) => !tables.includes(t))).toEqual([]);
    expect(foreignWrites(files)).toEqual([]);
  });
});

describe('the boundary checks catch what they are for', () => {
  const file = (path: string, text = ''): SourceFile => ({ path, text });

  it('a repo imported from another module, a page or the MCP server', () => {
    const files = [
      file('src/modules/bounties/bounties.repo.ts'),
      file('src/modules/bounties/bounties.service.ts', "import * as repo from './bounties.repo.ts';"),
      file('src/modules/reviews/x.service.ts', "import { takeLease } from '../bounties/bounties.repo.ts';"),
      file('src/web/console/page.ts', "export * from '../../modules/bounties/bounties.repo.ts';"),
      file('src/mcp/tool.ts', "const r = await import('../modules/bounties/bounties.repo.ts');"),
    ];
    expect(foreignRepoImports(importGraph(files))).toEqual([
      'src/modules/reviews/x.service.ts imports ../bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
      'src/web/console/page.ts imports ../../modules/bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
      'src/mcp/tool.ts imports ../modules/bounties/bounties.repo.ts (a repo of src/modules/bounties/)',
    ]);
  });

  it('src/dev imported outside the composition root', () => {
    const files = [
      file('src/dev/local-repo-host/server.ts'),
      file('src/dev/local-repo-host/git.ts', "import './server.ts';"),
      file('src/main.ts', "import { startLocalRepoHost } from './dev/local-repo-host/server.ts';"),
      file('src/infra/repo-host/connect.ts', "import type { X } from '../../dev/local-repo-host/server.ts';"),
    ];
    expect(devImports(importGraph(files))).toEqual([
      'src/infra/repo-host/connect.ts imports ../../dev/local-repo-host/server.ts (src/dev is for the composition root only)',
    ]);
  });

  it('a cycle, type imports included', () => {
    const files = [
      file('src/app.ts', "import { buildServices } from './compose.ts';"),
      file('src/compose.ts', "import type { AppDeps } from './app.ts';"),
      file('src/lib/a.ts', "import './b.ts';"),
      file('src/lib/b.ts'),
    ];
    expect(importCycles(importGraph(files))).toEqual(['src/app.ts -> src/compose.ts -> src/app.ts']);
  });

  it('a table written outside its owner, by drizzle or by SQL text; comments do not count', () => {
    const files = [
      file('src/infra/db/tables/t.ts', "const bounties = pgTable('bounties', {});"),
      file('src/modules/bounties/bounties.repo.ts', 'await ex.update(bounties).set({});'),
      file(
        'src/modules/payouts/fresh.repo.ts',
        `// update bounties in a comment\nawait ex.execute(sql\`\n  update bounties set x = \${1}\`);`,
      ),
      file('src/modules/reviews/s.repo.ts', 'await tx.delete(schema.bounties);'),
    ];
    expect(foreignWrites(files, { bounties: 'src/modules/bounties/' })).toEqual([
      'src/modules/payouts/fresh.repo.ts:2 writes bounties (owned by src/modules/bounties/)',
      'src/modules/reviews/s.repo.ts:1 writes bounties (owned by src/modules/bounties/)',
    ]);
  });
});
