import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The source the boundary check reads: one TypeScript program over `src`, `clients` and `scripts`
 * with the repository's own compiler options (tsconfig.json), so an import is resolved the way
 * the compiler resolves it (a `paths` alias, a package `imports` entry, a `.js` suffix), and the
 * type checker names the table behind any expression (the program reads drizzle-orm's declarations
 * and no other package's: see `cachedHost`). A broken tree for the check's own tests is
 * the same program over files held in memory (`virtualTree`).
 */

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The folders whose files are checked, relative to the root. */
export const CHECKED = ['src/', 'clients/', 'scripts/'];

export interface Tree {
  /** Absolute; every path the check reports is relative to it, with forward slashes. */
  root: string;
  program: ts.Program;
  checker: ts.TypeChecker;
  /** The checked files (under CHECKED, no declaration files, no build output), by relative path. */
  files: Map<string, ts.SourceFile>;
  /** How the compiler resolves a module name (the tree's options and host). */
  resolve(specifier: string, fromAbsolute: string): string | undefined;
}

/** Library and node_modules files parsed once and shared by every program of a test run. */
const shared = new Map<string, ts.SourceFile>();

function cachedHost(
  options: ts.CompilerOptions,
  inMemory: Map<string, string>,
  root: string,
  cache: ts.ModuleResolutionCache,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const mine = (f: string) => f.startsWith(`${root}/`);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (inMemory.size > 0 && mine(f) ? inMemory.get(f) : readFile(f));
  host.fileExists = (f) => (inMemory.size > 0 && mine(f) ? inMemory.has(f) : fileExists(f));
  host.directoryExists = (d) =>
    inMemory.size > 0 && (d === root || mine(d))
      ? [...inMemory.keys()].some((f) => f.startsWith(`${d}/`))
      : (directoryExists?.(d) ?? true);
  host.getSourceFile = (f, lang, onError) => {
    if (inMemory.size > 0 && mine(f)) {
      const text = inMemory.get(f);
      return text === undefined ? undefined : ts.createSourceFile(f, text, lang, true);
    }
    const inRepo = f.startsWith(ROOT) && !f.includes('/node_modules/');
    if (inRepo) return getSourceFile(f, lang, onError, false);
    const hit = shared.get(f);
    if (hit) return hit;
    const parsed = getSourceFile(f, lang, onError, false);
    if (parsed) shared.set(f, parsed);
    return parsed;
  };
  // The program holds the tree's files, drizzle-orm's declarations and what those import; any other
  // package a file imports stays unresolved (its values are typed `any`). Only drizzle's types name
  // a table, and the other packages' declarations (Octokit's alone are 10 MB, viem's and the MCP
  // SDK's follow) were half of the check's CPU: 18.6 s with them, 9.4 s without, same findings.
  // The price: a table handed through another package's generic function is not followed (the
  // result is `any`); no file does that, and the findings above were compared use for use.
  // Imports are found by `Tree.resolve`, which resolves everything (through the same cache).
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, containingSf) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSf, literal, opts);
      const found = ts.resolveModuleName(literal.text, containingFile, opts, host, cache, redirected, mode);
      const to = found.resolvedModule?.resolvedFileName ?? '';
      const intoPackage = !containingFile.includes('/node_modules/') && to.includes('/node_modules/');
      return intoPackage && !to.includes('/node_modules/drizzle-orm/')
        ? { resolvedModule: undefined }
        : found;
    });
  return host;
}

function makeTree(
  root: string,
  rootNames: string[],
  options: ts.CompilerOptions,
  inMemory: Map<string, string>,
): Tree {
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  const host = cachedHost(options, inMemory, root, cache);
  const program = ts.createProgram({ rootNames, options, host });
  const files = new Map<string, ts.SourceFile>();
  for (const sf of program.getSourceFiles()) {
    const path = relative(root, sf.fileName).split('\\').join('/');
    if (!CHECKED.some((d) => path.startsWith(d)) || sf.isDeclarationFile || /(^|\/)dist\//.test(path))
      continue;
    if (path.includes('/node_modules/')) continue;
    files.set(path, sf);
  }
  const resolve = (specifier: string, from: string) =>
    ts.resolveModuleName(specifier, from, options, host, cache, undefined, ts.ModuleKind.ESNext)
      .resolvedModule?.resolvedFileName;
  return { root, program, checker: program.getTypeChecker(), files, resolve };
}

/** The compiler options of the repository's tsconfig.json, plus JavaScript for the `.mjs` scripts. */
function repoOptions(): { options: ts.CompilerOptions; fileNames: string[] } {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json: unreadable');
  return {
    // No ambient @types/node (2.3 MB): no table's type passes through it.
    options: { ...parsed.options, allowJs: true, checkJs: false, noEmit: true, types: [] },
    fileNames: parsed.fileNames,
  };
}

function listMjs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const full = join(dir, e.name);
    if (e.isDirectory()) return listMjs(full);
    return e.name.endsWith('.mjs') ? [full] : [];
  });
}

/** The repository's own tree. */
export function repoTree(): Tree {
  const { options, fileNames } = repoOptions();
  const inScope = (f: string) => CHECKED.some((d) => relative(ROOT, f).split('\\').join('/').startsWith(d));
  const roots = [...fileNames.filter(inScope), ...CHECKED.flatMap((d) => listMjs(join(ROOT, d)))];
  return makeTree(ROOT, roots, options, new Map());
}

/**
 * A tree held in memory (relative path -> text) under a directory of the repository that does not
 * exist, so `drizzle-orm` and the other packages resolve from the repository's node_modules.
 * `extra` adds compiler options (a `paths` alias).
 */
export function virtualTree(files: Record<string, string>, extra: ts.CompilerOptions = {}): Tree {
  const root = join(ROOT, '.boundaries-broken-tree');
  const inMemory = new Map(Object.entries(files).map(([p, text]) => [join(root, p), text]));
  const { options } = repoOptions();
  return makeTree(root, [...inMemory.keys()], { ...options, types: [], ...extra, baseUrl: root }, inMemory);
}

/** The 1-based line of a node, for messages. */
export function lineOf(node: ts.Node): number {
  const sf = node.getSourceFile();
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}
