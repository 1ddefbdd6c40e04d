import { posix } from 'node:path';
import { cyclesOf } from './graph.ts';
import type { Import } from './imports.ts';
import { COMPOSITION_ROOT, LOCK_EXCEPTIONS, OUTSIDE, OWNERS, UNITS, type UnitRule } from './rules.ts';
import type { TableUse } from './tables.ts';

/**
 * The rules, each a function from what the tree does to the list of what breaks it (empty when
 * the tree keeps it). The declarations default to rules.ts; the broken trees pass their own.
 */

const MODULE = /^src\/modules\/[^/]+\//;
const SRC_FOLDER = /^src\/(infra|lib|web|mcp|dev)\//;

/** The unit a file of src declares under (UNITS): its module, a top folder of src, or `src/`. */
export function declaredUnitOf(path: string): string {
  return MODULE.exec(path)?.[0] ?? SRC_FOLDER.exec(path)?.[0] ?? 'src/';
}

/** A node of the module graph: as `declaredUnitOf`, but each file at src's top is its own. */
export function graphUnitOf(path: string): string {
  if (!path.startsWith('src/')) return /^(clients\/[^/]+\/|scripts\/)/.exec(path)?.[0] ?? path;
  const unit = declaredUnitOf(path);
  return unit === 'src/' ? path : unit;
}

/** The composition root: the files at src's top. */
const isRoot = (path: string) => /^src\/[^/]+$/.test(path);

/** (a) A `*.repo.ts` imported from outside its module (src/modules/<m>/), or outside its own folder. */
export function foreignRepoImports(imports: Import[]): string[] {
  const home = (p: string) => MODULE.exec(p)?.[0] ?? `${posix.dirname(p)}/`;
  return imports
    .filter((i) => i.to.endsWith('.repo.ts') && !i.from.startsWith(home(i.to)))
    .map((i) => `${i.from}:${i.line} imports ${i.specifier} (a repo of ${home(i.to)})`);
}

/** (b) src/dev imported from outside src/dev and the composition root's entry. */
export function devImports(imports: Import[], root = COMPOSITION_ROOT): string[] {
  return imports
    .filter((i) => i.to.startsWith('src/dev/') && !i.from.startsWith('src/dev/') && !root.includes(i.from))
    .map((i) => `${i.from}:${i.line} imports ${i.specifier} (src/dev is for the composition root only)`);
}

/** (c) File-level import cycles, `import type` included. */
export function fileCycles(imports: Import[]): string[] {
  return cyclesOf(imports);
}

/** (d) Module-level cycles: the units of `graphUnitOf`, an edge for any import between two of them. */
export function moduleCycles(imports: Import[]): string[] {
  return cyclesOf(
    imports.map((i) => ({ from: graphUnitOf(i.from), to: graphUnitOf(i.to) })).filter((e) => e.from !== e.to),
  );
}

/** Why a file of src may not import `to`, or null when it may. */
function refusal(from: string, to: string, units: Record<string, UnitRule>): string | null {
  if (!to.startsWith('src/')) return 'src imports nothing outside src';
  const unit = declaredUnitOf(to);
  if (unit === declaredUnitOf(from)) return null;
  const rule = units[unit];
  if (!rule) return `${unit} declares no public files (test/helpers/boundaries/rules.ts)`;
  const file = to.slice(unit.length);
  const open = rule.public.includes('*') && !file.endsWith('.repo.ts');
  if (open || rule.public.includes(file) || (isRoot(from) && rule.root?.includes(file))) return null;
  const publicFiles = rule.public.length === 0 ? 'none' : rule.public.join(', ');
  const wiring = rule.root ? `; the composition root also: ${rule.root.join(', ')}` : '';
  return `not a public file of ${unit} (public: ${publicFiles}${wiring})`;
}

/** (e) An import of another unit's file that unit does not declare public (or, for the root, wiring). */
export function privateImports(imports: Import[], units = UNITS): string[] {
  return imports.flatMap((i) => {
    if (!i.from.startsWith('src/')) return [];
    const why = refusal(i.from, i.to, units);
    return why ? [`${i.from}:${i.line} imports ${i.specifier}: ${why}`] : [];
  });
}

/** The folder of OUTSIDE a file of clients/ or scripts/ belongs to. */
function outsideFolderOf(path: string, outside: typeof OUTSIDE): string | undefined {
  return Object.keys(outside).find((f) => path.startsWith(f));
}

/** (f) clients/ and scripts/: imports outside their own folder only of what OUTSIDE lists. */
export function outsideImports(imports: Import[], outside = OUTSIDE): string[] {
  return imports.flatMap((i) => {
    if (i.from.startsWith('src/')) return [];
    const folder = outsideFolderOf(i.from, outside);
    if (!folder) return [`${i.from}:${i.line} imports ${i.specifier}: its folder is not declared in OUTSIDE`];
    if (i.to.startsWith(folder)) return [];
    const allowed = outside[folder]?.imports ?? [];
    if (allowed.some((a) => (a.endsWith('/') ? i.to.startsWith(a) : i.to === a))) return [];
    const rule =
      allowed.length === 0 ? 'imports nothing outside itself' : `may import only ${allowed.join(', ')}`;
    return [`${i.from}:${i.line} imports ${i.specifier}: ${folder} ${rule}`];
  });
}

/** The tables a file may read beyond its owner's: its unit's (or folder's) declared read models. */
function readModelsOf(file: string, units: Record<string, UnitRule>, outside: typeof OUTSIDE): string[] {
  const folder = file.startsWith('src/') ? declaredUnitOf(file) : outsideFolderOf(file, outside);
  if (!folder) return [];
  const reads = file.startsWith('src/') ? units[folder]?.reads : outside[folder]?.reads;
  return reads?.[file.slice(folder.length)] ?? [];
}

export interface TableRules {
  owners?: Record<string, string>;
  units?: Record<string, UnitRule>;
  outside?: typeof OUTSIDE;
  locks?: typeof LOCK_EXCEPTIONS;
}

/**
 * (g) Writes and row locks of a table only from its owner's folder (a lock of LOCK_EXCEPTIONS
 * aside); reads of another owner's table only from a declared read model; no unnamed table.
 */
export function tableViolations(uses: TableUse[], rules: TableRules = {}): string[] {
  const { owners = OWNERS, units = UNITS, outside = OUTSIDE, locks = LOCK_EXCEPTIONS } = rules;
  return uses.flatMap((u) => {
    const where = `${u.file}:${u.line}`;
    const owner = owners[u.table];
    if (!owner)
      return [`${where} ${u.how} ${u.table}: a table without an owner (an alias, or not in OWNERS)`];
    if (u.file.startsWith(owner)) return [];
    if (u.access === 'lock' && locks.some((l) => l.file === u.file && l.table === u.table)) return [];
    if (u.access === 'read' && readModelsOf(u.file, units, outside).includes(u.table)) return [];
    const verb = { write: 'writes', lock: 'locks', read: 'reads' }[u.access];
    const hint = u.access === 'read' ? ', not a declared read model' : '';
    return [`${where} ${verb} ${u.table} (${u.how}; owned by ${owner}${hint})`];
  });
}

/**
 * Declarations that no longer match the tree: a public or root file that does not exist, a
 * declared read no file makes, a lock exception no lock uses. A stale entry would widen the rule.
 */
export function staleDeclarations(files: Set<string>, uses: TableUse[], rules: TableRules = {}): string[] {
  const { units = UNITS, outside = OUTSIDE, locks = LOCK_EXCEPTIONS } = rules;
  const out: string[] = [];
  for (const [unit, rule] of Object.entries(units)) {
    for (const f of [...rule.public, ...(rule.root ?? [])].filter((f) => f !== '*')) {
      if (!files.has(unit + f)) out.push(`${unit}${f}: declared public, no such file`);
      if (f.endsWith('.repo.ts')) out.push(`${unit}${f}: a repo is never public`);
    }
  }
  const made = new Set(uses.filter((u) => u.access === 'read').map((u) => `${u.file} ${u.table}`));
  const declared = [...Object.entries(units), ...Object.entries(outside)].flatMap(([unit, rule]) =>
    Object.entries(rule.reads ?? {}).flatMap(([file, tables]) => tables.map((t) => `${unit}${file} ${t}`)),
  );
  out.push(...declared.filter((d) => !made.has(d)).map((d) => `${d}: declared read model, no such read`));
  const locked = new Set(uses.filter((u) => u.access === 'lock').map((u) => `${u.file} ${u.table}`));
  for (const l of locks) {
    if (!locked.has(`${l.file} ${l.table}`)) out.push(`${l.file} ${l.table}: lock exception, no such lock`);
  }
  return out;
}
