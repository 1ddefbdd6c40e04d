import ts from 'typescript';
import { lineOf, type Tree } from './tree.ts';

/**
 * What the tree's files do to the tables, found through the type checker: an argument is a table
 * when its type is a drizzle table (`_.brand` 'Table'), named by its type (`_.name`), so a table
 * passed through a variable, a parameter, a re-export or a union is still seen. Drizzle's
 * `alias()` renames the type: it shows as an unknown table, which the check refuses.
 */

export type Access = 'write' | 'lock' | 'read';

export interface TableUse {
  file: string;
  line: number;
  table: string;
  access: Access;
  /** How: `.update()`, `.from()`, `.for('update')`, `sql: update`, … */
  how: string;
}

const WRITES = new Set(['insert', 'update', 'delete']);
const READS = new Set([
  'from',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'crossJoinLateral',
  '$count',
]);

/** The table names a value's type carries: one per drizzle table in it (a union gives several). */
export function tableNamesOf(checker: ts.TypeChecker, node: ts.Node): string[] {
  const type = checker.getTypeAtLocation(node);
  const parts = type.isUnion() ? type.types : [type];
  return parts.flatMap((t) => {
    const meta = t.getProperty('_');
    if (!meta) return [];
    const metaType = checker.getTypeOfSymbolAtLocation(meta, node);
    const brand = metaType.getProperty('brand');
    const name = metaType.getProperty('name');
    if (!brand || !name) return [];
    const brandType = checker.getTypeOfSymbolAtLocation(brand, node);
    if (!brandType.isStringLiteral() || brandType.value !== 'Table') return [];
    const nameType = checker.getTypeOfSymbolAtLocation(name, node);
    return nameType.isStringLiteral() ? [nameType.value] : ['(a table the type does not name)'];
  });
}

/** A drizzle lock strength: a string whose type is made of 'update', 'no key update', 'share', 'key share'. */
function isLockStrength(checker: ts.TypeChecker, arg: ts.Expression): boolean {
  const type = checker.getTypeAtLocation(arg);
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => t.isStringLiteral() && STRENGTHS.has(t.value));
}

const STRENGTHS = new Set(['update', 'no key update', 'share', 'key share']);

/** The tables a select chain reads (`.from()` and the joins under a `.for()`), for its lock. */
function chainTables(checker: ts.TypeChecker, receiver: ts.Expression): string[] {
  const names: string[] = [];
  let e: ts.Expression = receiver;
  while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
    const arg = e.arguments[0];
    if (READS.has(e.expression.name.text) && arg) names.push(...tableNamesOf(checker, arg));
    e = e.expression.expression;
  }
  return names;
}

/** The tables of a `.for(strength, { of })` lock: `of`'s tables, else all the select reads. */
function lockedTables(checker: ts.TypeChecker, call: ts.CallExpression, receiver: ts.Expression): string[] {
  const config = call.arguments[1];
  if (config && ts.isObjectLiteralExpression(config)) {
    const of = config.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'of');
    if (of && ts.isPropertyAssignment(of)) {
      const init = of.initializer;
      const items = ts.isArrayLiteralExpression(init) ? [...init.elements] : [init];
      return items.flatMap((i) => tableNamesOf(checker, i));
    }
  }
  return chainTables(checker, receiver);
}

const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)/gi;
/** What may follow a source in a FROM or JOIN list and is no alias of it. */
const KEYWORDS = new Set(
  `where on using join inner left right full cross natural lateral set group order limit offset
   for returning union except intersect having window values select as and or not`.split(/\s+/),
);
const ALIAS = `(?:\\s+(?:as\\s+)?(?!(?:${[...KEYWORDS].join('|')})\\b)[a-z_][a-z0-9_]*)?`;
const SOURCE = `"?[a-z_][a-z0-9_]*"?${ALIAS}`;
/**
 * A FROM or JOIN list: `t`, `t a`, `t as a`, `"t" a, u b`. A keyword is never an alias: in
 * `from t join u`, `join` starts the next source (issue 27: the join it swallowed went unseen).
 */
const SQL_SOURCES = new RegExp(`\\b(?:from|join|update)\\s+((?:${SOURCE}\\s*,\\s*)*${SOURCE})`, 'gi');
const SQL_LOCK =
  /\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b(?:\s+of\s+("?[a-z_][a-z0-9_]*"?(?:\s*,\s*"?[a-z_][a-z0-9_]*"?)*))?/gi;
const SQL_WORD = /\b(insert|update|delete|select|from|join|for)\b/i;
const SQL_VERB = /^\s*(select|with|insert|update|delete)\b/i;
/** Marks a table interpolated into a template (`${bounties}`) in its SQL text. */
const MARK = '\u0000';
/** What stands before a statement's own target: the table a write writes is not read. */
const WRITE_TARGET = /\b(insert\s+into|update(\s+only)?|delete\s+from(\s+only)?)\s+$/;

/**
 * SQL text: a template's literal parts with each `${table}` written as the table's name (as
 * drizzle renders it) after a MARK, and any other value as `$`. A string has no marks.
 */
function sqlText(checker: ts.TypeChecker, node: ts.TemplateLiteral | ts.StringLiteral): string {
  if (!ts.isTemplateExpression(node)) return node.text.replaceAll(MARK, '');
  let text = node.head.text.replaceAll(MARK, '');
  for (const span of node.templateSpans) {
    const [name] = tableNamesOf(checker, span.expression);
    text += ` ${name ? MARK + name : '$'} ${span.literal.text.replaceAll(MARK, '')}`;
  }
  return text;
}

function stripComments(text: string): string {
  return text.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/**
 * The uses one SQL text makes: writes (`insert into`, `update`, `delete from`) from any string;
 * from SQL only, reads and row locks (`for update`, `for no key update`, `for share`, `for key
 * share`): of the tables (or aliases) after `of`, else of every table it reads. A read is a table
 * named in a FROM or JOIN list (a subquery's, an `exists`' too), or any table interpolated into
 * the template (`${table}`) but a write's own target: the type checker names it, wherever it
 * stands in the text.
 */
function sqlUses(
  marked: string,
  isSql: boolean,
  known: Set<string>,
): { table: string; access: Access; how: string }[] {
  const withMarks = stripComments(marked).toLowerCase();
  const t = withMarks.replaceAll(MARK, '');
  const out: { table: string; access: Access; how: string }[] = [];
  for (const m of t.matchAll(SQL_WRITE)) {
    const table = m[2] as string;
    if (known.has(table))
      out.push({ table, access: 'write', how: `sql: ${(m[1] as string).replace(/\s+/g, ' ')}` });
  }
  if (!isSql) return out;
  const read = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const m of t.matchAll(SQL_SOURCES)) {
    for (const item of (m[1] as string).split(',')) {
      const [name = '', ...rest] = item.trim().replaceAll('"', '').split(/\s+/);
      if (!known.has(name)) continue;
      const alias = rest.filter((w) => w !== 'as')[0];
      if (alias && !KEYWORDS.has(alias)) aliases.set(alias, name);
      aliases.set(name, name);
      const target = m[0].startsWith('update') || /delete\s+$/.test(t.slice(0, m.index));
      if (!target && !read.has(name)) read.set(name, 'sql: from/join');
    }
  }
  for (const m of withMarks.matchAll(new RegExp(`${MARK}([a-z_][a-z0-9_]*)`, 'g'))) {
    const name = m[1] as string;
    const before = withMarks.slice(0, m.index).replaceAll(MARK, '');
    if (known.has(name) && !WRITE_TARGET.test(before) && !read.has(name))
      read.set(name, 'sql: interpolated table');
  }
  for (const [table, how] of read) out.push({ table, access: 'read', how });
  for (const m of t.matchAll(SQL_LOCK)) {
    const of = m[2]?.split(',').map((s) => aliases.get(s.trim().replaceAll('"', '')) ?? s.trim());
    const strength = (m[1] as string).replace(/\s+/g, ' ');
    for (const table of of ?? read.keys()) {
      if (known.has(table)) out.push({ table, access: 'lock', how: `sql: for ${strength}` });
    }
  }
  return out;
}

function isSqlTag(tag: ts.Expression): boolean {
  const text = tag.getText();
  return /(^|\.)sql$/.test(text) || /^sql\./.test(text);
}

/** Every use of a known table (`known`: the schema's tables) by the tree's files. */
export function tableUsesOf(tree: Tree, known: Set<string>): TableUse[] {
  const { checker } = tree;
  const out: TableUse[] = [];
  for (const [file, sf] of tree.files) {
    const add = (node: ts.Node, table: string, access: Access, how: string) =>
      out.push({ file, line: lineOf(node), table, access, how });
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
        const name = n.expression.name.text;
        const arg = n.arguments[0];
        if (arg && (WRITES.has(name) || READS.has(name))) {
          const access: Access = WRITES.has(name) ? 'write' : 'read';
          for (const table of tableNamesOf(checker, arg)) add(n.expression.name, table, access, `.${name}()`);
        }
        if (name === 'for' && arg && isLockStrength(checker, arg)) {
          for (const table of lockedTables(checker, n, n.expression.expression)) {
            add(n.expression.name, table, 'lock', `.for(${arg.getText()})`);
          }
        }
      }
      if (ts.isTaggedTemplateExpression(n) && isSqlTag(n.tag)) {
        for (const u of sqlUses(sqlText(checker, n.template), true, known)) add(n, u.table, u.access, u.how);
        // Its spans may hold SQL of their own; its text is read once, here.
        if (ts.isTemplateExpression(n.template))
          for (const s of n.template.templateSpans) visit(s.expression);
        return;
      }
      if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
        // The checker is asked about a template's values only when its words could be SQL.
        const words = ts.isTemplateExpression(n)
          ? [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' $ ')
          : n.text;
        const text = SQL_WORD.test(words) ? sqlText(checker, n) : '';
        for (const u of sqlUses(text, SQL_VERB.test(text), known)) add(n, u.table, u.access, u.how);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** The tables the schema declares: the drizzle tables `src/infra/db/schema.ts` exports. */
export function schemaTables(tree: Tree): string[] {
  const schema = tree.files.get('src/infra/db/schema.ts');
  if (!schema) return [];
  const module = tree.checker.getSymbolAtLocation(schema);
  if (!module) return [];
  return tree.checker
    .getExportsOfModule(module)
    .flatMap((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? tree.checker.getAliasedSymbol(s) : s;
      const decl = target.valueDeclaration;
      return decl && ts.isVariableDeclaration(decl) ? tableNamesOf(tree.checker, decl.name) : [];
    })
    .sort();
}
